import { describe, expect, test } from 'vitest';
import { diagnose, diagnoseCallback, type DiagnoseContext } from '$lib/oauth/diagnose';
import type { Exchange, Finding, HeaderList } from '$lib/exchange/types';
import { CATALOGUE } from '$lib/oauth/catalogue';
import type { Entry } from '$lib/oauth/catalogue/raise';

interface Shape {
	step?: Exchange['step'];
	status?: number;
	body?: string;
	headers?: HeaderList;
	method?: string;
	url?: string;
	reqHeaders?: HeaderList;
	truncated?: boolean;
	startedAt?: number;
}

/** An exchange with a response; the token-request defaults (form Content-Type, no-store) unless given. */
function ex(s: Shape = {}): Exchange {
	return {
		id: 'x',
		step: s.step ?? 'exchange',
		startedAt: new Date(s.startedAt ?? 0).toISOString(),
		request: {
			method: s.method ?? 'POST',
			url: s.url ?? 'https://reader.test/oauth2/token',
			httpVersion: '1.1',
			headers: s.reqHeaders ?? [['Content-Type', 'application/x-www-form-urlencoded']],
			body: ''
		},
		response: {
			status: s.status ?? 200,
			statusText: '',
			httpVersion: '1.1',
			headers: s.headers ?? [
				['Content-Type', 'application/json'],
				['Cache-Control', 'no-store']
			],
			body: s.body ?? '',
			truncated: s.truncated ?? false
		},
		timing: { total: 1 },
		findings: []
	};
}

const run = (s: Shape, ctx: DiagnoseContext = {}) => diagnose(ex(s), ctx);
const codes = (s: Shape, ctx: DiagnoseContext = {}) => run(s, ctx).map((f) => f.code);
const only = (s: Shape, ctx: DiagnoseContext = {}): Finding => {
	const all = run(s, ctx);
	expect(all, JSON.stringify(all.map((f) => f.code))).toHaveLength(1);
	return all[0]!;
};

const GOOD = {
	access_token: 'a',
	token_type: 'Bearer',
	expires_in: 3600,
	refresh_token: 'r',
	scope: 'read'
};
const token = (fields: Record<string, unknown>, step: Exchange['step'] = 'exchange') =>
	codes({ step, body: JSON.stringify({ ...GOOD, ...fields }) }, { requestedScope: 'read' });
const tokenFinding = (fields: Record<string, unknown>, code: string) =>
	run({ body: JSON.stringify({ ...GOOD, ...fields }) }, { requestedScope: 'read' }).find(
		(f) => f.code === code
	);

describe('finding codes', () => {
	test('every code the catalogue writes is a non-empty machine word', () => {
		const all = Object.values(CATALOGUE).flatMap((file) =>
			Object.values(file).flatMap((e: Entry<never>) => (typeof e.code === 'string' ? [e.code] : []))
		);
		expect(new Set(all).size).toBeGreaterThan(40);
		for (const c of all) expect(c).toMatch(/^[a-z][a-z_-]*[a-z]$|^error$/);
	});
	test('the OAuth errors keep the RFC spelling, so a service error is matched', () => {
		expect([
			'invalid_client',
			'invalid_grant',
			'invalid_scope',
			'unsupported_grant_type',
			'unauthorized_client',
			'invalid_request',
			'invalid_token',
			'insufficient_scope',
			'redirect_uri_mismatch'
		]).toEqual([
			'invalid_client',
			'invalid_grant',
			'invalid_scope',
			'unsupported_grant_type',
			'unauthorized_client',
			'invalid_request',
			'invalid_token',
			'insufficient_scope',
			'redirect_uri_mismatch'
		]);
	});
});

