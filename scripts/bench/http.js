// HTTP as the bench sends it: node:http with an agent chosen per figure (one kept-alive socket for
// the timed samples), each request timed from send to the last byte of its answer. The playground's
// form actions, its page data and the sandbox consent over it, and the same requests sent straight to
// the sandbox. The cookie jar and the action format come from scripts/lib/client.js.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { unflatten } from 'devalue';
import {
	actionHeaders,
	actionResult,
	cookieHeader,
	decisionRequest,
	newFlowId,
	takeCookies,
	ticketFrom
} from '../lib/client.js';
import { CLIENT_ID, CLIENT_SECRET, FORM, USER_AGENT } from './config.js';

/**
 * @typedef {{ status: number, headers: http.IncomingHttpHeaders, buf: Buffer, body: string, ms: number }} Res
 * @param {http.Agent | false} agent
 * @param {string} method
 * @param {string} url
 * @param {Record<string, string>} [headers]
 * @param {string} [body]
 * @returns {Promise<Res>}
 */
export function request(agent, method, url, headers = {}, body) {
	return new Promise((ok, fail) => {
		const t0 = performance.now();
		const u = new URL(url);
		const h =
			body === undefined
				? headers
				: { ...headers, 'content-length': String(Buffer.byteLength(body)) };
		const req = http.request(
			{ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: h, agent },
			(res) => {
				/** @type {Buffer[]} */
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const ms = performance.now() - t0;
					const buf = Buffer.concat(chunks);
					ok({
						status: res.statusCode ?? 0,
						headers: res.headers,
						buf,
						body: buf.toString('utf8'),
						ms
					});
				});
				res.on('error', fail);
			}
		);
		req.setTimeout(30_000, () =>
			req.destroy(new Error(`${method} ${u.pathname}: no answer within 30 s`))
		);
		req.on('error', fail);
		req.end(body);
	});
}

/** @param {string} what @param {Res} r */
export function unexpected(what, r) {
	return new Error(`${what}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
}

/** A cookie jar for one browser session against one origin. */
export class Jar {
	/** @type {Map<string, string>} */
	cookies = new Map();
	/** The one flow this jar runs (`?flow=<id>`). */
	flow = newFlowId();
	header() {
		return cookieHeader(this.cookies);
	}
	/** @param {http.IncomingHttpHeaders} headers */
	take(headers) {
		takeCookies(this.cookies, headers['set-cookie'] ?? []);
	}
}

/** Calls a form action as the page's script does. @param {http.Agent} agent @param {string} base @param {Jar} jar @param {string} name @param {Record<string, string>} [fields] */
export async function action(agent, base, jar, name, fields = {}) {
	const r = await request(
		agent,
		'POST',
		`${base}/?flow=${jar.flow}&/${name}`,
		{ ...actionHeaders(base), cookie: jar.header() },
		new URLSearchParams(fields).toString()
	);
	jar.take(r.headers);
	return r;
}

/** The status of the first exchange an action returned, or a description of what came back instead. @param {Res} r */
export function exchangeStatus(r) {
	if (r.status !== 200) return `HTTP ${r.status}`;
	const a = actionResult(r.body, r.status);
	const ex = /** @type {{ exchanges?: { response?: { status: number } }[] }} */ (a.data)
		.exchanges?.[0];
	return a.type === 'success' && ex?.response
		? ex.response.status
		: `${a.type} ${JSON.stringify(a.data).slice(0, 200)}`;
}

/** The page's data, as the page loads it after an action or a navigation (runs the page's load). @param {http.Agent} agent @param {string} base @param {Jar} jar */
export async function pageData(agent, base, jar) {
	const r = await request(agent, 'GET', `${base}/__data.json?flow=${jar.flow}`, {
		cookie: jar.header()
	});
	jar.take(r.headers);
	if (r.status !== 200) throw unexpected('GET /__data.json', r);
	const nodes = JSON.parse(r.body).nodes ?? [];
	const page = nodes[nodes.length - 1];
	return page?.type === 'data' ? /** @type {any} */ (unflatten(page.data)) : undefined;
}

/** Opens the sandbox consent page and presses Authorize; returns the redirect's absolute Location. @param {http.Agent} agent @param {string} consentUrl */
export async function authorize(agent, consentUrl) {
	const page = await request(agent, 'GET', consentUrl, { accept: 'text/html' });
	if (page.status !== 200) throw unexpected('the consent page', page);
	const ticket = ticketFrom(page.body);
	if (!ticket) throw new Error('no decision ticket on the consent page');
	const d = decisionRequest(consentUrl, ticket, 'authorize');
	const post = await request(agent, 'POST', d.url, d.headers, d.body);
	const loc = post.headers.location;
	if (!loc) throw unexpected('the consent decision did not redirect', post);
	return new URL(loc, new URL(consentUrl).origin).toString();
}

/**
 * A browser session that holds a fresh code, as after the consent: preset → consent page →
 * Authorize → /callback → the page loads (taking the callback's record).
 * @param {http.Agent} agent @param {string} base
 */
export async function sessionWithCode(agent, base) {
	const jar = new Jar();
	const p = await action(agent, base, jar, 'preset', { preset: CLIENT_ID });
	if (p.status !== 200 || actionResult(p.body, p.status).type !== 'success')
		throw unexpected('the preset action', p);
	const data = await pageData(agent, base, jar);
	const consent = data?.pending?.consent_url;
	if (typeof consent !== 'string') throw new Error('no consent URL in the page data');
	const location = await authorize(agent, consent);
	const cb = await request(agent, 'GET', location, { accept: 'text/html', cookie: jar.header() });
	jar.take(cb.headers);
	if (cb.status !== 303) throw unexpected('the callback', cb);
	const after = await pageData(agent, base, jar);
	if (!after?.hasCode) throw new Error('the session holds no code after the callback');
	return jar;
}

/** A fresh code for the direct requests, from the same consent page. @param {http.Agent} agent @param {string} base */
export async function directCode(agent, base) {
	const redirect_uri = `${base}/callback`;
	const q = new URLSearchParams({
		client_id: CLIENT_ID,
		redirect_uri,
		response_type: 'code',
		scope: 'read write',
		state: randomBytes(16).toString('base64url')
	});
	const location = await authorize(agent, `${base}/sandbox/oauth2/auth?${q}`);
	const code = new URL(location).searchParams.get('code');
	if (!code) throw new Error(`no code in ${location.replace(/code=[^&]+/, 'code=…')}`);
	return { code, redirect_uri };
}

/** The code exchange exactly as the playground's sender writes it. @param {http.Agent} agent @param {string} base @param {{ code: string, redirect_uri: string }} c */
export function directExchange(agent, base, c) {
	const body = new URLSearchParams([
		['code', c.code],
		['redirect_uri', c.redirect_uri],
		['client_id', CLIENT_ID],
		['client_secret', CLIENT_SECRET],
		['scope', ''],
		['grant_type', 'authorization_code']
	]).toString();
	return request(
		agent,
		'POST',
		`${base}/sandbox/oauth2/token`,
		{ 'user-agent': USER_AGENT, accept: 'application/json', 'content-type': FORM },
		body
	);
}

/** GET user-info with the Bearer token, as the playground's sender writes it. @param {http.Agent} agent @param {string} base @param {string} token */
export function directUserinfo(agent, base, token) {
	return request(agent, 'GET', `${base}/sandbox/reader/api/0/user-info`, {
		'user-agent': USER_AGENT,
		accept: 'application/json',
		authorization: `Bearer ${token}`
	});
}
