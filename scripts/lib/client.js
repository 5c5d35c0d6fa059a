// Talking to the playground over HTTP as its page does, for the tests, the bench and the load script:
// a cookie jar, form actions called as the page's script calls them, and the sandbox consent decided
// over plain HTTP.
import { parse } from 'devalue';

/**
 * Takes the Set-Cookie headers of a response into a jar; an emptied or expired cookie leaves it.
 * @param {Map<string, string>} jar @param {string[]} setCookies
 */
export function takeCookies(jar, setCookies) {
	for (const c of setCookies) {
		const [pair = '', ...attrs] = c.split(';');
		const i = pair.indexOf('=');
		const name = pair.slice(0, i).trim();
		const value = pair.slice(i + 1).trim();
		const expired = attrs.some(
			(a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim())
		);
		if (expired || value === '') jar.delete(name);
		else jar.set(name, value);
	}
}

/** The Cookie header for a jar. @param {Map<string, string>} jar */
export function cookieHeader(jar) {
	return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/** @param {string} s */
export function unescapeHtml(s) {
	return s
		.replace(/&amp;/g, '&')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'");
}

/** The consent URL the playground page shows. @param {string} html */
export function consentUrlFrom(html) {
	const m = /data-testid="consent-url"[^>]*>([^<]+)</.exec(html);
	if (!m?.[1]) throw new Error('no consent URL on the page');
	return unescapeHtml(m[1]);
}

/** The signed decision ticket of the sandbox consent page, if it has one. @param {string} html */
export function ticketFrom(html) {
	const t = /name="ticket" value="([^"]+)"/.exec(html)?.[1];
	return t === undefined ? undefined : unescapeHtml(t);
}

/**
 * The form post of a decision on the sandbox consent page, as the browser sends it.
 * @param {string} consentUrl @param {string} ticket @param {'authorize' | 'deny'} [decision]
 */
export function decisionRequest(consentUrl, ticket, decision = 'authorize') {
	const u = new URL(consentUrl);
	return {
		url: `${u.origin}${u.pathname}?/${decision}`,
		headers: {
			origin: u.origin,
			accept: 'text/html',
			'content-type': 'application/x-www-form-urlencoded'
		},
		body: new URLSearchParams({ ticket }).toString()
	};
}

/** The headers of a form action called as the page's script calls it. @param {string} origin */
export function actionHeaders(origin) {
	return {
		origin,
		'x-sveltekit-action': 'true',
		accept: 'application/json',
		'content-type': 'application/x-www-form-urlencoded'
	};
}

/**
 * @typedef {{ status: number, type: string, data: Record<string, unknown> }} ActionResult
 * A form action's answer with its data decoded; an error's message is in `data.message`.
 */

/** @param {string} body the action's JSON answer @param {number} httpStatus @returns {ActionResult} */
export function actionResult(body, httpStatus) {
	const json =
		/** @type {{ type: string, status?: number, data?: string, error?: { message: string } }} */ (
			JSON.parse(body)
		);
	const data = json.data
		? /** @type {Record<string, unknown>} */ (parse(json.data))
		: json.error
			? { message: json.error.message }
			: {};
	return { status: json.status ?? httpStatus, type: json.type, data };
}

/** @typedef {{ url: string, status: number, headers: string, body: string }} Seen */

/** A new flow id, as the playground mints them: 12 random bytes, base64url (16 characters). */
export function newFlowId() {
	return Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('base64url');
}

/**
 * One tab's worth of state against one origin, over fetch with manual redirects: a cookie jar (the
 * browser's, shared by the tabs made with `tab()`) and its own flow id, which its page and form
 * actions name (`/?flow=<id>`).
 */
export class Client {
	/** @type {Map<string, string>} */
	jar = new Map();
	/** Every response, when recording: a test can scan them all for the client secret. @type {Seen[]} */
	seen = [];

	/**
	 * @param {string} base the origin
	 * @param {{ record?: boolean, timeoutMs?: number, flow?: string, jar?: Map<string, string>, headers?: Record<string, string> }} [opts]
	 *   `headers` go on every request (a test's stand-in for who is asking, say).
	 */
	constructor(base, opts = {}) {
		this.base = base;
		this.headers = opts.headers ?? {};
		this.record = opts.record ?? true;
		this.timeoutMs = opts.timeoutMs;
		/** This tab's flow id. */
		this.flow = opts.flow ?? newFlowId();
		if (opts.jar) this.jar = opts.jar;
	}

	/** Another tab of the same browser: the same cookie jar, a flow of its own (or `flow`). @param {string} [flow] */
	tab(flow) {
		const t = new Client(this.base, {
			record: this.record,
			timeoutMs: this.timeoutMs,
			flow,
			jar: this.jar,
			headers: this.headers
		});
		t.seen = this.seen;
		return t;
	}

	/** This tab's page address. */
	get pagePath() {
		return `/?flow=${this.flow}`;
	}

	cookieHeader() {
		return cookieHeader(this.jar);
	}

	/** @param {string} path a path on the base, or an absolute URL @param {RequestInit} [init] */
	async fetch(path, init = {}) {
		const url = path.startsWith('http') ? path : this.base + path;
		const headers = new Headers(init.headers);
		for (const [name, value] of Object.entries(this.headers)) headers.set(name, value);
		if (this.jar.size && new URL(url).origin === this.base)
			headers.set('cookie', this.cookieHeader());
		const res = await fetch(url, {
			...init,
			headers,
			redirect: 'manual',
			...(this.timeoutMs ? { signal: AbortSignal.timeout(this.timeoutMs) } : {})
		});
		takeCookies(this.jar, res.headers.getSetCookie());
		const body = await res.text();
		if (this.record)
			this.seen.push({
				url,
				status: res.status,
				headers: [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n'),
				body
			});
		return { res, body };
	}

	/**
	 * Calls a form action the way the page's script does.
	 * @param {string} name @param {Record<string, string>} [fields] @returns {Promise<ActionResult>}
	 */
	async action(name, fields = {}) {
		const { res, body } = await this.fetch(`/?flow=${this.flow}&/${name}`, {
			method: 'POST',
			body: new URLSearchParams(fields),
			headers: actionHeaders(this.base)
		});
		return actionResult(body, res.status);
	}

	/** The playground page's HTML (this tab's flow). */
	async page() {
		return (await this.fetch(this.pagePath, { headers: { accept: 'text/html' } })).body;
	}
}

/**
 * Opens the sandbox consent page and presses Authorize (or Deny); returns the redirect Location.
 * @param {Client} client @param {string} consentUrl @param {'authorize' | 'deny'} [decision]
 */
export async function decide(client, consentUrl, decision = 'authorize') {
	const { res, body } = await client.fetch(consentUrl, { headers: { accept: 'text/html' } });
	if (res.status !== 200)
		throw new Error(`consent page answered ${res.status}: ${body.slice(0, 200)}`);
	const ticket = ticketFrom(body);
	if (!ticket) throw new Error('no decision ticket on the consent page');
	const d = decisionRequest(consentUrl, ticket, decision);
	const post = await client.fetch(d.url, { method: 'POST', body: d.body, headers: d.headers });
	const loc = post.res.headers.get('location');
	if (!loc)
		throw new Error(
			`the decision did not redirect (${post.res.status}): ${post.body.slice(0, 300)}`
		);
	return loc;
}