describe('failures', () => {
	test.each([
		['blocked', 'blocked', 'error'],
		['refused', 'connection-refused', 'error'],
		['dns', 'dns-failure', 'error'],
		['timeout', 'timeout', 'error'],
		['tls', 'tls-failure', 'error'],
		['plain-http', 'plain-http-port', 'error'],
		['too-large', 'response-too-large', 'warning'],
		['reset', 'connection-reset', 'error'],
		['busy', 'pool-busy', 'warning'],
		['ended', 'pool-ended', 'warning'],
		['cancelled', 'cancelled', 'info'],
		['network', 'network-error', 'error'],
		['something-new', 'network-error', 'error']
	])('a %s failure is one %s finding (%s)', (kind, code, level) => {
		const e: Exchange = {
			...ex({ step: 'userinfo', method: 'GET' }),
			response: undefined,
			failure: { kind: kind as 'network', message: 'what the sender saw' }
		};
		const f = diagnose(e);
		expect(f.map((x) => [x.code, x.level])).toEqual([[code, level]]);
	});
	test('refused by the guard: a hosted copy’s list of hosts gets its own fix, a private address the usual one', () => {
		const blocked = (message: string) =>
			diagnose({
				...ex({ step: 'userinfo', method: 'GET' }),
				response: undefined,
				failure: { kind: 'blocked', message }
			})[0]!.fix;
		expect(
			blocked(
				"evil.example.org is not on this playground's list of allowed hosts (PLAYGROUND_ALLOWED_HOSTS); the hosted playground only connects to listed hosts."
			)
		).toMatch(
			/^This hosted playground connects only to the hosts \(and ports\) its operator listed/
		);
		expect(blocked('10.0.0.1 is a private address.')).toMatch(
			/^Use a public http\(s\) address of the service/
		);
	});
	test('http:// to a port that may speak TLS: a hint beside the failure or the answer, never for https://', () => {
		const at = (url: string, rest: Partial<Exchange>): Exchange => ({
			...ex({ step: 'userinfo', method: 'GET' }),
			request: { ...ex({ step: 'userinfo', method: 'GET' }).request, url },
			...rest
		});
		const silent = {
			response: undefined,
			failure: { kind: 'reset' as const, message: 'm', silent: true as const }
		};
		const hints = (e: Exchange) => diagnose(e).filter((f) => f.code === 'tls-port-hint');
		expect(hints(at('http://h:8443/x', silent)).map((f) => [f.level, f.message])).toEqual([
			[
				'warning',
				'The server closed a new connection without sending a byte: this port may speak TLS.'
			]
		]);
		expect(hints(at('https://h:8443/x', silent))).toEqual([]);
		expect(
			hints(
				at('http://h:8443/x', { response: undefined, failure: { kind: 'reset', message: 'm' } })
			)
		).toEqual([]);
		const answer = (status: number, body: string) => ({
			response: { status, statusText: '', httpVersion: '1.1', headers: [], body, truncated: false }
		});
		const apache =
			'<html><head><title>400 Bad Request</title></head><body><h1>Bad Request</h1>\n<p>Your browser sent a request that this server could not understand.<br />\nReason: You&#39;re speaking plain HTTP to an SSL-enabled server port.<br />\n Instead use the HTTPS scheme to access this URL, please.<br />\n</p></body></html>';
		expect(hints(at('http://h:443/x', answer(400, apache)))[0]!.message).toBe(
			'The server says this port speaks TLS, in its words: "Reason: You\'re speaking plain HTTP to an SSL-enabled server port."'
		);
		const go = 'Client sent an HTTP request to an HTTPS server.\n';
		expect(hints(at('http://h:443/x', answer(400, go)))).toHaveLength(1);
		expect(hints(at('http://h:443/x', answer(404, go)))).toEqual([]);
		expect(hints(at('https://h:443/x', answer(400, go)))).toEqual([]);
		// Words in an attribute are not what the page says.
		expect(hints(at('http://h:443/x', answer(400, `<a title="${go}">x</a>`)))).toEqual([]);
	});
	const cutOff = (step: Exchange['step']): Exchange => ({
		...ex({ step }),
		response: undefined,
		failure: { kind: 'reset', message: 'reader.test closed the connection before answering.' }
	});
	test('a code exchange cut off before any answer: the code may or may not have been spent, and exchanging it again shows which', () => {
		const f = diagnose(cutOff('exchange'));
		expect(f.map((x) => [x.code, x.level])).toEqual([
			['connection-reset', 'error'],
			['code-maybe-spent', 'warning']
		]);
		expect(f[1]!.message).toMatch(/may or may not have been spent/);
		expect(f[1]!.fix).toMatch(/^Exchange the same code again: an answer of invalid_grant/);
	});
	test('a refresh or a code exchange that got part of an answer is not said to maybe have spent the code', () => {
		expect(diagnose(cutOff('refresh')).map((x) => x.code)).toEqual(['connection-reset']);
		const partial: Exchange = {
			...ex({ step: 'exchange', status: 200 }),
			failure: cutOff('exchange').failure
		};
		expect(diagnose(partial).map((x) => x.code)).toEqual(['connection-reset']);
	});
	test('a step that waited for one of the playground’s connections says so, and does not blame the service', () => {
		const waited = {
			...ex({
				step: 'userinfo',
				method: 'GET',
				url: 'https://reader.test/reader/api/0/user-info',
				status: 200
			}),
			timing: { queued: 812.4, total: 900 }
		};
		const f = diagnose(waited).find((x) => x.code === 'pool-wait');
		expect(f?.level).toBe('info');
		expect(f?.message).toBe(
			"This step waited 812 ms for one of the playground's connections to reader.test (other visitors' requests were using them). That time is the playground's, not the service's."
		);
		expect(diagnose({ ...waited, timing: { total: 900 } }).map((x) => x.code)).not.toContain(
			'pool-wait'
		);
	});
	test('a write that waited may have waited for its own address’s other write to that host, and says so', () => {
		const write = {
			...ex({ step: 'api', method: 'POST', url: 'https://reader.test/reader/api/0/edit-tag' }),
			timing: { queued: 40, total: 90 }
		};
		expect(diagnose(write).find((x) => x.code === 'pool-wait')?.message).toBe(
			"This step waited 40 ms for one of the playground's connections to reader.test (other visitors' requests were using them, or another write from your address to reader.test was still waiting for its answer: a write is never ended to make room for others, so an address sends one at a time to a host). That time is the playground's, not the service's."
		);
	});
	test('no response and no failure: nothing to say', () => {
		expect(diagnose({ ...ex(), response: undefined })).toEqual([]);
	});
});

