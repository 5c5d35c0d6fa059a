/**
 * The sandbox's store, one contract for both backends: the memory of this process, and a real
 * Redis server of the test's own (append-only, fsync on every write), started on a loopback port
 * and stopped by its PID. Two RedisStore clients on one server stand for two instances. Then what
 * only a shared server can do: a restart of the server loses nothing committed; while it is down
 * every operation fails fast with StoreUnavailable (never a hang), and it works again once it is back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryStore, StoreUnavailable, type SandboxStore } from '$lib/sandbox/store.server';
import { RedisStore } from '$lib/sandbox/redis-store.server';
import { connectRedis } from '$lib/redis.server';
import { startRedis, type TestRedis } from '../helpers/redis';

let redis: TestRedis;
const opened: RedisStore[] = [];
const logs: string[] = [];

beforeAll(async () => {
	redis = await startRedis();
});
afterAll(async () => {
	await Promise.all(opened.map((s) => s.close()));
	await redis?.remove();
});

async function redisStore(): Promise<RedisStore> {
	const s = new RedisStore(await connectRedis(redis.url, (line) => logs.push(line)));
	opened.push(s);
	return s;
}

const sec = () => Math.floor(Date.now() / 1000);
let n = 0;
/** Ids unique to each test, so the tests share one server without meeting. */
const id = (label: string) => `${label}-${++n}-${Math.random().toString(36).slice(2)}`;

/** Two "instances": for memory, one process's store seen twice; for Redis, two clients. */
const backends: [string, () => Promise<[SandboxStore, SandboxStore]>][] = [
	[
		'memory',
		async () => {
			const m = new MemoryStore();
			return [m, m];
		}
	],
	['redis', async () => [await redisStore(), await redisStore()]]
];

describe.each(backends)('%s backend', (_name, pair) => {
	test('a code is redeemed once, even by two instances at the same moment', async () => {
		const [a, b] = await pair();
		const code = { jti: id('code'), exp: sec() + 60, fam: id('fam'), client_id: 'sandbox-rw' };
		expect(await a.usedCode(code.jti)).toBeUndefined();
		const results = await Promise.all([
			a.redeemCode(code, id('rt'), sec() + 3600),
			b.redeemCode(code, id('rt'), sec() + 3600),
			a.redeemCode(code, id('rt'), sec() + 3600),
			b.redeemCode(code, id('rt'), sec() + 3600)
		]);
		expect(results.filter(Boolean)).toHaveLength(1);
		expect(await b.usedCode(code.jti)).toBe(code.fam);
		expect(await a.isRevoked(code.fam)).toBe(false);
		await b.revoke(code.fam, sec() + 3600);
		expect(await a.isRevoked(code.fam)).toBe(true);
	});

	test('a refresh token rotates across instances, and a replayed old one revokes the family on both', async () => {
		const [a, b] = await pair();
		const fam = id('fam');
		await a.redeemCode(
			{ jti: id('code'), exp: sec() + 60, fam, client_id: 'x' },
			'rt-1',
			sec() + 3600
		);
		expect(await b.rotate(fam, 'x', 'rt-1', 'rt-2', sec() + 3600)).toBe('ok');
		expect(await a.rotate(fam, 'x', 'rt-2', 'rt-3', sec() + 3600)).toBe('ok');
		expect(await b.rotate(fam, 'x', 'rt-1', 'rt-4', sec() + 3600)).toBe('reused');
		expect(await a.isRevoked(fam)).toBe(true);
		expect(await a.rotate(fam, 'x', 'rt-3', 'rt-5', sec() + 3600)).toBe('revoked');
	});

	test('two rotations of one refresh token at once: one succeeds, the other is a replay', async () => {
		const [a, b] = await pair();
		const fam = id('fam');
		await a.redeemCode({ jti: id('code'), exp: sec() + 60, fam, client_id: 'x' }, 'r1', sec() + 99);
		const both = await Promise.all([
			a.rotate(fam, 'x', 'r1', 'r2a', sec() + 99),
			b.rotate(fam, 'x', 'r1', 'r2b', sec() + 99)
		]);
		expect(both.sort()).toEqual(['ok', 'reused']);
		expect(await a.isRevoked(fam)).toBe(true);
	});

	test('a family it has never seen is trusted once and then tracked', async () => {
		const [a, b] = await pair();
		const fam = id('fam');
		expect(await a.rotate(fam, 'x', 'ra', 'rb', sec() + 100)).toBe('ok');
		expect(await b.rotate(fam, 'x', 'ra', 'rc', sec() + 100)).toBe('reused');
	});

	test('a revocation of an unknown family holds (its access tokens stop working)', async () => {
		const [a, b] = await pair();
		const fam = id('ghost');
		await a.revoke(fam, sec() + 3600);
		expect(await b.isRevoked(fam)).toBe(true);
		expect(await b.rotate(fam, 'x', 'r', 'r2', sec() + 3600)).toBe('revoked');
	});

	test('a consent ticket decides once: a replay gets the first answer, never a second code', async () => {
		const [a, b] = await pair();
		const ticket = id('ticket');
		const first = await a.decideOnce(ticket, 'https://app.test/cb?code=one', sec() + 600);
		expect(first).toBe('https://app.test/cb?code=one');
		const again = await Promise.all([
			b.decideOnce(ticket, 'https://app.test/cb?code=two', sec() + 600),
			a.decideOnce(ticket, 'https://app.test/cb?error=access_denied', sec() + 600)
		]);
		expect(again).toEqual([first, first]);
	});

	test('demo data is replaced by compare-and-set: of two writers from one state, one wins', async () => {
		const [a, b] = await pair();
		const ns = id('ns');
		expect(await a.readState(ns)).toBeUndefined();
		const both = await Promise.all([
			a.writeState(ns, undefined, '{"v":"a"}', sec() + 600),
			b.writeState(ns, undefined, '{"v":"b"}', sec() + 600)
		]);
		expect(both.filter(Boolean)).toHaveLength(1);
		const now = await b.readState(ns);
		expect(['{"v":"a"}', '{"v":"b"}']).toContain(now);
		expect(await a.writeState(ns, '{"v":"stale"}', '{"v":"c"}', sec() + 600)).toBe(false);
		expect(await a.writeState(ns, now, '{"v":"c"}', sec() + 600)).toBe(true);
		expect(await b.readState(ns)).toBe('{"v":"c"}');
	});

	test('the generation is one for every instance of a store, and the same on every read', async () => {
		const [a, b] = await pair();
		const [ga, gb, again] = await Promise.all([a.generation(), b.generation(), a.generation()]);
		expect(ga).toMatch(/^[\w-]{22}$/);
		expect([gb, again]).toEqual([ga, ga]);
	});

	test('a decided ticket is read back without deciding', async () => {
		const [a, b] = await pair();
		const ticket = id('ticket');
		expect(await a.decided(ticket)).toBeUndefined();
		await a.decideOnce(ticket, 'https://app.test/cb?code=one', sec() + 600);
		expect(await b.decided(ticket)).toBe('https://app.test/cb?code=one');
	});
});

