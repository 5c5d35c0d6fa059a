/**
 * The API console's request (api-request.ts): the reserved headers, header names and values, the
 * body kinds, and where a path may lead: anywhere on the API's origin, never to another.
 */
import { describe, expect, test } from 'vitest';
import { apiUrl, parseApiCall, parseHeaders, reservedHeader } from '$lib/oauth/api-request';
import { prepare } from '$lib/server/outbound/send';

const API = 'https://reader.test/reader/api/0/';
const call = (over: Partial<Parameters<typeof parseApiCall>[0]> = {}) =>
	parseApiCall({
		method: 'GET',
		path: 'subscription/list',
		query: '',
		headers: '',
		bodyKind: 'none',
		body: '',
		contentType: '',
		...over
	});

describe('reserved headers', () => {
	const names = [
		'Host',
		'Content-Length',
		'Transfer-Encoding',
		'Connection',
		'Keep-Alive',
		'TE',
		'Upgrade',
		'Expect',
		'Authorization',
		'Proxy-Authorization',
		'Proxy-Foo'
	];
	test.each(names)('%s is refused in any casing, trimmed, and the refusal names it', (name) => {
		for (const n of [name, name.toLowerCase(), ` ${name.toUpperCase()} `]) {
			expect(reservedHeader(n)).toBeTruthy();
			const r = parseHeaders(`${n}: x`);
			expect(r.ok).toBe(false);
			if (!r.ok) {
				expect(r.field).toBe('headers');
				expect(r.message).toContain(n.trim());
			}
		}
	});
	test('other headers pass, in order, trimmed; empty lines are skipped', () => {
		expect(parseHeaders('X-One: 1\n\nAccept:  text/csv \r\nUser-Agent: me')).toEqual({
			ok: true,
			value: [
				['X-One', '1'],
				['Accept', 'text/csv'],
				['User-Agent', 'me']
			]
		});
		expect(reservedHeader('X-Proxy')).toBeUndefined();
	});
	test.each([
		['no colon'],
		[': empty name'],
		['Bad Name: x'],
		['X-Ctl: a\u0001b'],
		['X-Emoji: 😀']
	])('refused: %j', (line) => expect(parseHeaders(line).ok).toBe(false));
	test('at most 50 headers', () => {
		const many = Array.from({ length: 51 }, (_, i) => `X-${i}: v`).join('\n');
		expect(parseHeaders(many).ok).toBe(false);
		expect(parseHeaders(many.split('\n').slice(0, 50).join('\n')).ok).toBe(true);
	});
});

describe('where a path leads', () => {
	const url = (path: string, query = '') => {
		const r = apiUrl({ path, query }, API);
		return r.ok ? r.value : `refused: ${r.message}`;
	};
	test('relative below the API base; / from the origin’s root; the base path written out stays below it', () => {
		expect(url('subscription/list', 'output=json')).toBe(`${API}subscription/list?output=json`);
		expect(url('/healthz')).toBe('https://reader.test/healthz');
		expect(url('reader/api/0/user-info')).toBe(`${API}user-info`);
		expect(url('/reader/api/0/user-info')).toBe(`${API}user-info`);
		expect(url('../../../oauth2/token')).toBe('https://reader.test/oauth2/token');
		expect(url('../../../../x')).toBe('https://reader.test/x');
		expect(url('/%2F%2Fevil.test/x')).toBe('https://reader.test/%2F%2Fevil.test/x');
	});
	test.each([['/\\evil.test/x'], ['/\\/evil.test/']])('another origin is refused: %s', (path) => {
		expect(url(path)).toContain('refused: The access token goes only to https://reader.test');
	});
	test.each([
		['//evil.test/'],
		['/\\evil'],
		['http://other.test/'],
		['https:other.test'],
		['javascript:alert(1)'],
		['a b']
	])('the console refuses %j before any URL is made', (path) => {
		const r = call({ path });
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.field).toBe('path');
	});
});