describe('token endpoint errors (RFC 6749 §5.2)', () => {
	const err = (body: Record<string, unknown>, step: Exchange['step'] = 'exchange') =>
		only({ step, status: 400, body: JSON.stringify(body) });
	test.each([
		['invalid_client', 'RFC 6749 §5.2'],
		['invalid_scope', 'RFC 6749 §5.2'],
		['unsupported_grant_type', 'RFC 6749 §5.2'],
		['unauthorized_client', 'RFC 6749 §5.2'],
		['invalid_request', 'RFC 6749 §5.2'],
		['invalid_grant', 'RFC 6749 §4.1.3'],
		['something_else', 'RFC 6749 §5.2']
	])('%s keeps its code and cites %s', (error, ref) => {
		expect(err({ error })).toMatchObject({ level: 'error', code: error, ref });
	});
	test('a refused refresh token cites the refresh section; the same error on the exchange cites §4.1.3', () => {
		expect(err({ error: 'invalid_grant' }, 'refresh')).toMatchObject({
			code: 'invalid_grant',
			ref: 'RFC 6749 §6'
		});
	});
	test('the client’s credentials refused under another error code: by its words for certain, by HTTP 401 most likely', () => {
		const at = (
			status: number,
			body: Record<string, unknown>,
			step: Exchange['step'] = 'exchange'
		) => only({ step, status, body: JSON.stringify(body) });
		// Keycloak's answer to a wrong secret.
		const keycloak = at(401, {
			error: 'unauthorized_client',
			error_description: 'Invalid client secret'
		});
		expect(keycloak).toMatchObject({
			code: 'invalid_client',
			level: 'error',
			ref: 'RFC 6749 §5.2'
		});
		expect(keycloak.message).toBe(
			'The service refused the client credentials. It answered unauthorized_client with HTTP 401, in words about the client’s credentials, where the standard error is invalid_client. The service said: "Invalid client secret".'
		);
		expect(keycloak.fix).toMatch(/^Check client_id and client_secret against the registration/);
		// The words alone, at 400, on a refresh too.
		expect(
			at(
				400,
				{ error: 'unauthorized_client', error_description: 'Invalid client credentials' },
				'refresh'
			).message
		).toMatch(
			/^The service refused the client credentials\. It answered unauthorized_client with HTTP 400,/
		);
		// Auth0's 401: the status alone.
		expect(at(401, { error: 'access_denied', error_description: 'Unauthorized' }).message).toMatch(
			/^The service most likely refused the client credentials\. It answered access_denied with HTTP 401, the status RFC 6749 §5.2 keeps for invalid_client,/
		);
		// Not about the client: the grant, the scope, the grant type; and unauthorized_client of the grant.
		expect(at(401, { error: 'invalid_grant' }).code).toBe('invalid_grant');
		expect(at(401, { error: 'invalid_scope' }).code).toBe('invalid_scope');
		expect(at(401, { error: 'unsupported_grant_type' }).code).toBe('unsupported_grant_type');
		expect(
			at(400, {
				error: 'unauthorized_client',
				error_description: 'The client is not authorized to use this grant type'
			}).code
		).toBe('unauthorized_client');
		// invalid_client keeps its own entry.
		expect(at(401, { error: 'invalid_client' }).message).toBe(
			'The service did not accept the client credentials.'
		);
	});
	test('invalid_request that names the Content-Type becomes content-type', () => {
		expect(
			err({ error: 'invalid_request', error_description: 'Bad content-type header' }).code
		).toBe('content-type');
		expect(err({ error: 'invalid_request', error_description: 'missing code' }).code).toBe(
			'invalid_request'
		);
		expect(err({ error: 'invalid_request', error_description: 42 }).code).toBe('invalid_request');
	});
	test('a 200 carrying an error object is still an error, not a token response, and its status is said', () => {
		expect(codes({ status: 200, body: '{"error":"invalid_grant"}' })).toEqual([
			'invalid_grant',
			'error-in-success'
		]);
		const said = run({ status: 200, body: '{"error":"invalid_grant"}' })[1]!;
		expect(said.level).toBe('warning');
		expect(said.message).toBe(
			'The error invalid_grant came with HTTP 200, a success status, where RFC 6749 §5.2 sends errors with 400 (401 for invalid_client): a client that checks only the status code takes this answer for tokens, and finds none.'
		);
		// GitHub answers every token error with 200: its code exchange's refusal, and an error of
		// its own the catalogue has no entry for.
		expect(
			codes({
				status: 200,
				body: JSON.stringify({
					error: 'bad_verification_code',
					error_description: 'The code passed is incorrect or expired.'
				})
			})
		).toEqual(['invalid_grant', 'error-in-success']);
		expect(
			codes({
				status: 200,
				body: JSON.stringify({
					error: 'unverified_user_email',
					error_description: 'The user must have a verified primary email.'
				})
			})
		).toEqual(['unverified_user_email', 'error-in-success']);
		// A refused refresh token's cause says the status itself, in its one finding.
		expect(
			codes({
				step: 'refresh',
				status: 200,
				body: JSON.stringify({
					error: 'bad_refresh_token',
					error_description: 'The refresh token passed is incorrect or expired.'
				})
			})
		).toEqual(['refresh-not-active']);
		// An error status is the standard's shape: nothing more said.
		expect(codes({ status: 400, body: '{"error":"invalid_grant"}' })).toEqual(['invalid_grant']);
	});
	test('an error member that is not a string is no error object: the URL is probably not the token endpoint', () => {
		expect(codes({ status: 400, body: '{"error":7}' })).toEqual(['wrong-endpoint']);
	});
	test('a 4xx without a JSON error object is a wrong endpoint, but an empty 401 with a challenge only lacks the object; a 5xx is a server error', () => {
		expect(codes({ status: 400, body: 'nope', headers: [['Cache-Control', 'no-store']] })).toEqual([
			'wrong-endpoint'
		]);
		expect(codes({ status: 499, body: '' })).toEqual(['wrong-endpoint']);
		expect(codes({ status: 399, body: '' })).toEqual(['wrong-endpoint']);
		expect(codes({ status: 500, body: '' })).toEqual(['server-error']);
		// A JSON object with no error member on a 5xx is no token response either.
		expect(codes({ status: 503, body: '{"message":"down"}' })).toEqual(['server-error']);
		expect(codes({ status: 400, body: '[]' })).toEqual(['wrong-endpoint']);
		expect(
			codes({ status: 401, body: ' ', headers: [['WWW-Authenticate', 'Basic realm="x"']] })
		).toEqual(['no-error-object']);
		expect(codes({ status: 401, body: '', headers: [] })).toEqual(['wrong-endpoint']);
	});
});

