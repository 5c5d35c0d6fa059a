/**
 * The sealed-cookie flows. A browser runs any number of flows, one per tab, each with its id in the
 * tab's address (`/?flow=<id>`, oauth/flow-id.ts). Everything the server must remember of a flow
 * between requests (setup, client secret, pending state, code, tokens) is encrypted and
 * authenticated into its own HttpOnly cookies, `pg_flow_<id>`: a JWE with `dir` + A256GCM (jwe.ts).
 * A request reads and writes only its own flow's cookies, so two tabs posting at once both keep
 * their results. Any instance with the key can serve any request; a restart loses nothing. Large
 * flows are split over several cookies of at most ~3.5 KB each, and all of them together stay under
 * a byte cap (flow-cap.ts): the least recently used flows make room for the one being written.
 *
 * Cookies the playground did not set are ignored, never a logout: cookies don't separate ports, and a
 * sibling host can set one for a shared parent domain, so the request may carry another app's
 * `pg_flow_<id>`, a stray chunk, garbage, or the same name twice. Of every way to put the chunks
 * together, the newest session that opens is used. The cookies of earlier versions (`pg_session`,
 * one per browser) are deleted when seen. Under https the cookies carry the `__Host-` prefix (Secure, Path=/, no Domain: no other host can set them) and plain names are not read.
 */
import { error, type Cookies } from '@sveltejs/kit';
import { SETUP_DEFAULTS, type Setup } from '$lib/oauth/setup';
import type { SecretBinding } from '$lib/oauth/secret-binding';
import type { TokenBinding, VouchedOrigins } from '$lib/oauth/token-binding';
import type { TokenSet } from '$lib/oauth/token-set';
import type { Exchange } from '$lib/exchange/types';
import type { IssuerVerdict } from '$lib/oauth/issuer';
import type { Base } from '$lib/base.server';
import { openJwe, sealJwe } from './jwe';
import { flowParam } from '$lib/oauth/flow-id';
import {
	closedNotice,
	cookieBytes,
	droppedNotice,
	FLOW_BUDGET,
	flowsThatFit,
	flowsToDrop,
	formatDropped,
	MAX_COOKIE_BYTES,
	parseDropped,
	RESERVED_BYTES,
	updateDropped,
	type Dropped,
	type FlowSize
} from './flow-cap';

/** A flow's cookie is `pg_flow_<id>`, its chunks `pg_flow_<id>.1`, … (flow-id.ts gives the id's shape). */
export const FLOW_COOKIE = 'pg_flow_';
/** The one-session-per-browser cookies of earlier versions: deleted when seen. */
const LEGACY_COOKIE = 'pg_session';
/** The ids of flows dropped to make room (flow-cap.ts): plain, nothing secret. */
export const DROPPED_COOKIE = 'pg_dropped';
/**
 * A flow's sealed text is cut into cookies of CHUNK characters, at most MAX_CHUNKS of them, the
 * names the reader knows. FLOW_BUDGET is met long before that (a unit test holds the two apart), so
 * the budget is the only check made when writing.
 */
export const CHUNK = 3500;
export const MAX_CHUNKS = 8;
/** A session older than this is dropped: a day of trying things is plenty. */
const MAX_AGE_S = 24 * 3600;
/** The most flows one request opens (the callback opens them all). */
const MAX_FLOWS_READ = 64;
/** How many used or replaced states a flow remembers, so that their redirects are not called forged. */
export const RECENT_STATES = 4;

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
	/** It answers a consent opened with "Get a code for the script": no automatic exchange. */
	for_script?: true;
	received_at: number;
}

