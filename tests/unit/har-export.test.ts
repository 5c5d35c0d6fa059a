/**
 * The HAR export field by field (exchange/har/export.ts): cookies as HAR lists them, the HTTP
 * version, postData, the sizes, the entry without a response, the custom fields and the timings.
 * The golden file of har.test.ts checks a whole realistic transcript; these pin the edges it does
 * not reach.
 */
import { describe, expect, test } from 'vitest';
import { harTimings, toHar } from '$lib/exchange/har/export';
import type { Exchange, ExchangeResponse } from '$lib/exchange/types';

const URL_ = 'https://reader.test/reader/api/0/user-info';

function exchange(over: Partial<Exchange> = {}, res?: Partial<ExchangeResponse>): Exchange {
	return {
		id: 'x1',
		step: 'api',
		startedAt: '2026-03-14T09:26:53.000Z',
		request: { method: 'GET', url: URL_, httpVersion: '1.1', headers: [], body: '' },
		response: res && {
			status: 200,
			statusText: 'OK',
			httpVersion: '1.1',
			headers: [],
			body: '',
			truncated: false,
			...res
		},
		timing: { total: 10 },
		findings: [],
		...over
	};
}

const entryOf = (ex: Exchange) => toHar([ex], { includeTokens: true }).log.entries[0]!;
const request = (r: Partial<Exchange['request']>) =>
	entryOf(exchange({ request: { ...exchange().request, ...r } })).request;

describe('HTTP version', () => {
	test.each([
		['', 'HTTP/1.1'],
		['1.1', 'HTTP/1.1'],
		['2', 'HTTP/2'],
		['http/1.0', 'HTTP/1.0'],
		['HTTP/2', 'HTTP/2'],
		['xhttp/1', 'HTTP/xhttp/1']
	])('%j is written %j, in the request and the response', (v, har) => {
		const e = entryOf(
			exchange({ request: { ...exchange().request, httpVersion: v } }, { httpVersion: v })
		);
		expect(e.request.httpVersion).toBe(har);
		expect(e.response.httpVersion).toBe(har);
	});
});

describe('cookies', () => {
	test('request cookies: every Cookie header, split at ; and at the first =, names without =', () => {
		expect(
			request({
				headers: [
					['COOKIE', 'a=1; b = 2 ;c;=d;e=f=g'],
					['X-Cookie', 'no=1'],
					['cookie', 'h=']
				]
			}).cookies
		).toStrictEqual([
			{ name: 'a', value: '1' },
			{ name: 'b', value: '2' },
			{ name: 'e', value: 'f=g' },
			{ name: 'h', value: '' }
		]);
	});

	test('response cookies: name, value and the attributes HAR has fields for', () => {
		const e = entryOf(
			exchange(
				{},
				{
					headers: [
						[
							'Set-Cookie',
							'sid=a=b; Path=/p=q; Domain=reader.test; Expires=Wed, 21 Oct 2015 07:28:00 GMT; HttpOnly; Secure; SameSite=Lax'
						],
						['set-cookie', ' two = 2 ; path = /x ; expires=not a date; max-age=5'],
						['Set-Cookie', '=nameless; Path=/'],
						['Set-Cookie', 'noequals'],
						['X-Set-Cookie', 'no=1']
					]
				}
			)
		);
		expect(e.response.cookies).toStrictEqual([
			{
				name: 'sid',
				value: 'a=b',
				path: '/p=q',
				domain: 'reader.test',
				expires: '2015-10-21T07:28:00.000Z',
				httpOnly: true,
				secure: true
			},
			{ name: 'two', value: '2', path: '/x' }
		]);
	});

	test('an entry without a response lists no cookies', () => {
		expect(entryOf(exchange()).response.cookies).toEqual([]);
	});
});