describe('the token request', () => {
	test.each([
		['application/x-www-form-urlencoded', false],
		['Application/X-WWW-Form-Urlencoded', false],
		['application/x-www-form-urlencoded; charset=UTF-8', false],
		['application/x-www-form-urlencodedish', true],
		['text/application/x-www-form-urlencoded', true],
		['application/json', true],
		[undefined, true]
	])('a POST with Content-Type %s is flagged: %s', (ct, flagged) => {
		const c = codes({
			status: 200,
			body: JSON.stringify(GOOD),
			reqHeaders: ct === undefined ? [] : [['Content-Type', ct]]
		});
		expect(c.includes('content-type')).toBe(flagged);
	});
	test('the Content-Type rule is for POSTs on the exchange and the refresh only', () => {
		const noCt = { status: 200, body: JSON.stringify(GOOD), reqHeaders: [] as HeaderList };
		expect(codes({ ...noCt, method: 'GET' })).not.toContain('content-type');
		expect(codes({ ...noCt, step: 'refresh' })).toContain('content-type');
		expect(codes({ ...noCt, step: 'userinfo' })).not.toContain('content-type');
	});
	test('a 200 token response without Cache-Control: no-store is noted; other statuses are not', () => {
		const headers: HeaderList = [
			['Content-Type', 'application/json'],
			['Cache-Control', 'no-cache']
		];
		expect(codes({ body: JSON.stringify(GOOD), headers }, { requestedScope: 'read' })).toEqual([
			'cache-control'
		]);
		expect(
			codes(
				{ body: JSON.stringify(GOOD), headers: [['Cache-Control', 'private, NO-STORE']] },
				{ requestedScope: 'read' }
			)
		).toEqual([]);
		expect(codes({ status: 201, body: JSON.stringify(GOOD), headers: [] })).not.toContain(
			'cache-control'
		);
		expect(codes({ status: 400, body: '{"error":"invalid_grant"}', headers: [] })).toEqual([
			'invalid_grant'
		]);
	});
});

describe('the token response (the service’s API docs §2.3)', () => {
	test('a complete response has nothing to say, on the exchange and on the refresh', () => {
		expect(token({})).toEqual([]);
		expect(token({}, 'refresh')).toEqual([]);
		expect(codes({ status: 299, body: JSON.stringify(GOOD) }, { requestedScope: 'read' })).toEqual(
			[]
		);
	});
	test('each finding cites §2.3 of the service’s API docs', () => {
		expect(tokenFinding({ access_token: '' }, 'missing-access_token')?.ref).toBe(
			"the service's API docs §2.3"
		);
	});
	test.each([
		[{ access_token: '' }, 'missing-access_token', 'error'],
		[{ access_token: 5 }, 'missing-access_token', 'error'],
		[{ access_token: undefined }, 'missing-access_token', 'error'],
		[{ token_type: undefined }, 'missing-token_type', 'error'],
		[{ token_type: 1 }, 'missing-token_type', 'error'],
		[{ token_type: 'mac' }, 'token_type', 'warning'],
		[{ token_type: 'bearer' }, 'token_type-case', 'info'],
		[{ token_type: 'BEARER' }, 'token_type-case', 'info'],
		[{ expires_in: undefined }, 'missing-expires_in', 'warning'],
		[{ expires_in: '60' }, 'expires_in-type', 'warning'],
		[{ expires_in: 1.5 }, 'expires_in-type', 'warning'],
		[{ expires_in: 0 }, 'expires_in-range', 'error'],
		[{ expires_in: -1 }, 'expires_in-range', 'error'],
		[{ expires_in: 366 * 24 * 3600 + 1 }, 'expires_in-range', 'warning'],
		[{ refresh_token: undefined }, 'missing-refresh_token', 'warning'],
		[{ refresh_token: 3 }, 'refresh_token-type', 'error'],
		[{ scope: undefined }, 'missing-scope', 'info'],
		[{ scope: ['read'] }, 'scope-type', 'warning'],
		[{ scope: 'read write' }, 'scope-differs', 'warning'],
		[{ id_token: 'x' }, 'extra-fields', 'info']
	])('%j: %s (%s) and nothing else', (fields, code, level) => {
		const body = Object.fromEntries(
			Object.entries({ ...GOOD, ...fields }).filter(([, v]) => v !== undefined)
		);
		const f = run({ body: JSON.stringify(body) }, { requestedScope: 'read' });
		expect(f.map((x) => [x.code, x.level])).toEqual([[code, level]]);
	});
	test('expires_in of one second up to 366 days is plausible', () => {
		expect(token({ expires_in: 1 })).toEqual([]);
		expect(token({ expires_in: 366 * 24 * 3600 })).toEqual([]);
	});
	test('a refresh response without refresh_token keeps the old one: info, not a warning', () => {
		const { refresh_token: _r, ...rest } = GOOD;
		const f = run({ step: 'refresh', body: JSON.stringify(rest) }, { requestedScope: 'read' });
		expect(f.map((x) => [x.code, x.level, x.ref])).toEqual([
			['refresh_token-kept', 'info', 'RFC 6749 §6']
		]);
	});
	test('scope is compared as a set of words, and only when a scope was requested', () => {
		const scope = (granted: string, requested?: string) =>
			codes(
				{ body: JSON.stringify({ ...GOOD, scope: granted }) },
				requested === undefined ? {} : { requestedScope: requested }
			);
		expect(scope('write  read', 'read write')).toEqual([]);
		expect(scope(' read ', 'read')).toEqual([]);
		expect(scope('read read', 'read')).toEqual([]);
		expect(scope('read', 'read write')).toEqual(['scope-differs']);
		expect(scope('read write', 'read')).toEqual(['scope-differs']);
		expect(scope('read other', 'read write')).toEqual(['scope-differs']);
		expect(scope('anything', '')).toEqual([]);
		expect(scope('anything')).toEqual([]);
		expect(
			run({ body: JSON.stringify({ ...GOOD, scope: 'read' }) }, { requestedScope: 'read write' })[0]
				?.ref
		).toBe('RFC 6749 §3.3');
	});
	test('a granted scope that lost write says so in its fix, and only then', () => {
		const fix = (granted: string, requested: string) =>
			run({ body: JSON.stringify({ ...GOOD, scope: granted }) }, { requestedScope: requested })[0]
				?.fix;
		expect(fix('read', 'read write')).toMatch(/^Write was not granted/);
		expect(fix('read other', 'write')).toMatch(/^Write was not granted/);
		expect(fix('read write', 'read')).toBeUndefined();
		expect(fix('other', 'read')).toBeUndefined();
		expect(fix('write other', 'read write')).toBeUndefined();
	});
	test('a JSON body that is not an object gets no token-response findings', () => {
		expect(codes({ body: '["access_token"]' })).toEqual(['wrong-endpoint']);
		expect(codes({ body: 'null' })).toEqual(['wrong-endpoint']);
		expect(codes({ body: '"text"' })).toEqual(['wrong-endpoint']);
		expect(codes({ body: '12' })).toEqual(['wrong-endpoint']);
	});
});

