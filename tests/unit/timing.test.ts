import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { Timing } from '$lib/exchange/types';
import { describeTiming, formatMs, phases, reusedConnection } from '$lib/ui/timing';

const sum = (t: Timing) => phases(t).reduce((a, p) => a + p.ms, 0);

describe('phases', () => {
	test('a new TLS connection: every phase, back to back', () => {
		const t: Timing = { dns: 2, connect: 3, tls: 5, firstByte: 30, total: 34 };
		expect(phases(t)).toEqual([
			{ name: 'dns', ms: 2, start: 0 },
			{ name: 'connect', ms: 3, start: 2 },
			{ name: 'tls', ms: 5, start: 5 },
			{ name: 'waiting', ms: 20, start: 10 },
			{ name: 'download', ms: 4, start: 30 }
		]);
		expect(sum(t)).toBe(34);
	});

	test('time spent waiting for one of the playground’s connections is its own phase, first, and not counted as the service’s waiting', () => {
		const t: Timing = { queued: 400, connect: 1, firstByte: 410, total: 412 };
		expect(phases(t)).toEqual([
			{ name: 'queued', ms: 400, start: 0 },
			{ name: 'connect', ms: 1, start: 400 },
			{ name: 'waiting', ms: 9, start: 401 },
			{ name: 'download', ms: 2, start: 410 }
		]);
		expect(describeTiming(t)).toBe(
			'queued in the playground 400 ms, connect 1.0 ms, waiting 9.0 ms, download 2.0 ms, total 412 ms'
		);
	});

	test('plain HTTP to an address: no DNS and no TLS segment', () => {
		expect(phases({ connect: 1, firstByte: 10, total: 12 }).map((p) => p.name)).toEqual([
			'connect',
			'waiting',
			'download'
		]);
	});

	test('a kept-alive connection: only waiting and download', () => {
		expect(phases({ firstByte: 12, total: 12.4 })).toEqual([
			{ name: 'waiting', ms: 12, start: 0 },
			{ name: 'download', ms: expect.closeTo(0.4, 9), start: 12 }
		]);
	});

	test('no answer (a timeout): waiting runs to the end, no download', () => {
		expect(phases({ dns: 1, connect: 2, total: 15000 })).toEqual([
			{ name: 'dns', ms: 1, start: 0 },
			{ name: 'connect', ms: 2, start: 1 },
			{ name: 'waiting', ms: 14997, start: 3 }
		]);
	});

	test('a refused connection right after DNS: nothing left to wait for', () => {
		expect(phases({ dns: 4, total: 4 })).toEqual([{ name: 'dns', ms: 4, start: 0 }]);
	});

	test('nothing measured (the consent navigation, a blocked request): no phases', () => {
		expect(phases({ total: 0 })).toEqual([]);
		expect(phases({ dns: 1, total: 0 })).toEqual([]);
	});

	test('rounding that overshoots is cut, never negative', () => {
		const t: Timing = { dns: 1.3, connect: 0.9, firstByte: 2.1, total: 2.0 };
		const list = phases(t);
		expect(list.every((p) => p.ms >= 0)).toBe(true);
		expect(sum(t)).toBeCloseTo(2.0, 9);
	});

	test('property: never negative, in order, and adding up to the total', () => {
		const ms = fc.option(fc.double({ min: -5, max: 5000, noNaN: true }), { nil: undefined });
		fc.assert(
			fc.property(
				ms,
				ms,
				ms,
				ms,
				fc.double({ min: 0, max: 20000, noNaN: true }),
				(dns, connect, tls, firstByte, total) => {
					const t: Timing = { dns, connect, tls, firstByte, total };
					const list = phases(t);
					let at = 0;
					for (const p of list) {
						expect(p.ms).toBeGreaterThanOrEqual(0);
						expect(p.start).toBeCloseTo(at, 6);
						at = p.start + p.ms;
					}
					if (total > 0) expect(sum(t)).toBeCloseTo(total, 6);
					else expect(list).toEqual([]);
				}
			)
		);
	});
});

describe('describeTiming', () => {
	test('names every known phase and the total', () => {
		expect(describeTiming({ dns: 1.2, connect: 0.8, firstByte: 14, total: 14.4 })).toBe(
			'DNS 1.2 ms, connect 0.8 ms, waiting 12 ms, download 0.4 ms, total 14 ms'
		);
	});
	test('says when the connection was reused', () => {
		expect(describeTiming({ firstByte: 3, total: 3.5 })).toBe(
			'Reused connection: waiting 3.0 ms, download 0.5 ms, total 3.5 ms'
		);
	});
	test('includes TLS', () => {
		expect(describeTiming({ dns: 10, connect: 20, tls: 30, firstByte: 100, total: 150 })).toBe(
			'DNS 10 ms, connect 20 ms, TLS 30 ms, waiting 40 ms, download 50 ms, total 150 ms'
		);
	});
	test('is empty when nothing was measured', () => {
		expect(describeTiming({ total: 0 })).toBe('');
	});
});

describe('reusedConnection and formatMs', () => {
	test('reused only when an answer came without DNS, connect or TLS', () => {
		expect(reusedConnection({ firstByte: 3, total: 4 })).toBe(true);
		expect(reusedConnection({ connect: 1, firstByte: 3, total: 4 })).toBe(false);
		expect(reusedConnection({ total: 5000 })).toBe(false);
		expect(reusedConnection({ total: 0 })).toBe(false);
	});
	test.each([
		[0, '0 ms'],
		[0.44, '0.4 ms'],
		[9.96, '10 ms'],
		[12.4, '12 ms'],
		[1234.5, '1235 ms']
	])('%d → %s', (n, text) => expect(formatMs(n)).toBe(text));
});
