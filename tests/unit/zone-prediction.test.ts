/**
 * The zone before Send (ui/zone-prediction.ts): against the sandbox from its own table, certain;
 * against another service from an earlier answer for the same method and path (the zone whose usage
 * header rose), certain, or else a guess by the method, said to be one; a zone-2 call with a token
 * granted only `read` is said to be most likely refused; after the answer, the zone its headers
 * show, a wrong guess corrected.
 */
import { describe, expect, test } from 'vitest';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import {
	predictZone,
	zoneAfterAnswer,
	zoneReadings,
	type ZoneContext
} from '$lib/ui/zone-prediction';

const T0 = Date.UTC(2026, 2, 14, 13, 0, 0);
const MIN = 60_000;
const SANDBOX_API = 'http://127.0.0.1:5173/sandbox/reader/api/0/';
const OTHER_API = 'http://127.0.0.1:9000/reader/api/0/';

const usage = (z1: number, z2: number, resetAfter = 600): HeaderList => [
	['X-Reader-Zone1-Usage', String(z1)],
	['X-Reader-Zone1-Limit', '100'],
	['X-Reader-Zone2-Usage', String(z2)],
	['X-Reader-Zone2-Limit', '10'],
	['X-Reader-Limits-Reset-After', String(resetAfter)]
];

