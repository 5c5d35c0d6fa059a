/**
 * One HAR entry read for import, field by field: what the schema (exchange/har/schema.ts) keeps,
 * drops or defaults, and how entry.ts turns the result into an Exchange (its step, version,
 * headers, failure, timings and body). har.test.ts imports whole files; these pin the edges.
 */
import { describe, expect, test } from 'vitest';
import { entryStep, NOT_IMPORTED, toExchange } from '$lib/exchange/har/entry';
import { entrySchema, harSchema } from '$lib/exchange/har/schema';

const TOKEN_URL = 'https://reader.test/oauth2/token';

/** A minimal entry as a browser writes it, with `over` merged in (`request` and `response` too). */
function raw(over: Record<string, unknown> = {}) {
	const { request, response, ...rest } = over as {
		request?: Record<string, unknown>;
		response?: Record<string, unknown>;
	};
	return {
		startedDateTime: '2026-03-14T09:26:53.000Z',
		time: 12,
		request: { method: 'GET', url: TOKEN_URL, httpVersion: 'HTTP/1.1', headers: [], ...request },
		response:
			'response' in over && response === undefined
				? undefined
				: {
						status: 200,
						statusText: 'OK',
						httpVersion: 'HTTP/1.1',
						headers: [],
						content: { text: '{}' },
						...response
					},
		timings: {},
		...rest
	};
}

const parse = (over: Record<string, unknown> = {}) => entrySchema.parse(raw(over));
const imported = (over: Record<string, unknown> = {}) => {
	const e = parse(over);
	return toExchange(e, entryStep(e) ?? 'api', 'id-1');
};
const stepOf = (url: string, text?: string) =>
	entryStep(
		parse({
			request: {
				url,
				method: text === undefined ? 'GET' : 'POST',
				...(text === undefined ? {} : { postData: { mimeType: '', text } })
			}
		})
	);

describe('the step of an entry', () => {
	test.each([
		['https://h.test/oauth2/auth?client_id=a', 'consent'],
		['https://h.test/x/oauth2/auth/', 'consent'],
		['https://h.test/callback?code=a&state=b', 'callback'],
		['https://h.test/callback//', 'callback'],
		['https://h.test/oauth2/token', 'exchange'],
		['https://h.test/oauth2/token//', 'exchange'],
		['https://h.test/reader/api/0/user-info', 'userinfo'],
		['https://h.test/reader/api/0/user-info/', 'userinfo'],
		['https://h.test/reader/api/0/user-infos', 'api'],
		['https://h.test/reader/api/0/subscription/list?output=json', 'api'],
		['https://h.test/.well-known/oauth-authorization-server', 'discovery'],
		['https://h.test/realms/r/.well-known/openid-configuration', 'discovery'],
		['https://h.test/well-known/openid-configuration', undefined],
		['https://h.test/oauth2/revoke', 'revoke'],
		['https://h.test/realms/r/protocol/openid-connect/revoke/', 'revoke'],
		['https://h.test/oauth/Revocation', 'revoke'],
		['https://h.test/oauth2/revoked/list', undefined],
		['https://h.test/oauth2/introspect', 'introspect'],
		['https://h.test/protocol/openid-connect/token/introspect', 'introspect'],
		['https://h.test/oauth/introspection', 'introspect'],
		['https://h.test/introspection/keys', undefined],
		['https://h.test/reader/api/0/', undefined],
		['https://h.test/reader/api/1/user-info', undefined],
		['https://h.test/oauth2/authorize', undefined],
		['https://h.test/oauth2/tokens', undefined],
		['https://h.test/callbacks', undefined],
		['https://h.test/', undefined],
		['not a url /oauth2/token', undefined]
	])('%s is %s', (url, step) => {
		expect(stepOf(url)).toBe(step);
	});

	test('a token request is a refresh only when its grant_type is refresh_token', () => {
		expect(stepOf(TOKEN_URL, 'grant_type=refresh_token&refresh_token=r')).toBe('refresh');
		expect(stepOf(TOKEN_URL, 'refresh_token=r&grant_type=refresh_token')).toBe('refresh');
		expect(stepOf(TOKEN_URL, 'grant_type=authorization_code&code=c')).toBe('exchange');
		expect(stepOf(TOKEN_URL, 'grant_type=refresh_tokens')).toBe('exchange');
		expect(stepOf(TOKEN_URL, 'refresh_token=grant_type')).toBe('exchange');
		expect(stepOf(TOKEN_URL, 'x=refresh_token')).toBe('exchange');
		expect(stepOf(TOKEN_URL, '')).toBe('exchange');
	});

	test('a refresh sent as postData params counts too', () => {
		const e = parse({
			request: {
				method: 'POST',
				postData: { mimeType: '', params: [{ name: 'grant_type', value: 'refresh_token' }] }
			}
		});
		expect(entryStep(e)).toBe('refresh');
	});

	test('the playground’s own _step wins over the URL, also when the URL does not parse', () => {
		expect(entryStep(parse({ _step: 'check' }))).toBe('check');
		expect(entryStep(parse({ _step: 'userinfo', request: { url: 'no url' } }))).toBe('userinfo');
	});
});

