/**
 * How a step's card shows its request: the bearer token of an `Authorization` header shortened
 * ("eyJh…Tzp9EE"), said so with its length, and the whole of it a click away. A JWT access token
 * is hundreds of characters: whole, it fills a phone's screen with what the user already has in the
 * token panel, and pushes the request's other headers out of sight. Only the page shortens it; the
 * exports have their own rule (tokens shortened unless "include tokens").
 */
import type { ExchangeRequest } from '$lib/exchange/types';
import { requestHead } from '$lib/exchange/raw';

/** A token of more characters than this is shortened. */
const LONGER_THAN = 24;

export interface ShownRequest {
	/** The request line and headers as shown: whole, or with the bearer token shortened. */
	head: string;
	/** The token shortened in it, when one was: its short form, its length and the whole head. */
	shortened?: { short: string; length: number; whole: string };
}

/** The first 4 and the last 6 characters of a token, with "…" between. */
export function shortToken(token: string): string {
	return `${token.slice(0, 4)}…${token.slice(-6)}`;
}

export function shownRequest(req: ExchangeRequest): ShownRequest {
	const whole = requestHead(req);
	let found: { short: string; length: number } | undefined;
	const headers = req.headers.map(([n, v]): [string, string] => {
		const m = /^(\s*bearer\s+)(\S+)(\s*)$/i.exec(v);
		if (found || n.toLowerCase() !== 'authorization' || !m || m[2]!.length <= LONGER_THAN)
			return [n, v];
		found = { short: shortToken(m[2]!), length: m[2]!.length };
		return [n, `${m[1]}${found.short}${m[3]}`];
	});
	return found
		? { head: requestHead({ ...req, headers }), shortened: { ...found, whole } }
		: { head: whole };
}
