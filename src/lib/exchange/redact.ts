/**
 * Redaction: a pure function of an Exchange. It runs on the server before an Exchange leaves it,
 * and the exports run it again. The client secret becomes `<redacted>`; the length of what was really
 * sent is noted, and Content-Length keeps its true sent value (design.md, "What the browser may see").
 */
import type { Exchange, HeaderList, Redaction } from './types';

export const REDACTED = '<redacted>';

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

function basicHolds(headerValue: string, secret: string): boolean {
	const m = /^\s*basic\s+([A-Za-z0-9+/=._-]+)\s*$/i.exec(headerValue);
	if (!m) return false;
	try {
		const bin = atob(m[1]!.replace(/-/g, '+').replace(/_/g, '/'));
		const decoded = new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
		return (
			decoded.includes(secret) ||
			decoded.includes(encodeURIComponent(secret)) ||
			decoded.includes(new URLSearchParams([['x', secret]]).toString().slice(2))
		);
	} catch {
		return false;
	}
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