/** A consent request waiting for its redirect back. */
export interface PendingConsent {
	state: string;
	consent_url: string;
	redirect_uri: string;
	scope: string;
	created_at: number;
	/** The PKCE verifier (RFC 7636 §4.1): stays on the server until the code exchange sends it. */
	code_verifier?: string;
	/** The PKCE method whose challenge the consent URL carries. */
	code_challenge_method?: 'S256' | 'plain';
	/** The pushed request's handle (RFC 9126 §2.2), when the consent URL carries one. */
	request_uri?: string;
	/** When that handle expires (ms since the epoch). */
	request_uri_expires_at?: number;
	/** Opened with "Get a code for the script": its code comes back shown, not exchanged. */
	for_script?: true;
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
	pending?: PendingConsent;
	callback?: CallbackRecord;
	/** A code that passed the state check and is waiting to be exchanged. Single use. */
	code?: {
		value: string;
		redirect_uri: string;
		scope: string;
		/** Sent once already, by an exchange whose connection closed before any answer. */
		sent?: true;
		/** Held back: the issuer check failed; only "Exchange anyway" exchanges it. */
		held?: 'issuer';
		/** The PKCE verifier of the consent request this code answers (RFC 7636 §4.5). Never shown unredacted. */
		code_verifier?: string;
		/** The S256 challenge that consent request's URL carried: the second judge checks the pair (RFC 7636 §4.6). */
		code_challenge?: string;
	};
	/**
	 * The last code this flow exchanged for tokens, with the setup it was exchanged under: only it
	 * may be replayed on purpose ("Replay this code", replay.ts), in a fork of the flow.
	 */
	spent?: NonNullable<Session['code']> & { setup_id?: string };
	/** This flow is a fork (fork.ts): the flow it was made from, and what made it. */
	fork_of?: ForkOf;
	/**
	 * What a fork of this flow found about the tokens both held: revoked (its `ForkOf.revoked`), by a
	 * replay of their code or a try of a superseded refresh token. Recorded here by the try itself,
	 * so that it outlives the fork, closed or dropped to make room; said only while this flow holds
	 * that same set (`TokenSet.obtained_at`).
	 */
	fork_found?: { by: ForkOf['by']; revoked: number };
	/**
	 * The token set (`TokenSet.obtained_at`) whose refresh token a fork's try superseded: the fork's
	 * refresh replaced it (`ForkOf.superseded`). This flow's refreshes are held while it holds that
	 * set, until it takes the fork's tokens or closes the fork; a fork dropped to make room leaves
	 * them held, as the token is still superseded (fork.ts `refreshHold`).
	 */
	fork_superseded?: number;
	/** The token set as the page sees it: built from the redacted token response (tokens.ts). */
	tokens?: TokenSet;
	/**
	 * The refresh token a refresh of this flow replaced (the service rotated it): its real value, when
	 * it was replaced and by which exchange, under which setup. Only it may be sent again on purpose
	 * ("Replay the previous refresh token", replay.ts), in a fork of the flow.
	 */
	previous_refresh?: { value: string; replaced_at: number; by: string; setup_id?: string };
	/** The real tokens, kept only when redaction changed the shown ones (a token that held the secret). */
	token_values?: { access_token: string; refresh_token?: string };
	/** The origins the tokens were issued for (oauth/token-binding.ts): the access token goes nowhere else. */
	tokens_for?: TokenBinding;
	/** Why a save dropped the tokens, said at the tokens until new ones come. */
	token_note?: string;
	/** What the issuer's verified metadata (RFC 8414 §3.3) named, from the last "Fill from metadata". */
	metadata_for?: VouchedOrigins;
	/** Exchanges recorded by a redirect (the callback), handed to the tab's transcript on the next page load. */
	outbox?: Exchange[];
	/** States this flow used or replaced, newest first (at most RECENT_STATES): a redirect that carries one is stale, not forged. */
	recent_states?: string[];
	/** Set when the session was read but found broken (explained once on the page). */
	notice?: string;
	/**
	 * The issuer whose metadata said it sends `iss` on every redirect back
	 * (`authorization_response_iss_parameter_supported`, RFC 9207 §3), kept while the setup's issuer is it.
	 */
	iss_param_for?: string;
	/** Set when this flow was dropped to make room for newer ones (never sealed). */
	dropped?: true;
}

/**
 * What a fork records of its parent: the flow's id, and what made the fork (`code`: "Replay this
 * code"; `refresh`: "Replay the previous refresh token"; replay.ts). The parent records nothing: it
 * finds its fork among the browser's flows.
 */
export interface ForkOf {
	flow: string;
	by: 'code' | 'refresh';
	/**
	 * A try of the previous refresh token whose refresh gave the fork new tokens: the parent's
	 * refresh token is superseded by them, and the parent holds its refreshes while the fork exists.
	 */
	superseded?: true;
	/**
	 * The fork's check found the access token it shares with the parent refused (401): the service
	 * revoked the tokens both hold. The time they were received (`TokenSet.obtained_at`), so the
	 * parent says so only while it holds that same set.
	 */
	revoked?: number;
}

