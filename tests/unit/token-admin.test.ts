/**
 * Revocation (RFC 7009) and introspection (RFC 7662), pure: the bodies, and what each answer means.
 * A 200 from revocation proves nothing by itself; the proof request decides.
 */
import { describe, expect, test } from 'vitest';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import {
	judgeIntrospection,
	judgeProof,
	judgeRevocation,
	tokenAdminBody
} from '$lib/oauth/token-admin';
import { spends } from '$lib/exchange/spending';

function ex(status: number | undefined, body = '', headers: HeaderList = []): Exchange {
	return {
		id: 'x',
		step: 'revoke',
		startedAt: '2026-01-01T00:00:00.000Z',
		request: {
			method: 'POST',
			url: 'https://as.test/oauth/x',
			httpVersion: '1.1',
			headers: [],
			body: ''
		},
		...(status === undefined
			? { failure: { kind: 'refused' as const, message: 'refused' } }
			: {
					response: {
						status,
						statusText: '',
						httpVersion: '1.1',
						headers,
						body,
						truncated: false
					}
				}),
		timing: { total: 1 },
		findings: []
	};
}

const codes = (fs: { code: string }[]) => fs.map((f) => f.code);

describe('the request body', () => {
	test('token, its hint, then the client’s own fields where its method puts them', () => {
		expect(tokenAdminBody('t 1', 'access_token', { client_id: 'a', client_secret: 's+' })).toBe(
			'token=t+1&token_type_hint=access_token&client_id=a&client_secret=s%2B'
		);
		expect(tokenAdminBody('t', 'refresh_token', { client_id: 'a' })).toBe(
			'token=t&token_type_hint=refresh_token&client_id=a'
		);
		expect(tokenAdminBody('t', 'refresh_token', {})).toBe('token=t&token_type_hint=refresh_token');
	});
});

describe('introspection', () => {
	test('active, with what the token holds', () => {
		const r = judgeIntrospection(
			ex(200, '{"active":true,"scope":"read","client_id":"app","sub":"alice","exp":0}'),
			'access_token'
		);
		expect(r.result).toMatchObject({ active: true, scope: 'read' });
		expect(codes(r.findings)).toEqual(['introspection-active']);
		expect(r.findings[0]!.message).toContain('access token is active');
		expect(r.findings[0]!.message).toContain('client app');
		expect(r.findings[0]!.message).toContain('1970-01-01T00:00:00.000Z');
	});

	test('inactive, for a refresh token', () => {
		const r = judgeIntrospection(ex(200, '{"active":false}'), 'refresh_token');
		expect(codes(r.findings)).toEqual(['introspection-inactive']);
		expect(r.findings[0]!.message).toContain('refresh token is not active');
	});

	test.each([['{"active":"true"}'], ['[]'], ['not json'], ['{}']])(
		'an answer without a boolean active is named as such: %s',
		(body) => {
			const r = judgeIntrospection(ex(200, body), 'access_token');
			expect(r.result).toBeUndefined();
			expect(codes(r.findings)).toEqual(['introspection-malformed']);
			expect(r.findings[0]!.level).toBe('error');
		}
	);

	test('a 503 says to try later; other refusals and failures add nothing here', () => {
		expect(
			codes(judgeIntrospection(ex(503, '', [['Retry-After', '30']]), 'access_token').findings)
		).toEqual(['revocation-retry']);
		expect(judgeIntrospection(ex(401, '{"error":"invalid_client"}'), 'access_token')).toEqual({
			findings: []
		});
		expect(judgeIntrospection(ex(undefined), 'access_token')).toEqual({ findings: [] });
	});
});

describe('revocation', () => {
	test('a 200 proves nothing by itself', () => {
		const [f] = judgeRevocation(ex(200));
		expect(f!.code).toBe('revocation-accepted');
		expect(f!.level).toBe('info');
	});

	test('unsupported_token_type and 503 are explained', () => {
		expect(codes(judgeRevocation(ex(400, '{"error":"unsupported_token_type"}')))).toEqual([
			'revocation-unsupported'
		]);
		const [retry] = judgeRevocation(ex(503, '', [['Retry-After', '120']]));
		expect(retry!.message).toContain('after 120 seconds');
		const [dated] = judgeRevocation(
			ex(503, '', [['Retry-After', 'Wed, 21 Oct 2026 07:28:00 GMT']])
		);
		expect(dated!.message).toContain('after Wed, 21 Oct 2026 07:28:00 GMT.');
		expect(judgeRevocation(ex(503))[0]!.message).toContain('(503).');
		expect(judgeRevocation(ex(400, '{"error":"invalid_request"}'))).toEqual([]);
		expect(judgeRevocation(ex(undefined))).toEqual([]);
	});

	test('the proof: refused means revoked, success means it still works', () => {
		const proven = judgeProof(
			ex(401, '', [['WWW-Authenticate', 'Bearer error="invalid_token"']]),
			'access_token'
		);
		expect(proven).toMatchObject({ code: 'revocation-proven', level: 'info' });
		expect(proven!.message).toContain('user-info call');
		expect(proven!.message).toContain('invalid_token');
		const grant = judgeProof(ex(400, '{"error":"invalid_grant"}'), 'refresh_token');
		expect(grant!.message).toContain('refresh grant');
		expect(grant!.message).toContain('400, invalid_grant');
		expect(judgeProof(ex(200), 'access_token')).toMatchObject({
			code: 'revocation-not-effective',
			level: 'error'
		});
		expect(judgeProof(ex(204), 'refresh_token')!.code).toBe('revocation-not-effective');
		expect(judgeProof(ex(300), 'access_token')!.code).toBe('revocation-proven');
		expect(judgeProof(ex(undefined), 'access_token')).toBeUndefined();
	});
});

test('a revocation spends, whatever its URL; an introspection does not', () => {
	const revoke = { ...ex(200), step: 'revoke' as const };
	expect(spends(revoke)).toBe('revoke');
	expect(spends({ ...ex(200), step: 'introspect' })).toBeUndefined();
});