describe('a body that should be JSON', () => {
	const api = (s: Shape) => codes({ step: 'api', method: 'GET', ...s });
	test('HTML, or text, is not JSON; a cut-off body is a warning only', () => {
		expect(
			api({ status: 400, body: '<html></html>', headers: [['Content-Type', 'text/html']] })
		).toEqual(['not-json']);
		// A page of HTML where the API answers: someone else's page, a wrong base URL (wrong-endpoint.ts).
		expect(api({ body: '<html></html>', headers: [['Content-Type', 'text/html']] })).toEqual([
			'wrong-endpoint'
		]);
		expect(
			run({ step: 'api', body: 'oops', headers: [] }).map((f) => [f.code, f.level, f.fix])
		).toEqual([['not-json', 'error', undefined]]);
		expect(run({ step: 'api', body: '{"a":', truncated: true }).map((f) => f.level)).toEqual([
			'warning'
		]);
	});
	test('an HTML body is recognised by its Content-Type or by its first character', () => {
		const fixOf = (s: Shape) => run({ step: 'api', ...s })[0]?.fix;
		expect(fixOf({ body: 'plain', headers: [['Content-Type', 'TEXT/HTML']] })).toEqual(
			expect.any(String)
		);
		expect(fixOf({ body: '  <p>hi</p>', headers: [] })).toEqual(expect.any(String));
		expect(fixOf({ body: 'plain <b>', headers: [['Content-Type', 'text/plain']] })).toBe(undefined);
	});
	test('an empty body, a 204, a JSON array, or "OK" from the API is fine', () => {
		expect(api({ body: '   ' })).toEqual([]);
		expect(api({ status: 204, body: 'x' })).toEqual([]);
		expect(api({ body: ' [1, 2' })).toEqual([]);
		expect(api({ body: ' OK \n' })).toEqual([]);
		expect(codes({ step: 'userinfo', body: 'OK' })).toEqual(['not-json']);
		expect(api({ status: 205, body: 'x' })).toEqual(['not-json']);
	});
});

describe('API calls', () => {
	const api = (s: Shape, ctx: DiagnoseContext = {}) =>
		run({ step: 'api', method: 'GET', body: '{}', ...s }, ctx);
	test('401 is invalid_token (RFC 6750 §3.1)', () => {
		expect(api({ status: 401 }).map((f) => [f.code, f.level, f.ref])).toEqual([
			['invalid_token', 'error', 'RFC 6750 §3.1']
		]);
	});
	test('401 after the known expiry, from the expiry moment on, is told apart from a refused token', () => {
		const message = (startedAt: number, tokenExpiresAt?: number) =>
			api({ status: 401, startedAt }, { tokenExpiresAt })[0]!.message;
		const expired = message(10_000, 1_000);
		const refused = message(1_000, 10_000);
		expect(expired).not.toBe(refused);
		expect(message(5_000, 5_000)).toBe(expired);
		expect(message(4_999, 5_000)).toBe(refused);
		expect(message(5_000)).toBe(refused);
	});
	test('403 names insufficient_scope from the header or the body, else forbidden', () => {
		const www: HeaderList = [['WWW-Authenticate', 'Bearer error="insufficient_scope"']];
		expect(api({ status: 403, headers: www }).map((f) => [f.code, f.ref])).toEqual([
			['insufficient_scope', 'RFC 6750 §3.1']
		]);
		expect(api({ status: 403, body: '{"error":"insufficient_scope"}' })[0]!.code).toBe(
			'insufficient_scope'
		);
		expect(api({ status: 403, body: 'denied', headers: [] }).map((f) => [f.code, f.ref])).toEqual([
			['forbidden', "the service's API docs §5 step 7"],
			['not-json', undefined]
		]);
	});
	test('429 is rate-limited; other statuses are not', () => {
		expect(api({ status: 429 }).map((f) => [f.code, f.level])).toEqual([['rate-limited', 'error']]);
		// A rate limiter's plain-text page is its answer: no second finding that it is not JSON.
		const plain = api({
			status: 429,
			body: 'Too Many Requests',
			headers: [['Content-Type', 'text/plain; charset=utf-8']]
		});
		expect(plain.map((f) => [f.code, f.level])).toEqual([['rate-limited', 'error']]);
		expect(api({ status: 200 })).toEqual([]);
		expect(api({ status: 404 })).toEqual([]);
	});
	test('the user record should carry userId; only a 200 user-info answer is checked', () => {
		const ui = (status: number, body: string) =>
			codes({ step: 'userinfo', method: 'GET', status, body });
		expect(ui(200, '{"userName":"x"}')).toEqual(['userinfo-fields']);
		expect(ui(200, '{"userId":"1"}')).toEqual([]);
		expect(ui(404, '{"userName":"x"}')).toEqual(['wrong-endpoint']);
		expect(ui(400, '{"userName":"x"}')).toEqual([]);
		expect(codes({ step: 'api', method: 'GET', body: '{"userName":"x"}' })).toEqual([]);
	});
});

