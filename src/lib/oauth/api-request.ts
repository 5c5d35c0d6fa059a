/**
 * The API console's request (step 6): any method, a path on the API's origin, a query, custom
 * headers, and a body as form fields, JSON or raw text. Pure: what may be sent, and where. The
 * sender owns the headers of the connection and the access token's header, and the token never
 * goes to another origin.
 */
import type { HeaderList } from '$lib/exchange/types';

const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type ApiMethod = (typeof API_METHODS)[number];
const BODY_KINDS = ['none', 'form', 'json', 'raw'] as const;
type BodyKind = (typeof BODY_KINDS)[number];

/** Headers the sender writes itself, and why a custom one of that name is refused. */
const RESERVED_HEADERS: Record<string, string> = {
	host: 'the sender writes Host from the URL',
	'content-length': 'the sender writes Content-Length from the body it sends',
	'transfer-encoding': 'the sender sends the body whole, with its Content-Length',
	connection: 'the sender manages the connection',
	'keep-alive': 'the sender manages the connection',
	te: 'the sender manages the connection',
	upgrade: 'the sender speaks HTTP/1.1 only',
	expect: 'the sender sends the body at once',
	authorization: 'the access token goes there (or in the query, as the setup says)'
};

/** Why a header name is refused, or undefined when it may be sent. */
export function reservedHeader(name: string): string | undefined {
	const n = name.trim().toLowerCase();
	if (n.startsWith('proxy-')) return 'Proxy-* headers are for proxies, not the service';
	return Object.hasOwn(RESERVED_HEADERS, n) ? RESERVED_HEADERS[n] : undefined;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/; // RFC 9110 §5.6.2

export interface ApiCallInput {
	method: string;
	path: string;
	query: string;
	headers: string;
	bodyKind: string;
	body: string;
	contentType: string;
}

export interface ApiCall {
	method: ApiMethod;
	/** As typed: below the API base, or from the origin's root when it starts with `/`. */
	path: string;
	query: string;
	headers: HeaderList;
	body: string;
	/** The body's Content-Type, '' for no body. */
	contentType: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

const fail = (field: string, message: string): { ok: false; field: string; message: string } => ({
	ok: false,
	field,
	message
});

/** `Name: value` lines; empty lines are skipped. */
export function parseHeaders(text: string): Parsed<HeaderList> {
	const out: HeaderList = [];
	const lines = text.split(/\r?\n/);
	for (const [i, line] of lines.entries()) {
		if (!line.trim()) continue;
		const colon = line.indexOf(':');
		if (colon <= 0)
			return fail(
				'headers',
				`Line ${i + 1} is not “Name: value”: ${JSON.stringify(line.slice(0, 60))}`
			);
		const name = line.slice(0, colon).trim();
		const value = line.slice(colon + 1).trim();
		if (!TOKEN.test(name))
			return fail(
				'headers',
				`“${name.slice(0, 60)}” is not a header name (RFC 9110 §5.1: letters, digits and !#$%&'*+.^_\`|~-)`
			);
		const why = reservedHeader(name);
		if (why) return fail('headers', `${name} can’t be set here: ${why}.`);
		if (/[\0\r\n]/.test(value) || /[^\t\x20-\x7e\x80-\xff]/.test(value))
			return fail(
				'headers',
				`The value of ${name} holds a character a header can’t carry (a control character, or one beyond Latin-1).`
			);
		out.push([name, value]);
	}
	if (out.length > 50) return fail('headers', 'At most 50 custom headers.');
	return { ok: true, value: out };
}

const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(\s*;.*)?$/;

/** The whole call, checked: method, path shape, headers, and the body of its kind. */
export function parseApiCall(input: ApiCallInput): Parsed<ApiCall> {
	const method = input.method.toUpperCase();
	if (!(API_METHODS as readonly string[]).includes(method))
		return fail('method', 'Method must be GET, POST, PUT, PATCH or DELETE');
	const path = input.path.trim();
	if (!path)
		return fail('path', 'Enter a path below /reader/api/0/ (or from the root, starting with /)');
	if (path.length > 500) return fail('path', 'Path is too long');
	if (path.startsWith('//') || path.includes('\\') || /^[a-z][a-z0-9+.-]*:/i.test(path))
		return fail(
			'path',
			'The path must stay on the API’s own origin: no //host, no backslash, no scheme.'
		);
	if (!/^[A-Za-z0-9._~!$&'()*+,;=:@%/-]+$/.test(path))
		return fail('path', 'The path may only hold URL path characters');
	if (input.query.length > 4000) return fail('query', 'Query is too long');
	const headers = parseHeaders(input.headers);
	if (!headers.ok) return headers;
	const kind = (BODY_KINDS as readonly string[]).includes(input.bodyKind)
		? (input.bodyKind as BodyKind)
		: 'none';
	if (input.body.length > 16_000)
		return fail('body', 'Body is too long (at most 16,000 characters)');
	if (kind !== 'none' && method === 'GET')
		return fail('body', 'A GET carries no body: choose POST, PUT or PATCH, or “no body”.');
	if (kind !== 'none' && headers.value.some(([n]) => n.toLowerCase() === 'content-type'))
		return fail(
			'headers',
			'Content-Type follows from the body’s kind: set it there, not as a custom header.'
		);
	let contentType = '';
	if (kind === 'form') contentType = 'application/x-www-form-urlencoded';
	if (kind === 'json') {
		try {
			JSON.parse(input.body);
		} catch (e) {
			return fail(
				'body',
				`The body is not JSON: ${e instanceof Error ? e.message : 'it does not parse'}`
			);
		}
		contentType = 'application/json';
	}
	if (kind === 'raw') {
		const type = input.contentType.trim() || 'text/plain; charset=utf-8';
		if (!MEDIA_TYPE.test(type) || /[\0\r\n]/.test(type))
			return fail('contentType', `“${type.slice(0, 60)}” is not a media type (type/subtype)`);
		contentType = type;
	}
	return {
		ok: true,
		value: {
			method: method as ApiMethod,
			path,
			query: input.query.replace(/^\?/, ''),
			headers: headers.value,
			body: kind === 'none' ? '' : input.body,
			contentType
		}
	};
}

/**
 * The URL of a call: a path without a leading `/` (or starting with the API base's own path) is
 * below the API base; one with a leading `/` is from the origin's root. Anything that resolves to
 * another origin is refused: the access token goes only to the API's origin.
 */
export function apiUrl(call: Pick<ApiCall, 'path' | 'query'>, apiBase: string): Parsed<string> {
	const base = new URL(apiBase);
	let u: URL;
	try {
		u = call.path.startsWith('/')
			? new URL(call.path, base.origin)
			: new URL(call.path.replace(/^(reader\/api\/0\/)/, ''), base);
	} catch {
		return fail('path', 'The path does not make a URL');
	}
	if (u.origin !== base.origin)
		return fail(
			'path',
			`The access token goes only to ${base.origin}: the path must stay on that origin.`
		);
	// After dot-segment removal (RFC 3986 §5.2.4, done by the URL parser) `/.//host/x` is `//host/x`:
	// a request target that a server or proxy on the way may read as another host (RFC 9112 §3.2).
	if (u.pathname.startsWith('//'))
		return fail(
			'path',
			`The request target would be ${u.pathname.slice(0, 60)}, which starts with //: a server or proxy may read that as another host, so it is not sent. Remove the extra slash.`
		);
	if (call.query) u.search = call.query;
	return { ok: true, value: u.toString() };
}
