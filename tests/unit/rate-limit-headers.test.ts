/**
 * Other services' rate-limit headers read into the meters (exchange/rate-limit-headers.ts), each
 * shape in its real form as its publisher's docs show it (the source is above each test), and the
 * Structured Field Lists the IETF fields are (exchange/structured-field.ts). A shape it does not
 * know draws no meter.
 */
import { describe, expect, test } from 'vitest';
import { budgetOf, httpDate, readBudget, type Meter } from '$lib/exchange/rate-limit-headers';
import { parseList } from '$lib/exchange/structured-field';
import type { HeaderList } from '$lib/exchange/types';

const S = 1000;
/** When the answer came, in the tests' own clock (a clock far from the servers' Dates below). */
const RECEIVED = Date.UTC(2026, 2, 14, 9, 26, 55);

const meters = (headers: HeaderList, receivedAt = RECEIVED): Meter[] | undefined =>
	readBudget(headers, receivedAt)?.meters;

describe("the service's own headers", () => {
	// The five headers the service's API docs name, with the sandbox's defaults (100 and 10).
	test('a meter per zone, with its words: reads and writes, and the reset counted from the answer', () => {
		expect(
			meters([
				['X-Reader-Zone1-Usage', '1'],
				['X-Reader-Zone1-Limit', '100'],
				['X-Reader-Zone2-Usage', '9'],
				['X-Reader-Zone2-Limit', '10'],
				['X-Reader-Limits-Reset-After', '583']
			])
		).toStrictEqual([
			{
				key: 'zone1',
				zone: 1,
				label: 'Zone 1 (reads)',
				limit: 100,
				used: 1,
				left: 99,
				resetAt: RECEIVED + 583 * S
			},
			{
				key: 'zone2',
				zone: 2,
				label: 'Zone 2 (writes)',
				limit: 10,
				used: 9,
				left: 1,
				resetAt: RECEIVED + 583 * S
			}
		]);
	});

	test('a usage over the limit leaves none, never a negative number', () => {
		expect(
			meters([
				['X-Reader-Zone2-Usage', '12'],
				['X-Reader-Zone2-Limit', '10']
			])?.[0]
		).toMatchObject({ used: 12, limit: 10, left: 0 });
	});
});

describe('GitHub: X-RateLimit-Limit, -Remaining, -Reset (an epoch time), -Used, -Resource', () => {
	// docs.github.com, REST API "Rate limiting" (the v3 overview): `curl -I
	// https://api.github.com/users/octocat` answered with these four headers; the reset is "the time
	// at which the current rate limit window resets in UTC epoch seconds": 17:47:53, 20 min 47 s
	// after the answer's Date.
	const octocat: HeaderList = [
		['Date', 'Mon, 01 Jul 2013 17:27:06 GMT'],
		['Status', '200 OK'],
		['X-RateLimit-Limit', '60'],
		['X-RateLimit-Remaining', '56'],
		['X-RateLimit-Reset', '1372700873']
	];

	test("the reset is read as an epoch time, relative to the answer's Date (the same server's clock)", () => {
		expect(meters(octocat)).toStrictEqual([
			{
				key: 'x-ratelimit',
				label: 'Requests',
				limit: 60,
				used: 4,
				left: 56,
				resetAt: RECEIVED + 1247 * S
			}
		]);
	});

	test('answered at its Date, the reset is the epoch time itself', () => {
		const at = Date.UTC(2013, 6, 1, 17, 27, 6);
		expect(meters(octocat, at)?.[0]?.resetAt).toBe(1372700873 * S);
	});

	test('with no Date, the epoch time as it is', () => {
		expect(meters(octocat.filter(([n]) => n !== 'Date'))?.[0]?.resetAt).toBe(1372700873 * S);
	});

	// docs.github.com, "Rate limits for the REST API", "Checking the status of your rate limit": the
	// headers as today's API sends them, lower case, with x-ratelimit-used and x-ratelimit-resource.
	test('lower-case names, with the resource it counted against in the label', () => {
		expect(
			meters([
				['date', 'Mon, 01 Jul 2013 17:27:06 GMT'],
				['x-ratelimit-limit', '5000'],
				['x-ratelimit-remaining', '4999'],
				['x-ratelimit-reset', '1372700873'],
				['x-ratelimit-used', '1'],
				['x-ratelimit-resource', 'core']
			])
		).toStrictEqual([
			{
				key: 'x-ratelimit:core',
				label: 'Requests (core)',
				limit: 5000,
				used: 1,
				left: 4999,
				resetAt: RECEIVED + 1247 * S
			}
		]);
	});
});