describe('redirects and server errors', () => {
	test('a 3xx on a back-channel step is a redirect; on a documented endpoint, the URL is probably wrong', () => {
		for (const step of ['exchange', 'refresh', 'userinfo', 'api'] as const)
			for (const status of [300, 302, 399])
				expect(codes({ step, status, body: 'x', headers: [] })).toEqual([
					step === 'api' ? 'redirect' : 'wrong-endpoint'
				]);
	});
	test('a 5xx is a server error', () => {
		expect(codes({ step: 'api', method: 'GET', status: 500, body: '{}' })).toEqual([
			'server-error'
		]);
		expect(codes({ step: 'api', method: 'GET', status: 499, body: '{}' })).toEqual([]);
	});
	test('the callback step gets no findings from diagnose', () => {
		expect(codes({ step: 'callback', status: 302, body: '' })).toEqual([]);
	});
});

describe('the consent request', () => {
	const consent = (state: string) =>
		diagnose({
			...ex({ step: 'consent' }),
			request: {
				method: 'GET',
				url: `https://reader.test/oauth2/auth?client_id=a&state=${encodeURIComponent(state)}`,
				httpVersion: '1.1',
				headers: [],
				body: ''
			},
			response: undefined
		});
	test('a state of up to 500 bytes is fine; one byte more is refused before sending', () => {
		expect(consent('s'.repeat(500))).toEqual([]);
		expect(consent('é'.repeat(250))).toEqual([]);
		expect(consent('s'.repeat(501)).map((f) => [f.code, f.level, f.ref])).toEqual([
			['state-too-long', 'error', "the service's API docs §4.1"]
		]);
		expect(consent('é'.repeat(250) + 's').map((f) => f.code)).toEqual(['state-too-long']);
	});
	test('a consent exchange with a response still gets only the state rule', () => {
		expect(codes({ step: 'consent', status: 500, body: '<html>' })).toEqual([]);
	});
});

