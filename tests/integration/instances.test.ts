/**
 * Two playground instances with one session key and one ORIGIN behind a round-robin proxy, as a
 * docs site runs them, sharing a real Redis server of the test's own (REDIS_URL; append-only,
 * fsync on every write; started on a loopback port and stopped by its PID). The sandbox's promises
 * hold across them: a code works once whichever instance gets it, a refresh token issued by one
 * refreshes on the other, a replayed rotated token is caught on the other, a consent ticket decides
 * once. With the store down the sandbox answers 503 with the reason and the playground's own steps
 * still work; once the store is back, so is the sandbox. The one-instance tests at the end run
 * against the memory backend too.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { startRedis, type TestRedis } from '../helpers/redis';
import { startRoundRobin, type RoundRobin } from '../helpers/round-robin';
import { Client } from '../helpers/client';
import {
	api,
	apiPost,
	exchangeFields,
	expectOAuthError,
	getCode,
	openConsent,
	postDecision,
	postToken,
	refreshFields,
	type Tokens
} from './sandbox-helpers';
import { listen } from '../helpers/listen';

let redis: TestRedis;
let a: TestServer;
let b: TestServer;
let proxy: RoundRobin;
/** The proxy as the helpers' server: every request it gets goes to A or B in turn. */
let front: TestServer;
let env: Record<string, string>;

beforeAll(async () => {
	redis = await startRedis();
	const port = await freePort();
	env = {
		ORIGIN: `http://127.0.0.1:${port}`,
		REDIS_URL: redis.url,
		// The abuse limit, counted per client address as the proxy gives it.
		PLAYGROUND_RATE_LIMIT: '3',
		PLAYGROUND_RATE_WINDOW: '600',
		ADDRESS_HEADER: 'x-forwarded-for',
		XFF_DEPTH: '1',
		// The round-robin proxy connects from loopback.
		PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1'
	};
	[a, b] = await Promise.all([startServer(env), startServer(env)]);
	proxy = await startRoundRobin(port, () => [a.url, b.url]);
	front = { ...a, url: proxy.url, port: proxy.port };
});
afterAll(async () => {
	await proxy?.stop();
	await Promise.all([a?.stop(), b?.stop()]);
	await redis?.remove();
});

const redirect = () => `${proxy.url}/callback`;

async function exchangeOn(srv: TestServer, code: string) {
	return postToken(srv, exchangeFields(srv, code, 'sandbox-rw', redirect()));
}

async function tokensVia(srv: TestServer): Promise<Tokens> {
	const { code } = await getCode(front, { redirect_uri: redirect() });
	const answer = await exchangeOn(srv, code);
	expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
	return answer.body as unknown as Tokens;
}

