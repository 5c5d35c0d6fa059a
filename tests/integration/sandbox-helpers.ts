/**
 * Shared steps of the sandbox integration tests: a server whose ORIGIN is its own loopback URL,
 * the consent page, the decision form, the token endpoint and the API, all over real HTTP.
 */
import { afterAll, expect } from 'vitest';
import type { Redis } from 'ioredis';
import { startRedis, type TestRedis } from '../helpers/redis';
import { freePort, startServer, type TestServer } from '../helpers/server';

/** Client secrets by client_id; a test adds the ones of its SANDBOX_CLIENTS. */
export const SECRETS: Record<string, string> = {
	'sandbox-rw': 'sandbox-rw-secret',
	'sandbox-ro': 'sandbox-ro-secret',
	'sandbox-short': 'sandbox-short-secret'
};

/** A server on a free port, whose ORIGIN is http://127.0.0.1:<port> (so form posts from there are same-origin). */
export async function startSandbox(
	env: Record<string, string> = {},
	port?: number
): Promise<TestServer> {
	const p = port ?? (await freePort());
	return startServer({ ORIGIN: `http://127.0.0.1:${p}`, ...env }, p);
}

export function authUrl(srv: TestServer, params: Record<string, string | undefined>): string {
	const q = new URLSearchParams();
	for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v);
	return `${srv.url}/sandbox/oauth2/auth?${q}`;
}

export interface ConsentParams {
	client_id?: string;
	redirect_uri?: string;
	response_type?: string;
	scope?: string;
	state?: string;
}

export function consentParams(
	srv: TestServer,
	p: ConsentParams = {}
): Record<string, string | undefined> {
	return {
		client_id: 'sandbox-rw',
		redirect_uri: `${srv.url}/callback`,
		response_type: 'code',
		state: 'state-123',
		...p
	};
}

/** GETs the consent page (manual redirects). */
export function getConsent(
	srv: TestServer,
	p: ConsentParams = {},
	headers: Record<string, string> = {}
): Promise<Response> {
	return fetch(authUrl(srv, consentParams(srv, p)), {
		redirect: 'manual',
		headers: { Accept: 'text/html', ...headers }
	});
}

export function ticketOf(html: string): string {
	const m = /<input[^>]*name="ticket"[^>]*value="([^"]+)"/.exec(html);
	if (!m) throw new Error(`no ticket in the consent page:\n${html.slice(0, 500)}`);
	return m[1]!;
}

/** Opens the consent page and returns its HTML and ticket. */
export async function openConsent(
	srv: TestServer,
	p: ConsentParams = {}
): Promise<{ html: string; ticket: string }> {
	const res = await getConsent(srv, p);
	const html = await res.text();
	expect(res.status, html.slice(0, 300)).toBe(200);
	return { html, ticket: ticketOf(html) };
}

/** POSTs the decision form as the browser would (same Origin, Accept: text/html). */
export function postDecision(
	srv: TestServer,
	action: 'authorize' | 'deny',
	fields: Record<string, string>,
	headers: Record<string, string> = {}
): Promise<Response> {
	return fetch(`${srv.url}/sandbox/oauth2/auth?/${action}`, {
		method: 'POST',
		redirect: 'manual',
		headers: {
			Origin: srv.url,
			Accept: 'text/html',
			'Content-Type': 'application/x-www-form-urlencoded',
			...headers
		},
		body: new URLSearchParams(fields).toString()
	});
}

/** Runs the consent step to the end and returns the code and the redirect it came on. */
export async function getCode(
	srv: TestServer,
	p: ConsentParams = {}
): Promise<{ code: string; location: URL }> {
	const { ticket } = await openConsent(srv, p);
	const res = await postDecision(srv, 'authorize', { ticket });
	expect(res.status).toBe(303);
	const location = new URL(res.headers.get('location')!);
	const code = location.searchParams.get('code');
	if (!code) throw new Error(`no code in ${location}`);
	return { code, location };
}

export interface TokenAnswer {
	res: Response;
	body: Record<string, unknown>;
}

export async function postToken(
	srv: TestServer,
	fields: Record<string, string>,
	headers: Record<string, string> = {}
): Promise<TokenAnswer> {
	const res = await fetch(`${srv.url}/sandbox/oauth2/token`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
		body: new URLSearchParams(fields).toString()
	});
	return { res, body: (await res.json()) as Record<string, unknown> };
}

export function exchangeFields(
	srv: TestServer,
	code: string,
	client_id = 'sandbox-rw',
	redirect_uri = `${srv.url}/callback`
): Record<string, string> {
	return {
		code,
		redirect_uri,
		client_id,
		client_secret: SECRETS[client_id] ?? '',
		scope: '',
		grant_type: 'authorization_code'
	};
}