describe('Feedly: X-Ratelimit-Count and X-Ratelimit-Reset in seconds', () => {
	// developers.feedly.com/reference/request-limits: "X-Ratelimit-Count: 57, X-Ratelimit-Reset:
	// 23841 indicates that this token has been used to make 57 API requests so far, and that the
	// counter will reset in 6 hours, 37 minutes, and 21 seconds." No limit is sent.
	test('a count with no limit: used, nothing said left', () => {
		expect(
			meters([
				['X-Ratelimit-Count', '57'],
				['X-Ratelimit-Reset', '23841']
			])
		).toStrictEqual([
			{
				key: 'x-ratelimit',
				label: 'Requests',
				limit: undefined,
				used: 57,
				left: undefined,
				resetAt: RECEIVED + 23841 * S
			}
		]);
	});

	// developers.feedly.com/reference/status-codes, "429 Too Many Requests": "X-RateLimit-Count: 13,
	// X-RateLimit-Limit: 100000, X-RateLimit-Reset: 23841": 13 of 100,000 calls made.
	test('a count with a limit: what is left follows', () => {
		expect(
			meters([
				['X-RateLimit-Count', '13'],
				['X-RateLimit-Limit', '100000'],
				['X-RateLimit-Reset', '23841']
			])?.[0]
		).toMatchObject({ used: 13, limit: 100000, left: 99987, resetAt: RECEIVED + 23841 * S });
	});

	test("seconds count from the answer, whatever the answer's Date says", () => {
		expect(
			meters([
				['Date', 'Mon, 01 Jul 2013 17:27:06 GMT'],
				['X-Ratelimit-Count', '57'],
				['X-Ratelimit-Reset', '23841']
			])?.[0]?.resetAt
		).toBe(RECEIVED + 23841 * S);
	});
});

describe('the IETF fields: RateLimit and RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-11)', () => {
	// Appendix B.2.1, "Throttling window specified via parameter".
	test('a policy and its service limit: left of the quota, the window, the reset', () => {
		expect(
			meters([
				['Content-Type', 'application/json'],
				['RateLimit', '"fixedwindow";r=99;t=50'],
				['RateLimit-Policy', '"fixedwindow";q=100;w=60']
			])
		).toStrictEqual([
			{
				key: 'policy:fixedwindow',
				label: 'Policy “fixedwindow”',
				limit: 100,
				used: 1,
				left: 99,
				unit: undefined,
				window: 60,
				resetAt: RECEIVED + 50 * S
			}
		]);
	});

	// Appendix B.3.1, "Use with multiple windows": the limit named is the one drawn.
	test('several policies: the one the RateLimit field names', () => {
		expect(
			meters([
				['RateLimit-Policy', '"hour";q=1000;w=3600, "day";q=5000;w=86400'],
				['RateLimit', '"day";r=100;t=36000']
			])
		).toMatchObject([{ label: 'Policy “day”', limit: 5000, left: 100, window: 86400 }]);
	});

	// The FAQ's "Is the quota-policy definition too complex?": the policies on two field lines,
	// one List (RFC 9651 §4.2).
	test('a field on several lines is one list', () => {
		expect(
			meters([
				['RateLimit-Policy', '"sliding";q=100;w=60;burst=1000'],
				['RateLimit-Policy', '"fixed";q=5000;w=3600;burst=0'],
				['RateLimit', '"sliding";r=50;t=44']
			])
		).toMatchObject([{ key: 'policy:sliding', limit: 100, left: 50, resetAt: RECEIVED + 44 * S }]);
	});

	// Appendix B.1.2, "Multiple policies in response": no RateLimit-Policy, so no limit is known.
	test('no policy sent: what is left, no limit and no graphic', () => {
		expect(meters([['RateLimit', '"dayLimit";r=100;t=36000']])).toStrictEqual([
			{
				key: 'policy:dayLimit',
				label: 'Policy “dayLimit”',
				limit: undefined,
				used: undefined,
				left: 100,
				unit: undefined,
				window: undefined,
				resetAt: RECEIVED + 36000 * S
			}
		]);
	});

	// §3.2: a policy with a partition key and a quota unit; §4.2: the matching service limit.
	test('a quota in another unit than requests says so; the partition key is left alone', () => {
		expect(
			meters([
				['RateLimit-Policy', '"peruser";q=65535;qu="content-bytes";w=10;pk=:sdfjLJUOUH==:'],
				['RateLimit', '"peruser";r=300;t=10;pk=:sdfjLJUOUH==:']
			])
		).toMatchObject([{ limit: 65535, left: 300, unit: 'content-bytes', window: 10 }]);
	});

	// Appendix B.1.4, "Use in throttled responses": Retry-After as an HTTP date, 5 s after Date.
	test('a 429 with Retry-After as an HTTP date: the wait, relative to the same Date', () => {
		expect(
			readBudget(
				[
					['Content-Type', 'application/problem+json'],
					['Date', 'Mon, 05 Aug 2019 09:27:00 GMT'],
					['Retry-After', 'Mon, 05 Aug 2019 09:27:05 GMT'],
					['RateLimit', '"default";r=0;t=5']
				],
				RECEIVED
			)
		).toMatchObject({
			meters: [{ left: 0, resetAt: RECEIVED + 5 * S }],
			retryAt: RECEIVED + 5 * S
		});
	});

	test('a policy whose quota is below what is left gives no limit to draw against', () => {
		expect(
			meters([
				['RateLimit-Policy', '"basic";q=10;w=60'],
				['RateLimit', '"basic";r=60;t=58']
			])?.[0]
		).toMatchObject({ limit: undefined, left: 60 });
	});

	test('a malformed RateLimit-Policy is ignored; the RateLimit field still counts', () => {
		expect(
			meters([
				['RateLimit-Policy', '"basic";w=60'],
				['RateLimit', '"basic";r=60;t=58']
			])?.[0]
		).toMatchObject({ limit: undefined, left: 60 });
	});
});

