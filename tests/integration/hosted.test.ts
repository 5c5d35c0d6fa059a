/**
 * Hosted mode: only allow-listed hosts are reached, never loopback or private addresses. The
 * built-in sandbox, served under this server's own ORIGIN, still works: its requests go to this
 * process's own listener and nowhere else.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
let origin: string;

beforeAll(async () => {
	const port = await freePort();
	origin = `http://localhost:${port}`;
	srv = await startServer(
		{ PLAYGROUND_MODE: 'hosted', PLAYGROUND_ALLOWED_HOSTS: 'reader.example.com', ORIGIN: origin },
		port
	);
});
afterAll(() => srv?.stop());

test('the built-in sandbox works in hosted mode, through the server’s own origin', async () => {
	const c = new Client(origin);
	expect((await c.action('preset', { preset: 'sandbox-rw' })).type).toBe('success');
	const consent = consentUrlFrom(await c.page());
	expect(consent.startsWith(`${origin}/sandbox/oauth2/auth?`)).toBe(true);
	await c.fetch(await decide(c, consent));
	const ex = await c.action('exchange');
	const [tokenEx] = ex.data.exchanges as Exchange[];
	expect(tokenEx!.failure).toBeUndefined();
	expect(tokenEx!.response!.status).toBe(200);
	expect(tokenEx!.request.headers.find(([n]) => n === 'Host')?.[1]).toBe(new URL(origin).host);
	const ui = await c.action('userinfo');
	expect((ui.data.exchanges as Exchange[])[0]!.response!.status).toBe(200);
});

test.each([
	['loopback by another path', (o: string) => `${o.replace('localhost', '127.0.0.1')}/sandbox`],
	['a host not on the list', () => 'https://elsewhere.example.org'],
	['a private address', () => 'http://10.0.0.7'],
	['cloud metadata', () => 'http://169.254.169.254']
])('everything else stays blocked: %s', async (_name, base) => {
	const c = new Client(origin);
	await c.action('setup', {
		base_url: base(origin),
		client_id: 'sandbox-rw',
		client_secret: 'sandbox-rw-secret',
		scope: 'read',
		redirect_uri: `${origin}/callback`,
		auto_exchange: 'true'
	});
	const r = await c.action('check');
	const [ex] = r.data.exchanges as Exchange[];
	expect(ex!.failure?.kind).toBe('blocked');
	expect(ex!.findings[0]!.code).toBe('blocked');
});

test('Fill from metadata against the sandbox in hosted mode: both well-known URLs are asked of this server, and it publishes none', async () => {
	const r = await new Client(origin).action('discover', {
		base_url: `${origin}/sandbox`,
		issuer: ''
	});
	expect(r.type).toBe('success');
	expect(r.data.discovery).toEqual({ outcome: 'none' });
	const all = r.data.exchanges as Exchange[];
	expect(all.map((ex) => [ex.failure?.kind, ex.response?.status])).toEqual([
		[undefined, 404],
		[undefined, 404]
	]);
});