describe('bodies', () => {
	test('each kind with its Content-Type; a GET takes none', () => {
		expect(call({ method: 'post', bodyKind: 'form', body: 'a=1' })).toMatchObject({
			ok: true,
			value: { method: 'POST', body: 'a=1', contentType: 'application/x-www-form-urlencoded' }
		});
		expect(call({ method: 'PATCH', bodyKind: 'json', body: '{"a":[1]}' })).toMatchObject({
			ok: true,
			value: { body: '{"a":[1]}', contentType: 'application/json' }
		});
		expect(
			call({ method: 'PUT', bodyKind: 'raw', body: 'x', contentType: 'text/csv' })
		).toMatchObject({
			ok: true,
			value: { contentType: 'text/csv' }
		});
		expect(call({ method: 'PUT', bodyKind: 'raw', body: 'x', contentType: '' })).toMatchObject({
			ok: true,
			value: { contentType: 'text/plain; charset=utf-8' }
		});
		expect(call({ method: 'DELETE', bodyKind: 'none', body: 'ignored' })).toMatchObject({
			ok: true,
			value: { body: '', contentType: '' }
		});
		expect(call({ method: 'GET', bodyKind: 'form', body: 'a=1' })).toMatchObject({
			ok: false,
			field: 'body'
		});
		expect(call({ method: 'POST', bodyKind: 'json', body: '{oops' })).toMatchObject({
			ok: false,
			field: 'body'
		});
		expect(call({ method: 'POST', bodyKind: 'raw', contentType: 'not a type' })).toMatchObject({
			ok: false,
			field: 'contentType'
		});
		expect(
			call({ method: 'POST', bodyKind: 'form', headers: 'content-type: text/plain' })
		).toMatchObject({ ok: false, field: 'headers' });
		expect(call({ method: 'TRACE' })).toMatchObject({ ok: false, field: 'method' });
		expect(call({ query: '?n=1' })).toMatchObject({ ok: true, value: { query: 'n=1' } });
	});
});

describe('the sender', () => {
	test('a caller’s User-Agent or Accept replaces the default instead of adding a second', () => {
		const p = prepare({
			step: 'api',
			method: 'GET',
			url: API,
			headers: [
				['Accept', 'text/csv'],
				['User-Agent', 'me/1']
			]
		});
		expect('failure' in p).toBe(false);
		const names = p.request.headers.map(([n]) => n.toLowerCase());
		expect(names.filter((n) => n === 'accept')).toHaveLength(1);
		expect(names.filter((n) => n === 'user-agent')).toHaveLength(1);
		expect(p.request.headers).toContainEqual(['Accept', 'text/csv']);
	});
	test.each([
		'Host',
		'content-length',
		'Transfer-Encoding',
		'Connection',
		'TE',
		'Upgrade',
		'Expect',
		'Keep-Alive'
	])('%s from any caller: nothing is sent', (name) => {
		const p = prepare({ step: 'api', method: 'GET', url: API, headers: [[name, 'x']] });
		expect('failure' in p && p.failure.kind).toBe('blocked');
	});
});

describe('header lines', () => {
	test('a line of spaces is skipped like an empty one', () => {
		expect(parseHeaders('X-A: 1\n   \nX-B: 2')).toEqual({
			ok: true,
			value: [
				['X-A', '1'],
				['X-B', '2']
			]
		});
	});

	test('spaces around the name are trimmed', () => {
		expect(parseHeaders('  X-A : 1')).toEqual({ ok: true, value: [['X-A', '1']] });
	});

	test('a line without a colon is refused, even when it looks like a name', () => {
		expect(parseHeaders('X-Header')).toMatchObject({ ok: false, field: 'headers' });
	});

	test('a line that starts with the colon is refused, and the refusal gives its line number', () => {
		const r = parseHeaders('X-A: 1\n: x');
		expect(r).toMatchObject({ ok: false, field: 'headers' });
		if (!r.ok) expect(r.message).toMatch(/\b2\b/);
		const three = parseHeaders('X-A: 1\nX-B: 2\nbroken');
		expect(three.ok).toBe(false);
		if (!three.ok) expect(three.message).toMatch(/\b3\b/);
	});

	test.each([['Bad Name: x'], ['X-Ctl: a\u0001b'], ['Host: x']])(
		'%j is refused on the headers field',
		(line) => expect(parseHeaders(line)).toMatchObject({ ok: false, field: 'headers' })
	);

	test('more than 50 headers is refused on the headers field', () => {
		const many = Array.from({ length: 51 }, (_, i) => `X-${i}: v`).join('\n');
		expect(parseHeaders(many)).toMatchObject({ ok: false, field: 'headers' });
	});
});

