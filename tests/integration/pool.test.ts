/**
 * The sender's connection pool over real HTTP, against the built server in local mode and loopback
 * services that misbehave on cue: one visitor's held requests never starve another of a host, a GET
 * on a kept-alive connection the server had closed is sent again (and both attempts are shown), a
 * code exchange never goes on a kept-alive connection, and a code exchange cut off before any
 * answer says that the code may or may not have been spent. No clocks: every wait is on an event.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import type { Socket } from 'node:net';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';
import { listen } from '../helpers/listen';

const IN_FLIGHT = 4;
let srv: TestServer;
const services: http.Server[] = [];

beforeAll(async () => {
	srv = await startServer({
		PLAYGROUND_LOG: 'off',
		PLAYGROUND_MODE: 'local',
		PLAYGROUND_MAX_IN_FLIGHT: String(IN_FLIGHT),
		ADDRESS_HEADER: 'x-forwarded-for',
		XFF_DEPTH: '1',
		PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1',
		PLAYGROUND_TOTAL_TIMEOUT_MS: '20000'
	});
});
afterAll(async () => {
	await srv?.stop();
	for (const s of services) {
		s.closeAllConnections();
		await new Promise<void>((ok) => s.close(() => ok()));
	}
});

/** A loopback service; `handle` answers (or not) each request. */
async function service(
	handle: (req: http.IncomingMessage, res: http.ServerResponse) => void
): Promise<string> {
	const s = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => handle(req, res));
	});
	services.push(s);
	return (await listen(s)).url;
}

/** A visitor coming from `ip` (through the proxy that sets X-Forwarded-For). */
const visitor = (ip: string) => new Client(srv.url, { headers: { 'x-forwarded-for': ip } });

const exchanges = (r: { data: Record<string, unknown> }) => (r.data.exchanges as Exchange[]) ?? [];

async function setUp(c: Client, base_url: string, client_id = 'some-app') {
	const r = await c.action('setup', {
		base_url,
		client_id,
		client_secret: 'some-app-secret',
		scope: 'read',
		redirect_uri: `${c.base}/callback`,
		auto_exchange: 'false'
	});
	expect(r.type, JSON.stringify(r.data)).toBe('success');
}

/** A code pasted back by hand for the pending state, then exchanged. */
async function pasteAndExchange(c: Client, code: string) {
	const state = new URL(consentUrlFrom(await c.page())).searchParams.get('state')!;
	const pasted = await c.action('pasteback', { pasted: `code=${code}&state=${state}` });
	expect(pasted.type, JSON.stringify(pasted.data)).toBe('success');
	return c.action('exchange');
}

const TOKENS = JSON.stringify({
	access_token: 'at',
	token_type: 'Bearer',
	expires_in: 3600,
	refresh_token: 'rt',
	scope: 'read'
});

describe('one host’s pool is shared fairly', () => {
	test('visitors holding every request they may (20 addresses × 4) do not starve a 21st address of the host', async () => {
		const held: http.ServerResponse[] = [];
		const waiters = new Map<string, () => void>();
		let seen = 0;
		const onSeen = new Set<() => void>();
		const url = await service((req, res) => {
			seen++;
			held.push(res);
			const client = new URL(req.url!, 'http://x').searchParams.get('client_id')!;
			waiters.get(client)?.();
			for (const f of onSeen) f();
		});
		const seenAtLeast = (n: number) =>
			new Promise<void>((ok) => {
				const f = () => {
					if (seen < n) return;
					onSeen.delete(f);
					ok();
				};
				onSeen.add(f);
				f();
			});
		const arrivalOf = (client: string) => new Promise<void>((ok) => waiters.set(client, ok));

		const visitors = Array.from({ length: 21 }, (_, i) => visitor(`198.51.100.${i + 1}`));
		await Promise.all(visitors.map((c, i) => setUp(c, url, `app-${i + 1}`)));
		const holders = visitors.slice(0, 20);
		const steps = holders.flatMap((c) =>
			Array.from({ length: IN_FLIGHT }, () => c.action('check'))
		);
		// Most of them are at the service: the rest are waiting for a connection.
		await seenAtLeast(56);
		// Every holder has all its slots in flight (the fifth step is refused), so every held step
		// is inside the sender now: at the service or waiting for one of its connections.
		for (const c of holders) expect((await c.action('check')).status).toBe(429);

		const last = visitors[20]!;
		const arrived = arrivalOf('app-21');
		const step = last.action('check');
		const first = await Promise.race([arrived.then(() => 'arrived'), step.then(() => 'answered')]);
		expect(first, 'the 21st address’s step reached the service while the others were held').toBe(
			'arrived'
		);

		// Let everything go: every step ends with the service's answer.
		const release = () => {
			for (const res of held.splice(0))
				res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
		};
		onSeen.add(release);
		release();
		const results = await Promise.all([step, ...steps]);
		for (const r of results) {
			expect(r.type, JSON.stringify(r.data)).toBe('success');
			expect(exchanges(r).at(-1)!.failure).toBeUndefined();
		}
		// The steps that waited for one of the playground's connections say so, and blame no one else.
		const waited = results
			.flatMap((r) => exchanges(r))
			.filter((ex) => ex.findings.some((f) => f.code === 'pool-wait'));
		expect(waited.length).toBeGreaterThan(0);
		for (const ex of waited)
			expect(ex.findings.find((f) => f.code === 'pool-wait')!.message).toMatch(
				/^This step waited \d+ ms for one of the playground's connections to 127\.0\.0\.1:\d+/
			);
	});
});