let n = 0;
function answered(method: string, url: string, headers: HeaderList, at: number): Exchange {
	return {
		id: `e${++n}`,
		step: 'api',
		startedAt: new Date(at).toISOString(),
		request: { method, url, httpVersion: '1.1', headers: [], body: '' },
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

const sandbox = (scope = 'read write', exchanges: Exchange[] = []): ZoneContext => ({
	apiBase: SANDBOX_API,
	sandbox: true,
	exchanges,
	scope
});
const other = (exchanges: Exchange[] = [], scope = 'read write'): ZoneContext => ({
	apiBase: OTHER_API,
	sandbox: false,
	exchanges,
	scope
});
const call = (method: string, path: string, query = '') => ({ method, path, query });

describe('against the sandbox: its own table, certain', () => {
	test('a typed stream/contents/… path is zone 1, as the sandbox counts it', () => {
		const p = predictZone(
			call('GET', 'stream/contents/user/-/state/com.google/reading-list'),
			sandbox()
		);
		expect(p).toStrictEqual({
			zone: 1,
			certain: true,
			from: 'sandbox',
			text: 'Zone 1 (reads), as the sandbox counts it.',
			refusal: undefined
		});
	});

	test('edit-tag is zone 2, from the root path too, and an encoded stream id still finds its row', () => {
		expect(predictZone(call('POST', 'edit-tag'), sandbox())?.zone).toBe(2);
		expect(
			predictZone(call('POST', '/sandbox/reader/api/0/mark-all-as-read'), sandbox())?.zone
		).toBe(2);
		expect(
			predictZone(call('GET', 'stream/contents/feed%2Fhttps%3A%2F%2Fa.example%2Frss'), sandbox())
				?.zone
		).toBe(1);
	});

	test('no such endpoint, or the wrong method: no zone, and why', () => {
		const missing = predictZone(call('GET', 'nothing/here'), sandbox());
		expect(missing?.zone).toBeUndefined();
		expect(missing?.from).toBe('none');
		expect(missing?.text).toMatch(/404/);
		const wrong = predictZone(call('DELETE', 'edit-tag'), sandbox());
		expect(wrong?.zone).toBeUndefined();
		expect(wrong?.text).toBe(
			'No zone: the sandbox answers DELETE edit-tag with 405 (it takes POST) and counts nothing.'
		);
	});

	test('a zone-2 call with a token granted only read: most likely refused (403), and why', () => {
		const p = predictZone(call('POST', 'edit-tag'), sandbox('read'));
		expect(p?.refusal).toBe(
			"This token was granted only `read`, so the sandbox will most likely refuse the call (403): zone 2 needs `read write` (the service's API docs §5 step 7)."
		);
		expect(predictZone(call('GET', 'tag/list'), sandbox('read'))?.refusal).toBeUndefined();
		expect(predictZone(call('POST', 'edit-tag'), sandbox('read write'))?.refusal).toBeUndefined();
		// A scope the token answer did not state (and an empty request: the registration's default).
		expect(predictZone(call('POST', 'edit-tag'), sandbox(''))?.refusal).toBeUndefined();
	});
});

describe('against another service', () => {
	test('with nothing known: a guess by the method, said to be one, never the docs’ table', () => {
		const post = predictZone(call('POST', 'subscription/edit'), other());
		expect(post).toMatchObject({ zone: 2, certain: false, from: 'method' });
		expect(post?.text).toMatch(
			/^Likely zone 2: it writes, and the service's API docs put writes in zone 2\. A guess by the method/
		);
		expect(post?.text).toContain('list no zone for each path');
		for (const m of ['PUT', 'PATCH', 'DELETE'])
			expect(predictZone(call(m, 'x'), other())?.zone).toBe(2);
		const get = predictZone(call('GET', 'unread-count'), other());
		expect(get).toMatchObject({ zone: 1, certain: false, from: 'method' });
		expect(get?.text).toMatch(/^Likely zone 1: it reads\. A guess by the method/);
	});

	test('an earlier answer of the flow for the same method and path: the zone whose usage rose, certain', () => {
		const url = `${OTHER_API}subscription/quickadd`;
		const list = [
			answered('GET', `${OTHER_API}user-info`, usage(3, 1), T0),
			// A POST the service counts in zone 1, whatever the method says.
			answered('POST', `${url}?quickadd=feed`, usage(4, 1), T0 + MIN)
		];
		const p = predictZone(call('POST', 'subscription/quickadd', 'quickadd=other'), other(list));
		expect(p).toStrictEqual({
			zone: 1,
			certain: true,
			from: 'earlier',
			text: 'Zone 1 (reads): an earlier answer to POST /reader/api/0/subscription/quickadd showed it (its zone 1 usage rose).',
			refusal: undefined
		});
		// Another method on the same path is not the same call: still a guess.
		expect(predictZone(call('GET', 'subscription/quickadd'), other(list))?.from).toBe('method');
	});

	test('a read-only token and a likely zone-2 call: most likely refused', () => {
		expect(predictZone(call('POST', 'edit-tag'), other([], 'read'))?.refusal).toBe(
			"This token was granted only `read`, so the service will most likely refuse the call (403): zone 2 needs `read write` (the service's API docs §5 step 7)."
		);
	});

	test('a path that makes no URL: no prediction', () => {
		expect(predictZone(call('GET', '//evil.example/x'), other())).toBeUndefined();
	});
});

describe('zoneReadings: the zone whose usage rose since the reading before', () => {
	test('one zone rose; none rose; both rose', () => {
		const a = answered('GET', `${OTHER_API}a`, usage(3, 1), T0);
		const b = answered('POST', `${OTHER_API}b`, usage(3, 2), T0 + MIN);
		const c = answered('POST', `${OTHER_API}c`, usage(3, 2), T0 + 2 * MIN);
		const d = answered('GET', `${OTHER_API}d`, usage(5, 3), T0 + 3 * MIN);
		const r = zoneReadings([a, b, c, d]);
		expect(r.get(b.id)).toStrictEqual({ zone: 2 });
		expect(r.get(c.id)).toStrictEqual({ why: 'none-rose' });
		expect(r.get(d.id)).toStrictEqual({ why: 'both-rose' });
	});

	test('after the window reset (its time passed, or a usage fell) the count starts from 0', () => {
		const a = answered('GET', `${OTHER_API}a`, usage(3, 4, 60), T0);
		// Reset passed: 3 in zone 1 again is a rise from 0, zone 2's 0 is none.
		const b = answered('GET', `${OTHER_API}b`, usage(3, 0), T0 + 2 * MIN);
		// Zone 1 fell to 1 (its window started again), zone 2 stayed.
		const c = answered('GET', `${OTHER_API}c`, usage(1, 0), T0 + 3 * MIN);
		const r = zoneReadings([a, b, c]);
		expect(r.get(b.id)).toStrictEqual({ zone: 1 });
		expect(r.get(c.id)).toStrictEqual({ zone: 1 });
	});

	test("another service's counters are its own: each answer is compared with the reading before from its origin", () => {
		// The sandbox's reads, then the API base moved to another service, and back.
		const a = answered('GET', `${SANDBOX_API}user-info`, usage(7, 0), T0);
		const b = answered('PATCH', `${OTHER_API}things/7`, usage(2, 3), T0 + MIN);
		const c = answered('GET', `${OTHER_API}things/7/notes`, usage(3, 3), T0 + 2 * MIN);
		const d = answered('POST', `${SANDBOX_API}edit-tag`, usage(7, 1), T0 + 3 * MIN);
		const r = zoneReadings([a, b, c, d]);
		// The other service's first reading counts from 0: both its zones show use.
		expect(r.get(b.id)).toStrictEqual({ why: 'both-rose' });
		expect(r.get(c.id)).toStrictEqual({ zone: 1 });
		// Against the sandbox's own reading before, not the other service's.
		expect(r.get(d.id)).toStrictEqual({ zone: 2 });
	});

	test('answers without the usage headers are skipped, and not compared against', () => {
		const a = answered('GET', `${OTHER_API}a`, usage(3, 1), T0);
		const token = answered('POST', 'http://127.0.0.1:9000/oauth2/token', [], T0 + MIN);
		const b = answered('GET', `${OTHER_API}b`, usage(4, 1), T0 + 2 * MIN);
		const r = zoneReadings([a, token, b]);
		expect(r.has(token.id)).toBe(false);
		expect(r.get(b.id)).toStrictEqual({ zone: 1 });
	});
});

describe('zoneAfterAnswer: the zone the answer showed, a wrong guess corrected', () => {
	const first = answered('GET', `${OTHER_API}user-info`, usage(3, 1), T0);

	test('a GET guessed zone 1 whose zone-2 usage rose', () => {
		const ex = answered('GET', `${OTHER_API}search/items`, usage(3, 2), T0 + MIN);
		expect(zoneAfterAnswer(ex, other([first, ex]))).toBe(
			"Sent as likely zone 1; the answer's headers show zone 2 (its usage rose)."
		);
	});

	test('a right guess is confirmed; a known zone is as expected', () => {
		const ex = answered('GET', `${OTHER_API}tag/list`, usage(4, 1), T0 + MIN);
		expect(zoneAfterAnswer(ex, other([first, ex]))).toBe(
			"Sent as likely zone 1; the answer's headers confirm zone 1."
		);
		const again = answered('GET', `${OTHER_API}tag/list`, usage(5, 1), T0 + 2 * MIN);
		expect(zoneAfterAnswer(again, other([first, ex, again]))).toBe(
			"The answer's headers show zone 1 (its usage rose), as expected."
		);
	});

	test('against the sandbox, its table is what was expected', () => {
		const s = answered('GET', `${SANDBOX_API}user-info`, usage(1, 0), T0);
		const ex = answered('POST', `${SANDBOX_API}edit-tag`, usage(1, 1), T0 + MIN);
		expect(zoneAfterAnswer(ex, sandbox('read write', [s, ex]))).toBe(
			"The answer's headers show zone 2 (its usage rose), as expected."
		);
	});

	test('an answer without usage headers says nothing; one where none rose says so', () => {
		const bare = answered('GET', `${OTHER_API}x`, [], T0 + MIN);
		expect(zoneAfterAnswer(bare, other([first, bare]))).toBeUndefined();
		const refused = answered('POST', `${OTHER_API}edit-tag`, usage(3, 1), T0 + MIN);
		expect(zoneAfterAnswer(refused, other([first, refused]))).toMatch(
			/^The answer's headers show no zone's usage rising/
		);
	});
});