describe('the request', () => {
	test('the HTTP version as the Exchange writes it', () => {
		const version = (v: string) =>
			imported({ request: { httpVersion: v }, response: { httpVersion: v } });
		for (const [v, want] of [
			['', '1.1'],
			['  ', '1.1'],
			['http/1.1', '1.1'],
			['HTTP/2.0', '2.0'],
			[' h2 ', '2'],
			['H2C', '2'],
			['h3', '3'],
			['h3-29', '3'],
			['h3x', 'H3X'],
			['h2x', 'H2X'],
			['spdy/3.1', 'SPDY/3.1'],
			['xhttp/1.1', 'XHTTP/1.1']
		]) {
			const ex = version(v!);
			expect(ex.request.httpVersion, v).toBe(want);
			expect(ex.response!.httpVersion, v).toBe(want);
		}
	});

	test('pseudo-headers and nameless headers are dropped; cookie values are not imported', () => {
		const ex = imported({
			request: {
				headers: [
					{ name: ':authority', value: 'h.test' },
					{ name: '', value: 'x' },
					{ name: 'Accept', value: 'a:b' },
					{ name: 'COOKIE', value: 'sid=1' },
					{ name: 'Cookie', value: '<session cookie, not shown>' },
					{ name: 'Set-Cookie', value: 'kept=1' }
				]
			},
			response: {
				headers: [
					{ name: ':status', value: '200' },
					{ name: 'set-cookie', value: 'sid=2' },
					{ name: 'Cookie', value: 'kept=2' }
				]
			}
		});
		expect(ex.request.headers).toEqual([
			['Accept', 'a:b'],
			['COOKIE', NOT_IMPORTED],
			['Cookie', '<session cookie, not shown>'],
			['Set-Cookie', 'kept=1']
		]);
		expect(ex.response!.headers).toEqual([
			['set-cookie', NOT_IMPORTED],
			['Cookie', 'kept=2']
		]);
	});

	test('the body: postData text, else its params as a form, else empty', () => {
		const body = (postData: unknown) => imported({ request: { postData } }).request.body;
		expect(body(undefined)).toBe('');
		expect(body({ mimeType: 'text/plain', text: 'a b', params: [{ name: 'x', value: '1' }] })).toBe(
			'a b'
		);
		expect(body({ mimeType: '', text: '' })).toBe('');
		expect(
			body({
				mimeType: '',
				params: [
					{ name: 'a b', value: 'c&d' },
					{ name: 'e', value: '' }
				]
			})
		).toBe('a+b=c%26d&e=');
		expect(body({ mimeType: '', params: [] })).toBe('');
		expect(body({ mimeType: '' })).toBe('');
	});

	test('method, URL, id, step and start time come across', () => {
		const e = parse({ request: { method: 'POST' } });
		const ex = toExchange(e, 'exchange', 'the-id');
		expect(ex).toMatchObject({
			id: 'the-id',
			step: 'exchange',
			startedAt: '2026-03-14T09:26:53.000Z',
			request: { method: 'POST', url: TOKEN_URL, body: '' }
		});
		expect(imported({ startedDateTime: 'yesterday' }).startedAt).toBe('1970-01-01T00:00:00.000Z');
	});
});

describe('the response', () => {
	test('status, reason, body; not truncated unless the file says so', () => {
		const ex = imported({ response: { status: 404, statusText: 'Not Found' } });
		expect(ex.response).toEqual({
			status: 404,
			statusText: 'Not Found',
			httpVersion: '1.1',
			headers: [],
			body: '{}',
			truncated: false
		});
		expect(imported({ _truncated: true }).response!.truncated).toBe(true);
	});

	test('a base64 body is decoded (encoding in any case); one that is not base64 is empty', () => {
		const body = (content: unknown) => imported({ response: { content } }).response!.body;
		expect(body({ text: 'eyJhIjoxfQ==', encoding: 'base64' })).toBe('{"a":1}');
		expect(body({ text: 'eyJhIjoxfQ==', encoding: 'BASE64' })).toBe('{"a":1}');
		expect(body({ text: 'eyJhIjoxfQ==', encoding: 'gzip' })).toBe('eyJhIjoxfQ==');
		expect(body({ text: '!!!', encoding: 'base64' })).toBe('');
		expect(body({})).toBe('');
		expect(body({ encoding: 'base64' })).toBe('');
	});

	test('status 0 or no response at all: no response', () => {
		expect(imported({ response: { status: 0 } })).not.toHaveProperty('response');
		expect(imported({ response: undefined })).not.toHaveProperty('response');
	});
});

