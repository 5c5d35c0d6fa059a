/**
 * The sender's connection pool over real HTTP, against the built server in local mode and loopback
 * services that misbehave on cue: addresses holding a host's connections with slow GETs never starve
 * a newcomer (one GET is ended for it, never a POST, never an address's only one), a GET
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

/**
 * A loopback service that holds every request until `release()` (then answers those held and every
 * later one at once), except the token endpoint, which answers at once. `until` waits for what it
 * has seen, on its arrivals, never on a clock.
 */
async function holdingService() {
	const held: { res: http.ServerResponse; path: string }[] = [];
	const seen: { method: string; path: string; client: string | null }[] = [];
	const watchers = new Set<() => void>();
	let releasing = false;
	const answer = (res: http.ServerResponse, path: string) => {
		if (res.destroyed || res.writableEnded) return;
		if (path.endsWith('/par'))
			res
				.writeHead(201, { 'content-type': 'application/json' })
				.end(JSON.stringify({ request_uri: 'urn:example:pushed', expires_in: 60 }));
		else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
	};
	const url = await service((req, res) => {
		const u = new URL(req.url!, 'http://x');
		seen.push({ method: req.method!, path: u.pathname, client: u.searchParams.get('client_id') });
		if (u.pathname.endsWith('/oauth2/token'))
			res.writeHead(200, { 'content-type': 'application/json' }).end(TOKENS);
		else if (releasing) answer(res, u.pathname);
		else held.push({ res, path: u.pathname });
		for (const f of watchers) f();
	});
	return {
		url,
		seen,
		until: (done: () => boolean) =>
			new Promise<void>((ok) => {
				const f = () => {
					if (!done()) return;
					watchers.delete(f);
					ok();
				};
				watchers.add(f);
				f();
			}),
		release: () => {
			releasing = true;
			for (const h of held.splice(0)) answer(h.res, h.path);
		}
	};
}

/** Another visitor (from `ip`) in the same flow as `c`: a copy of its cookies, its flow id. */
const sameFlow = (c: Client, ip: string) =>
	new Client(srv.url, { flow: c.flow, jar: new Map(c.jar), headers: { 'x-forwarded-for': ip } });

/**
 * Each client's steps, `IN_FLIGHT` in all, and then one more, refused (429): the in-flight slot is
 * taken in the same turn of the event loop as the pool's (no await between them), so the refusal
 * says that every one of those steps holds one of the host's connections or waits for one.
 */
async function allInFlight(clients: Client[]) {
	for (const c of clients) expect((await c.action('check')).status).toBe(429);
}

/** A setup that pushes its consent requests (RFC 9126) to the service's `/par`. */
async function setUpPush(c: Client, base_url: string) {
	const r = await c.action('setup', {
		base_url,
		client_id: 'pusher',
		client_secret: 'some-app-secret',
		scope: 'read',
		redirect_uri: `${c.base}/callback`,
		use_par: 'true',
		pushed_authorization_request_endpoint: `${base_url}/par`
	});
	expect(r.type, JSON.stringify(r.data)).toBe('success');
}

/** The action's exchanges that the pool ended to give their connection to a newcomer. */
const ended = (results: { data: Record<string, unknown> }[]) =>
	results.flatMap((r) => exchanges(r)).filter((ex) => ex.failure?.kind === 'ended');

const ENDED_WORDS =
	/^Ended after \d+(\.\d)? s: all 64 of the playground's connections to 127\.0\.0\.1:\d+ were in use and another visitor needed one; a GET changes nothing, send it again\.$/;