describe('the registration check', () => {
	const ctx = { redirectUri: 'https://app.test/cb', clientId: 'app' };
	const check = (status: number, body = '', headers: HeaderList = [], c: DiagnoseContext = ctx) =>
		diagnose(
			ex({
				step: 'check',
				method: 'GET',
				url: 'https://reader.test/oauth2/auth?client_id=app',
				status,
				body,
				headers
			}),
			c
		);
	const one = (...a: Parameters<typeof check>) => check(...a).map((f) => [f.code, f.level]);
	test('4xx: a redirect mismatch by its error code, a likely one by its description', () => {
		expect(one(400, '{"error":"redirect_uri_mismatch"}')).toEqual([
			['redirect_uri_mismatch', 'error']
		]);
		expect(one(499, '{"error":"invalid_request","error_description":"bad Redirect URI"}')).toEqual([
			['redirect-uri-likely-refused', 'error']
		]);
		expect(check(400, '{"error":"redirect_uri_mismatch"}')[0]!.ref).toBe(
			"RFC 6749 §3.1.2.4; the service's API docs §4.1"
		);
	});
	test('4xx: an unknown client, by error code or by its description', () => {
		for (const body of [
			'{"error":"invalid_client"}',
			'{"error":"unauthorized_client"}',
			'{"error_description":"no such CLIENT"}'
		])
			expect(check(400, body).map((f) => [f.code, f.ref])).toEqual([
				['unknown-client', 'RFC 6749 §4.1.2.1']
			]);
	});
	test('any other 4xx keeps the service’s error code, or is a consent error', () => {
		expect(one(404, '{"error":"invalid_scope"}')).toEqual([['invalid_scope', 'error']]);
		expect(one(404, 'Not found')).toEqual([['wrong-endpoint', 'error']]);
		expect(one(403, 'Not found')).toEqual([['consent-error', 'error']]);
		expect(one(400, '{"error":3,"error_description":4}')).toEqual([['consent-error', 'error']]);
		expect(check(403, 'x')[0]!.ref).toBe('RFC 6749 §4.1.2.1');
	});
	test('5xx is a server error, once', () => {
		expect(one(500)).toEqual([
			['server-error', 'error'],
			['server-error', 'error']
		]);
		expect(one(503, '{"error":"redirect_uri_mismatch"}').map(([c]) => c)).toEqual([
			'server-error',
			'server-error'
		]);
	});
	test('a redirect straight back with an error names that error, with the fix the table gives', () => {
		const back = (location: string, c?: DiagnoseContext) =>
			check(302, '', [['Location', location]], c);
		const [f] = back('https://app.test/cb?error=invalid_scope&state=x');
		expect([f!.code, f!.level, f!.ref]).toEqual(['invalid_scope', 'error', 'RFC 6749 §4.1.2.1']);
		expect(f!.fix).toEqual(expect.any(String));
		expect(back('https://app.test/cb?error=server_error')[0]!.fix).toBeUndefined();
		// A name Object.prototype holds is no error of the table: no fix.
		const inherited = back('https://app.test/cb?error=toString')[0]!;
		expect(inherited.code).toBe('toString');
		expect(inherited.fix).toBeUndefined();
		expect(
			back('/cb?error=access_denied', { redirectUri: 'https://reader.test/cb' })[0]!.code
		).toBe('access_denied');
	});
	test('invalid_scope straight back: the fix names the words the service does not know, else the read-only cause', () => {
		const fix = (requestedScope?: string) =>
			check(302, '', [['Location', 'https://app.test/cb?error=invalid_scope']], {
				...ctx,
				requestedScope
			})[0]!.fix;
		expect(fix('admin')).toBe(
			'"admin" is not a scope of the service, whose scopes are "read" and "write": ask for "read", or "read write" with a registration that may write, or leave the scope empty to get the registration’s default.'
		);
		expect(fix('read  admin feeds admin')).toMatch(
			/^"admin", "feeds" are not scopes of the service,/
		);
		const readOnly = /^A registration set to "Read only" cannot ask for write/;
		expect(fix('read write')).toMatch(readOnly);
		expect(fix(undefined)).toMatch(readOnly);
	});

	test('a redirect to the server’s own error page with error= is a refusal; an unknown client is named', () => {
		const to = (location: string) =>
			check(302, '', [['Location', location]], ctx).map((f) => [f.code, f.message]);
		// Auth0's answer to an unknown client id.
		expect(
			to(
				'https://reader.test/error?error=invalid_request&error_description=Unknown%20client%3A%20app'
			)
		).toEqual([
			[
				'unknown-client',
				'The service does not know client_id "app". The service said: "Unknown client: app".'
			]
		]);
		expect(to('/error?error=unauthorized_client')[0]![0]).toBe('unknown-client');
		expect(
			to('https://reader.test/oops?error=temporarily_unavailable&error_description=Try%20later')
		).toEqual([
			[
				'temporarily_unavailable',
				'The service refused the consent URL: it sends the browser to https://reader.test/oops, its own error page, with error "temporarily_unavailable". The service said: "Try later".'
			]
		]);
		// A sign-in asked for first is no refusal; nor is another origin's page (the app's own).
		expect(to('https://reader.test/login?error=login_required')[0]![0]).toBe('sign-in-first');
		expect(to('https://elsewhere.test/x?error=invalid_request')[0]![0]).toBe('registration-ok');
	});
	test('a redirect straight back without an error, or elsewhere, means the registration is accepted', () => {
		const back = (location: string, c: DiagnoseContext = ctx) =>
			one(302, '', [['Location', location]], c);
		const ok = [['registration-ok', 'info']];
		expect(back('https://app.test/cb?code=1')).toEqual(ok);
		expect(back('https://reader.test/interaction/abc')).toEqual(ok);
		expect(back('https://app.test/other?error=x')).toEqual(ok);
		expect(back('https://app.test:444/cb?error=x')).toEqual(ok);
		expect(back('https://app.test/cb?error=x', {})).toEqual(ok);
		expect(back('https://app.test/cb?error=x', { redirectUri: 'not a url' })).toEqual(ok);
		expect(back('http://[bad', ctx)).toEqual(ok);
		expect(one(300, '', [])).toEqual(ok);
		expect(one(399, '', [])).toEqual(ok);
	});
	test('the messages name what came back: the error and its words, the page redirected to', () => {
		const msg = (location: string) => check(302, '', [['Location', location]])[0]!.message;
		expect(msg('https://app.test/cb?error=invalid_scope&error_description=no%20write')).toBe(
			'The service sends the browser straight back with error "invalid_scope": "no write". The client and redirect_uri are registered, but the request is refused.'
		);
		expect(msg('https://reader.test/interaction/xyz?a=1')).toBe(
			'The service redirects to https://reader.test/interaction/xyz (typically its login page): client_id "app" and the redirect_uri are accepted. It checks no client secret: for a client with one, "Check the client secret" does.'
		);
		const api = diagnose(
			ex({ step: 'api', method: 'GET', status: 301, headers: [['Location', '/moved']] }),
			{}
		)[0]!;
		expect(api.message).toBe(
			'The service answered with a redirect (301) to /moved. The playground does not follow redirects on back-channel requests.'
		);
	});
	test('the redirect-back message differs from the redirect-elsewhere one', () => {
		const msg = (location: string) => check(302, '', [['Location', location]])[0]!.message;
		expect(msg('https://app.test/cb?code=1')).not.toBe(msg('https://reader.test/interaction/1'));
		expect(msg('https://app.test/cb')).toBe(msg('https://app.test/cb?x=1#y'));
	});
	test('a 200 that is no sign-in page is the consent page: accepted; other statuses say nothing', () => {
		expect(one(200, '<html>')).toEqual([['registration-ok', 'info']]);
		expect(one(204)).toEqual([]);
		expect(one(299)).toEqual([]);
	});
});