export interface Tokens {
	access_token: string;
	refresh_token: string;
	expires_in: number;
	scope: string;
	token_type: string;
}

/** Consent, then exchange: a fresh token set for a client. */
export async function tokensFor(
	srv: TestServer,
	client_id = 'sandbox-rw',
	p: ConsentParams = {}
): Promise<Tokens> {
	const { code } = await getCode(srv, { client_id, ...p });
	const { res, body } = await postToken(srv, exchangeFields(srv, code, client_id, p.redirect_uri));
	expect(res.status, JSON.stringify(body)).toBe(200);
	return body as unknown as Tokens;
}

export function refreshFields(client_id: string, refresh_token: string): Record<string, string> {
	return {
		client_id,
		client_secret: SECRETS[client_id] ?? '',
		grant_type: 'refresh_token',
		refresh_token
	};
}

/** RFC 6749 §5.2: a JSON error with the code, a description, and no-store. */
export function expectOAuthError(
	a: TokenAnswer,
	status: number,
	error: string,
	description?: RegExp
): void {
	expect(a.res.status, JSON.stringify(a.body)).toBe(status);
	expect(a.body.error).toBe(error);
	expect(typeof a.body.error_description).toBe('string');
	if (description) expect(a.body.error_description).toMatch(description);
	expect(a.res.headers.get('content-type')).toMatch(/^application\/json/);
	expect(a.res.headers.get('cache-control')).toBe('no-store');
}

export function api(
	srv: TestServer,
	path: string,
	init: RequestInit & { token?: string } = {}
): Promise<Response> {
	const { token, headers, ...rest } = init;
	return fetch(`${srv.url}/sandbox/reader/api/0/${path}`, {
		redirect: 'manual',
		...rest,
		headers: {
			...(token ? { Authorization: `Bearer ${token}` } : {}),
			...(headers as Record<string, string> | undefined)
		}
	});
}

export function apiPost(
	srv: TestServer,
	path: string,
	token: string,
	fields: [string, string][]
): Promise<Response> {
	return api(srv, path, {
		method: 'POST',
		token,
		headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields).toString()
	});
}

const USAGE_KEYS = [
	'zone1-usage',
	'zone1-limit',
	'zone2-usage',
	'zone2-limit',
	'limits-reset-after'
] as const;

/** The five X-Reader-* headers as numbers; fails the test when one is missing. */
export function usage(res: Response): Record<(typeof USAGE_KEYS)[number], number> {
	const out = {} as Record<(typeof USAGE_KEYS)[number], number>;
	for (const key of USAGE_KEYS) {
		const v = res.headers.get(`x-reader-${key}`);
		expect(v, `X-Reader-${key} on ${res.status} ${res.url}`).toMatch(/^\d+$/);
		out[key] = Number(v);
	}
	return out;
}

export function jwtPayload(token: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
		string,
		unknown
	>;
}

/** The server's clock, in whole seconds, from the Date header of its answer. */
export async function serverSeconds(srv: TestServer): Promise<number> {
	const res = await fetch(`${srv.url}/healthz`);
	await res.arrayBuffer();
	const date = res.headers.get('date');
	if (!date) throw new Error('the server sent no Date header');
	return Math.floor(Date.parse(date) / 1000);
}

/**
 * Waits until the server's clock has reached `exp` (a JWT's expiry, in seconds): from then on the
 * server holds that token expired. Waits on the server's own clock, no longer than that takes.
 */
export async function untilServerTime(srv: TestServer, exp: number): Promise<void> {
	await expect
		.poll(() => serverSeconds(srv), { timeout: 10_000, interval: 50 })
		.toBeGreaterThanOrEqual(exp);
}

/**
 * For a file that starts redis-servers and sandboxes of its own: each one started through these is
 * stopped after the file's tests, and so is every Redis client pushed onto `clients`.
 */
export function storeTestbed() {
	const redises: TestRedis[] = [];
	const servers: TestServer[] = [];
	const clients: Redis[] = [];
	afterAll(async () => {
		for (const c of clients) c.disconnect();
		await Promise.all(servers.map((s) => s.stop()));
		await Promise.all(redises.map((r) => r.remove()));
	});
	return {
		clients,
		async redisWith(flags: string[]): Promise<TestRedis> {
			const r = await startRedis({ flags });
			redises.push(r);
			return r;
		},
		async sandboxOn(env: Record<string, string>): Promise<TestServer> {
			const srv = await startSandbox(env);
			servers.push(srv);
			return srv;
		}
	};
}
