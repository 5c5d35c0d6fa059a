/**
 * The meters in words (ui/rate-limit-words.ts): "N of M left, resets at HH:MM (in 9 min)" in the
 * user's time zone, "57 used" where only a count is known, and the line before the next call when
 * the budget it draws on is nearly spent (10% or less, or one call left) and has not reset since.
 */
import { describe, expect, test } from 'vitest';
import type { Meter } from '$lib/exchange/rate-limit-headers';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import {
	budgetWarnings,
	clockWords,
	costWords,
	latestMeters,
	meterLabel,
	meterWords,
	nearlySpent,
	retryWords,
	spanWords,
	zoneOfMethod
} from '$lib/ui/rate-limit-words';

const S = 1000;
const MIN = 60 * S;
/** 13:56 UTC on a Saturday. */
const NOW = Date.UTC(2026, 2, 14, 13, 56, 0);
const utc = clockWords('UTC');

describe('meterWords', () => {
	const zone1: Meter = {
		key: 'zone1',
		zone: 1,
		label: 'Zone 1 (reads)',
		limit: 5,
		used: 1,
		left: 4,
		resetAt: NOW + 9 * MIN
	};

	test('left of the limit, the reset at HH:MM and the time to go', () => {
		expect(meterWords(zone1, NOW, utc)).toBe('4 of 5 left, resets at 14:05 (in 9 min)');
	});

	test("in the user's time zone", () => {
		expect(meterWords(zone1, NOW, clockWords('Asia/Kolkata'))).toBe(
			'4 of 5 left, resets at 19:35 (in 9 min)'
		);
		expect(meterWords(zone1, NOW, clockWords('America/New_York'))).toBe(
			'4 of 5 left, resets at 10:05 (in 9 min)'
		);
	});

	// Feedly's X-Ratelimit-Count: 57 and X-Ratelimit-Reset: 23841 (developers.feedly.com).
	test('a count with no limit: used, and no "left"', () => {
		expect(
			meterWords({ key: 'x', label: 'Requests', used: 57, resetAt: NOW + 23841 * S }, NOW, utc)
		).toBe('57 used, resets at 20:33 (in 6 h 37 min)');
	});

	test('left with no limit; a unit other than requests; big numbers grouped', () => {
		expect(meterWords({ key: 'p', label: 'P', left: 100 }, NOW, utc)).toBe('100 left');
		expect(
			meterWords({ key: 'p', label: 'P', left: 300, limit: 65535, unit: 'content-bytes' }, NOW, utc)
		).toBe('300 of 65,535 content-bytes left');
		expect(meterWords({ key: 'p', label: 'P', left: 99987, limit: 100000 }, NOW, utc)).toBe(
			'99,987 of 100,000 left'
		);
	});

	test('once past: "reset at", and how long ago', () => {
		expect(meterWords({ ...zone1, resetAt: NOW - 3 * MIN }, NOW, utc)).toBe(
			'4 of 5 left, reset at 13:53 (3 min ago)'
		);
		expect(meterWords({ ...zone1, resetAt: NOW - 200 }, NOW, utc)).toBe(
			'4 of 5 left, reset at 13:55 (just now)'
		);
	});

	test('another day: its date too, and the year when it is another', () => {
		expect(meterWords({ ...zone1, resetAt: NOW + 11 * 3600 * S }, NOW, utc)).toBe(
			'4 of 5 left, resets at 15 Mar 00:56 (in 11 h)'
		);
		expect(meterWords({ ...zone1, resetAt: Date.UTC(2027, 0, 2, 8, 0) }, NOW, utc)).toBe(
			'4 of 5 left, resets at 2 Jan 2027 08:00 (in 293 d 18 h)'
		);
	});

	test('without the time to go, for words said once', () => {
		expect(meterWords(zone1, NOW, utc, false)).toBe('4 of 5 left, resets at 14:05');
	});

	test('no reset known: the amount alone', () => {
		expect(meterWords({ ...zone1, resetAt: undefined }, NOW, utc)).toBe('4 of 5 left');
	});
});

