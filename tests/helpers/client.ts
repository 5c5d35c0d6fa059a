/**
 * A small HTTP client for integration tests: a cookie jar, form actions called as the page calls
 * them, and the sandbox consent decided over plain HTTP. Every response body it sees is kept, so a
 * test can scan them all for the client secret.
 */
import { parse } from 'devalue';

export interface Seen {
	url: string;
	status: number;
	headers: string;
	body: string;
}

export class Client {
	jar = new Map<string, string>();
	seen: Seen[] = [];
	constructor(public base: string) {}

	cookieHeader(): string {
		return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
	}

	async fetch(path: string, init: RequestInit = {}): Promise<{ res: Response; body: string }> {
		const url = path.startsWith('http') ? path : this.base + path;
		const headers = new Headers(init.headers);
		if (this.jar.size && new URL(url).origin === this.base)
			headers.set('cookie', this.cookieHeader());
		const res = await fetch(url, { ...init, headers, redirect: 'manual' });
		for (const c of res.headers.getSetCookie()) {
			const [pair, ...attrs] = c.split(';');
			const i = pair!.indexOf('=');
			const name = pair!.slice(0, i).trim();
			const value = pair!.slice(i + 1).trim();
			const expired = attrs.some(
				(a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim())
			);
			if (expired || value === '') this.jar.delete(name);
			else this.jar.set(name, value);
		}
		const body = await res.text();
		this.seen.push({
			url,
			status: res.status,
			headers: [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n'),
			body
		});
		return { res, body };
	}

	/** Calls a form action the way the page's script does; returns the action result with its data decoded. */
	async action(
		name: string,
		fields: Record<string, string> = {}
	): Promise<{ status: number; type: string; data: Record<string, unknown> }> {
		const form = new URLSearchParams(fields);
		const { res, body } = await this.fetch(`/?/${name}`, {
			method: 'POST',
			body: form,
			headers: {
				origin: this.base,
				'x-sveltekit-action': 'true',
				accept: 'application/json',
				'content-type': 'application/x-www-form-urlencoded'
			}
		});
		const json = JSON.parse(body) as {
			type: string;
			status?: number;
			data?: string;
			error?: { message: string };
		};
		const data = json.data
			? (parse(json.data) as Record<string, unknown>)
			: json.error
				? { message: json.error.message }
				: {};
		return { status: json.status ?? res.status, type: json.type, data };
	}

	/** The playground page's HTML. */
	async page(): Promise<string> {
		return (await this.fetch('/', { headers: { accept: 'text/html' } })).body;
	}
}

export function unescapeHtml(s: string): string {
	return s
		.replace(/&amp;/g, '&')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'");
}

export function consentUrlFrom(html: string): string {
	const m = /data-testid="consent-url"[^>]*>([^<]+)</.exec(html);
	if (!m) throw new Error('no consent URL on the page');
	return unescapeHtml(m[1]!);
}

/** Opens the sandbox consent page and presses Authorize (or Deny); returns the redirect Location. */
export async function decide(
	client: Client,
	consentUrl: string,
	decision: 'authorize' | 'deny' = 'authorize'
): Promise<string> {
	const { res, body } = await client.fetch(consentUrl, { headers: { accept: 'text/html' } });
	if (res.status !== 200)
		throw new Error(`consent page answered ${res.status}: ${body.slice(0, 200)}`);
	const ticket = /name="ticket" value="([^"]+)"/.exec(body)?.[1];
	if (!ticket) throw new Error('no decision ticket on the consent page');
	const u = new URL(consentUrl);
	const post = await client.fetch(`${u.origin}${u.pathname}?/${decision}`, {
		method: 'POST',
		body: new URLSearchParams({ ticket: unescapeHtml(ticket) }),
		headers: {
			origin: u.origin,
			accept: 'text/html',
			'content-type': 'application/x-www-form-urlencoded'
		}
	});
	const loc = post.res.headers.get('location');
	if (!loc)
		throw new Error(
			`the decision did not redirect (${post.res.status}): ${post.body.slice(0, 300)}`
		);
	return loc;
}
