/**
 * Redaction, in one place: pure functions of an Exchange. The server runs `redactExchange` with the
 * client secret it knows before an Exchange leaves it; the exports run `prepareForExport`, which
 * scrubs any client secret again (found by its field name, since its value is not known there) and
 * shortens tokens unless asked not to. A secret becomes `<redacted>`; the length of what was really
 * sent is noted, and Content-Length keeps its true sent value (design.md, "What the browser may see").
 */
import type { Exchange, HeaderList, Redaction } from './types';
import {
	decodeBase64Utf8,
	formFields,
	isFormBody,
	mapFormFields,
	parseJson,
	queryFields,
	splitUrl,
	utf8Length
} from './text';

export const REDACTED = '<redacted>';

// ---------------------------------------------------------------------------------------------
// The secrets the server knows, by value, in every encoding

export interface Secret {
	/** What the value is, e.g. "client_secret". */
	name: string;
	value: string;
}

function encodings(value: string): string[] {
	const forms = new Set([
		value,
		encodeURIComponent(value),
		new URLSearchParams([['x', value]]).toString().slice(2)
	]);
	return [...forms].filter(Boolean).sort((a, b) => b.length - a.length);
}

function replaceAll(text: string, secret: string): { text: string; hit: boolean } {
	let hit = false;
	let out = text;
	for (const form of encodings(secret)) {
		if (out.includes(form)) {
			hit = true;
			out = out.split(form).join(REDACTED);
		}
	}
	return { text: out, hit };
}

/** The decoded `user:password` of an `Authorization: Basic` header value (RFC 7617), if it is one. */
function basicDecoded(value: string): string | undefined {
	const m = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value);
	return m ? decodeBase64Utf8(m[1]!) : undefined;
}

function basicCredentials(value: string): { user: string; password: string } | undefined {
	const decoded = basicDecoded(value);
	const i = decoded?.indexOf(':') ?? -1;
	return decoded === undefined || i < 0
		? undefined
		: { user: decoded.slice(0, i), password: decoded.slice(i + 1) };
}

/** The Basic credentials hold the secret, in any of its encodings. */
function basicHolds(value: string, secret: string): boolean {
	const decoded = basicDecoded(value);
	return decoded !== undefined && encodings(secret).some((form) => decoded.includes(form));
}

function redactHeaders(headers: HeaderList, secret: Secret, noted: Redaction[]): HeaderList {
	return headers.map(([name, value]) => {
		if (name.toLowerCase() === 'authorization' && basicHolds(value, secret.value)) {
			noted.push({
				what: `${secret.name} (in the Authorization: Basic header)`,
				length: new TextEncoder().encode(secret.value).length
			});
			return [name, `Basic ${REDACTED}`];
		}
		const r = replaceAll(value, secret.value);
		if (r.hit)
			noted.push({
				what: `${secret.name} (in the ${name} header)`,
				length: new TextEncoder().encode(secret.value).length
			});
		return [name, r.text];
	});
}

/** Replaces every secret everywhere in the exchange: URL, headers and bodies of both directions. */
export function redactExchange(ex: Exchange, secrets: Secret[]): Exchange {
	const real = secrets.filter((s) => s.value.length > 0);
	if (real.length === 0) return ex;
	const noted: Redaction[] = [...(ex.redactions ?? [])];
	const request = { ...ex.request };
	const response = ex.response ? { ...ex.response } : undefined;
	for (const s of real) {
		const len = new TextEncoder().encode(s.value).length;
		const u = replaceAll(request.url, s.value);
		if (u.hit) noted.push({ what: `${s.name} (in the URL)`, length: len });
		request.url = u.text;
		request.headers = redactHeaders(request.headers, s, noted);
		const b = replaceAll(request.body, s.value);
		if (b.hit) noted.push({ what: s.name, length: len });
		request.body = b.text;
		if (response) {
			response.headers = redactHeaders(response.headers, s, noted);
			const rb = replaceAll(response.body, s.value);
			if (rb.hit) noted.push({ what: `${s.name} (echoed in the response body)`, length: len });
			response.body = rb.text;
		}
		if (ex.failure)
			ex = {
				...ex,
				failure: { ...ex.failure, message: replaceAll(ex.failure.message, s.value).text }
			};
	}
	return { ...ex, request, response, redactions: noted.length ? noted : undefined };
}

// ---------------------------------------------------------------------------------------------
// Tokens, shortened in the exports unless they are asked for

/** For exports: keep the first and last 4 characters of a token, so two tokens can still be told apart. */
export function shortenToken(token: string): string {
	if (token.length <= 12) return '<token>';
	return `${token.slice(0, 4)}…${token.slice(-4)} <${token.length} chars>`;
}

/** Replaces tokens by their shortened form everywhere in the exchange (exports default). */
export function redactTokens(ex: Exchange, tokens: string[]): Exchange {
	const real = [...new Set(tokens.filter((t) => t.length >= 8))].sort(
		(a, b) => b.length - a.length
	);
	if (real.length === 0) return ex;
	const swap = (text: string) => real.reduce((acc, t) => acc.split(t).join(shortenToken(t)), text);
	const swapHeaders = (h: HeaderList): HeaderList => h.map(([n, v]) => [n, swap(v)]);
	return {
		...ex,
		request: {
			...ex.request,
			url: swap(ex.request.url),
			headers: swapHeaders(ex.request.headers),
			body: swap(ex.request.body)
		},
		response: ex.response
			? { ...ex.response, headers: swapHeaders(ex.response.headers), body: swap(ex.response.body) }
			: undefined
	};
}

// ---------------------------------------------------------------------------------------------
// The client secret in the exports: found by its field name, since its value is not known there

const isRedacted = (v: string) => v === REDACTED;

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
