/**
 * The sealed-cookie session. Everything the server must remember between requests (setup, client
 * secret, pending state, code, tokens) is encrypted and authenticated into HttpOnly cookies: a JWE
 * with `dir` + A256GCM (jwe.ts). Any instance with the key can serve any request; a restart loses nothing.
 * Large sessions are split over several cookies of at most ~3.5 KB each.
 *
 * Cookies the playground did not set are ignored, never a logout: cookies don't separate ports, and a
 * sibling host can set one for a shared parent domain, so the request may carry another app's
 * `pg_session`, a stray chunk, garbage, or the same name twice. Of every way to put the chunks
 * together, the newest session that opens is used. Under https the cookies carry the `__Host-`
 * prefix (Secure, Path=/, no Domain: no other host can set them) and plain names are not read.
 */
import { error, type Cookies } from '@sveltejs/kit';
import { getRequestEvent } from '$app/server';
import type { Setup } from '$lib/oauth/setup';
import type { SecretBinding } from '$lib/oauth/secret-binding';
import type { TokenSet } from '$lib/oauth/token-set';
import type { Exchange } from '$lib/exchange/types';
import type { IssuerVerdict } from '$lib/oauth/issuer';
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
	/** The `iss` check of RFC 9207 (callback-trust.ts), for a redirect whose state matched. */
	iss?: IssuerVerdict;
	/** The user chose "Exchange anyway" after the issuer check held the code back. */
	exchanged_anyway?: boolean;
	received_at: number;
}

export interface Session {
	v: 1;
	setup?: Setup;
	client_secret?: string;
	/** What the secret was entered for (oauth/secret-binding.ts): it is sent only while the setup matches. */
	secret_for?: SecretBinding;
	/** The preset this setup is, while its client id and the URLs that receive the secret are unchanged. */
	preset?: string;
	/** Why the secret was dropped, said at the secret field until a secret is set again. */
	secret_note?: string;
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
	code?: {
		value: string;
		redirect_uri: string;
		scope: string;
		/** Held back: the issuer check failed; only "Exchange anyway" exchanges it. */
		held?: 'issuer';
	};
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

/** A cookie's name as the playground sets it: with the `__Host-` prefix under https. */
export function cookieName(name: string, https: boolean): string {
	return https ? `__Host-${name}` : name;
}

function chunkName(i: number, https: boolean): string {
	return cookieName(i === 0 ? COOKIE : `${COOKIE}.${i}`, https);
}

/** What readSession needs of the request beyond `Cookies`, which keeps only the first of a name. */
export interface CookieSource {
	/** The raw Cookie header. */
	header: string;
	https: boolean;
}

/** The current request's cookie header and scheme (none outside a request). */
function currentRequest(): CookieSource | undefined {
	try {
		const { request, url } = getRequestEvent();
		return { header: request.headers.get('cookie') ?? '', https: url.protocol === 'https:' };
	} catch {
		return undefined;
	}
}

/** Every value each name has in a Cookie header, in the order sent, decoded as `Cookies` decodes. */
export function cookieValues(header: string): Map<string, string[]> {
	const values = new Map<string, string[]>();
	for (const pair of header.split(';')) {
		const i = pair.indexOf('=');
		if (i === -1) continue;
		const name = pair.slice(0, i).trim();
		let value = pair.slice(i + 1).trim();
		if (value.startsWith('"') && value.endsWith('"') && value.length > 1)
			value = value.slice(1, -1);
		// Decoded as SvelteKit's `Cookies` decodes, so the two can be compared.
		if (value.includes('%'))
			try {
				value = decodeURIComponent(value);
			} catch {
				/* kept as sent */
			}
		const list = values.get(name);
		if (list) list.push(value);
		else values.set(name, [value]);
	}
	return values;
}

/** The most ways of joining chunks tried on one request (each is one AES-GCM check per key). */
const MAX_CANDIDATES = 64;

/**
 * The sealed tokens the chunk values can make, longest first: chunk 0, then 0+1, … as far as
 * every chunk up to it has a value; with duplicates, every combination (at most MAX_CANDIDATES).
 */
export function candidateTokens(chunks: string[][]): string[] {
	let count = 0;
	while (count < chunks.length && chunks[count]!.length) count++;
	const out: string[] = [];
	for (let n = count; n >= 1; n--) {
		const walk = (i: number, prefix: string) => {
			if (out.length >= MAX_CANDIDATES) return;
			if (i === n) {
				out.push(prefix);
				return;
			}
			for (const v of new Set(chunks[i])) walk(i + 1, prefix + v);
		};
		walk(0, '');
	}
	return out;
}

export async function seal(session: Session): Promise<string> {
	const data = new TextEncoder().encode(
		JSON.stringify({ ...session, iat: Math.floor(Date.now() / 1000) })
	);
	return sealJwe(data, sessionKeys()[0]!);
}

export type Opened = { ok: true; session: Session } | { ok: false; reason: string };

export async function open(token: string): Promise<Opened> {
	const opened = await openSealed(token);
	if (!opened.ok) return opened;
	const { iat: _iat, ...session } = opened.session;
	return { ok: true, session };
}

async function openSealed(
	token: string
): Promise<{ ok: true; session: Session & { iat?: number } } | { ok: false; reason: string }> {
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

/**
 * Reads the session from the request cookies. A missing cookie is an empty session; when several
 * ways to join the chunks open (a foreign cookie of the same name, a stray chunk), the newest session
 * is used; when none opens, an empty session with the notice of the most complete one.
 * `source` is the current request's raw Cookie header and scheme (given by tests).
 */
export async function readSession(
	cookies: Cookies,
	source: CookieSource | undefined = currentRequest()
): Promise<Session> {
	const https = source?.https ?? false;
	const names = Array.from({ length: MAX_CHUNKS }, (_, i) => chunkName(i, https));
	const sent = source ? cookieValues(source.header) : undefined;
	// Cookies this request already set (a form posted without script: the action saved, then the
	// page loads) are the playground's own: then read them as `Cookies` gives them.
	const all = sent && names.every((n) => cookies.get(n) === sent.get(n)?.[0]) ? sent : undefined;
	const chunks = names.map((name) => {
		if (all) return (all.get(name) ?? []).filter(Boolean); // an emptied cookie is no cookie
		const one = cookies.get(name);
		return one ? [one] : [];
	});
	const tokens = candidateTokens(chunks);
	if (tokens.length === 0) return emptySession();
	let best: (Session & { iat?: number }) | undefined;
	let firstFailure: string | undefined;
	for (const token of tokens) {
		const opened = await openSealed(token);
		if (!opened.ok) firstFailure ??= opened.reason;
		else if (!best || (opened.session.iat ?? 0) > (best.iat ?? 0)) best = opened.session;
	}
	if (!best) return { v: 1, notice: firstFailure };
	const { iat: _iat, ...session } = best;
	return session;
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
	chunks.forEach((c, i) => cookies.set(chunkName(i, secure), c, opts));
	for (let i = chunks.length; i < MAX_CHUNKS; i++)
		if (cookies.get(chunkName(i, secure)) !== undefined)
			cookies.delete(chunkName(i, secure), { path: '/', secure });
}

export function clearSession(
	cookies: Cookies,
	https: boolean = currentRequest()?.https ?? false
): void {
	for (let i = 0; i < MAX_CHUNKS; i++)
		if (cookies.get(chunkName(i, https)) !== undefined)
			cookies.delete(chunkName(i, https), { path: '/', secure: https });
}
