/** The raw HTTP text of an Exchange, as it went on the wire (CRLFs shown as line breaks). */
import { STEPS } from './step-registry';
import { statusLine, type Exchange, type ExchangeRequest, type ExchangeResponse } from './types';

export function requestTarget(url: string): string {
	try {
		const u = new URL(url);
		return u.pathname + u.search;
	} catch {
		return url;
	}
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
