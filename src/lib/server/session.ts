/**
 * The sealed-cookie session. Everything the server must remember between requests (setup, client
 * secret, pending state, code, tokens) is encrypted and authenticated into HttpOnly cookies: a JWE
 * with `dir` + A256GCM (jwe.ts). Any instance with the key can serve any request; a restart loses nothing.
 * Large sessions are split over several cookies of at most ~3.5 KB each.
 */
import { error, type Cookies } from '@sveltejs/kit';
import type { Setup } from '$lib/oauth/setup';
import type { TokenSet } from '$lib/oauth/token-set';
import type { Exchange } from '$lib/exchange/types';
import { sessionKeys } from '$lib/keys.server';
import { openJwe, sealJwe } from './jwe';

export const COOKIE = 'pg_session';
const CHUNK = 3500;
const MAX_CHUNKS = 8;
/**
 * The most a sealed session may take. Browsers send every cookie back on every request, and Node
 * refuses request headers over 16 KB (431), which would lock the browser out of the playground
 * until its cookies were cleared; 12,000 bytes leaves room for the rest of the request.
 */
export const MAX_SEALED_BYTES = 12_000;
/** A session older than this is dropped: a day of trying things is plenty. */
const MAX_AGE_S = 24 * 3600;

export interface CallbackRecord {
	/** Every query parameter as received, in order (iss and other extras included). */
	params: [string, string][];
	saved_state?: string;
	returned_state?: string;
	verdict: 'code' | 'error' | 'state-mismatch' | 'no-pending-state' | 'malformed';
	detail?: string;
	error?: string;
	error_description?: string;
	error_uri?: string;
	received_at: number;
}

export interface Session {
	v: 1;
	setup?: Setup;
	client_secret?: string;
	/** The consent request waiting for its redirect back. */
	pending?: {
		state: string;
		consent_url: string;
		redirect_uri: string;
		scope: string;
		created_at: number;
	};
	callback?: CallbackRecord;
	/** A code that passed the state check and is waiting to be exchanged. Single use. */
	code?: { value: string; redirect_uri: string; scope: string };
	/** The token set as the page sees it: built from the redacted token response (tokens.ts). */
	tokens?: TokenSet;
	/** The real tokens, kept only when redaction changed the shown ones (a token that held the secret). */
	token_values?: { access_token: string; refresh_token?: string };
	/** Exchanges recorded by a redirect (the callback), handed to the tab's transcript on the next page load. */
	outbox?: Exchange[];
	/** Set when the session was read but found broken (explained once on the page). */
	notice?: string;
}

export const emptySession = (): Session => ({ v: 1 });

function chunkName(i: number): string {
	return i === 0 ? COOKIE : `${COOKIE}.${i}`;
}

export async function seal(session: Session): Promise<string> {
	const data = new TextEncoder().encode(
		JSON.stringify({ ...session, iat: Math.floor(Date.now() / 1000) })
	);
	return sealJwe(data, sessionKeys()[0]!);
}

export type Opened = { ok: true; session: Session } | { ok: false; reason: string };

export async function open(token: string): Promise<Opened> {
	for (const key of sessionKeys()) {
		const plaintext = openJwe(token, key);
		if (!plaintext) continue; // try the next key
		try {
			const parsed = JSON.parse(new TextDecoder().decode(plaintext)) as Session & { iat?: number };
			// Stryker disable next-line OptionalChaining: a null payload then throws inside this try, and the catch refuses it as well (only the reason's wording differs)
			if (parsed?.v !== 1)
				return {
					ok: false,
					reason: 'The session cookie is from an older version of the playground.'
				};
			if (typeof parsed.iat === 'number' && Date.now() / 1000 - parsed.iat > MAX_AGE_S)
				return { ok: false, reason: 'The session had expired (older than a day).' };
			delete parsed.iat;
			// Stryker disable BlockStatement: emptying the catch below goes on to the other keys, which cannot open this token, so it is refused all the same (only the reason's wording differs)
			return { ok: true, session: parsed };
		} catch {
			// Stryker restore BlockStatement
			return { ok: false, reason: 'The session cookie could not be read.' };
		}
	}
	return {
		ok: false,
		reason:
			'The session cookie could not be read: it was changed, or sealed with a key this server does not hold. A fresh session was started.'
	};
}

/** Reads the session from the request cookies. A missing cookie is an empty session; a broken one is an empty session with a notice. */
export async function readSession(cookies: Cookies): Promise<Session> {
	const parts: string[] = [];
	for (let i = 0; i < MAX_CHUNKS; i++) {
		const v = cookies.get(chunkName(i));
		if (v === undefined) break;
		parts.push(v);
	}
	if (parts.length === 0) return emptySession();
	const opened = await open(parts.join(''));
	return opened.ok ? opened.session : { v: 1, notice: opened.reason };
}

export async function writeSession(
	cookies: Cookies,
	session: Session,
	secure: boolean
): Promise<void> {
	const { notice: _notice, ...rest } = session;
	const sealed = await seal(rest);
	if (sealed.length > MAX_SEALED_BYTES)
		error(
			400,
			`This would make the session ${sealed.length} bytes, too large to keep in a cookie (at most ${MAX_SEALED_BYTES}). Shorten the longest setup fields; nothing was saved.`
		);
	const chunks: string[] = [];
	for (let i = 0; i < sealed.length; i += CHUNK) chunks.push(sealed.slice(i, i + CHUNK));
	const opts = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: MAX_AGE_S };
	chunks.forEach((c, i) => cookies.set(chunkName(i), c, opts));
	for (let i = chunks.length; i < MAX_CHUNKS; i++)
		if (cookies.get(chunkName(i)) !== undefined) cookies.delete(chunkName(i), { path: '/' });
}

export function clearSession(cookies: Cookies): void {
	for (let i = 0; i < MAX_CHUNKS; i++)
		if (cookies.get(chunkName(i)) !== undefined) cookies.delete(chunkName(i), { path: '/' });
}