export const emptySession = (): Session => ({ v: 1 });

/** A cookie's name as the playground sets it: with the `__Host-` prefix under https. */
export function cookieName(name: string, https: boolean): string {
	return https ? `__Host-${name}` : name;
}

function chunkName(flow: string, i: number, https: boolean): string {
	return cookieName(i === 0 ? `${FLOW_COOKIE}${flow}` : `${FLOW_COOKIE}${flow}.${i}`, https);
}

/** What seals and opens a flow: the app's session keys (the first seals, all open) and its clock. */
export type Keyring = Pick<Base, 'keys' | 'clock'>;

/**
 * What readSession needs of the request beyond `Cookies`, which keeps only the first of a name,
 * and the app's keys to open what it reads. The wrapper that opens a flow builds it from the
 * request (`cookieSource`) and hands it down.
 */
export interface CookieSource extends Keyring {
	/** The raw Cookie header. */
	header: string;
	https: boolean;
	/** The flow read or written: the request's `?flow=` (flow-id.ts), or the one the callback found. */
	flow?: string;
}

/**
 * A request's cookie header, scheme and flow id, with the keys and clock of the app serving it.
 * The one place that decides which flow a request reads and writes: its `?flow=` query parameter.
 */
export function cookieSource(ring: Keyring, url: URL, headers: Headers): CookieSource {
	const flow = flowParam(url.searchParams);
	return {
		keys: ring.keys,
		clock: ring.clock,
		// Stryker disable next-line StringLiteral: with no Cookie header, any text without "=" is no cookie as well
		header: headers.get('cookie') ?? '',
		https: url.protocol === 'https:',
		flow: flow.ok ? flow.id : undefined
	};
}