describe('callback verdicts', () => {
	const cb = (...a: Parameters<typeof diagnoseCallback>) =>
		diagnoseCallback(...a).map((f) => [f.code, f.level]);
	test('each verdict is one finding of its code and level', () => {
		expect(cb('state-mismatch')).toEqual([['state-mismatch', 'error']]);
		expect(cb('no-pending-state')).toEqual([['no-pending-state', 'error']]);
		expect(cb('malformed')).toEqual([['malformed-callback', 'error']]);
		expect(cb('error', 'access_denied')).toEqual([['access_denied', 'warning']]);
		expect(cb('error', 'invalid_scope')).toEqual([['invalid_scope', 'error']]);
		expect(cb('error')).toEqual([['error', 'error']]);
		expect(cb('code')).toEqual([['state-ok', 'info']]);
	});
	test('each cites its rule', () => {
		const ref = (v: string) => diagnoseCallback(v)[0]!.ref;
		expect(ref('state-mismatch')).toBe("the service's API docs §5 step 3; RFC 6749 §10.12");
		expect(ref('no-pending-state')).toBe('RFC 6749 §10.12');
		expect(ref('malformed')).toBe('RFC 6749 §4.1.2');
		expect(ref('error')).toBe('RFC 6749 §4.1.2.1');
		expect(ref('code')).toBe("the service's API docs §5 step 3");
	});
	test('a malformed redirect shows the detail it was given', () => {
		expect(diagnoseCallback('malformed', undefined, 'the detail')[0]!.message).toBe('the detail');
	});
});

describe('levels and citations of each rule', () => {
	const triple = (f: Finding[]) => f.map((x) => [x.code, x.level, x.ref]);
	test('the token endpoint rules', () => {
		expect(
			triple(run({ step: 'refresh', status: 400, body: '{"error":"invalid_grant"}' }))
		).toEqual([['invalid_grant', 'error', 'RFC 6749 §6']]);
		expect(
			triple(run({ status: 400, body: '{"error":"invalid_request"}', reqHeaders: [] }))
		).toEqual([
			['content-type', 'error', "the service's API docs §4.2"],
			['invalid_request', 'error', 'RFC 6749 §5.2']
		]);
		expect(
			triple(run({ status: 401, body: '', headers: [['WWW-Authenticate', 'Basic']] }))
		).toEqual([['no-error-object', 'error', 'RFC 6749 §5.2']]);
		expect(triple(run({ status: 404, body: '' }))).toEqual([
			['wrong-endpoint', 'error', "the service's API docs §4.2"]
		]);
		expect(triple(run({ step: 'refresh', status: 404, body: '' }))).toEqual([
			['wrong-endpoint', 'error', "the service's API docs §4.3"]
		]);
		expect(
			triple(run({ body: JSON.stringify(GOOD), headers: [] }, { requestedScope: 'read' }))
		).toEqual([['cache-control', 'info', 'RFC 6749 §5.1']]);
		expect(run({ status: 302, body: '' }).map((f) => [f.code, f.level])).toEqual([
			['wrong-endpoint', 'error']
		]);
		expect(run({ step: 'api', status: 302, body: '' }).map((f) => [f.code, f.level])).toEqual([
			['redirect', 'error']
		]);
	});
	test('the API rules', () => {
		expect(triple(run({ step: 'api', method: 'GET', status: 429, body: '{}' }))).toEqual([
			['rate-limited', 'error', 'RFC 6585 §4']
		]);
		expect(run({ step: 'api', status: 403, body: '{}' }).map((f) => [f.code, f.level])).toEqual([
			['forbidden', 'error']
		]);
		expect(
			run({ step: 'userinfo', method: 'GET', body: '{}' }).map((f) => [f.code, f.level])
		).toEqual([['userinfo-fields', 'info']]);
	});
	test('the registration check rules', () => {
		const f = diagnose(
			ex({ step: 'check', method: 'GET', status: 401, body: '{"error":"invalid_client"}' }),
			{}
		);
		expect(f.map((x) => [x.code, x.level])).toEqual([['unknown-client', 'error']]);
	});
});

describe('edges', () => {
	test('a body with a bracket later on is not taken for a JSON array', () => {
		expect(codes({ step: 'api', method: 'GET', body: 'oops [1]', headers: [] })).toEqual([
			'not-json'
		]);
	});
	test('a consent request whose URL does not parse gets no finding, and no exception', () => {
		expect(
			diagnose({
				...ex({ step: 'consent' }),
				request: { method: 'GET', url: 'not a url', httpVersion: '1.1', headers: [], body: '' },
				response: undefined
			})
		).toEqual([]);
	});
	test('an error_description that is not a string is not read for the Content-Type hint', () => {
		expect(
			codes({
				status: 400,
				body: JSON.stringify({ error: 'invalid_request', error_description: ['Content-Type'] })
			})
		).toEqual(['invalid_request']);
	});
	test('a 4xx JSON body without an error member is not read as a token response', () => {
		const c = codes({ status: 400, body: '{"detail":"nope"}' });
		expect(c).not.toContain('missing-access_token');
		expect(c).toEqual(['wrong-endpoint']);
	});
	test('the callback step gets no API findings, whatever its status', () => {
		expect(codes({ step: 'callback', status: 401, body: 'x', headers: [] })).toEqual([]);
	});
});