describe('a host’s connections cannot be held against a newcomer', () => {
	test.each([
		[16, 1],
		[22, 2],
		[40, 3]
	])(
		'%i addresses each holding 4 slow GETs to a host: a fresh address’s GET reaches the host while they are held, and exactly one held GET is ended, with the reason on its card',
		async (addresses, block) => {
			const svc = await holdingService();
			const first = visitor(`198.18.${block}.1`);
			await setUp(first, svc.url, 'held');
			const holders = [
				first,
				...Array.from({ length: addresses - 1 }, (_, i) =>
					sameFlow(first, `198.18.${block}.${i + 2}`)
				)
			];
			const fresh = visitor(`198.18.${block}.200`);
			await setUp(fresh, svc.url, 'fresh');

			// One GET from each address first, all at the host (no address holds none from now on)…
			const steps = holders.map((c) => c.action('check'));
			await svc.until(() => svc.seen.length >= addresses);
			// …then three more each: the host's 64 connections are all in use, the rest wait.
			for (let i = 1; i < IN_FLIGHT; i++) steps.push(...holders.map((c) => c.action('check')));
			await allInFlight(holders);

			const arrived = svc.until(() => svc.seen.some((s) => s.client === 'fresh'));
			const step = fresh.action('check');
			const firstOut = await Promise.race([
				arrived.then(() => 'arrived'),
				step.then(() => 'answered')
			]);
			expect(firstOut, 'the fresh address’s GET reached the host while the others were held').toBe(
				'arrived'
			);

			svc.release();
			const results = await Promise.all(steps);
			const [cut, ...more] = ended(results);
			expect(more, 'exactly one held GET was ended').toEqual([]);
			expect(cut?.request.method).toBe('GET');
			expect(cut!.failure!.message).toMatch(ENDED_WORDS);
			expect(cut!.findings.map((f) => [f.code, f.level, f.message])).toContainEqual([
				'pool-ended',
				'warning',
				cut!.failure!.message
			]);
			// Every other held step got the service's answer.
			const answered = results.flatMap((r) => exchanges(r)).filter((ex) => ex !== cut);
			expect(answered).toHaveLength(addresses * IN_FLIGHT - 1);
			for (const ex of answered) expect(ex.failure, JSON.stringify(ex.failure)).toBeUndefined();
			// The newcomer's step was given its connection at once: no wait on its card.
			const [mine] = exchanges(await step);
			expect(mine!.response?.status).toBe(200);
			expect(mine!.findings.map((f) => f.code)).not.toContain('pool-wait');
		}
	);

	test('64 addresses holding one slow GET each: nothing is ended, the fresh address waits and its card names the wait, and a code exchange sent meanwhile reaches the host at once', async () => {
		const svc = await holdingService();
		const first = visitor('198.18.4.1');
		await setUp(first, svc.url, 'held');
		const holders = [
			first,
			...Array.from({ length: 63 }, (_, i) => sameFlow(first, `198.18.4.${i + 2}`))
		];
		const fresh = visitor('198.18.4.200');
		await setUp(fresh, svc.url, 'fresh');
		// Another visitor with a code to exchange (pasted back by hand for the pending state).
		const exchanger = visitor('198.18.4.201');
		await setUp(exchanger, svc.url, 'exchanger');
		const state = new URL(consentUrlFrom(await exchanger.page())).searchParams.get('state')!;
		expect(
			(await exchanger.action('pasteback', { pasted: `code=one-code&state=${state}` })).type
		).toBe('success');

		const steps = holders.map((c) => c.action('check'));
		await svc.until(() => svc.seen.length >= 64);

		// The fresh address's steps all wait (the 429 of one more says they are in the sender).
		const waiting = Array.from({ length: IN_FLIGHT }, () => fresh.action('check'));
		await allInFlight([fresh]);

		// The code exchange goes on a connection of its own, outside the pool: answered at once.
		const [exchanged] = exchanges(await exchanger.action('exchange'));
		expect(exchanged!.failure, JSON.stringify(exchanged!.failure)).toBeUndefined();
		expect(exchanged!.response?.status).toBe(200);
		expect(exchanged!.timing.queued).toBeUndefined();
		expect(svc.seen.filter((s) => s.client === 'fresh')).toEqual([]);

		svc.release();
		const results = await Promise.all(steps);
		expect(ended(results)).toEqual([]);
		for (const ex of results.flatMap((r) => exchanges(r)))
			expect(ex.failure, JSON.stringify(ex.failure)).toBeUndefined();
		for (const r of await Promise.all(waiting)) {
			const [ex] = exchanges(r);
			expect(ex!.response?.status).toBe(200);
			expect(ex!.findings.find((f) => f.code === 'pool-wait')?.message).toMatch(
				/^This step waited \d+ ms for one of the playground's connections to 127\.0\.0\.1:\d+ \(other visitors' requests were using them\)\. That time is the playground's, not the service's\.$/
			);
		}
	});

	test('a held POST is never ended, even when it is the longest-running call of an address holding the most connections', async () => {
		const svc = await holdingService();
		const first = visitor('198.18.5.1');
		await setUp(first, svc.url, 'held');
		const others = Array.from({ length: 15 }, (_, i) => sameFlow(first, `198.18.5.${i + 2}`));
		// Address .1 pushes a consent request (a POST) in a flow of its own, and holds it first.
		const pusher = visitor('198.18.5.1');
		await setUpPush(pusher, svc.url);
		const fresh = visitor('198.18.5.200');
		await setUp(fresh, svc.url, 'fresh');

		const post = pusher.action('par');
		await svc.until(() => svc.seen.some((s) => s.method === 'POST'));
		const steps = others.map((c) => c.action('check'));
		await svc.until(() => svc.seen.length >= 16);
		// Then 3 GETs from the pushing address and 3 more from each other one: 64 in use.
		for (let i = 1; i < IN_FLIGHT; i++)
			steps.push(...[first, ...others].map((c) => c.action('check')));
		await allInFlight([first, ...others]);

		const arrived = svc.until(() => svc.seen.some((s) => s.client === 'fresh'));
		const step = fresh.action('check');
		await arrived;

		svc.release();
		const [par] = exchanges(await post);
		expect(par!.failure, JSON.stringify(par!.failure)).toBeUndefined();
		expect(par!.response?.status).toBe(201);
		const cut = ended(await Promise.all(steps));
		expect(cut.map((ex) => ex.request.method)).toEqual(['GET']);
		expect(exchanges(await step)[0]!.response?.status).toBe(200);
	});

	test('two visitors’ slow writes to one host are both sent at once: one write at a time is per address, not per host', async () => {
		const svc = await holdingService();
		const pushers = [visitor('198.18.6.1'), visitor('198.18.6.2')];
		for (const c of pushers) await setUpPush(c, svc.url);
		const posts = pushers.map((c) => c.action('par'));
		await svc.until(() => svc.seen.filter((s) => s.method === 'POST').length === 2);
		svc.release();
		for (const r of await Promise.all(posts)) expect(exchanges(r)[0]!.response?.status).toBe(201);
	});
});

