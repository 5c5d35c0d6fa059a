import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimiter, usageHeaders } from '$lib/sandbox/zone-limits.server';
import { StoreUnavailable } from '$lib/sandbox/store.server';

const limits = { zone1: 3, zone2: 1 };

describe('sandbox rate limits', () => {
	// rate-limiter-flexible's memory store reads Date.now and ends windows with timers.
	afterEach(() => vi.useRealTimers());
	const memory = () => new RateLimiter(async () => undefined);

	it('counts each zone per client up to its limit', async () => {
		vi.useFakeTimers({ now: 0 });
		const r = memory();
		expect(await r.take('a', 1, limits, 600)).toEqual({
			allowed: true,
			usage: { zone1Usage: 1, zone1Limit: 3, zone2Usage: 0, zone2Limit: 1, resetAfter: 600 }
		});
		await r.take('a', 1, limits, 600);
		vi.setSystemTime(10_500);
		const third = await r.take('a', 1, limits, 600);
		expect(third.allowed).toBe(true);
		expect(third.usage.zone1Usage).toBe(3);
		expect(third.usage.resetAfter).toBe(590);
		const fourth = await r.take('a', 1, limits, 600);
		expect(fourth.allowed).toBe(false);
		expect(fourth.usage.zone1Usage).toBe(3);
		expect(await r.take('a', 2, limits, 600)).toMatchObject({
			allowed: true,
			usage: { zone1Usage: 3, zone2Usage: 1, resetAfter: 600 }
		});
		expect((await r.take('a', 2, limits, 600)).allowed).toBe(false);
		expect(await r.take('b', 1, limits, 600)).toMatchObject({
			allowed: true,
			usage: { zone1Usage: 1 }
		});
		// A peek shows both zones, and the later of the two windows' ends.
		expect(await r.peek('a', limits, 600)).toEqual({
			zone1Usage: 3,
			zone1Limit: 3,
			zone2Usage: 1,
			zone2Limit: 1,
			resetAfter: 600
		});
	});

	it('starts a new window when the old one ends', async () => {
		vi.useFakeTimers({ now: 0 });
		const r = memory();
		for (let i = 0; i < 3; i++) await r.take('a', 1, limits, 2);
		expect((await r.take('a', 1, limits, 2)).allowed).toBe(false);
		vi.setSystemTime(1_999);
		expect((await r.peek('a', limits, 2)).resetAfter).toBe(1);
		vi.advanceTimersByTime(1);
		expect(await r.peek('a', limits, 2)).toMatchObject({ zone1Usage: 0, resetAfter: 2 });
		expect(await r.take('a', 1, limits, 2)).toMatchObject({
			allowed: true,
			usage: { zone1Usage: 1 }
		});
	});

	it('peeks without counting, and shows zero usage for an unknown caller', async () => {
		const r = memory();
		expect(await r.peek(undefined, { zone1: 100, zone2: 10 }, 600)).toEqual({
			zone1Usage: 0,
			zone1Limit: 100,
			zone2Usage: 0,
			zone2Limit: 10,
			resetAfter: 600
		});
		await r.peek('a', limits, 600);
		expect((await r.peek('a', limits, 600)).zone1Usage).toBe(0);
	});

	it('a store that fails is StoreUnavailable, not a count of nothing', async () => {
		const r = new RateLimiter(async () => {
			throw new Error('connection refused');
		});
		await expect(r.take('a', 1, limits, 600)).rejects.toBeInstanceOf(StoreUnavailable);
		await expect(r.peek('a', limits, 600)).rejects.toThrow(/connection refused/);
	});

	it('writes the five X-Reader headers', () => {
		expect(
			usageHeaders({ zone1Usage: 1, zone1Limit: 2, zone2Usage: 3, zone2Limit: 4, resetAfter: 5 })
		).toEqual({
			'X-Reader-Zone1-Usage': '1',
			'X-Reader-Zone1-Limit': '2',
			'X-Reader-Zone2-Usage': '3',
			'X-Reader-Zone2-Limit': '4',
			'X-Reader-Limits-Reset-After': '5'
		});
	});
});
