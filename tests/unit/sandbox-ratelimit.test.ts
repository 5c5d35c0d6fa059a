import { describe, expect, it } from 'vitest';
import { RateLimiter, usageHeaders } from '$lib/sandbox/ratelimit.server';

const limits = { zone1: 3, zone2: 1 };

describe('sandbox rate limits', () => {
	it('counts each zone per client up to its limit', () => {
		let t = 0;
		const r = new RateLimiter(() => t);
		expect(r.take('a', 1, limits, 600)).toEqual({
			allowed: true,
			usage: { zone1Usage: 1, zone1Limit: 3, zone2Usage: 0, zone2Limit: 1, resetAfter: 600 }
		});
		r.take('a', 1, limits, 600);
		t = 10_500;
		const third = r.take('a', 1, limits, 600);
		expect(third.allowed).toBe(true);
		expect(third.usage.zone1Usage).toBe(3);
		expect(third.usage.resetAfter).toBe(590);
		const fourth = r.take('a', 1, limits, 600);
		expect(fourth.allowed).toBe(false);
		expect(fourth.usage.zone1Usage).toBe(3);
		expect(r.take('a', 2, limits, 600)).toMatchObject({
			allowed: true,
			usage: { zone1Usage: 3, zone2Usage: 1 }
		});
		expect(r.take('a', 2, limits, 600).allowed).toBe(false);
		expect(r.take('b', 1, limits, 600)).toMatchObject({ allowed: true, usage: { zone1Usage: 1 } });
	});

	it('starts a new window when the old one ends', () => {
		let t = 0;
		const r = new RateLimiter(() => t);
		for (let i = 0; i < 3; i++) r.take('a', 1, limits, 2);
		expect(r.take('a', 1, limits, 2).allowed).toBe(false);
		t = 1_999;
		expect(r.peek('a', limits, 2).resetAfter).toBe(1);
		t = 2_000;
		expect(r.peek('a', limits, 2)).toMatchObject({ zone1Usage: 0, resetAfter: 2 });
		expect(r.take('a', 1, limits, 2)).toMatchObject({ allowed: true, usage: { zone1Usage: 1 } });
	});

	it('peeks without counting, and shows zero usage for an unknown caller', () => {
		const r = new RateLimiter(() => 0);
		expect(r.peek(undefined, { zone1: 100, zone2: 10 }, 600)).toEqual({
			zone1Usage: 0,
			zone1Limit: 100,
			zone2Usage: 0,
			zone2Limit: 10,
			resetAfter: 600
		});
		r.peek('a', limits, 600);
		expect(r.peek('a', limits, 600).zone1Usage).toBe(0);
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