describe('the older drafts: RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset', () => {
	// draft-ietf-httpapi-ratelimit-headers-01 §8.1.1 "Throttling information in responses", names
	// spelled as there; the reset is delay-seconds.
	test('the triple, in seconds', () => {
		expect(
			meters([
				['Content-Type', 'application/json'],
				['RateLimit-Limit', '100'],
				['Ratelimit-Remaining', '0'],
				['Ratelimit-Reset', '50']
			])
		).toStrictEqual([
			{
				key: 'ratelimit',
				label: 'Requests',
				limit: 100,
				used: 100,
				left: 0,
				resetAt: RECEIVED + 50 * S
			}
		]);
	});

	// The same draft, §3.1: "RateLimit-Limit: 10, 10;w=1, 50;w=60, 1000;w=3600, 5000;w=86400", the
	// first number the limit closest to being reached, the rest informative; §4's "RateLimit-Remaining: 1".
	test('a limit followed by its quota policies: the first number is the limit', () => {
		expect(
			meters([
				['RateLimit-Limit', '10, 10;w=1, 50;w=60, 1000;w=3600, 5000;w=86400'],
				['RateLimit-Remaining', '1'],
				['RateLimit-Reset', '7']
			])?.[0]
		).toMatchObject({ limit: 10, left: 1, resetAt: RECEIVED + 7 * S });
	});
});

describe('Retry-After (RFC 9110 §10.2.3)', () => {
	// The RFC's two examples.
	test('seconds, counted from the answer', () => {
		expect(readBudget([['Retry-After', '120']], RECEIVED)).toStrictEqual({
			meters: [],
			retryAt: RECEIVED + 120 * S
		});
	});

	test('an HTTP date, with no Date to compare: the date itself', () => {
		expect(readBudget([['Retry-After', 'Fri, 31 Dec 1999 23:59:59 GMT']], RECEIVED)?.retryAt).toBe(
			Date.UTC(1999, 11, 31, 23, 59, 59)
		);
	});

	test('neither: not read', () => {
		expect(readBudget([['Retry-After', 'soon']], RECEIVED)).toBeUndefined();
		expect(readBudget([['Retry-After', '1.5']], RECEIVED)).toBeUndefined();
	});
});

describe('HTTP dates (RFC 9110 §5.6.7): the preferred form and the two obsolete ones', () => {
	const t = Date.UTC(1994, 10, 6, 8, 49, 37);
	test.each([
		['Sun, 06 Nov 1994 08:49:37 GMT', t],
		['Sunday, 06-Nov-94 08:49:37 GMT', t],
		['Sun Nov  6 08:49:37 1994', t],
		['Sun, 06 Nov 1994 08:49:37 UTC', undefined],
		['06 Nov 1994', undefined],
		['Sun, 32 Nov 1994 08:49:37 GMT', undefined],
		['Sun, 06 Nov 1994 24:49:37 GMT', undefined],
		['', undefined]
	])('%j', (value, ms) => expect(httpDate(value)).toBe(ms));
});