describe('request fields', () => {
	test('headers in order and case, the query string decoded, headersSize unknown', () => {
		const r = request({
			url: 'https://reader.test/p?a=1&b=x+y#f=2',
			headers: [
				['Host', 'reader.test'],
				['accept', '*/*']
			]
		});
		expect(r.headers).toStrictEqual([
			{ name: 'Host', value: 'reader.test' },
			{ name: 'accept', value: '*/*' }
		]);
		expect(r.queryString).toStrictEqual([
			{ name: 'a', value: '1' },
			{ name: 'b', value: 'x y' }
		]);
		expect(r.headersSize).toBe(-1);
		expect(r.method).toBe('GET');
		expect(r.url).toBe('https://reader.test/p?a=1&b=x+y#f=2');
	});

	test('no body: no postData, and a body size of 0', () => {
		const r = request({});
		expect(r).not.toHaveProperty('postData');
		expect(r.bodySize).toBe(0);
	});

	test('a form body has its params; its mime type is the Content-Type', () => {
		const r = request({
			method: 'POST',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: 'grant_type=refresh_token&scope=a+b'
		});
		expect(r.postData).toStrictEqual({
			mimeType: 'application/x-www-form-urlencoded',
			text: 'grant_type=refresh_token&scope=a+b',
			params: [
				{ name: 'grant_type', value: 'refresh_token' },
				{ name: 'scope', value: 'a b' }
			]
		});
	});

	test('another body has no params, and an empty mime type when none was sent', () => {
		expect(request({ method: 'POST', body: '{"a":1}' }).postData).toStrictEqual({
			mimeType: '',
			text: '{"a":1}'
		});
	});

	test('bodySize: the Content-Length sent when it is a number, else the UTF-8 size of the body', () => {
		expect(request({ headers: [['Content-Length', ' 42 ']], body: 'é' }).bodySize).toBe(42);
		expect(request({ headers: [['Content-Length', '12a']], body: 'é' }).bodySize).toBe(2);
		expect(request({ headers: [['Content-Length', '-1']], body: 'é' }).bodySize).toBe(2);
		expect(request({ headers: [['Content-Length', '1'.repeat(16)]], body: 'é' }).bodySize).toBe(2);
		expect(request({ headers: [['Content-Length', '9'.repeat(15)]], body: 'é' }).bodySize).toBe(
			999_999_999_999_999
		);
		expect(request({ headers: [['Content-Length', '']], body: 'éé' }).bodySize).toBe(4);
		expect(request({ body: '€' }).bodySize).toBe(3);
	});
});

describe('response fields', () => {
	test('status, headers, content, redirect and sizes as received', () => {
		const e = entryOf(
			exchange(
				{},
				{
					status: 302,
					statusText: 'Found',
					headers: [
						['Location', 'https://elsewhere.test/x'],
						['Content-Type', 'text/plain'],
						['Content-Length', '100']
					],
					body: 'héllo'
				}
			)
		);
		expect(e.response).toStrictEqual({
			status: 302,
			statusText: 'Found',
			httpVersion: 'HTTP/1.1',
			cookies: [],
			headers: [
				{ name: 'Location', value: 'https://elsewhere.test/x' },
				{ name: 'Content-Type', value: 'text/plain' },
				{ name: 'Content-Length', value: '100' }
			],
			content: { size: 6, mimeType: 'text/plain', text: 'héllo' },
			redirectURL: 'https://elsewhere.test/x',
			headersSize: -1,
			bodySize: 100
		});
		expect(e).not.toHaveProperty('_truncated');
	});

	test('no Content-Type or Location: x-unknown and an empty redirect', () => {
		const e = entryOf(exchange({}, { body: 'ab' }));
		expect(e.response.content).toStrictEqual({ size: 2, mimeType: 'x-unknown', text: 'ab' });
		expect(e.response.redirectURL).toBe('');
		expect(e.response.bodySize).toBe(2);
	});

	test('a body cut at the cap counts what arrived, and says so', () => {
		const e = entryOf(
			exchange({}, { headers: [['Content-Length', '5000']], body: 'ééé', truncated: true })
		);
		expect(e.response.bodySize).toBe(6);
		expect(e._truncated).toBe(true);
	});

	test('no response: status 0 and unknown sizes', () => {
		expect(entryOf(exchange()).response).toStrictEqual({
			status: 0,
			statusText: '',
			httpVersion: '',
			cookies: [],
			headers: [],
			content: { size: 0, mimeType: 'x-unknown' },
			redirectURL: '',
			headersSize: -1,
			bodySize: -1
		});
	});
});