describe('redis backend only', () => {
	test('keys expire with what they guard: a family at its last token, a code at its own expiry', async () => {
		const s = await redisStore();
		const fam = id('fam');
		const code = { jti: id('code'), exp: sec() + 60, fam, client_id: 'x' };
		await s.redeemCode(code, 'r', sec() + 3600);
		await s.revoke(fam, sec() + 30 * 24 * 3600);
		const { Redis } = await import('ioredis');
		const raw = new Redis(redis.url);
		try {
			const famTtl = await raw.ttl(`sandbox:fam:${fam}`);
			expect(famTtl).toBeGreaterThan(29 * 24 * 3600);
			const codeTtl = await raw.ttl(`sandbox:code:${code.jti}`);
			expect(codeTtl).toBeGreaterThan(0);
			expect(codeTtl).toBeLessThanOrEqual(60);
		} finally {
			raw.disconnect();
		}
	});

	test('the generation is kept with no expiry, and an emptied server (FLUSHALL) gets a new one', async () => {
		const s = await redisStore();
		const before = await s.generation();
		const { Redis } = await import('ioredis');
		const raw = new Redis(redis.url);
		try {
			expect(await raw.get('sandbox:generation')).toBe(before);
			expect(await raw.ttl('sandbox:generation')).toBe(-1);
			expect(await raw.flushall()).toBe('OK');
		} finally {
			raw.disconnect();
		}
		const after = await s.generation();
		expect(after).not.toBe(before);
		expect(await (await redisStore()).generation()).toBe(after);
	});

	test('a restart of the server loses nothing committed; while it is down, every call fails fast', async () => {
		const s = await redisStore();
		const generation = await s.generation();
		const fam = id('fam');
		const code = { jti: id('code'), exp: sec() + 60, fam, client_id: 'x' };
		expect(await s.redeemCode(code, 'rt-1', sec() + 3600)).toBe(true);
		const ticket = id('ticket');
		await s.decideOnce(ticket, 'https://app.test/cb?code=kept', sec() + 600);

		await redis.stop();
		const outcomes = await Promise.allSettled([
			s.usedCode(code.jti),
			s.redeemCode({ ...code, jti: id('code') }, 'r', sec() + 60),
			s.isRevoked(fam),
			s.revoke(fam, sec() + 60),
			s.rotate(fam, 'x', 'rt-1', 'rt-2', sec() + 3600),
			s.decideOnce(ticket, 'https://app.test/cb?code=other', sec() + 600)
		]);
		// Each one settles (a hang would hold the test to its timeout) and says why.
		for (const o of outcomes) {
			expect(o.status).toBe('rejected');
			expect((o as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailable);
		}
		// The client's error event, which logs it, may come after the calls failed (they fail at once
		// with the connection closed; the event comes with the first reconnection refused).
		await expect.poll(() => logs.some((l) => l.includes('unreachable'))).toBe(true);
		expect(logs.join('\n')).not.toContain(redis.url);

		await redis.start();
		// Reconnects by itself: the first call after the restart waits for the connection.
		await expect
			.poll(() => s.usedCode(code.jti).catch(() => 'down'), { timeout: 15_000 })
			.toBe(fam);
		expect(await s.redeemCode(code, 'rt-x', sec() + 3600)).toBe(false);
		expect(await s.rotate(fam, 'x', 'rt-1', 'rt-2', sec() + 3600)).toBe('ok');
		expect(await s.decideOnce(ticket, 'https://app.test/cb?code=other', sec() + 600)).toBe(
			'https://app.test/cb?code=kept'
		);
		expect(logs.some((l) => l.includes('reachable again'))).toBe(true);
		expect(await s.generation()).toBe(generation);
	});
});

describe('memory backend only', () => {
	test('each store (each process) has a generation of its own', async () => {
		expect(await new MemoryStore().generation()).not.toBe(await new MemoryStore().generation());
	});
});