describe('failures', () => {
	test.each([
		['net::ERR_CONNECTION_REFUSED', 'refused'],
		['net::err_connection_refused', 'refused'],
		['net::ERR_NAME_NOT_RESOLVED', 'dns'],
		['net::ERR_NAME_RESOLUTION_FAILED', 'dns'],
		['net::ERR_TIMED_OUT', 'timeout'],
		['net::ERR_CONNECTION_TIMED_OUT', 'timeout'],
		['net::ERR_CERT_AUTHORITY_INVALID', 'tls'],
		['net::ERR_SSL_PROTOCOL_ERROR', 'tls'],
		['net::ERR_CONNECTION_RESET', 'reset'],
		['net::ERR_CONNECTION_CLOSED', 'reset'],
		['net::ERR_EMPTY_RESPONSE', 'reset'],
		['net::ERR_ABORTED', 'cancelled'],
		['net::ERR_BLOCKED_BY_CLIENT', 'blocked'],
		['net::ERR_FAILED', 'network']
	])('Chromium’s %s is a failure of kind %s', (error, kind) => {
		const ex = imported({ response: { status: 0, _error: error } });
		expect(ex.failure?.kind).toBe(kind);
		expect(ex.failure?.message).toContain(error);
	});

	test('an _error beside a real response is no failure; the playground’s _failure wins', () => {
		expect(imported({ response: { _error: 'net::ERR_ABORTED' } })).not.toHaveProperty('failure');
		expect(imported({ response: { status: 0 } })).not.toHaveProperty('failure');
		expect(
			imported({
				response: { status: 0, _error: 'net::ERR_ABORTED' },
				_failure: { kind: 'timeout', message: 'm' }
			}).failure
		).toEqual({ kind: 'timeout', message: 'm' });
		expect(imported({ _failure: { kind: 'dns', message: 'm' } }).failure).toEqual({
			kind: 'dns',
			message: 'm'
		});
	});
});

describe('timings', () => {
	test('ssl comes out of connect, the first byte is the sum before receive, all to the microsecond', () => {
		expect(
			imported({
				time: 10.1234567,
				timings: {
					blocked: 1,
					dns: 2,
					connect: 5,
					ssl: 3,
					send: 0.5,
					wait: 1.0004,
					receive: 0.5
				}
			}).timing
		).toStrictEqual({ total: 10.123, dns: 2, connect: 2, tls: 3, firstByte: 9.5 });
	});

	test('without a time, the total is the sum of the phases', () => {
		expect(
			imported({ time: -1, timings: { blocked: 1, dns: 2, send: 3, wait: 4, receive: 5 } }).timing
		).toStrictEqual({ total: 15, dns: 2, firstByte: 10 });
		expect(imported({ time: 'x', timings: { receive: 5 } }).timing).toStrictEqual({
			total: 5,
			firstByte: 0
		});
	});

	test('negative phases are unknown; zero is a time; ssl longer than connect leaves connect 0', () => {
		expect(
			imported({ time: 0, timings: { blocked: -1, dns: 0, connect: 2, ssl: 3, wait: -1 } }).timing
		).toStrictEqual({ total: 0, dns: 0, connect: 0, tls: 3, firstByte: 2 });
		expect(imported({ timings: { connect: 4 } }).timing).toStrictEqual({
			total: 12,
			connect: 4,
			firstByte: 4
		});
		expect(imported({ timings: { ssl: 4 } }).timing).toStrictEqual({
			total: 12,
			tls: 4,
			firstByte: 0
		});
	});

	test('no response: no first byte', () => {
		expect(imported({ response: undefined, timings: { wait: 3 } }).timing).toStrictEqual({
			total: 12
		});
	});
});

describe('findings, note and redactions', () => {
	const finding = { level: 'error', code: 'state-mismatch', message: 'm' };

	test('the callback keeps the findings the file carries; every other step starts with none', () => {
		const e = parse({ _findings: [finding] });
		expect(toExchange(e, 'callback', 'a').findings).toEqual([finding]);
		expect(toExchange(e, 'exchange', 'a').findings).toEqual([]);
		expect(toExchange(parse(), 'callback', 'a').findings).toEqual([]);
	});

	test('a note and redactions come across only when there are some', () => {
		const ex = imported({ _note: 'n', _redactions: [{ what: 'client_secret', length: 4 }] });
		expect(ex.note).toBe('n');
		expect(ex.redactions).toEqual([{ what: 'client_secret', length: 4 }]);
		const bare = imported({ _note: '', _redactions: [] });
		expect(bare).not.toHaveProperty('note');
		expect(bare).not.toHaveProperty('redactions');
	});
});

