/** The raw HTTP text of an Exchange, as it went on the wire (CRLFs shown as line breaks). */
import { STEPS } from './step-registry';
import { statusLine, type Exchange, type ExchangeRequest, type ExchangeResponse } from './types';

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

/** "3. Code exchange": the step's number and name, as the step cards show them. */
export function exchangeTitle(ex: Exchange): string {
	const { n, title } = STEPS[ex.step];
	return n === undefined ? title : `${n}. ${title}`;
}