describe('two instances on one Redis-protocol store', () => {
	test('a code used on A is refused on B, and the tokens issued from it are revoked on both', async () => {
		const { code } = await getCode(front, { redirect_uri: redirect() });
		const first = await exchangeOn(a, code);
		expect(first.res.status).toBe(200);
		const { access_token } = first.body as unknown as Tokens;
		expect((await api(a, 'user-info', { token: access_token })).status).toBe(200);

		expectOAuthError(await exchangeOn(b, code), 400, 'invalid_grant', /already been used/);
		for (const srv of [a, b]) {
			const res = await api(srv, 'user-info', { token: access_token });
			expect(res.status).toBe(401);
			expect(((await res.json()) as { error_description: string }).error_description).toMatch(
				/revoked/
			);
		}
	});

	test('the same code sent to both at once is redeemed once', async () => {
		const { code } = await getCode(front, { redirect_uri: redirect() });
		const both = await Promise.all([exchangeOn(a, code), exchangeOn(b, code)]);
		expect(both.map((x) => x.res.status).sort()).toEqual([200, 400]);
	});

	test('a refresh token issued by A refreshes on B; the rotated one replayed on A revokes the grant', async () => {
		const t = await tokensVia(a);
		const onB = await postToken(b, refreshFields('sandbox-rw', t.refresh_token));
		expect(onB.res.status, JSON.stringify(onB.body)).toBe(200);
		const next = onB.body as unknown as Tokens;
		const again = await postToken(a, refreshFields('sandbox-rw', next.refresh_token));
		expect(again.res.status).toBe(200);

		expectOAuthError(
			await postToken(a, refreshFields('sandbox-rw', t.refresh_token)),
			400,
			'invalid_grant',
			/already used/
		);
		const latest = (again.body as unknown as Tokens).refresh_token;
		expectOAuthError(
			await postToken(b, refreshFields('sandbox-rw', latest)),
			400,
			'invalid_grant',
			/revoked/
		);
	});

	test('a consent ticket decides once: posted again, on the other instance, it gives the same code', async () => {
		const { ticket } = await openConsent(front, { redirect_uri: redirect() });
		const first = await postDecision(a, 'authorize', { ticket }, { Origin: proxy.url });
		const second = await postDecision(b, 'authorize', { ticket }, { Origin: proxy.url });
		const denied = await postDecision(b, 'deny', { ticket }, { Origin: proxy.url });
		expect([first.status, second.status, denied.status]).toEqual([303, 303, 303]);
		const where = first.headers.get('location');
		expect(second.headers.get('location')).toBe(where);
		expect(denied.headers.get('location')).toBe(where);
		const code = new URL(where!).searchParams.get('code')!;
		expect((await exchangeOn(b, code)).res.status).toBe(200);
	});

	test('a restart of an instance mid-flow loses nothing: the code exchanged before is still used', async () => {
		const { code } = await getCode(front, { redirect_uri: redirect() });
		expect((await exchangeOn(a, code)).res.status).toBe(200);
		const port = a.port;
		await a.stop();
		a = await startServer(env, port);
		expectOAuthError(await exchangeOn(a, code), 400, 'invalid_grant', /already been used/);
	});

	test('demo data changed through one instance is what the other shows', async () => {
		const t = await tokensVia(a);
		const starred = 'user/-/state/com.google/starred';
		const ids = async (srv: TestServer) =>
			(
				(await (
					await api(srv, `stream/items/ids?s=${encodeURIComponent(starred)}`, {
						token: t.access_token
					})
				).json()) as { itemRefs: { id: string }[] }
			).itemRefs.map((r) => r.id);
		expect(await ids(b)).not.toContain('1012');
		const res = await apiPost(a, 'edit-tag', t.access_token, [
			['i', '1012'],
			['a', starred]
		]);
		expect(res.status).toBe(200);
		expect(await ids(b)).toContain('1012');
	});

	test('the sandbox counts its zone limits across instances', async () => {
		const t = await tokensVia(a);
		const seen: number[] = [];
		for (const srv of [a, b, a, b]) {
			const res = await api(srv, 'unread-count', { token: t.access_token });
			expect(res.status).toBe(200);
			seen.push(Number(res.headers.get('x-reader-zone1-usage')));
		}
		const first = seen[0]!;
		expect(seen).toEqual([first, first + 1, first + 2, first + 3]);
	});

	test('the abuse limit counts one address across instances, and two addresses apart', async () => {
		const fake = http.createServer((_req, res) => res.writeHead(404).end());
		const fakeAt = await listen(fake);
		try {
			const base = `${fakeAt.url}/as`;
			const step = (who: string) =>
				new Client(proxy.url, { headers: { 'x-test-client': who } }).action('discover', {
					base_url: base,
					issuer: ''
				});
			const before = proxy.served.length;
			for (let i = 0; i < 3; i++) expect((await step('198.51.100.7')).type).toBe('success');
			const refused = await step('198.51.100.7');
			expect(refused.status).toBe(429);
			expect(refused.data.message).toMatch(/Too many requests from your address: 3 per 600 s/);
			expect(new Set(proxy.served.slice(before))).toEqual(new Set([0, 1]));
			// Another visitor behind the same proxy has a window of their own.
			expect((await step('198.51.100.8')).type).toBe('success');
		} finally {
			await new Promise<void>((ok) => fake.close(() => ok()));
		}
	});

	test('the store down: the sandbox answers 503 with the reason, the playground still works; then it recovers', async () => {
		const t = await tokensVia(b);
		const { code } = await getCode(front, { redirect_uri: redirect() });
		const fake = http.createServer((_req, res) => res.writeHead(404).end());
		const fakeAt = await listen(fake);
		try {
			await redis.stop();
			const token = await exchangeOn(a, code);
			expectOAuthError(token, 503, 'temporarily_unavailable', /store is unreachable/);
			expect(token.res.headers.get('retry-after')).toBe('2');
			const res = await api(b, 'user-info', { token: t.access_token });
			expect(res.status).toBe(503);
			expect(await res.text()).toContain('store is unreachable');
			// A step against another service goes on (here: the metadata fill, through the proxy).
			const base = `${fakeAt.url}/as`;
			const step = await new Client(proxy.url).action('discover', { base_url: base, issuer: '' });
			expect(step.type).toBe('success');
			expect(step.data.discovery).toEqual({ outcome: 'none' });
			expect(a.logs() + b.logs()).not.toContain(redis.url);

			await redis.start();
			await expect
				.poll(async () => (await api(b, 'user-info', { token: t.access_token })).status, {
					timeout: 15_000
				})
				.toBe(200);
			expect((await exchangeOn(a, code)).res.status).toBe(200);
		} finally {
			await new Promise<void>((ok) => fake.close(() => ok()));
		}
	});
});

describe('one instance, memory backend', () => {
	let srv: TestServer;
	beforeAll(async () => {
		const port = await freePort();
		srv = await startServer({ ORIGIN: `http://127.0.0.1:${port}` }, port);
	});
	afterAll(() => srv?.stop());

	test('a consent ticket decides once here too', async () => {
		const { ticket } = await openConsent(srv);
		const first = await postDecision(srv, 'authorize', { ticket });
		const second = await postDecision(srv, 'authorize', { ticket });
		expect(first.status).toBe(303);
		expect(second.headers.get('location')).toBe(first.headers.get('location'));
	});

	test('the same code sent twice at once is redeemed once', async () => {
		const { code } = await getCode(srv);
		const both = await Promise.all([
			postToken(srv, exchangeFields(srv, code)),
			postToken(srv, exchangeFields(srv, code))
		]);
		expect(both.map((x) => x.res.status).sort()).toEqual([200, 400]);
	});
});
