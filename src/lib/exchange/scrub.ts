/**
 * What every export and the import share: reading form and query text byte-exact, scrubbing any
 * client secret (form fields, query, JSON bodies, Basic credentials), and collecting the tokens that
 * exports shorten unless asked not to (design.md, "What the browser may see").
 */
import { REDACTED, redactExchange, redactTokens } from './redact';
import { headerValue, type Exchange, type HeaderList, type Redaction } from './types';

// ---------------------------------------------------------------------------------------------
// Small helpers on raw text (kept byte-exact where the text is not changed)

export function utf8Length(s: string): number {
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
	return q < 0
		? { base: rest, query: undefined, hash }
		: { base: rest.slice(0, q), query: rest.slice(q + 1), hash };
}

export function isFormBody(headers: HeaderList, body: string): boolean {
	if (!body) return false;
	const ct = headerValue(headers, 'Content-Type');
	if (ct !== undefined) return /^\s*application\/x-www-form-urlencoded\b/i.test(ct);
	return /^[^=&\s{}[\]<>"]+=[^\s]*$/.test(body);
}

/** Replaces the values of the named form fields, leaving every other byte as it was. */
export function mapFormFields(
	text: string,
	fn: (name: string, value: string) => string | undefined
): { text: string; changed: boolean } {
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

export function formFields(text: string): [string, string][] {
	if (!text) return [];
	return text
		.split('&')
		.filter(Boolean)
		.map((p) => {
			const [n, v] = splitPair(p);
			return [formDecode(n), formDecode(v)];
		});
}

export function queryFields(url: string): [string, string][] {
	const q = splitUrl(url).query;
	return q === undefined ? [] : formFields(q);
}

export function parseJson(text: string): unknown {
	const t = text.trim();
	if (t[0] !== '{' && t[0] !== '[') return undefined;
	try {
		return JSON.parse(t) as unknown;
	} catch {
		return undefined;
	}
}

export function decodeBase64Utf8(b64: string): string | undefined {
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
	for (const [n, v] of queryFields(ex.request.url))
		if (n === SECRET_FIELD && v && !isRedacted(v)) found.push(v);
	if (isFormBody(ex.request.headers, ex.request.body))
		for (const [n, v] of formFields(ex.request.body))
			if (n === SECRET_FIELD && v && !isRedacted(v)) found.push(v);
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
	let out = long.length
		? redactExchange(
				ex,
				long.map((value) => ({ name: SECRET_FIELD, value }))
			)
		: ex;
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
	if (isFormBody(request.headers, request.body))
		request.body = mapFormFields(request.body, fieldFn(SECRET_FIELD)).text;
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
		if (v && typeof v === 'object' && !Array.isArray(v))
			for (const k of TOKEN_FIELDS) add((v as Record<string, unknown>)[k]);
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

/** A value that is already a placeholder, e.g. `<session cookie, not shown>`, is kept. */
export const placeholder = (v: string) => /^<[^<>]*>$/.test(v);