/** A playground cookie's name, split: a flow's chunk (0–7) or an old session; other names are not a flow's. */
function ownCookie(name: string, https: boolean): { flow: string } | 'legacy' | undefined {
	const prefix = https ? '__Host-' : '';
	if (!name.startsWith(prefix)) return undefined;
	const bare = name.slice(prefix.length);
	const m = /^pg_flow_([A-Za-z0-9_-]{16})(?:\.[1-7])?$/.exec(bare);
	if (m) return { flow: m[1]! };
	if (bare === LEGACY_COOKIE || /^pg_session\.\d+$/.test(bare)) return 'legacy';
	return undefined;
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

/**
 * The setup as sealed: fields at their default are left out, so a cookie pays only for what was
 * set. Opening puts the defaults back, which also gives a setup sealed before a field existed its
 * default.
 */
function compactSetup(setup: Setup): Partial<Setup> {
	const defaults: Readonly<Record<string, unknown>> = SETUP_DEFAULTS;
	return Object.fromEntries(
		Object.entries(setup).filter(([k, v]) => !Object.hasOwn(defaults, k) || defaults[k] !== v)
	);
}

/**
 * Seals one flow's session for its cookie. `f` binds the sealed value to the flow it is stored under:
 * a value tossed under another flow's name (cookies don't separate ports, so over plain http another
 * port of the same host can set one) opens nothing there.
 */
export async function seal(session: Session, flow: string, ring: Keyring): Promise<string> {
	// `iat` (seconds) dates the session; `t` (milliseconds) orders flows for the cap's eviction.
	const now = ring.clock();
	const sealed = session.setup ? { ...session, setup: compactSetup(session.setup) } : session;
	const data = new TextEncoder().encode(
		JSON.stringify({ ...sealed, f: flow, iat: Math.floor(now / 1000), t: now })
	);
	return sealJwe(data, ring.keys[0]!);
}

export type Opened = { ok: true; session: Session } | { ok: false; reason: string };

/** Opens a sealed value stored under `flow`'s name: one sealed for another flow does not open. */
export async function open(token: string, flow: string, ring: Keyring): Promise<Opened> {
	const opened = await openSealed(token, flow, ring);
	if (!opened.ok) return opened;
	const { iat: _iat, t: _t, ...session } = opened.session;
	return { ok: true, session };
}

type SealedStamps = { iat?: number; t?: number; f?: unknown; replay_of?: unknown };

async function openSealed(
	token: string,
	flow: string,
	ring: Keyring
): Promise<{ ok: true; session: Session & SealedStamps } | { ok: false; reason: string }> {
	for (const key of ring.keys) {
		const plaintext = openJwe(token, key);
		if (!plaintext) continue; // try the next key
		try {
			const parsed = JSON.parse(new TextDecoder().decode(plaintext)) as Session & SealedStamps;
			if (parsed.v !== 1)
				return {
					ok: false,
					reason: 'The session cookie is from an older version of the playground.'
				};
			if (parsed.f === undefined)
				return {
					ok: false,
					reason:
						'The session cookie was sealed by an earlier version of the playground, before a cookie named its flow. A fresh flow was started.'
				};
			if (parsed.f !== flow)
				return {
					ok: false,
					reason:
						"A cookie under this flow's name was sealed for another flow (another site on this host may have set it). It was not opened: a fresh flow was started."
				};
			if (typeof parsed.iat === 'number' && ring.clock() / 1000 - parsed.iat > MAX_AGE_S)
				return { ok: false, reason: 'The session had expired (older than a day).' };
			delete parsed.f;
			if (parsed.setup) parsed.setup = { ...SETUP_DEFAULTS, ...parsed.setup };
			// A fork sealed before forks said what made them named only its parent.
			if (typeof parsed.replay_of === 'string') {
				parsed.fork_of ??= { flow: parsed.replay_of, by: 'code' };
				delete parsed.replay_of;
			}
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
 * Reads one flow from the request cookies (the request's `?flow=`, or `source.flow`). A missing
 * cookie is an empty session (with a notice when the flow was dropped to make room); when several
 * ways to join the chunks open (a foreign cookie of the same name, a stray chunk), the newest
 * session is used; when none opens, an empty session with the notice of the most complete one.
 * `source` is the request's raw Cookie header, scheme and flow.
 */
export async function readSession(cookies: Cookies, source: CookieSource): Promise<Session> {
	const opened = await openFlow(cookies, source);
	if (opened.session) return opened.session;
	return emptySession();
}

async function openFlow(
	cookies: Cookies,
	source: CookieSource
): Promise<{ session?: Session; usedAt?: number }> {
	if (!source.flow) return {};
	const { flow, https } = source;
	const names = Array.from({ length: MAX_CHUNKS }, (_, i) => chunkName(flow, i, https));
	const sent = cookieValues(source.header);
	// Cookies this request already set (a form posted without script: the action saved, then the
	// page loads) are the playground's own: then read them as `Cookies` gives them.
	const all = names.every((n) => cookies.get(n) === sent.get(n)?.[0]) ? sent : undefined;
	const chunks = names.map((name) => {
		if (all) return (all.get(name) ?? []).filter(Boolean); // an emptied cookie is no cookie
		const one = cookies.get(name);
		return one ? [one] : [];
	});
	const tokens = candidateTokens(chunks);
	if (tokens.length === 0) {
		const dropped = droppedList(cookies, source).find((d) => d.id === flow);
		if (!dropped) return {};
		const notice = dropped.closed ? closedNotice : droppedNotice(dropped.fit);
		return { session: { v: 1, notice, dropped: true } };
	}
	let best: (Session & SealedStamps) | undefined;
	let firstFailure: string | undefined;
	for (const token of tokens) {
		const opened = await openSealed(token, flow, source);
		if (!opened.ok) firstFailure ??= opened.reason;
		else if (!best || stamp(opened.session) > stamp(best)) best = opened.session;
	}
	if (!best) return { session: { v: 1, notice: firstFailure } };
	const { iat, t, ...session } = best;
	return { session, usedAt: stamp({ iat, t }) };
}

/** When a sealed flow was written, in milliseconds (`t`; older seals have only `iat`, in seconds). */
const stamp = (s: { iat?: number; t?: number }) => s.t ?? (s.iat ?? 0) * 1000;

/** The dropped-flows list this request carries (or this response already set). */
function droppedList(cookies: Cookies, source: CookieSource): Dropped[] {
	return parseDropped(cookies.get(cookieName(DROPPED_COOKIE, source.https)));
}

/** Every flow of this browser the request carries, by id, with its cookies' bytes (chunks 0–7). */
function flowsSent(source: CookieSource): {
	flows: Map<string, number>;
	legacy: string[];
} {
	const flows = new Map<string, number>();
	const legacy: string[] = [];
	for (const [name, values] of cookieValues(source.header)) {
		const own = ownCookie(name, source.https);
		if (!own) continue;
		if (own === 'legacy') legacy.push(name);
		else {
			const bytes = values.reduce((n, v) => n + cookieBytes(name, v), 0);
			if (flows.has(own.flow) || flows.size < MAX_FLOWS_READ)
				flows.set(own.flow, (flows.get(own.flow) ?? 0) + bytes);
		}
	}
	return { flows, legacy };
}

/** Every flow of this browser that opens, for the callback (which finds a flow by its state). */
export async function readAllFlows(
	cookies: Cookies,
	source: CookieSource
): Promise<{ id: string; session: Session }[]> {
	const out: { id: string; session: Session }[] = [];
	for (const id of flowsSent(source).flows.keys()) {
		const { session } = await openFlow(cookies, { ...source, flow: id });
		if (session && !session.notice) out.push({ id, session });
	}
	return out;
}

/** Whether this request carries a list of dropped flows (the callback's page then says so). */
export function someFlowDropped(cookies: Cookies, source: CookieSource): boolean {
	return droppedList(cookies, source).length > 0;
}

const deleteOpts = (secure: boolean) => ({ path: '/', secure });

/** Deletes the cookies of earlier versions (one session per browser) that the request carries. */
export function dropLegacy(cookies: Cookies, source: CookieSource): void {
	for (const name of flowsSent(source).legacy) cookies.delete(name, deleteOpts(source.https));
}

/** A flow sealed and cut into its cookies' values, and the bytes those cookies take. */
async function sealedChunks(
	session: Session,
	flow: string,
	secure: boolean,
	ring: Keyring
): Promise<{ chunks: string[]; own: number }> {
	const { notice: _notice, dropped: _dropped, ...rest } = session;
	const sealed = await seal(rest, flow, ring);
	const chunks: string[] = [];
	for (let i = 0; i < sealed.length; i += CHUNK) chunks.push(sealed.slice(i, i + CHUNK));
	const own = chunks.reduce((n, c, i) => n + cookieBytes(chunkName(flow, i, secure), c), 0);
	return { chunks, own };
}

/**
 * Whether `writeSession` would keep this flow (the request's `?flow=`, or `source.flow`): its
 * cookies alone stay within FLOW_BUDGET.
 */
export async function fitsInCookies(session: Session, source: CookieSource): Promise<boolean> {
	if (!source.flow) return false;
	const { own } = await sealedChunks(session, source.flow, source.https, source);
	return withinBudget(own);
}

/** Whether a flow's cookies of `own` bytes may be written. */
function withinBudget(own: number): boolean {
	// Stryker disable next-line EqualityOperator: a flow's cookies never take exactly FLOW_BUDGET bytes (11,800 is 0 mod 4; four chunks of base64url under fixed names come to 1, 2 or 3 mod 4)
	return own <= FLOW_BUDGET;
}

/**
 * Whether a fork of the request's flow (`?flow=`, or `source.flow`) could be written beside it:
 * the two together within FLOW_BUDGET, since making room never drops a fork's parent (flow-cap.ts).
 */
export async function forkFits(fork: Session, source: CookieSource): Promise<boolean> {
	if (!source.flow) return false;
	// The fork's id is as long as its parent's, so its cookies take what they would under the parent's.
	const { own } = await sealedChunks(fork, source.flow, source.https, source);
	return own + (flowsSent(source).flows.get(source.flow) ?? 0) <= FLOW_BUDGET;
}

/**
 * Writes one flow (the request's `?flow=`, or `source.flow`) and nothing else of this browser's,
 * except to make room: when all the playground's cookies would go over the cap, the least recently
 * used other flows are deleted, and remembered in the dropped list; a fork's parent counts as used
 * when the fork was, and is never deleted for it (flow-cap.ts). A flow that alone is over the cap
 * is refused with a 400; a fork that fits only without its parent, with a 409.
 */
export async function writeSession(
	cookies: Cookies,
	session: Session,
	secure: boolean,
	source: CookieSource
): Promise<void> {
	if (!source.flow) error(400, 'This request names no flow (?flow=<id>): nothing was saved.');
	const flow = source.flow;
	const { chunks, own } = await sealedChunks(session, flow, secure, source);
	if (!withinBudget(own))
		error(
			400,
			`This would make the flow's cookies ${own} bytes, too large to keep in a cookie (all the playground's cookies together stay under ${MAX_COOKIE_BYTES} bytes, ${RESERVED_BYTES} of them kept for the theme and the list of dropped flows). Shorten the longest setup fields; nothing was saved.`
		);
	const opts = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: MAX_AGE_S };
	const sent = flowsSent(source);
	// Make room: the other flows, least recently used first.
	const others: FlowSize[] = [];
	for (const [id, bytes] of sent.flows) if (id !== flow) others.push({ id, bytes, usedAt: 0 });
	const total = own + others.reduce((n, f) => n + f.bytes, 0);
	let dropped: Dropped[] = [];
	// Stryker disable next-line ConditionalExpression,EqualityOperator: flowsToDrop drops nothing while the flows fit; this check only spares opening the other flows
	if (total > FLOW_BUDGET) {
		for (const f of others) {
			const opened = await openFlow(cookies, { ...source, flow: f.id });
			f.usedAt = opened.usedAt ?? 0;
			f.forkOf = opened.session?.fork_of?.flow;
		}
		const parent = session.fork_of?.flow;
		const drop = flowsToDrop(own, others, FLOW_BUDGET, parent);
		if (!drop)
			error(
				409,
				`This fork and the flow it was made from would take ${own + (sent.flows.get(parent!) ?? 0)} bytes of cookies together, over the ${FLOW_BUDGET} bytes the flows may take: the flow it was made from is not dropped to make room for its own fork. Close this fork from that flow, or shorten the setup; nothing was saved.`
			);
		dropped = others
			.filter((f) => drop.includes(f.id))
			.map((f) => ({ id: f.id, fit: flowsThatFit(f.bytes) }));
		for (const id of drop) deleteFlow(cookies, id, secure, source.header);
	}
	for (const name of sent.legacy) cookies.delete(name, deleteOpts(secure));
	chunks.forEach((c, i) => cookies.set(chunkName(flow, i, secure), c, opts));
	for (let i = chunks.length; i < MAX_CHUNKS; i++)
		if (cookies.get(chunkName(flow, i, secure)) !== undefined)
			cookies.delete(chunkName(flow, i, secure), deleteOpts(secure));
	noteDropped(cookies, source, secure, dropped, flow);
}

/** Deletes the cookies of another flow that this request carries (`header`). */
function deleteFlow(cookies: Cookies, id: string, secure: boolean, header: string): void {
	const sent = cookieValues(header);
	for (let i = 0; i < MAX_CHUNKS; i++) {
		const name = chunkName(id, i, secure);
		if (sent.has(name)) cookies.delete(name, deleteOpts(secure));
	}
}

/** The dropped list after `dropped` went (and `written`, if any, was written again). */
function noteDropped(
	cookies: Cookies,
	source: CookieSource,
	secure: boolean,
	dropped: Dropped[],
	written = ''
): void {
	const before = droppedList(cookies, source);
	const after = updateDropped(before, dropped, written);
	if (formatDropped(after) === formatDropped(before)) return;
	const name = cookieName(DROPPED_COOKIE, secure);
	const opts = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, maxAge: MAX_AGE_S };
	if (after.length) cookies.set(name, formatDropped(after), opts);
	else cookies.delete(name, deleteOpts(secure));
}

/**
 * Drops another flow of this browser on purpose (a fork closed from its parent, fork.ts): its
 * cookies are deleted, and its tab says, on its next load or action, that it was closed.
 */
export function dropFlow(cookies: Cookies, id: string, source: CookieSource): void {
	deleteFlow(cookies, id, source.https, source.header);
	noteDropped(cookies, source, source.https, [{ id, fit: 0, closed: true }]);
}

/** The list of recent states after `state` was used or replaced: newest first, at most RECENT_STATES. */
export function rememberState(recent: string[] | undefined, state: string | undefined): string[] {
	const list = recent ?? [];
	if (state === undefined) return list;
	return [state, ...list.filter((s) => s !== state)].slice(0, RECENT_STATES);
}
