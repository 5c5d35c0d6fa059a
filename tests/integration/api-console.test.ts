/**
 * The API console through the built playground: tokens from the sandbox, then the API base moved
 * to a loopback service that echoes the exact bytes it received. Each method and body kind goes as
 * recorded, byte for byte; a reserved header and a path to another origin are refused with nothing
 * sent; and against the sandbox itself a form POST still works.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide } from '../helpers/client';
import { startEchoApi, type EchoApi } from '../helpers/echo-api';
import { requestHead } from '../../src/lib/exchange/raw';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
let echo: EchoApi;

beforeAll(async () => {
	srv = await startServer({}, await freePort());
	echo = await startEchoApi();
});
afterAll(async () => {
	await srv?.stop();
	await echo?.stop();
});

const exchanges = (r: { data: Record<string, unknown> }): Exchange[] =>
	(r.data.exchanges as Exchange[]) ?? [];

/**
 * Sandbox tokens, then the setup's base URL at the echo (the sandbox keeps the auth and token
 * endpoints), saved with a yes to "Send this flow's tokens to <the echo>?" (token-binding.ts).
 */
async function withTokensAtEcho(): Promise<Client> {
	const c = new Client(srv.url);
	await c.action('preset', { preset: 'sandbox-rw' });
	const location = await decide(c, consentUrlFrom(await c.page()));
	await c.fetch(location);
	expect(exchanges(await c.action('exchange'))[0]!.response!.status).toBe(200);
	const saved = await c.action('setup', {
		base_url: echo.origin,
		client_id: 'sandbox-rw',
		client_secret: '',
		scope: 'read write',
		redirect_uri: `${srv.url}/callback`,
		authorization_endpoint: `${srv.url}/sandbox/oauth2/auth`,
		token_endpoint: `${srv.url}/sandbox/oauth2/token`,
		auto_exchange: 'true',
		keep_tokens_for: JSON.stringify([echo.origin])
	});
	expect(saved.type).toBe('success');
	return c;
}

test.each([
	['GET', 'none', '', ''],
	['POST', 'form', 'a=1&b=%C3%A9', ''],
	['PUT', 'json', '{"name":"é","n":[1,2]}', ''],
	['PATCH', 'raw', 'line one\nline two', 'text/csv'],
	['DELETE', 'none', '', '']
])(
	'%s with a %s body: the echo received exactly the recorded request',
	async (method, kind, body, type) => {
		const c = await withTokensAtEcho();
		const before = echo.received.length;
		const r = await c.action('api', {
			method,
			path: 'things/1',
			query: 'x=1',
			headers: 'X-Trace: abc\nAccept: text/plain',
			body_kind: kind,
			body,
			content_type: type
		});
		expect(r.type).toBe('success');
		const [ex] = exchanges(r);
		expect(ex!.request.method).toBe(method);
		expect(ex!.request.url).toBe(`${echo.origin}/reader/api/0/things/1?x=1`);
		expect(echo.received.length).toBe(before + 1);
		const wire = echo.received.at(-1)!.toString('utf8');
		// What was shown is what went on the wire, except the token, which the page may show in full.
		expect(ex!.response!.body).toBe(wire);
		expect(`${requestHead(ex!.request).replace(/\n/g, '\r\n')}\r\n\r\n${ex!.request.body}`).toBe(
			wire
		);
		expect(wire.match(/^accept:/gim)).toHaveLength(1);
		expect(wire).toContain('\r\nX-Trace: abc\r\n');
		if (body) expect(wire.endsWith(`\r\n\r\n${body}`)).toBe(true);
	}
);

test.each(['Host', 'content-length', 'Authorization', 'Proxy-Foo', 'Transfer-Encoding'])(
	'a custom %s header is refused with a 400 naming it, and nothing is sent',
	async (name) => {
		const c = await withTokensAtEcho();
		const before = echo.received.length;
		const r = await c.action('api', { method: 'GET', path: 'x', headers: `${name}: y` });
		expect(r.type).toBe('failure');
		expect(r.status).toBe(400);
		expect(r.data).toMatchObject({ field: 'headers', message: expect.stringContaining(name) });
		expect(echo.received.length).toBe(before);
	}
);

test.each(['//127.0.0.1:1/x', '/\\127.0.0.1:1/x', 'http://127.0.0.1:1/x'])(
	'a path to another origin (%s) is refused, and nothing is sent anywhere',
	async (path) => {
		const c = await withTokensAtEcho();
		const before = echo.received.length;
		const r = await c.action('api', { method: 'GET', path });
		expect(r.type).toBe('failure');
		expect(r.status).toBe(400);
		expect(echo.received.length).toBe(before);
	}
);

test('against the sandbox: the form POST of edit-tag still works, and a PUT gets the service’s own answer', async () => {
	const c = new Client(srv.url);
	await c.action('preset', { preset: 'sandbox-rw' });
	await c.fetch(await decide(c, consentUrlFrom(await c.page())));
	await c.action('exchange');
	const ids = exchanges(
		await c.action('api', {
			method: 'GET',
			path: 'stream/items/ids',
			query: 's=user/-/state/com.google/reading-list&n=1&output=json'
		})
	)[0]!;
	const id = (JSON.parse(ids.response!.body) as { itemRefs: { id: string }[] }).itemRefs[0]!.id;
	const post = exchanges(
		await c.action('api', {
			method: 'POST',
			path: 'edit-tag',
			body: `i=${id}&a=user/-/state/com.google/starred`
		})
	)[0]!;
	expect(post.request.headers).toContainEqual([
		'Content-Type',
		'application/x-www-form-urlencoded'
	]);
	expect(post.response!.status).toBe(200);
	const put = exchanges(
		await c.action('api', { method: 'PUT', path: 'edit-tag', body_kind: 'none' })
	)[0]!;
	expect(put.request.method).toBe('PUT');
	expect(put.response!.status).toBeGreaterThanOrEqual(400);
});