describe('a replay’s check of revocation is counted by its visitor’s address', () => {
	test('two visitors each replaying a code (one connection each) while 62 addresses hold one slow GET each: a fresh address ends neither visitor’s check', async () => {
		const svc = await holdingService();
		/** The user-info GETs of the replays' checks (no client_id, unlike the consent URL). */
		const checks = () => svc.seen.filter((s) => s.method === 'GET' && s.client === null);
		const replayers = [visitor('198.18.8.1'), visitor('198.18.8.2')];
		for (const [i, c] of replayers.entries()) {
			await setUp(c, svc.url, `replayer-${i}`);
			const [ex] = exchanges(await pasteAndExchange(c, `code-${i}`));
			expect(ex!.response?.status).toBe(200);
		}
		const first = visitor('198.18.8.3');
		await setUp(first, svc.url, 'held');
		const holders = [
			first,
			...Array.from({ length: 61 }, (_, i) => sameFlow(first, `198.18.8.${i + 4}`))
		];
		const fresh = visitor('198.18.8.200');
		await setUp(fresh, svc.url, 'fresh');

		// Each visitor's replay: the code again (answered at once), then its check, held.
		const replays = replayers.map((c) => c.action('replay', { confirm: 'replay' }));
		await svc.until(() => checks().length >= 2);
		// One GET from each of 62 other addresses: all 64 of the host's connections are in use, and
		// every address holds exactly one.
		const steps = holders.map((c) => c.action('check'));
		await svc.until(() => svc.seen.filter((s) => s.client === 'held').length >= 62);

		// The fresh address's steps wait: no address holds more than one (the 429 of one more says
		// they are all in the sender).
		const waiting = Array.from({ length: IN_FLIGHT }, () => fresh.action('check'));
		await allInFlight([fresh]);

		svc.release();
		const forks = (await Promise.all(replays)).flatMap(
			(r) => (r.data.forkExchanges as Exchange[]) ?? []
		);
		const cut = forks.filter((ex) => ex.failure?.kind === 'ended');
		expect(cut, 'a visitor holding one connection had its replay check ended').toEqual([]);
		expect(ended(await Promise.all(steps))).toEqual([]);
		await Promise.all(waiting);
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