describe('spanWords', () => {
	test.each([
		[0, '0 s'],
		[45 * S, '45 s'],
		[59 * S + 999, '59 s'],
		[60 * S, '1 min'],
		[9 * MIN + 59 * S, '9 min'],
		[3600 * S, '1 h'],
		[23841 * S, '6 h 37 min'],
		[86400 * S, '1 d'],
		[(86400 + 3 * 3600 + 59) * S, '1 d 3 h']
	])('%i ms: %s', (ms, words) => expect(spanWords(ms)).toBe(words));
});

test('a policy with a window says it in its label', () => {
	expect(meterLabel({ key: 'p', label: 'Policy “basic”', window: 60 })).toBe(
		'Policy “basic” (per 1 min)'
	);
	expect(meterLabel({ key: 'z', label: 'Zone 1 (reads)' })).toBe('Zone 1 (reads)');
});

test('Retry-After in words, coming or passed', () => {
	expect(retryWords(NOW + 120 * S, NOW, utc)).toBe('Retry after 13:58 (in 2 min)');
	expect(retryWords(NOW - S, NOW, utc)).toBe('Retry after 13:55 (passed)');
});

describe('nearlySpent: 10% of the limit or less, or one call or none', () => {
	test.each<[Partial<Meter>, boolean]>([
		[{ left: 4, limit: 5 }, false],
		[{ left: 1, limit: 5 }, true],
		[{ left: 0, limit: 5 }, true],
		[{ left: 10, limit: 100 }, true],
		[{ left: 11, limit: 100 }, false],
		[{ left: 2 }, false],
		[{ left: 1 }, true],
		[{ used: 57 }, false]
	])('%j: %s', (m, spent) => expect(nearlySpent({ key: 'k', label: 'L', ...m })).toBe(spent));
});

test("a call's zone: reads in zone 1, writes in zone 2", () => {
	expect(zoneOfMethod('GET')).toBe(1);
	expect(zoneOfMethod('HEAD')).toBe(1);
	for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) expect(zoneOfMethod(m)).toBe(2);
});

/** An answer to an API call, `at` ms, with these headers. */
function answered(
	step: Exchange['step'],
	at: number,
	headers: HeaderList,
	id = `e${at}`
): Exchange {
	return {
		id,
		step,
		startedAt: new Date(at).toISOString(),
		request: {
			method: 'GET',
			url: 'http://127.0.0.1/reader/api/0/x',
			httpVersion: '1.1',
			headers: [],
			body: ''
		},
		response: {
			status: 200,
			statusText: 'OK',
			httpVersion: '1.1',
			headers,
			body: '',
			truncated: false
		},
		timing: { total: 0 },
		findings: []
	};
}

const zones = (z1: number, z2: number, resetAfter = 540): HeaderList => [
	['X-Reader-Zone1-Usage', String(z1)],
	['X-Reader-Zone1-Limit', '5'],
	['X-Reader-Zone2-Usage', String(z2)],
	['X-Reader-Zone2-Limit', '10'],
	['X-Reader-Limits-Reset-After', String(resetAfter)]
];

describe('latestMeters: the newest reading of each budget, from the calls of the API', () => {
	test('the newest answer wins; the token endpoint and answerless exchanges do not count', () => {
		const token = answered('exchange', NOW, zones(0, 0));
		const older = answered('userinfo', NOW - 2 * MIN, zones(1, 9));
		const newer = answered('api', NOW - MIN, zones(4, 9));
		const failed = { ...answered('api', NOW, zones(0, 0)), response: undefined };
		const m = latestMeters([older, newer, token, failed]);
		expect(m.map((x) => [x.key, x.used])).toEqual([
			['zone1', 4],
			['zone2', 9]
		]);
	});

	test('a budget only an older answer told about is kept', () => {
		const github = answered('api', NOW - MIN, [
			['X-RateLimit-Limit', '60'],
			['X-RateLimit-Remaining', '1']
		]);
		const m = latestMeters([github, answered('api', NOW, zones(1, 0))]);
		expect(m.map((x) => x.key)).toEqual(['zone1', 'zone2', 'x-ratelimit']);
	});
});