describe('the schema', () => {
	test('malformed optional fields fall back to their defaults', () => {
		const e = entrySchema.parse({
			startedDateTime: 5,
			time: 'x',
			request: { method: 'GET', url: TOKEN_URL, httpVersion: 7, headers: 'no', postData: 'no' },
			response: 'no',
			timings: 'no',
			_id: 5,
			_step: 'elsewhere',
			_failure: 'no',
			_note: 5,
			_truncated: 'yes'
		});
		expect(e).toStrictEqual({
			startedDateTime: '',
			time: -1,
			request: { method: 'GET', url: TOKEN_URL, httpVersion: '', headers: [], postData: undefined },
			response: undefined,
			timings: {},
			_id: undefined,
			_step: undefined,
			_failure: undefined,
			_note: undefined,
			_truncated: undefined
		});
	});

	test('inside a response and postData too', () => {
		const e = entrySchema.parse(
			raw({
				request: { postData: { mimeType: 5, text: 5, params: 'no' } },
				response: {
					status: 1.5,
					statusText: 5,
					httpVersion: 5,
					headers: 'no',
					content: 'no',
					_error: 5
				},
				timings: { blocked: 'x', dns: 1, connect: null, ssl: 2, send: 'x', wait: 3, receive: 'x' }
			})
		);
		expect(e.request.postData).toStrictEqual({ mimeType: '', text: undefined, params: [] });
		expect(e.response).toStrictEqual({
			status: 0,
			statusText: '',
			httpVersion: '',
			headers: [],
			content: {},
			_error: undefined
		});
		expect(e.timings).toStrictEqual({
			blocked: undefined,
			dns: 1,
			connect: undefined,
			ssl: 2,
			send: undefined,
			wait: 3,
			receive: undefined
		});
	});

	test('a malformed list item is dropped, the others kept', () => {
		const e = entrySchema.parse(
			raw({
				request: {
					headers: [
						{ name: 'A', value: '1' },
						{ name: 5, value: '2' },
						'x',
						{ name: 'B', value: 3 }
					]
				},
				_findings: [
					{ level: 'info', code: 'a', message: 'm', fix: 5, ref: 'r' },
					{ level: 'fatal', code: 'b', message: 'm' },
					{ level: 'warning', code: 'c' }
				],
				_redactions: [
					{ what: 'client_secret', length: 3 },
					{ what: 'x', length: -1 },
					{ what: 'y', length: 1.5 },
					{ length: 2 }
				]
			})
		);
		expect(e.request.headers).toStrictEqual([
			{ name: 'A', value: '1' },
			{ name: 'B', value: '' }
		]);
		expect(e._findings).toStrictEqual([
			{ level: 'info', code: 'a', message: 'm', fix: undefined, ref: 'r' }
		]);
		expect(e._redactions).toStrictEqual([{ what: 'client_secret', length: 3 }]);
	});

	test('every step and failure kind of the playground is read back; others are not', () => {
		for (const step of ['consent', 'callback', 'exchange', 'refresh', 'userinfo', 'api', 'check'])
			expect(parse({ _step: step })._step).toBe(step);
		for (const kind of [
			'refused',
			'timeout',
			'dns',
			'tls',
			'too-large',
			'blocked',
			'reset',
			'ended',
			'cancelled',
			'network'
		])
			expect(parse({ _failure: { kind, message: 'm' } })._failure).toEqual({ kind, message: 'm' });
		expect(parse({ _failure: { kind: 'meteor', message: 'm' } })._failure).toEqual({
			kind: 'network',
			message: 'm'
		});
		for (const level of ['error', 'warning', 'info'])
			expect(parse({ _findings: [{ level, code: 'c', message: 'm' }] })._findings).toHaveLength(1);
	});

	test('an entry without a usable request fails alone', () => {
		expect(entrySchema.safeParse(raw({ request: { method: 5 } })).success).toBe(false);
		expect(entrySchema.safeParse(raw({ request: { url: undefined } })).success).toBe(false);
		expect(entrySchema.safeParse(raw({ request: { method: 'X'.repeat(33) } })).success).toBe(false);
		expect(entrySchema.safeParse({ ...raw(), request: 'no' }).success).toBe(false);
	});

	test('the file: a log with an entries list; a malformed creator is dropped', () => {
		expect(harSchema.safeParse({ log: { entries: 'no' } }).success).toBe(false);
		expect(harSchema.safeParse({ log: {} }).success).toBe(false);
		expect(harSchema.parse({ log: { entries: [], creator: 'x' } }).log.creator).toBeUndefined();
		expect(
			harSchema.parse({ log: { entries: [], creator: { name: 5 } } }).log.creator
		).toStrictEqual({ name: '' });
		expect(
			harSchema.parse({ log: { entries: [1], version: '1.2', creator: { name: 'n' } } }).log
		).toStrictEqual({ version: '1.2', creator: { name: 'n' }, entries: [1] });
	});
});
