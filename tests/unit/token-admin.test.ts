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

const RFC7009 = (s: string) => `RFC 7009 §${s}`;
const RFC7662 = (s: string) => `RFC 7662 §${s}`;

describe('what each finding is, and where the RFC says so', () => {
	test('introspection: active and inactive are info (RFC 7662 §2.2), a malformed answer is an error there', () => {
		const [active] = judgeIntrospection(ex(200, '{"active":true}'), 'access_token').findings;
		expect(active).toMatchObject({ level: 'info', ref: RFC7662('2.2') });
		const [inactive] = judgeIntrospection(ex(200, '{"active":false}'), 'access_token').findings;
		expect(inactive).toMatchObject({ level: 'info', ref: RFC7662('2.2') });
		const [bad] = judgeIntrospection(ex(200, '{}'), 'access_token').findings;
		expect(bad).toMatchObject({ level: 'error', ref: RFC7662('2.2') });
	});

	test('a 503 and unsupported_token_type are warnings (RFC 7009 §2.2.1), naming which request it was', () => {
		const [retry] = judgeIntrospection(ex(503), 'access_token').findings;
		expect(retry).toMatchObject({
			level: 'warning',
			code: 'revocation-retry',
			ref: RFC7009('2.2.1')
		});
		expect(retry!.message).toContain('introspection');
		const [revokeRetry] = judgeRevocation(ex(503));
		expect(revokeRetry!.message).toContain('revocation');
		const [unsupported] = judgeRevocation(ex(400, '{"error":"unsupported_token_type"}'));
		expect(unsupported).toMatchObject({
			level: 'warning',
			code: 'revocation-unsupported',
			ref: RFC7009('2.2.1')
		});
		expect(unsupported!.message).toContain('revocation');
		const [introspectUnsupported] = judgeIntrospection(
			ex(400, '{"error":"unsupported_token_type"}'),
			'refresh_token'
		).findings;
		expect(introspectUnsupported!.message).toContain('introspection');
	});

	test('revocation’s 200 and the proof refer to RFC 7009 §2.2 and §2', () => {
		expect(judgeRevocation(ex(200))[0]!.ref).toBe(RFC7009('2.2'));
		expect(judgeProof(ex(200), 'access_token')!.ref).toBe(RFC7009('2.2'));
		expect(judgeProof(ex(401), 'access_token')!.ref).toBe(RFC7009('2'));
	});
});

describe('introspection details', () => {
	test('each detail the answer holds is named, with the expiry read as seconds', () => {
		const [f] = judgeIntrospection(
			ex(200, '{"active":true,"scope":"read write","sub":"alice","exp":1780000000}'),
			'access_token'
		).findings;
		expect(f!.message).toContain('"read write"');
		expect(f!.message).toContain('alice');
		expect(f!.message).toContain(new Date(1_780_000_000_000).toISOString());
		expect(f!.message).not.toContain('undefined');
	});

	test('an empty scope is still named; a missing one is not', () => {
		const [empty] = judgeIntrospection(
			ex(200, '{"active":true,"scope":""}'),
			'access_token'
		).findings;
		expect(empty!.message).toContain('""');
		const [bare] = judgeIntrospection(ex(200, '{"active":true}'), 'access_token').findings;
		expect(bare!.message).not.toContain('"');
	});

	test('an active answer without details lists none', () => {
		const [f] = judgeIntrospection(
			ex(200, '{"active":true,"username":"u","token_type":"Bearer"}'),
			'access_token'
		).findings;
		expect(f!.message).not.toContain(':');
		expect(f!.message).not.toContain(',');
	});

	test('aud may be one audience or a list of them', () => {
		expect(
			judgeIntrospection(ex(200, '{"active":true,"aud":"api"}'), 'access_token').result
		).toMatchObject({ aud: 'api' });
		expect(
			judgeIntrospection(ex(200, '{"active":true,"aud":["a","b"]}'), 'access_token').result
		).toMatchObject({ aud: ['a', 'b'] });
		expect(
			codes(judgeIntrospection(ex(200, '{"active":true,"aud":7}'), 'access_token').findings)
		).toEqual(['introspection-malformed']);
	});
});

describe('error bodies that are not objects', () => {
	test.each([['"unsupported_token_type"'], ['5'], ['true']])(
		'a JSON body %s is not an OAuth error',
		(body) => {
			expect(judgeRevocation(ex(400, body))).toEqual([]);
			expect(judgeProof(ex(400, body), 'refresh_token')!.message).toContain('(400)');
		}
	);

	test('a non-string error member gives way to the WWW-Authenticate header', () => {
		const f = judgeProof(
			ex(401, '{"error":42}', [['WWW-Authenticate', 'Bearer error="invalid_token"']]),
			'access_token'
		);
		expect(f!.message).toContain('invalid_token');
		expect(f!.message).not.toContain('42');
	});

	test('a refusal with neither an error nor the header shows the status alone', () => {
		expect(judgeProof(ex(401), 'access_token')!.message).toContain('(401)');
	});

	test('an informational status is not a success of the revoked token', () => {
		expect(judgeProof(ex(101), 'access_token')!.code).toBe('revocation-proven');
	});
});