describe('budgetWarnings: before a call, the budget it draws on when nearly spent', () => {
	test('zone 1 with one call left: said before a read, not before a write', () => {
		const list = [answered('userinfo', NOW - MIN, zones(4, 0))];
		expect(budgetWarnings(latestMeters(list), 1, NOW, utc)).toStrictEqual([
			{
				key: 'zone1',
				text: 'Zone 1 (reads): nearly spent, 1 of 5 left, resets at 14:04 (in 8 min).',
				said: 'Zone 1 (reads): nearly spent, 1 of 5 left, resets at 14:04.'
			}
		]);
		expect(budgetWarnings(latestMeters(list), 2, NOW, utc)).toStrictEqual([]);
	});

	test('zone 2 spent: said before a write', () => {
		const list = [answered('api', NOW, zones(0, 10))];
		expect(budgetWarnings(latestMeters(list), 2, NOW, utc).map((w) => w.text)).toEqual([
			'Zone 2 (writes): spent, 0 of 10 left, resets at 14:05 (in 9 min).'
		]);
	});

	test('more than 10% and more than one call left: nothing', () => {
		expect(budgetWarnings(latestMeters([answered('api', NOW, zones(3, 8))]), 1, NOW, utc)).toEqual(
			[]
		);
		expect(budgetWarnings(latestMeters([answered('api', NOW, zones(3, 8))]), 2, NOW, utc)).toEqual(
			[]
		);
	});

	test('once the budget has reset, nothing', () => {
		const list = [answered('api', NOW - 10 * MIN, zones(5, 10))];
		expect(budgetWarnings(latestMeters(list), 1, NOW, utc)).toEqual([]);
		expect(budgetWarnings(latestMeters(list), 1, NOW - 2 * MIN, utc)).toHaveLength(1);
	});

	test('a newer answer with more left takes the warning back', () => {
		const list = [
			answered('api', NOW - 2 * MIN, zones(5, 0)),
			answered('api', NOW - MIN, zones(0, 0))
		];
		expect(budgetWarnings(latestMeters(list), 1, NOW, utc)).toEqual([]);
	});

	test("another service's budget, with no zone, counts for every call", () => {
		// GitHub's shape (docs.github.com): 6 of 60 left is 10%.
		const list = [
			answered('api', NOW, [
				['X-RateLimit-Limit', '60'],
				['X-RateLimit-Remaining', '6'],
				['X-RateLimit-Reset', String(NOW / S + 1247)]
			])
		];
		for (const zone of [1, 2] as const)
			expect(budgetWarnings(latestMeters(list), zone, NOW, utc).map((w) => w.text)).toEqual([
				'Requests: nearly spent, 6 of 60 left, resets at 14:16 (in 20 min).'
			]);
	});

	test('a count with no limit is never "nearly spent"', () => {
		const list = [
			answered('api', NOW, [
				['X-Ratelimit-Count', '99999'],
				['X-Ratelimit-Reset', '60']
			])
		];
		expect(budgetWarnings(latestMeters(list), 1, NOW, utc)).toEqual([]);
	});
});

describe('costWords: before Send, what a call spends of its zone', () => {
	test('one of what the newest reading left in that zone, and when it resets', () => {
		const list = [answered('userinfo', NOW - MIN, zones(1, 3))];
		expect(costWords(latestMeters(list), 1, NOW, utc)).toBe(
			'It spends 1 of the 4 left of 5 in Zone 1 (reads), resets at 14:04 (in 8 min).'
		);
		expect(costWords(latestMeters(list), 2, NOW, utc)).toBe(
			'It spends 1 of the 7 left of 10 in Zone 2 (writes), resets at 14:04 (in 8 min).'
		);
	});

	test('a reading that has reset since: said so, with what it had left', () => {
		const list = [answered('api', NOW - 10 * MIN, zones(5, 10))];
		expect(costWords(latestMeters(list), 1, NOW, utc)).toBe(
			'It spends 1 call of Zone 1 (reads), whose last reading (0 left) reset at 13:55 (1 min ago).'
		);
	});

	test('no reading of that zone (none yet, or a budget with no zone): nothing', () => {
		expect(costWords(latestMeters([]), 1, NOW, utc)).toBeUndefined();
		const github = answered('api', NOW, [
			['X-RateLimit-Limit', '60'],
			['X-RateLimit-Remaining', '59']
		]);
		expect(costWords(latestMeters([github]), 1, NOW, utc)).toBeUndefined();
	});
});
