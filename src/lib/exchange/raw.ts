/** The raw HTTP text of an Exchange, as it went on the wire (CRLFs shown as line breaks). */
import { specOf, STEPS } from '$lib/steps/registry';
import {
	statusLine,
	type Exchange,
	type ExchangeRequest,
	type ExchangeResponse,
	type HeaderList,
	type Step
} from './types';

/**
 * The request line's target: the URL's path and query as the URL holds them, without its origin or
 * fragment. Taken from the text, not re-serialized: a value put in its place for an export (a
 * shortened token, `eyJh…wxyz <48 chars>`) stays readable instead of becoming `%E2%80%A6`.
 */
export function requestTarget(url: string): string {
	const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
	if (!origin || !URL.canParse(url)) return url;
	const rest = url.slice(origin[0].length).replace(/#.*$/s, '');
	return rest.startsWith('/') ? rest : `/${rest}`;
}

export function requestHead(req: ExchangeRequest): string {
	const lines = [`${req.method} ${requestTarget(req.url)} HTTP/${req.httpVersion}`];
	for (const [n, v] of req.headers) lines.push(`${n}: ${v}`);
	return lines.join('\n');
}

export function responseHead(res: ExchangeResponse): string {
	const lines = [`HTTP/${res.httpVersion} ${statusLine(res)}`];
	for (const [n, v] of res.headers) lines.push(`${n}: ${v}`);
	return lines.join('\n');
}

/**
 * The headers worth reading first on any answer: what the body is, a challenge, a redirect's
 * target, and the rate limits (the service's API docs' zones, and the usual RateLimit and
 * Retry-After headers).
 */
const KEY_HEADERS =
	/^(content-type|www-authenticate|location|retry-after|x-reader-(zone[12]-(usage|limit)|limits-reset-after)|(x-)?ratelimit(-[a-z-]+)?)$/i;
/** On a token answer, whether it may be cached too (RFC 6749 §5.1: Cache-Control: no-store). */
const TOKEN_ANSWER_HEADERS = /^(cache-control|pragma)$/i;

/**
 * The response headers an exchange's card shows first, in the order received; the rest fold under
 * "All headers" (ui/ExchangeView.svelte). The exports always carry every header.
 */
export function keyHeaders(headers: HeaderList, step: Step): HeaderList {
	const token = specOf(step).grantType !== undefined;
	return headers.filter(
		([name]) => KEY_HEADERS.test(name) || (token && TOKEN_ANSWER_HEADERS.test(name))
	);
}

/** Pretty JSON when the body is JSON, else undefined. */
export function prettyJson(body: string): string | undefined {
	const t = body.trim();
	if (!t || (t[0] !== '{' && t[0] !== '[')) return undefined;
	try {
		return JSON.stringify(JSON.parse(t), null, 2);
	} catch {
		return undefined;
	}
}

/**
 * "#4 Refresh": the exchange's running number, in the order the exchanges were sent
 * (`exchangeNumbers`), then its step's name. The number is written with "#" so that it is never
 * taken for the step's own number: with an expired token, #4 is the refresh (step 5) sent before
 * the user-info call #5 (step 4).
 */
export function exchangeTitle(ex: Exchange, n?: number): string {
	const { title } = STEPS[ex.step];
	return n === undefined ? title : `#${n} ${title}`;
}
