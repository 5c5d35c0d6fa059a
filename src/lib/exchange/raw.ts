/** The raw HTTP text of an Exchange, as it went on the wire (CRLFs shown as line breaks). */
import type { Exchange, ExchangeRequest, ExchangeResponse } from './types';

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
	const lines = [
		`HTTP/${res.httpVersion} ${res.status}${res.statusText ? ' ' + res.statusText : ''}`
	];
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

export function exchangeTitle(ex: Exchange): string {
	const names: Record<Exchange['step'], string> = {
		consent: '1. Consent redirect',
		callback: '2. Callback',
		exchange: '3. Code exchange',
		refresh: '4. Refresh',
		userinfo: '5. User-info',
		api: '6. API call',
		check: 'Registration check'
	};
	return names[ex.step];
}