describe('the entry', () => {
	test('the custom fields are there only when there is something to say', () => {
		const plain = entryOf(exchange({ redactions: [] }, {}));
		expect(Object.keys(plain).sort()).toEqual(
			[
				'startedDateTime',
				'time',
				'request',
				'response',
				'cache',
				'timings',
				'_id',
				'_step',
				'_findings'
			].sort()
		);
		expect(plain.cache).toStrictEqual({});
		expect(plain._id).toBe('x1');
		expect(plain._step).toBe('api');
		expect(plain.startedDateTime).toBe('2026-03-14T09:26:53.000Z');

		const full = entryOf(
			exchange({
				failure: { kind: 'timeout', message: 'm' },
				note: 'n',
				redactions: [{ what: 'client_secret', length: 3 }],
				findings: [{ level: 'info', code: 'c', message: 'm' }]
			})
		);
		expect(full._failure).toStrictEqual({ kind: 'timeout', message: 'm' });
		expect(full._note).toBe('n');
		expect(full._redactions).toStrictEqual([{ what: 'client_secret', length: 3 }]);
		expect(full._findings).toStrictEqual([{ level: 'info', code: 'c', message: 'm' }]);
	});

	test('a start time that is not a date becomes the epoch', () => {
		expect(entryOf(exchange({ startedAt: 'soon' })).startedDateTime).toBe(
			'1970-01-01T00:00:00.000Z'
		);
	});

	test('the log: HAR 1.2, this playground as creator, version 0.1.0 unless given, entries in order', () => {
		const har = toHar([exchange({ id: 'a' }), exchange({ id: 'b' })]);
		expect(har.log.version).toBe('1.2');
		expect(har.log.creator).toStrictEqual({
			name: 'feed-reader-oauth-playground',
			version: '0.1.0'
		});
		expect(har.log.entries.map((e) => e._id)).toEqual(['a', 'b']);
		expect(toHar([], { creatorVersion: '9.9.9' }).log.creator.version).toBe('9.9.9');
		expect(toHar([]).log.entries).toEqual([]);
	});
});

describe('harTimings', () => {
	test('unknown phases are -1; without a first byte, all of the total is wait', () => {
		expect(harTimings({ total: 7 })).toStrictEqual({
			time: 7,
			timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 7, receive: 0 }
		});
	});

	test('time queued for one of the playground’s connections is HAR’s blocked, not the server’s wait', () => {
		expect(harTimings({ queued: 40, connect: 1, firstByte: 45, total: 46 })).toStrictEqual({
			time: 46,
			timings: { blocked: 40, dns: -1, connect: 1, ssl: -1, send: 0, wait: 4, receive: 1 }
		});
	});

	test('TLS without a connect time is the connect time', () => {
		expect(harTimings({ tls: 2, firstByte: 5, total: 6 })).toStrictEqual({
			time: 6,
			timings: { blocked: -1, dns: -1, connect: 2, ssl: 2, send: 0, wait: 3, receive: 1 }
		});
	});

	test('a connect time without TLS is left as it is', () => {
		expect(harTimings({ dns: 1, connect: 2, firstByte: 5, total: 6 }).timings).toMatchObject({
			dns: 1,
			connect: 2,
			ssl: -1,
			wait: 2,
			receive: 1
		});
	});

	test('negative and non-finite values count as unknown or 0, never below 0', () => {
		expect(
			harTimings({ dns: -3, connect: Number.NaN, tls: Infinity, firstByte: -1, total: 4 })
		).toStrictEqual({
			time: 4,
			timings: { blocked: -1, dns: 0, connect: -1, ssl: -1, send: 0, wait: 0, receive: 4 }
		});
		expect(harTimings({ total: Number.NaN })).toStrictEqual({
			time: 0,
			timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: 0 }
		});
	});

	test('a setup longer than the first byte, or a first byte after the total, never goes negative', () => {
		expect(harTimings({ dns: 5, connect: 5, firstByte: 4, total: 3 })).toStrictEqual({
			time: 10,
			timings: { blocked: -1, dns: 5, connect: 5, ssl: -1, send: 0, wait: 0, receive: 0 }
		});
	});

	test('sums are exact to the microsecond', () => {
		const { time, timings } = harTimings({
			dns: 0.1,
			connect: 0.2,
			tls: 0.0004,
			firstByte: 0.7,
			total: 1.0000004
		});
		expect(timings.connect).toBe(0.2);
		expect(timings.ssl).toBe(0);
		expect(time).toBe(1);
		expect(timings.receive).toBe(0.3);
	});
});
