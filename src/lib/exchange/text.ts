/**
 * Small helpers on the raw text of an Exchange, shared by the exports, the import and the
 * redaction: form and query text read byte-exact (kept as it was where it is not changed), JSON,
 * base64 and UTF-8 sizes.
 */
import { headerValue, type HeaderList } from './types';

const encoder = new TextEncoder();

/**
 * The size in bytes of the text as UTF-8. A lone surrogate counts 3 bytes, as the U+FFFD that
 * TextEncoder writes for it (and Buffer and fetch send). Native, so that a file of many
 * megabytes is measured at once, also under the mutation run's instrumentation.
 */
export function utf8Length(s: string): number {
	return encoder.encode(s).length;
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

/** Number.isFinite, which also tells the type checker that the value is a number. */
export const isFiniteNumber = (v: unknown): v is number => Number.isFinite(v);

/** A body that is a JSON object, or undefined (not JSON, or an array, a string, a number, null). */
export function jsonObject(text: string): Record<string, unknown> | undefined {
	try {
		const v: unknown = JSON.parse(text);
		return v !== null && typeof v === 'object' && !Array.isArray(v)
			? (v as Record<string, unknown>)
			: undefined;
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

/** A value that is already a placeholder, e.g. `<session cookie, not shown>`, is kept. */
export const placeholder = (v: string) => /^<[^<>]*>$/.test(v);

/**
 * The token of an `Authorization: Bearer` value (RFC 6750 §2.1), split from the scheme and the
 * blanks around it (which HTTP trims, RFC 9110 §5.5): everything between, whatever it holds (a
 * quote, a blank, a line break), so that "Copy as curl" and "Copy as Node fetch" put the variable
 * in its place and never a part of it.
 */
export function bearerToken(
	value: string
): { lead: string; token: string; trail: string } | undefined {
	const m = /^(\s*bearer[ \t]+)([^]*?)([ \t]*)$/i.exec(value);
	return m?.[2] ? { lead: m[1]!, token: m[2], trail: m[3]! } : undefined;
}
