/**
 * HAR 1.2 export and import of the transcript (http://www.softwareishard.com/blog/har-12-spec/).
 *
 * Export (`toHar`): one entry per Exchange, in transcript order. What HAR has no field for travels in
 * custom fields with a leading underscore, as the spec allows: `_id`, `_step`, `_findings`,
 * `_failure`, `_note`, `_redactions`, `_truncated`. An exchange without a response (the consent
 * redirect, which the browser makes, or a failure) gets `response.status: 0`, as Chromium's own HAR
 * export does for failed requests. Timings: `ssl` is also counted in `connect` (the spec's rule, kept
 * for HAR 1.1 readers), so `time` is the sum of the non-negative blocked, dns, connect, send, wait and
 * receive. Unknown phases are -1; `send` is not measured and is 0.
 *
 * Import (`fromHar`): a HAR from this playground or a browser's Network export. Only OAuth entries are
 * kept (the token and consent endpoints, the callback, `/reader/api/0/`, or anything with `_step`).
 * HTTP/2 pseudo-headers are dropped, base64 bodies decoded, cookie values replaced, any client secret
 * redacted, and the findings recomputed with `diagnose()`. Hostile input gives `{ ok: false }`; it
 * never throws.
 *
 * Both directions run the secret scrub below, and the exports shorten tokens unless asked not to
 * (design.md, "What the browser may see").
 */
import { z } from 'zod';
import { diagnose, diagnoseCallback, type DiagnoseContext } from '$lib/oauth/diagnose';
import { explainAuthorizationError } from '$lib/oauth/consent';
import { REDACTED, redactExchange, redactTokens } from './redact';
import { headerValue, type Exchange, type ExchangeResponse, type Failure, type FailureKind, type Finding, type HeaderList, type Redaction, type Step, type Timing } from './types';

export const HAR_CREATOR = 'feed-reader-oauth-playground';
export const DEFAULT_MAX_IMPORT_BYTES = 5 * 1024 * 1024;
/** What a cookie value becomes on import: cookies may hold someone's session. */
export const NOT_IMPORTED = '<not imported>';

// ---------------------------------------------------------------------------------------------
// HAR 1.2 types (the parts this module writes)

export interface HarNameValue {
	name: string;
	value: string;
}

export interface HarCookie {
	name: string;
	value: string;
	path?: string;
	domain?: string;
	expires?: string;
	httpOnly?: boolean;
	secure?: boolean;
}

export interface HarPostData {
	mimeType: string;
	text: string;
	params?: HarNameValue[];
}

export interface HarRequest {
	method: string;
	url: string;
	httpVersion: string;
	cookies: HarCookie[];
	headers: HarNameValue[];
	queryString: HarNameValue[];
	postData?: HarPostData;
	headersSize: number;
	bodySize: number;
}

export interface HarContent {
	size: number;
	mimeType: string;
	text?: string;
	encoding?: string;
}

export interface HarResponse {
	status: number;
	statusText: string;
	httpVersion: string;
	cookies: HarCookie[];
	headers: HarNameValue[];
	content: HarContent;
	redirectURL: string;
	headersSize: number;
	bodySize: number;
}

export interface HarTimings {
	blocked: number;
	dns: number;
	connect: number;
	ssl: number;
	send: number;
	wait: number;
	receive: number;
}

export interface HarEntry {
	startedDateTime: string;
	time: number;
	request: HarRequest;
	response: HarResponse;
	cache: Record<string, never>;
	timings: HarTimings;
	_id: string;
	_step: Step;
	_findings: Finding[];
	_failure?: Failure;
	_note?: string;
	_redactions?: Redaction[];
	_truncated?: boolean;
}

export interface Har {
	log: {
		version: '1.2';
		creator: { name: string; version: string };
		entries: HarEntry[];
	};
}

// ---------------------------------------------------------------------------------------------
// Small helpers on raw text (kept byte-exact where the text is not changed)

function utf8Length(s: string): number {
	let n = 0;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c < 0x80) n += 1;
		else if (c < 0x800) n += 2;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
			const d = s.charCodeAt(i + 1);
			if (d >= 0xdc00 && d <= 0xdfff) {
				n += 4;
				i++;
			} else n += 3;
		} else n += 3;
	}
	return n;
}