describe('kept-alive connections the server closes', () => {
	test('a GET on a kept-alive connection the server closed before answering is sent again on a fresh one: two recorded attempts and a 200', async () => {
		const known = new WeakSet<Socket>();
		let requests = 0;
		const url = await service((req, res) => {
			requests++;
			// The server closes an idle connection just as the next request arrives on it.
			if (known.has(req.socket)) return void req.socket.destroy();
			known.add(req.socket);
			res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Sign in</p>');
		});
		const c = visitor('203.0.113.40');
		await setUp(c, url);
		const once = await c.action('check');
		expect(exchanges(once).map((ex) => ex.response?.status)).toEqual([200]);

		const again = await c.action('check');
		const [failed, retried] = exchanges(again);
		expect(exchanges(again)).toHaveLength(2);
		expect(failed!.failure?.kind).toBe('reset');
		expect(failed!.failure?.message).toMatch(/sent the request again on a fresh connection/);
		expect(retried!.response?.status).toBe(200);
		expect(retried!.request).toEqual(failed!.request);
		// The retry paid for its own connection, and the timing says so.
		expect(retried!.timing.connect).toBeDefined();
		expect(requests).toBe(3);
	});

	test('code exchanges never go on a kept-alive connection, so a server that closes idle connections as the next request comes never resets one', async () => {
		const known = new WeakSet<Socket>();
		const url = await service((req, res) => {
			if (known.has(req.socket)) return void req.socket.destroy();
			known.add(req.socket);
			// Keep-alive as long as the server likes; it closes an idle connection as the next request
			// arrives on it (the moment a keepAliveTimeout would run out).
			res
				.writeHead(200, { 'content-type': 'application/json', 'keep-alive': 'timeout=5' })
				.end(TOKENS);
		});
		const c = visitor('203.0.113.41');
		await setUp(c, url);
		for (const code of ['code-1', 'code-2', 'code-3']) {
			// A new consent request for each code (the last one's state is used).
			if (code !== 'code-1') expect((await c.action('restart')).type).toBe('success');
			const r = await pasteAndExchange(c, code);
			const [ex] = exchanges(r);
			expect(ex!.failure, JSON.stringify(ex!.failure)).toBeUndefined();
			expect(ex!.response?.status).toBe(200);
			// A connection of its own each time: the timing shows its connect.
			expect(ex!.timing.connect).toBeDefined();
		}
	});

	test('a code exchange whose connection is reset before any answer says the code may or may not have been spent, and keeps it to try again', async () => {
		let tries = 0;
		const url = await service((req, res) => {
			tries++;
			if (tries === 1) return void req.socket.destroy();
			res
				.writeHead(400, { 'content-type': 'application/json' })
				.end(JSON.stringify({ error: 'invalid_grant', error_description: 'code already used' }));
		});
		const c = visitor('203.0.113.42');
		await setUp(c, url);
		const r = await pasteAndExchange(c, 'only-code');
		const [ex] = exchanges(r);
		expect(ex!.failure?.kind).toBe('reset');
		const maybe = ex!.findings.find((f) => f.code === 'code-maybe-spent');
		expect(maybe?.message).toMatch(/may or may not have been spent/);
		expect(maybe?.fix).toMatch(/Exchange the same code again/);
		// Never sent twice on its own: one request reached the service.
		expect(tries).toBe(1);

		// The code is still there: exchanging it again shows which.
		const again = await c.action('exchange');
		const [second] = exchanges(again);
		expect(second!.response?.status).toBe(400);
		expect(tries).toBe(2);
	});
});
