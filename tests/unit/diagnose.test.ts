import { describe, expect, test } from 'vitest';
import { diagnose, diagnoseCallback } from '$lib/oauth/diagnose';
import type { Exchange, HeaderList } from '$lib/exchange/types';

function ex(
	step: Exchange['step'],
	status: number,
	body: string,
	headers: HeaderList = [['Content-Type', 'application/json']],
	reqHeaders: HeaderList = [['Content-Type', 'application/x-www-form-urlencoded']]
): Exchange {
	return {
		id: 'x',
		step,
		startedAt: new Date(0).toISOString(),
		request: {
			method: step === 'userinfo' ? 'GET' : 'POST',
			url: 'https://reader.test/oauth2/token',
			httpVersion: '1.1',
			headers: reqHeaders,
			body: ''
		},
		response: {
			status,
			statusText: '',
			httpVersion: '1.1',
			headers: [...headers, ['Cache-Control', 'no-store']],
			body,
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}
const codes = (e: Exchange, ctx = {}) => diagnose(e, ctx).map((f) => f.code);

describe('token endpoint', () => {
	test('a clean seed response has no error or warning', () => {
		const f = diagnose(
			ex(
				'exchange',
				200,
				JSON.stringify({
					access_token: 'a',
					token_type: 'Bearer',
					expires_in: 3600,
					refresh_token: 'r',
					scope: 'read'
				})
			),
			{ requestedScope: 'read' }
		);
		expect(f.filter((x) => x.level !== 'info')).toEqual([]);
	});
	test.each([
		['invalid_client', 401],
		['invalid_grant', 400],
		['invalid_scope', 400],
		['unsupported_grant_type', 400]
	])('%s is named, with a fix and the RFC section', (error, status) => {
		const [f] = diagnose(ex('exchange', status, JSON.stringify({ error })));
		expect(f).toMatchObject({
			level: 'error',
			code: error,
			ref: expect.stringMatching(/RFC 6749/)
		});
		expect(f!.fix).toBeTruthy();
	});
	test('invalid_grant names its likely causes', () => {
		expect(diagnose(ex('exchange', 400, '{"error":"invalid_grant"}'))[0]!.fix).toMatch(
			/already used.*expired.*redirect_uri/s
		);
	});
	test('a missing Content-Type on the request is flagged', () => {
		expect(
			codes(
				ex(
					'exchange',
					400,
					'{"error":"invalid_request","error_description":"Content-Type header"}',
					undefined,
					[]
				)
			)
		).toContain('content-type');
	});
	test('fields of the service’s API docs §2.3 missing or mistyped', () => {
		const c = codes(
			ex(
				'exchange',
				200,
				JSON.stringify({ access_token: 'a', token_type: 'mac', expires_in: '12.5' })
			)
		);
		expect(c).toEqual(
			expect.arrayContaining(['token_type', 'expires_in-type', 'missing-refresh_token'])
		);
	});
	test.each([[0], [-5], [400 * 24 * 3600]])('expires_in %s is implausible', (n) => {
		expect(
			codes(
				ex(
					'exchange',
					200,
					JSON.stringify({
						access_token: 'a',
						token_type: 'Bearer',
						expires_in: n,
						refresh_token: 'r'
					})
				)
			)
		).toContain('expires_in-range');
	});
	test('granted scope differing from the request, in any order', () => {
		const body = (scope: string) =>
			JSON.stringify({
				access_token: 'a',
				token_type: 'Bearer',
				expires_in: 60,
				refresh_token: 'r',
				scope
			});
		expect(codes(ex('exchange', 200, body('read')), { requestedScope: 'read write' })).toContain(
			'scope-differs'
		);
		expect(
			codes(ex('exchange', 200, body('write read')), { requestedScope: 'read write' })
		).not.toContain('scope-differs');
	});
	test('HTML where JSON was expected', () => {
		expect(
			codes(
				ex('exchange', 502, '<html><body>Bad gateway</body></html>', [
					['Content-Type', 'text/html']
				])
			)
		).toEqual(expect.arrayContaining(['server-error', 'not-json']));
	});
	test('a redirect is not followed and is explained', () => {
		expect(codes(ex('exchange', 301, '', [['Location', 'https://elsewhere/']]))).toEqual([
			'wrong-endpoint'
		]);
		expect(codes(ex('api', 301, '', [['Location', 'https://elsewhere/']]))).toEqual(['redirect']);
	});
});

describe('API calls', () => {
	test('403 insufficient_scope: zone 2 needs read write', () => {
		const f = diagnose(
			ex('api', 403, '{"error":"insufficient_scope"}', [
				['WWW-Authenticate', 'Bearer error="insufficient_scope"']
			])
		);
		expect(f[0]).toMatchObject({ code: 'insufficient_scope' });
		expect(f[0]!.message).toMatch(/zone-2/);
	});
	test('401 with an expired token says so', () => {
		const e = ex('userinfo', 401, '{"error":"invalid_token"}', [
			['WWW-Authenticate', 'Bearer error="invalid_token"']
		]);
		expect(diagnose(e, { tokenExpiresAt: -1 })[0]!.message).toMatch(/expired/);
		expect(diagnose(e, {})[0]!.code).toBe('invalid_token');
	});
	test('429 tells when the limits reset', () => {
		const f = diagnose(ex('api', 429, '{}', [['X-Reader-Limits-Reset-After', '42']]));
		expect(f[0]).toMatchObject({ code: 'rate-limited', message: expect.stringContaining('42 s') });
	});
});

test('failures get a finding of their kind', () => {
	const e: Exchange = {
		...ex('exchange', 200, ''),
		response: undefined,
		failure: { kind: 'refused', message: 'Nothing is listening' }
	};
	expect(codes(e)).toEqual(['connection-refused']);
});

test('callback verdicts', () => {
	expect(diagnoseCallback('state-mismatch')[0]!.message).toMatch(/forged/);
	expect(diagnoseCallback('code')[0]!.level).toBe('info');
	expect(diagnoseCallback('error', 'access_denied')[0]!.level).toBe('warning');
});

test('rate-limit headers are read per zone', async () => {
	const { rateLimits } = await import('$lib/exchange/rate-limit-headers');
	expect(
		rateLimits([
			['x-reader-zone1-usage', '3'],
			['X-Reader-Zone1-Limit', '100'],
			['X-Reader-Zone2-Usage', '10'],
			['X-Reader-Zone2-Limit', '10'],
			['X-Reader-Limits-Reset-After', '590']
		])
	).toEqual({
		zones: [
			{ zone: 1, usage: 3, limit: 100 },
			{ zone: 2, usage: 10, limit: 10 }
		],
		resetAfter: 590
	});
	expect(rateLimits([['Content-Type', 'x']])).toBeUndefined();
	expect(
		rateLimits([
			['X-Reader-Zone1-Usage', 'lots'],
			['X-Reader-Zone1-Limit', '1']
		])
	).toBeUndefined();
});

describe('registration check', () => {
	const ctx = { redirectUri: 'https://app.test/cb', clientId: 'app' };
	const check = (
		status: number,
		body: string,
		headers: HeaderList = [['Content-Type', 'application/json']]
	) =>
		diagnose(
			{
				...ex('check', status, body, headers),
				request: {
					method: 'GET',
					url: 'https://reader.test/oauth2/auth?client_id=app',
					httpVersion: '1.1',
					headers: [],
					body: ''
				}
			},
			ctx
		);
	test('the redirect_uri mismatch error page', () => {
		const [f] = check(
			400,
			'{"error":"redirect_uri_mismatch","error_description":"The redirect URI provided is missing or does not match"}'
		);
		expect(f).toMatchObject({ level: 'error', code: 'redirect_uri_mismatch' });
		expect(f!.message).toContain('https://app.test/cb');
	});
	test('an unknown client', () => {
		expect(
			check(400, '{"error":"invalid_client","error_description":"Unknown client_id"}')[0]!.code
		).toBe('unknown-client');
	});
	test('a scope the registration does not allow comes back on the redirect', () => {
		const [f] = check(302, '', [['Location', 'https://app.test/cb?error=invalid_scope&state=x']]);
		expect(f).toMatchObject({ code: 'invalid_scope', level: 'error' });
		expect(f!.fix).toMatch(/Read only/);
	});
	test('the consent page means the registration is accepted; a sign-in first judges nothing', () => {
		expect(check(200, '<html>consent</html>', [['Content-Type', 'text/html']])[0]!.code).toBe(
			'registration-ok'
		);
		expect(check(302, '', [['Location', 'https://reader.test/login']])[0]!.code).toBe(
			'sign-in-first'
		);
	});
});