/** Decodes one part of a form or query string; the raw text when it is not valid percent-encoding. */
export function formDecode(s: string): string {
	try {
		return decodeURIComponent(s.replace(/\+/g, ' '));
	} catch {
		return s;
	}
}

/** `name=value` split at the first `=`, both still encoded. */
export function splitPair(piece: string): [name: string, value: string] {
	const i = piece.indexOf('=');
	return i < 0 ? [piece, ''] : [piece.slice(0, i), piece.slice(i + 1)];
}

/** The URL split around its query, on the raw text (no normalisation by `URL`). */
export function splitUrl(url: string): { base: string; query: string | undefined; hash: string } {
	const hashAt = url.indexOf('#');
	const hash = hashAt < 0 ? '' : url.slice(hashAt);
	const rest = hashAt < 0 ? url : url.slice(0, hashAt);
	const q = rest.indexOf('?');
	return q < 0 ? { base: rest, query: undefined, hash } : { base: rest.slice(0, q), query: rest.slice(q + 1), hash };
}

export function isFormBody(headers: HeaderList, body: string): boolean {
	if (!body) return false;
	const ct = headerValue(headers, 'Content-Type');
	if (ct !== undefined) return /^\s*application\/x-www-form-urlencoded\b/i.test(ct);
	return /^[^=&\s{}[\]<>"]+=[^\s]*$/.test(body);
}

/** Replaces the values of the named form fields, leaving every other byte as it was. */
export function mapFormFields(text: string, fn: (name: string, value: string) => string | undefined): { text: string; changed: boolean } {
	let changed = false;
	const pieces = text.split('&').map((piece) => {
		const [rawName, rawValue] = splitPair(piece);
		const next = fn(formDecode(rawName), formDecode(rawValue));
		if (next === undefined) return piece;
		changed = true;
		return `${rawName}=${next}`;
	});
	return { text: changed ? pieces.join('&') : text, changed };
}

function formFields(text: string): [string, string][] {
	if (!text) return [];
	return text.split('&').filter(Boolean).map((p) => {
		const [n, v] = splitPair(p);
		return [formDecode(n), formDecode(v)];
	});
}

function queryFields(url: string): [string, string][] {
	const q = splitUrl(url).query;
	return q === undefined ? [] : formFields(q);
}

function parseJson(text: string): unknown {
	const t = text.trim();
	if (t[0] !== '{' && t[0] !== '[') return undefined;
	try {
		return JSON.parse(t) as unknown;
	} catch {
		return undefined;
	}
}

function decodeBase64Utf8(b64: string): string | undefined {
	try {
		const bin = atob(b64.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/'));
		return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
	} catch {
		return undefined;
	}
}

function basicCredentials(value: string): { user: string; password: string } | undefined {
	const m = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value);
	if (!m) return undefined;
	const decoded = decodeBase64Utf8(m[1]!);
	if (decoded === undefined) return undefined;
	const i = decoded.indexOf(':');
	return i < 0 ? undefined : { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

const isRedacted = (v: string) => v === REDACTED;

// ---------------------------------------------------------------------------------------------
// The client secret: found by its field name, since its value is not known here

const SECRET_FIELD = 'client_secret';
const MAX_JSON_DEPTH = 32;

/** Walks parsed JSON for `client_secret` string fields; replaces them when `replace` is set. */
function walkSecrets(node: unknown, values: string[], replace: boolean, depth = 0): boolean {
	if (depth > MAX_JSON_DEPTH || node === null || typeof node !== 'object') return false;
	let changed = false;
	if (Array.isArray(node)) {
		for (const item of node) changed = walkSecrets(item, values, replace, depth + 1) || changed;
		return changed;
	}
	const obj = node as Record<string, unknown>;
	for (const key of Object.keys(obj)) {
		const v = obj[key];
		if (key === SECRET_FIELD && typeof v === 'string') {
			if (v && !isRedacted(v)) {
				values.push(v);
				if (replace) {
					obj[key] = REDACTED;
					changed = true;
				}
			}
		} else changed = walkSecrets(v, values, replace, depth + 1) || changed;
	}
	return changed;
}

function jsonSecrets(body: string, values: string[]): void {
	if (body.includes(SECRET_FIELD)) walkSecrets(parseJson(body), values, false);
}

/**
 * Redacts any client secret left in an exchange: the `client_secret` field of a form body, query or
 * JSON body, and the password of an `Authorization: Basic` header. The values found are also redacted
 * wherever else they appear (an echoing response), like the server does with the known secret. Values
 * already `<redacted>` are left alone, so running it on a redacted exchange changes nothing.
 */
export function scrubSecrets(ex: Exchange): Exchange {
	const found: string[] = [];
	for (const [n, v] of queryFields(ex.request.url)) if (n === SECRET_FIELD && v && !isRedacted(v)) found.push(v);
	if (isFormBody(ex.request.headers, ex.request.body))
		for (const [n, v] of formFields(ex.request.body)) if (n === SECRET_FIELD && v && !isRedacted(v)) found.push(v);
	jsonSecrets(ex.request.body, found);
	if (ex.response) jsonSecrets(ex.response.body, found);
	for (const [n, v] of ex.request.headers) {
		if (n.toLowerCase() !== 'authorization') continue;
		const cred = basicCredentials(v);
		if (cred?.password && !isRedacted(cred.password)) found.push(cred.password);
	}
	if (found.length === 0) return ex;

	// Long values: everywhere they occur, as the server's own redaction does. Short ones only where
	// they were found, so that a three-letter test secret does not blank out half the transcript.
	const long = [...new Set(found.filter((v) => v.length >= 8))];
	let out = long.length ? redactExchange(ex, long.map((value) => ({ name: SECRET_FIELD, value }))) : ex;
	const noted: Redaction[] = [...(out.redactions ?? [])];
	const note = (what: string, value: string) => noted.push({ what, length: utf8Length(value) });
	const fieldFn = (where: string) => (name: string, value: string) => {
		if (name !== SECRET_FIELD || !value || isRedacted(value)) return undefined;
		note(where, value);
		return REDACTED;
	};

	const request = { ...out.request };
	const u = splitUrl(request.url);
	if (u.query !== undefined) {
		const q = mapFormFields(u.query, fieldFn(`${SECRET_FIELD} (in the URL)`));
		if (q.changed) request.url = `${u.base}?${q.text}${u.hash}`;
	}
	if (isFormBody(request.headers, request.body)) request.body = mapFormFields(request.body, fieldFn(SECRET_FIELD)).text;
	else if (request.body.includes(SECRET_FIELD)) {
		const parsed = parseJson(request.body);
		const values: string[] = [];
		if (walkSecrets(parsed, values, true)) {
			request.body = JSON.stringify(parsed);
			for (const v of values) note(SECRET_FIELD, v);
		}
	}
	request.headers = request.headers.map(([n, v]) => {
		if (n.toLowerCase() !== 'authorization') return [n, v];
		const cred = basicCredentials(v);
		if (!cred?.password || isRedacted(cred.password)) return [n, v];
		note(`${SECRET_FIELD} (in the Authorization: Basic header)`, cred.password);
		return [n, `Basic ${REDACTED}`];
	});
	let response = out.response;
	if (response?.body.includes(SECRET_FIELD)) {
		const parsed = parseJson(response.body);
		const values: string[] = [];
		if (walkSecrets(parsed, values, true)) {
			response = { ...response, body: JSON.stringify(parsed) };
			for (const v of values) note(`${SECRET_FIELD} (in the response body)`, v);
		}
	}
	out = { ...out, request, response, redactions: noted.length ? noted : undefined };
	return out;
}

// ---------------------------------------------------------------------------------------------
// Tokens, for the exports' default of shortening them

const TOKEN_FIELDS = new Set(['access_token', 'refresh_token', 'id_token']);

/**
 * Every access and refresh token in the transcript: token-response bodies, `Authorization: Bearer`
 * headers, and `access_token`/`refresh_token` query or form fields. Each is listed also in its
 * percent-encoded forms, so that an encoded copy in a form body is found too.
 */
export function collectTokens(exchanges: Exchange[]): string[] {
	const out = new Set<string>();
	const add = (v: unknown) => {
		if (typeof v !== 'string' || v.length < 8 || isRedacted(v)) return;
		out.add(v);
		out.add(encodeURIComponent(v));
		out.add(new URLSearchParams([['x', v]]).toString().slice(2));
	};
	const fromJson = (body: string) => {
		const v = parseJson(body);
		if (v && typeof v === 'object' && !Array.isArray(v)) for (const k of TOKEN_FIELDS) add((v as Record<string, unknown>)[k]);
	};
	for (const ex of exchanges) {
		for (const [n, v] of ex.request.headers) {
			const m = /^\s*bearer\s+(\S+)\s*$/i.exec(v);
			if (m && n.toLowerCase() === 'authorization') add(m[1]);
		}
		for (const [n, v] of queryFields(ex.request.url)) if (TOKEN_FIELDS.has(n)) add(v);
		if (isFormBody(ex.request.headers, ex.request.body)) {
			for (const [n, v] of formFields(ex.request.body)) if (TOKEN_FIELDS.has(n)) add(v);
		} else fromJson(ex.request.body);
		if (ex.response) fromJson(ex.response.body);
	}
	return [...out];
}

/** What every export starts from: secrets scrubbed again, and tokens shortened unless `includeTokens`. */
export function prepareForExport(exchanges: Exchange[], includeTokens = false): Exchange[] {
	const clean = exchanges.map(scrubSecrets);
	if (includeTokens) return clean;
	const tokens = collectTokens(clean);
	return clean.map((ex) => redactTokens(ex, tokens));
}

// ---------------------------------------------------------------------------------------------
// Export

function harHttpVersion(v: string): string {
	if (!v) return 'HTTP/1.1';
	return /^http\//i.test(v) ? v.toUpperCase() : `HTTP/${v}`;
}

function requestCookies(headers: HeaderList): HarCookie[] {
	const out: HarCookie[] = [];
	for (const [n, v] of headers) {
		if (n.toLowerCase() !== 'cookie') continue;
		for (const part of v.split(';')) {
			const i = part.indexOf('=');
			if (i > 0) out.push({ name: part.slice(0, i).trim(), value: part.slice(i + 1).trim() });
		}
	}
	return out;
}

function responseCookies(headers: HeaderList): HarCookie[] {
	const out: HarCookie[] = [];
	for (const [n, v] of headers) {
		if (n.toLowerCase() !== 'set-cookie') continue;
		const [first = '', ...attrs] = v.split(';');
		const i = first.indexOf('=');
		if (i <= 0) continue;
		const cookie: HarCookie = { name: first.slice(0, i).trim(), value: first.slice(i + 1).trim() };
		for (const attr of attrs) {
			const [k = '', ...rest] = attr.split('=');
			const val = rest.join('=').trim();
			switch (k.trim().toLowerCase()) {
				case 'path':
					cookie.path = val;
					break;
				case 'domain':
					cookie.domain = val;
					break;
				case 'expires': {
					const t = Date.parse(val);
					if (!Number.isNaN(t)) cookie.expires = new Date(t).toISOString();
					break;
				}
				case 'httponly':
					cookie.httpOnly = true;
					break;
				case 'secure':
					cookie.secure = true;
					break;
			}
		}
		out.push(cookie);
	}
	return out;
}

function postDataOf(body: string, headers: HeaderList): HarPostData {
	const mimeType = headerValue(headers, 'Content-Type') ?? '';
	const data: HarPostData = { mimeType, text: body };
	if (isFormBody(headers, body)) data.params = formFields(body).map(([name, value]) => ({ name, value }));
	return data;
}

/** Milliseconds as integer microseconds, so that sums are exact. */
const us = (ms: number | undefined) => (ms === undefined || !Number.isFinite(ms) ? undefined : Math.max(0, Math.round(ms * 1000)));

export function harTimings(t: Timing): { time: number; timings: HarTimings } {
	const dns = us(t.dns);
	const tls = us(t.tls);
	const connect = us(t.connect) !== undefined ? us(t.connect)! + (tls ?? 0) : tls;
	const total = us(t.total) ?? 0;
	const setup = (dns ?? 0) + (connect ?? 0);
	const firstByte = us(t.firstByte) ?? total;
	const wait = Math.max(0, firstByte - setup);
	const receive = Math.max(0, total - firstByte);
	const ms = (v: number | undefined) => (v === undefined ? -1 : v / 1000);
	const timings: HarTimings = { blocked: -1, dns: ms(dns), connect: ms(connect), ssl: ms(tls), send: 0, wait: wait / 1000, receive: receive / 1000 };
	return { time: (setup + wait + receive) / 1000, timings };
}

function validDate(s: string): string {
	const t = Date.parse(s);
	return Number.isNaN(t) ? new Date(0).toISOString() : new Date(t).toISOString();
}

function bodySize(headers: HeaderList, body: string): number {
	const cl = headerValue(headers, 'Content-Length');
	return cl !== undefined && /^\d{1,15}$/.test(cl.trim()) ? Number(cl.trim()) : utf8Length(body);
}

function toEntry(ex: Exchange): HarEntry {
	const req = ex.request;
	const request: HarRequest = {
		method: req.method,
		url: req.url,
		httpVersion: harHttpVersion(req.httpVersion),
		cookies: requestCookies(req.headers),
		headers: req.headers.map(([name, value]) => ({ name, value })),
		queryString: queryFields(req.url).map(([name, value]) => ({ name, value })),
		headersSize: -1,
		// The true sent size: Content-Length keeps it, also when the body shows a redaction.
		bodySize: bodySize(req.headers, req.body)
	};
	if (req.body) request.postData = postDataOf(req.body, req.headers);
	const res = ex.response;
	const response: HarResponse = res
		? {
				status: res.status,
				statusText: res.statusText,
				httpVersion: harHttpVersion(res.httpVersion),
				cookies: responseCookies(res.headers),
				headers: res.headers.map(([name, value]) => ({ name, value })),
				content: { size: utf8Length(res.body), mimeType: headerValue(res.headers, 'Content-Type') ?? 'x-unknown', text: res.body },
				redirectURL: headerValue(res.headers, 'Location') ?? '',
				headersSize: -1,
				// As received: Content-Length, also when the body shown differs from it (tokens shortened);
				// a cut body counts only what arrived.
				bodySize: res.truncated ? utf8Length(res.body) : bodySize(res.headers, res.body)
			}
		: { status: 0, statusText: '', httpVersion: '', cookies: [], headers: [], content: { size: 0, mimeType: 'x-unknown' }, redirectURL: '', headersSize: -1, bodySize: -1 };
	const { time, timings } = harTimings(ex.timing);
	const entry: HarEntry = { startedDateTime: validDate(ex.startedAt), time, request, response, cache: {}, timings, _id: ex.id, _step: ex.step, _findings: ex.findings };
	if (ex.failure) entry._failure = ex.failure;
	if (ex.note) entry._note = ex.note;
	if (ex.redactions?.length) entry._redactions = ex.redactions;
	if (res?.truncated) entry._truncated = true;
	return entry;
}

export interface HarOptions {
	/** Leave access and refresh tokens in full. Default: shortened to their first and last 4 characters. */
	includeTokens?: boolean;
	creatorVersion?: string;
}

export function toHar(exchanges: Exchange[], opts: HarOptions = {}): Har {
	return {
		log: {
			version: '1.2',
			creator: { name: HAR_CREATOR, version: opts.creatorVersion ?? '0.1.0' },
			entries: prepareForExport(exchanges, opts.includeTokens).map(toEntry)
		}
	};
}

// ---------------------------------------------------------------------------------------------
// Import

const STEPS = ['consent', 'callback', 'exchange', 'refresh', 'userinfo', 'api', 'check'] as const satisfies readonly Step[];
const FAILURE_KINDS = ['refused', 'timeout', 'dns', 'tls', 'too-large', 'blocked', 'reset', 'cancelled', 'network'] as const satisfies readonly FailureKind[];

/** An array whose malformed items are dropped, instead of failing the whole entry. */
function listOf<T extends z.ZodType>(item: T) {
	return z
		.array(z.unknown())
		.catch([])
		.transform((items) => items.flatMap((x) => {
			const r = item.safeParse(x);
			return r.success ? [r.data as z.output<T>] : [];
		}));
}

const str = (max = 20_000_000) => z.string().max(max);
const optStr = (max = 20_000_000) => z.string().max(max).optional().catch(undefined);
const optNum = z.number().optional().catch(undefined);
const nameValue = z.object({ name: str(10_000), value: z.string().catch('') });

const findingSchema = z.object({
	level: z.enum(['error', 'warning', 'info']),
	code: str(200),
	message: str(10_000),
	fix: optStr(10_000),
	ref: optStr(1_000)
});

const entrySchema = z.object({
	startedDateTime: z.string().max(100).catch(''),
	time: z.number().catch(-1),
	request: z.object({
		method: str(32),
		url: str(),
		httpVersion: z.string().max(32).catch(''),
		headers: listOf(nameValue),
		postData: z
			.object({ mimeType: z.string().catch(''), text: optStr(), params: listOf(nameValue) })
			.optional()
			.catch(undefined)
	}),
	response: z
		.object({
			status: z.number().int().catch(0),
			statusText: z.string().max(1_000).catch(''),
			httpVersion: z.string().max(32).catch(''),
			headers: listOf(nameValue),
			content: z.object({ text: optStr(), encoding: optStr(100) }).catch({}),
			_error: optStr(10_000)
		})
		.optional()
		.catch(undefined),
	timings: z.object({ blocked: optNum, dns: optNum, connect: optNum, ssl: optNum, send: optNum, wait: optNum, receive: optNum }).catch({}),
	_id: optStr(200),
	_step: z.enum(STEPS).optional().catch(undefined),
	_findings: listOf(findingSchema).optional(),
	_failure: z.object({ kind: z.enum(FAILURE_KINDS).catch('network'), message: str(10_000) }).optional().catch(undefined),
	_note: optStr(10_000),
	_redactions: listOf(z.object({ what: str(1_000), length: z.number().int().min(0) })).optional(),
	_truncated: z.boolean().optional().catch(undefined)
});

type HarInEntry = z.output<typeof entrySchema>;

const harSchema = z.object({
	log: z.object({
		version: z.unknown().optional(),
		creator: z.object({ name: z.string().catch('') }).optional().catch(undefined),
		entries: z.array(z.unknown())
	})
});

export type ImportResult = { ok: true; exchanges: Exchange[]; skipped: number; source: 'playground' | 'browser' } | { ok: false; message: string };

const MiB = 1024 * 1024;
function size(bytes: number, round: (n: number) => number): string {
	if (bytes >= MiB / 10) return `${round((bytes / MiB) * 10) / 10} MB`;
	if (bytes >= 1024) return `${round((bytes / 1024) * 10) / 10} KB`;
	return `${bytes} bytes`;
}

function pathOf(url: string): string | undefined {
	if (!URL.canParse(url)) return undefined;
	return new URL(url).pathname.replace(/\/+$/, '');
}

/** The step of an entry from its path; undefined when it is not an OAuth request. */
function stepFromPath(path: string, body: string): Step | undefined {
	if (path.endsWith('/oauth2/auth')) return 'consent';
	if (path.endsWith('/oauth2/token')) return formFields(body).some(([n, v]) => n === 'grant_type' && v === 'refresh_token') ? 'refresh' : 'exchange';
	if (path.endsWith('/callback')) return 'callback';
	if (path.includes('/reader/api/0/')) return path.endsWith('/reader/api/0/user-info') ? 'userinfo' : 'api';
	return undefined;
}

function httpVersionIn(v: string): string {
	const t = v.trim().toLowerCase();
	if (!t) return '1.1';
	if (t === 'h2' || t === 'h2c') return '2';
	if (t === 'h3' || t.startsWith('h3-')) return '3';
	return t.replace(/^http\//, '').toUpperCase();
}

/** A value that is already a placeholder, e.g. `<session cookie, not shown>`, is kept. */
export const placeholder = (v: string) => /^<[^<>]*>$/.test(v);

function importHeaders(list: { name: string; value: string }[], cookieHeader: string): HeaderList {
	return list
		.filter((h) => h.name && !h.name.startsWith(':'))
		.map((h) => [h.name, h.name.toLowerCase() === cookieHeader && !placeholder(h.value) ? NOT_IMPORTED : h.value]);
}

/** Chromium's `_error` on a failed request (e.g. net::ERR_CONNECTION_REFUSED) as a failure kind. */
function chromiumFailure(error: string): Failure {
	const e = error.toUpperCase();
	const kind: FailureKind = e.includes('CONNECTION_REFUSED')
		? 'refused'
		: e.includes('NAME_NOT_RESOLVED') || e.includes('NAME_RESOLUTION')
			? 'dns'
			: e.includes('TIMED_OUT')
				? 'timeout'
				: e.includes('CERT') || e.includes('SSL')
					? 'tls'
					: e.includes('CONNECTION_RESET') || e.includes('CONNECTION_CLOSED') || e.includes('EMPTY_RESPONSE')
						? 'reset'
						: e.includes('ABORTED')
							? 'cancelled'
							: e.includes('BLOCKED')
								? 'blocked'
								: 'network';
	return { kind, message: `The browser recorded this request as failed: ${error}` };
}

function importTiming(e: HarInEntry, hasResponse: boolean): Timing {
	const t = e.timings;
	const pos = (v: number | undefined) => (v !== undefined && Number.isFinite(v) && v >= 0 ? v : undefined);
	const r = (v: number) => Math.round(v * 1000) / 1000;
	const dns = pos(t.dns);
	const ssl = pos(t.ssl);
	const connect = pos(t.connect) !== undefined ? Math.max(0, pos(t.connect)! - (ssl ?? 0)) : undefined;
	const sum = [t.blocked, t.dns, t.connect, t.send, t.wait].reduce<number>((a, v) => a + (pos(v) ?? 0), 0);
	const timing: Timing = { total: r(pos(e.time) ?? sum + (pos(t.receive) ?? 0)) };
	if (dns !== undefined) timing.dns = r(dns);
	if (connect !== undefined) timing.connect = r(connect);
	if (ssl !== undefined) timing.tls = r(ssl);
	if (hasResponse) timing.firstByte = r(sum);
	return timing;
}

function entryBody(e: HarInEntry): string {
	const pd = e.request.postData;
	if (!pd) return '';
	if (pd.text !== undefined) return pd.text;
	return pd.params.length ? new URLSearchParams(pd.params.map((p) => [p.name, p.value])).toString() : '';
}

function importEntry(e: HarInEntry, step: Step, id: string): Exchange {
	const body = entryBody(e);
	const r = e.response;
	let response: ExchangeResponse | undefined;
	if (r && r.status > 0) {
		let text = r.content.text ?? '';
		if (r.content.encoding?.toLowerCase() === 'base64') text = decodeBase64Utf8(text) ?? '';
		response = { status: r.status, statusText: r.statusText, httpVersion: httpVersionIn(r.httpVersion), headers: importHeaders(r.headers, 'set-cookie'), body: text, truncated: e._truncated ?? false };
	}
	const failure = e._failure ?? (r?._error && !response ? chromiumFailure(r._error) : undefined);
	const ex: Exchange = {
		id,
		step,
		startedAt: validDate(e.startedDateTime),
		request: { method: e.request.method, url: e.request.url, httpVersion: httpVersionIn(e.request.httpVersion), headers: importHeaders(e.request.headers, 'cookie'), body },
		timing: importTiming(e, !!response),
		findings: []
	};
	if (response) ex.response = response;
	if (failure) ex.failure = failure;
	if (e._note) ex.note = e._note;
	if (e._redactions?.length) ex.redactions = e._redactions;
	return ex;
}

/** The redirect back can't be re-checked from a file (the saved state is not in it); its error can be read. */
function callbackFindings(ex: Exchange, carried: Finding[] | undefined): Finding[] {
	if (carried?.length) return carried;
	const params = new URLSearchParams(splitUrl(ex.request.url).query ?? '');
	const error = params.get('error');
	if (error === null) return [];
	const findings = diagnoseCallback('error', error, params.get('error_description') ?? undefined);
	findings[0]!.fix = explainAuthorizationError(error);
	return findings;
}

/** Findings recomputed in transcript order, with the context the live flow had: the scope asked for, the token expiry. */
function rediagnose(exchanges: Exchange[], carried: (Finding[] | undefined)[]): Exchange[] {
	let requestedScope: string | undefined;
	let tokenExpiresAt: number | undefined;
	return exchanges.map((ex, i) => {
		if (ex.step === 'consent') {
			const scope = queryFields(ex.request.url).find(([n]) => n === 'scope');
			if (scope) requestedScope = scope[1];
		}
		const ctx: DiagnoseContext = { requestedScope, tokenExpiresAt };
		const findings = ex.step === 'callback' ? callbackFindings(ex, carried[i]) : diagnose(ex, ctx);
		const res = ex.response;
		if ((ex.step === 'exchange' || ex.step === 'refresh') && res && res.status >= 200 && res.status < 300) {
			const body = parseJson(res.body) as Record<string, unknown> | undefined;
			if (body && typeof body === 'object' && typeof body.access_token === 'string') {
				const expiresIn = body.expires_in;
				tokenExpiresAt = typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? Date.parse(ex.startedAt) + ex.timing.total + expiresIn * 1000 : undefined;
			}
		}
		return { ...ex, findings };
	});
}

export interface ImportOptions {
	/** Largest file accepted, in bytes. Default 5 MiB. */
	maxBytes?: number;
}

/** Reads a HAR file's text into Exchanges. Never throws. */
export function fromHar(text: string, opts: ImportOptions = {}): ImportResult {
	try {
		return importHar(text, opts);
	} catch (err) {
		return { ok: false, message: `This file could not be read as a HAR: ${err instanceof Error ? err.message : String(err)}` };
	}
}

function importHar(text: string, opts: ImportOptions): ImportResult {
	if (typeof text !== 'string') return { ok: false, message: 'There is no file text to import.' };
	const maxBytes = opts.maxBytes ?? DEFAULT_MAX_IMPORT_BYTES;
	const bytes = utf8Length(text);
	if (bytes > maxBytes) return { ok: false, message: `The file is ${size(bytes, Math.ceil)}; the import takes at most ${size(maxBytes, Math.floor)}.` };
	let json: unknown;
	try {
		json = JSON.parse(text.replace(/^\uFEFF/, ''));
	} catch (err) {
		return { ok: false, message: `This file is not JSON: ${err instanceof Error ? err.message : String(err)}` };
	}
	const har = harSchema.safeParse(json);
	if (!har.success) return { ok: false, message: 'This file is JSON, but not a HAR: it has no log.entries list. Save it from the browser’s Network panel with “Save all as HAR”, or export it from the playground.' };
	const { version, creator, entries } = har.data.log;
	if (version !== undefined && version !== '1.2' && version !== '1.1')
		return { ok: false, message: `This HAR is version ${JSON.stringify(version).slice(0, 40)}; the import reads HAR 1.2 (and 1.1).` };
	const source = creator?.name === HAR_CREATOR ? 'playground' : 'browser';

	const picked: Exchange[] = [];
	const carried: (Finding[] | undefined)[] = [];
	const ids = new Set<string>();
	let skipped = 0;
	entries.forEach((raw, index) => {
		const parsed = entrySchema.safeParse(raw);
		if (!parsed.success) {
			skipped++;
			return;
		}
		const e = parsed.data;
		const path = pathOf(e.request.url);
		const fromPath = path === undefined ? undefined : stepFromPath(path, entryBody(e));
		const step = e._step ?? fromPath;
		if (!step) {
			skipped++;
			return;
		}
		let id = e._id || `har-${index + 1}`;
		if (ids.has(id)) id = `${id}-${index + 1}`;
		ids.add(id);
		picked.push(scrubSecrets(importEntry(e, step, id)));
		carried.push(step === 'callback' ? e._findings : undefined);
	});
	if (picked.length === 0) {
		const n = entries.length;
		return {
			ok: false,
			message: n === 0 ? 'This HAR has no requests in it.' : `This HAR has ${n} request${n === 1 ? '' : 's'}, none of them to /oauth2/ or /reader/api/0/. Record the flow with the Network panel open (tick “Preserve log”), then save again.`
		};
	}
	return { ok: true, exchanges: rediagnose(picked, carried), skipped, source };
}