describe('the call’s limits and fields', () => {
	test('a missing path is refused on the path field', () => {
		expect(call({ path: '   ' })).toMatchObject({ ok: false, field: 'path' });
	});

	test('the path is trimmed', () => {
		expect(call({ path: '  subscription/list \n' })).toMatchObject({
			ok: true,
			value: { path: 'subscription/list' }
		});
	});

	test('a path of 500 characters is taken, 501 is too long', () => {
		expect(call({ path: 'a'.repeat(500) }).ok).toBe(true);
		expect(call({ path: 'a'.repeat(501) })).toMatchObject({ ok: false, field: 'path' });
	});

	test('a colon inside the path is not a scheme', () => {
		expect(call({ path: 'stream/contents/feed:42' })).toMatchObject({
			ok: true,
			value: { path: 'stream/contents/feed:42' }
		});
	});

	test('a query of 4000 characters is taken, 4001 is too long', () => {
		expect(call({ query: 'q'.repeat(4000) }).ok).toBe(true);
		expect(call({ query: 'q'.repeat(4001) })).toMatchObject({ ok: false, field: 'query' });
	});

	test('a bad header line refuses the whole call on the headers field', () => {
		expect(call({ headers: 'Bad Name: x' })).toMatchObject({ ok: false, field: 'headers' });
	});

	test('a body of 16,000 characters is taken, 16,001 is too long', () => {
		const raw = { method: 'POST', bodyKind: 'raw', contentType: 'text/plain' };
		expect(call({ ...raw, body: 'b'.repeat(16_000) }).ok).toBe(true);
		expect(call({ ...raw, body: 'b'.repeat(16_001) })).toMatchObject({ ok: false, field: 'body' });
	});

	test('an unknown body kind is no body', () => {
		expect(call({ method: 'POST', bodyKind: 'xml', body: '<a/>' })).toMatchObject({
			ok: true,
			value: { body: '', contentType: '' }
		});
	});

	test('only a Content-Type header clashes with a body kind; without a body it is sent as given', () => {
		expect(
			call({ method: 'POST', bodyKind: 'form', body: 'a=1', headers: 'X-A: 1' })
		).toMatchObject({ ok: true, value: { headers: [['X-A', '1']] } });
		expect(call({ method: 'POST', headers: 'Content-Type: text/csv' })).toMatchObject({
			ok: true,
			value: { headers: [['Content-Type', 'text/csv']], contentType: '' }
		});
	});

	test('a raw body’s media type is trimmed, and must be the whole value', () => {
		const raw = { method: 'PUT', bodyKind: 'raw', body: 'x' };
		expect(call({ ...raw, contentType: '  text/csv ' })).toMatchObject({
			ok: true,
			value: { contentType: 'text/csv' }
		});
		expect(call({ ...raw, contentType: '   ' })).toMatchObject({
			ok: true,
			value: { contentType: 'text/plain; charset=utf-8' }
		});
		expect(call({ ...raw, contentType: 'text/csv; charset=utf-8' }).ok).toBe(true);
		for (const contentType of ['my text/csv', 'text/csv extra', 'text/'])
			expect(call({ ...raw, contentType })).toMatchObject({ ok: false, field: 'contentType' });
	});

	test('only a leading ? is taken off the query', () => {
		expect(call({ query: '?q=why?' })).toMatchObject({ ok: true, value: { query: 'q=why?' } });
		expect(call({ query: 'q=why?' })).toMatchObject({ ok: true, value: { query: 'q=why?' } });
	});
});

describe('where a path leads, more', () => {
	test('a relative path ending with / stays below the API base', () => {
		expect(apiUrl({ path: 'tag/', query: '' }, API)).toEqual({ ok: true, value: `${API}tag/` });
	});

	test('the base path is taken off only at the start', () => {
		expect(apiUrl({ path: 'tag/reader/api/0/x', query: '' }, API)).toEqual({
			ok: true,
			value: `${API}tag/reader/api/0/x`
		});
	});

	test('another origin is refused on the path field', () => {
		expect(apiUrl({ path: '/\\evil.test/x', query: '' }, API)).toMatchObject({
			ok: false,
			field: 'path'
		});
	});

	test('a path that makes no URL is refused, not thrown', () => {
		expect(apiUrl({ path: 'http://[x', query: '' }, API)).toMatchObject({
			ok: false,
			field: 'path'
		});
	});
});

describe('request targets after dot segments', () => {
	test.each([
		['/.//host/x', '//host/x'],
		['/./..//host/x', '//host/x'],
		['../../..//host/x', '//host/x'],
		['/%2e//host/x', '//host/x']
	])('request-target smuggling: %s is refused, it would be sent as %s', (path, target) => {
		const r = apiUrl({ path, query: '' }, API);
		expect(r.ok).toBe(false);
		expect(!r.ok && r.message).toBe(
			`The request target would be ${target}, which starts with //: a server or proxy may read that as another host, so it is not sent. Remove the extra slash.`
		);
	});
	test('a single slash after dot segments stays allowed', () => {
		expect(apiUrl({ path: '/./reader/api/0/tag/list', query: '' }, API)).toEqual({
			ok: true,
			value: `${API}tag/list`
		});
	});
});
