/**
 * The abuse limit on a hosted server: every step that calls the service counts one attempt per client
 * address, blocked or not; past the limit the action answers 429 with a plain message and Retry-After.
 * Hosted mode needs ORIGIN; the built-in sandbox under it is reached through this server's own
 * listener, so the first exchange goes through, and the steps after it are counted all the same. The client address comes from X-Forwarded-For (ADDRESS_HEADER), so two clients
 * can be told apart on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';

const LIMIT = 4;
let srv: TestServer;

beforeAll(async () => {
	const port = await freePort();
	srv = await startServer(
		{
			PLAYGROUND_MODE: 'hosted',
			ORIGIN: `http://127.0.0.1:${port}`,
			PLAYGROUND_RATE_LIMIT: String(LIMIT),
			PLAYGROUND_RATE_WINDOW: '120',
			ADDRESS_HEADER: 'x-forwarded-for',
			XFF_DEPTH: '1',
			// The test client stands for the proxy, whose address header is believed.
			PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1'
		},
		port
	);
});
afterAll(() => srv?.stop());

/** A client that always comes from `ip`. */
function clientFrom(ip: string): Client {
	const c = new Client(srv.url);
	const inner = c.fetch.bind(c);
	c.fetch = (path, init = {}) => {
		const headers = new Headers(init.headers);
		headers.set('x-forwarded-for', ip);
		return inner(path, { ...init, headers });
	};
	return c;
}

describe('the outbound limit in hosted mode', () => {
	test(`the ${LIMIT + 1}th outbound step from one address within the window is a 429 with Retry-After`, async () => {
		const c = clientFrom('198.51.100.7');
		await c.action('preset', { preset: 'sandbox-rw' });
		await c.fetch(await decide(c, consentUrlFrom(await c.page())));

		// 1: the exchange is made (the sandbox under ORIGIN is this server's own listener).
		const ex = await c.action('exchange');
		expect(ex.type).toBe('success');
		const [exchange] = ex.data.exchanges as Exchange[];
		expect(exchange!.response?.status).toBe(200);
		// 2..LIMIT: more outbound steps, each made.
		for (let i = 2; i <= LIMIT; i++) expect((await c.action('userinfo')).type).toBe('success');

		const { res, body } = await c.fetch(`/?flow=${c.flow}&/userinfo`, {
			method: 'POST',
			body: '',
			headers: {
				origin: srv.url,
				'x-sveltekit-action': 'true',
				accept: 'application/json',
				'content-type': 'application/x-www-form-urlencoded'
			}
		});
		const result = JSON.parse(body) as { type: string; status: number; data: string };
		expect(result.type).toBe('failure');
		expect(result.status).toBe(429);
		// How long to wait is counted on the clock in the unit tests (abuse.test.ts); here: the header
		// and the message say the same, within the window.
		const retry = Number(res.headers.get('retry-after'));
		expect(retry).toBeGreaterThanOrEqual(1);
		expect(retry).toBeLessThanOrEqual(120);
		expect(result.data).toContain(
			JSON.stringify(
				`Too many requests from your address: ${LIMIT} per 120 s. Try again in ${retry} s.`
			)
		);

		// Every outbound step is limited, the API call included; steps that never call out are not.
		expect((await c.action('exchange')).status).toBe(429);
		expect((await c.action('api', { method: 'GET', path: 'tag/list' })).status).toBe(429);
		expect((await c.action('restart')).type).toBe('success');
		expect((await c.action('preset', { preset: 'sandbox-ro' })).type).toBe('success');
	});

	test('another address has its own count', async () => {
		const c = clientFrom('203.0.113.20');
		for (let i = 0; i < LIMIT; i++) expect((await c.action('userinfo')).status).toBe(409);
		expect((await c.action('userinfo')).status).toBe(429);
		expect((await clientFrom('203.0.113.21').action('userinfo')).status).toBe(409);
	});

	test('the page shows the refusal as the step error', async () => {
		const c = clientFrom('203.0.113.30');
		for (let i = 0; i < LIMIT; i++) expect((await c.action('refresh')).status).toBe(409);
		const r = await c.action('refresh');
		expect(r.status).toBe(429);
		expect(String(r.data.message)).toMatch(/^Too many requests from your address/);
		expect(r.data.exchanges).toEqual([]);
	});

	test('a request that did not come through the proxy (no address header) gets a 400 with the reason, never a 500', async () => {
		// No X-Forwarded-For: adapter-node cannot tell the client's address.
		const c = new Client(srv.url);
		expect((await c.action('preset', { preset: 'sandbox-rw' })).type).toBe('success');
		const step = await c.action('userinfo');
		expect(step.status).toBe(400);
		expect(String(step.data.message)).toMatch(
			/address header its proxy adds \(ADDRESS_HEADER\).*did not come through that proxy/
		);
		expect(step.data.exchanges).toEqual([]);
		// The sandbox's consent decision counts sign-ins per address too: the same 400, not a 503.
		await expect(decide(c, consentUrlFrom(await c.page()))).rejects.toThrow(
			'the decision did not redirect (400)'
		);
		expect(unescapeHtml(c.seen.at(-1)!.body)).toContain('did not come through that proxy');
	});
});