describe('a shape it does not know draws no meter: headers only', () => {
	test.each<[string, HeaderList]>([
		// Kong's rate-limiting plugin (docs.konghq.com): the window in the names.
		[
			"Kong's per-window names",
			[
				['X-RateLimit-Limit-Minute', '5'],
				['X-RateLimit-Remaining-Minute', '4']
			]
		],
		// draft-ietf-httpapi-ratelimit-headers-07 §4's Dictionary, replaced since by the List of -08.
		['the -07 Dictionary', [['RateLimit', 'limit=100, remaining=50, reset=5']]],
		// -06 §4's policies as Integers: -11's are named by Strings.
		['-06 policies alone', [['RateLimit-Policy', '10;w=1, 50;w=60']]],
		// docs.gusto.com changelog, "Added rate limit headers": a reset written as a date and time.
		[
			"a reset as a local date and time (Gusto's)",
			[
				['X-RateLimit-Limit', '200'],
				['X-RateLimit-Remaining', '198'],
				['X-RateLimit-Reset', '2025-07-08 15:35:40 -0700']
			]
		],
		[
			'a reset in epoch milliseconds',
			[
				['X-RateLimit-Limit', '60'],
				['X-RateLimit-Remaining', '56'],
				['X-RateLimit-Reset', '1372700873000']
			]
		],
		[
			'counts that are not whole numbers',
			[
				['X-Ratelimit-Used', '1'],
				['X-Ratelimit-Remaining', '99.0'],
				['X-Ratelimit-Reset', '438']
			]
		],
		[
			'more left than the limit',
			[
				['X-RateLimit-Limit', '60'],
				['X-RateLimit-Remaining', '61']
			]
		],
		[
			'a limit with nothing used or left',
			[
				['X-RateLimit-Limit', '200'],
				['X-RateLimit-Reset', '60']
			]
		],
		[
			'a header twice with two values',
			[
				['X-RateLimit-Limit', '60'],
				['X-RateLimit-Remaining', '56'],
				['X-RateLimit-Remaining', '12']
			]
		],
		['a RateLimit item with no r', [['RateLimit', '"default";t=30']]],
		['a RateLimit item named by a token', [['RateLimit', 'default;r=50;t=30']]],
		['no rate-limit header at all', [['Content-Type', 'application/json']]]
	])('%s', (_, headers) => expect(readBudget(headers, RECEIVED)).toBeUndefined());
});

test("an exchange's budget counts from when its answer came: its start plus its time", () => {
	const ex = {
		startedAt: '2026-03-14T09:26:55.000Z',
		timing: { total: 250 },
		response: {
			status: 200,
			statusText: 'OK',
			httpVersion: '1.1',
			headers: [
				['X-Ratelimit-Count', '57'],
				['X-Ratelimit-Reset', '23841']
			] as HeaderList,
			body: '',
			truncated: false
		}
	};
	expect(budgetOf(ex)?.meters[0]?.resetAt).toBe(RECEIVED + 250 + 23841 * S);
	expect(budgetOf({ ...ex, response: undefined })).toBeUndefined();
});

describe('Structured Field Lists (RFC 9651 §4.2.1)', () => {
	test('items with parameters, every bare item type', () => {
		expect(
			parseList(['"a";q=1;w=2.5;x, tok/en:x;n=-3, :aGk=:, ?0, @1659578233, %"f%c3%bc"'])
		).toStrictEqual([
			{
				kind: 'item',
				value: { type: 'string', value: 'a' },
				params: new Map([
					['q', { type: 'integer', value: 1 }],
					['w', { type: 'decimal', value: 2.5 }],
					['x', { type: 'boolean', value: true }]
				])
			},
			{
				kind: 'item',
				value: { type: 'token', value: 'tok/en:x' },
				params: new Map([['n', { type: 'integer', value: -3 }]])
			},
			{ kind: 'item', value: { type: 'bytes', value: 'aGk=' }, params: new Map() },
			{ kind: 'item', value: { type: 'boolean', value: false }, params: new Map() },
			{ kind: 'item', value: { type: 'date', value: 1659578233 }, params: new Map() },
			{ kind: 'item', value: { type: 'display', value: 'fü' }, params: new Map() }
		]);
	});

	test('an inner list, escapes in a string, and the empty field', () => {
		expect(parseList(['("a" b);k=1, "q\\"\\\\"'])).toStrictEqual([
			{
				kind: 'inner',
				items: [
					{ value: { type: 'string', value: 'a' }, params: new Map() },
					{ value: { type: 'token', value: 'b' }, params: new Map() }
				],
				params: new Map([['k', { type: 'integer', value: 1 }]])
			},
			{ kind: 'item', value: { type: 'string', value: 'q"\\' }, params: new Map() }
		]);
		expect(parseList([''])).toStrictEqual([]);
	});

	test.each([
		['a trailing comma', '"a",'],
		['an unclosed string', '"a'],
		['a bad escape', '"a\\n"'],
		['a key in upper case', '"a";Q=1'],
		['a parameter with no key', '"a";=1'],
		['16 digits', '1234567890123456'],
		['four decimals', '1.2345'],
		['a dot with nothing after', '1.'],
		['two items with no comma', '"a" "b"'],
		['a Dictionary member', 'limit=100'],
		['a boolean other than 0 or 1', '?2'],
		['a display string in upper-case hex', '%"%C3%BC"']
	])('%s fails the whole field', (_, value) => expect(parseList([value])).toBeUndefined());
});
