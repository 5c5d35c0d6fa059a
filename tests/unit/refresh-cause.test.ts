/**
 * Why a refresh failed (oauth/refresh-cause.ts): the cause named from what a recording holds of the
 * refresh token sent (an older generation after a rotation, a revocation, an expiry its answer
 * gave), and from the words and shapes of real servers' refusals, one finding each, "most likely"
 * where the words do not prove it.
 */
import { describe, expect, test } from 'vitest';
import { refreshHistories, refreshRefusal } from '$lib/oauth/refresh-cause';
import { diagnose } from '$lib/oauth/diagnose';
import { importHar } from '$lib/oauth/imported';
import { toHar } from '$lib/exchange/har/export';
import type { Exchange } from '$lib/exchange/types';

const TOKEN_URL = 'https://id.example.test/oauth2/token';
const T0 = Date.parse('2026-12-06T10:00:00.000Z');
let id = 0;

function tokenRequest(
	step: 'exchange' | 'refresh' | 'revoke',
	body: string,
	status: number,
	answer: object,
	at = 0
): Exchange {
	return {
		id: `e${++id}`,
		step,
		startedAt: new Date(T0 + at * 1000).toISOString(),
		request: {
			method: 'POST',
			url: step === 'revoke' ? 'https://id.example.test/oauth2/revoke' : TOKEN_URL,
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body
		},
		response: {
			status,
			statusText: '',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: JSON.stringify(answer),
			truncated: false
		},
		timing: { total: 5 },
		findings: []
	};
}
const tokens = (n: number, extra: object = {}) => ({
	access_token: `access-token-${n}-abcdefgh`,
	token_type: 'Bearer',
	expires_in: 3600,
	refresh_token: `refresh-token-${n}-abcdefgh`,
	scope: 'read',
	...extra
});
const exchange = (extra: object = {}, at = 0) =>
	tokenRequest(
		'exchange',
		'grant_type=authorization_code&code=c-123456789',
		200,
		tokens(1, extra),
		at
	);
const refresh = (n: number, status: number, answer: object, at = 0) =>
	tokenRequest(
		'refresh',
		`grant_type=refresh_token&refresh_token=refresh-token-${n}-abcdefgh`,
		status,
		answer,
		at
	);
const invalidGrant = (words?: string) => ({
	error: 'invalid_grant',
	...(words ? { error_description: words } : {})
});
const codeOf = (ex: Exchange, history = {}) => refreshRefusal(ex, history)?.code;

describe('from the record: what happened to the refresh token sent', () => {
	test('an older generation sent after a rotation names the refresh that replaced it', () => {
		const flow = [
			exchange(),
			refresh(1, 200, tokens(2)),
			refresh(2, 200, tokens(3)),
			refresh(1, 400, invalidGrant())
		];
		const histories = refreshHistories(flow);
		expect(histories.get(3)).toEqual({ superseded: 2 });
		// The refreshes that sent the newest token had nothing on record against them.
		expect(histories.get(1)).toEqual({});
		expect(histories.get(2)).toEqual({});
		const found = refreshRefusal(flow[3]!, histories.get(3));
		expect(found?.code).toBe('refresh-superseded');
		expect(found?.message).toMatch(
			/^The refresh token sent is an older generation: the refresh #2 already returned a new one/
		);
	});

	test('a service that returns the same refresh token did not rotate it: nothing is superseded', () => {
		const flow = [exchange(), refresh(1, 200, tokens(1)), refresh(1, 400, invalidGrant())];
		expect(refreshHistories(flow).get(2)).toEqual({});
	});

	test('a revocation on record: of the refresh token, certain; of its access token, likely', () => {
		const revokeRefresh = tokenRequest('revoke', 'token=refresh-token-1-abcdefgh', 200, {});
		const flow = [exchange(), revokeRefresh, refresh(1, 400, invalidGrant())];
		expect(refreshHistories(flow).get(2)).toEqual({ revoked: { by: 2, what: 'refresh' } });
		expect(codeOf(flow[2]!, refreshHistories(flow).get(2))).toBe('refresh-revoked');
		const revokeAccess = tokenRequest('revoke', 'token=access-token-1-abcdefgh', 200, {});
		const other = [exchange(), revokeAccess, refresh(1, 400, invalidGrant())];
		const found = refreshRefusal(other[2]!, refreshHistories(other).get(2));
		expect(found?.code).toBe('refresh-access-revoked');
		expect(found?.message).toMatch(/^Most likely revoked: #2 revoked the access token/);
		// A revocation the service refused revoked nothing.
		const refused = tokenRequest('revoke', 'token=refresh-token-1-abcdefgh', 400, {
			error: 'unsupported_token_type'
		});
		expect(refreshHistories([exchange(), refused, refresh(1, 400, invalidGrant())]).get(2)).toEqual(
			{}
		);
	});

	test('an expiry the answer gave, passed when it was sent (either field)', () => {
		for (const field of ['refresh_token_expires_in', 'refresh_expires_in']) {
			const late = [exchange({ [field]: 60 }), refresh(1, 400, invalidGrant(), 61)];
			const found = refreshRefusal(late[1]!, refreshHistories(late).get(1));
			expect(found?.code, field).toBe('refresh-expired');
			expect(found?.message).toContain(`the answer #1 gave it ${field} 60`);
			const inTime = [exchange({ [field]: 60 }), refresh(1, 400, invalidGrant(), 59)];
			expect(refreshHistories(inTime).get(1)).toEqual({});
		}
	});

	test('tokens shortened by an export are not matched', () => {
		const flow = [exchange(), refresh(1, 200, tokens(2)), refresh(1, 400, invalidGrant())];
		for (const ex of flow)
			ex.request.body = ex.request.body.replace(/refresh-token-1-abcdefgh/, 'refr…efgh');
		expect(refreshHistories(flow).get(2)).toBeUndefined();
	});
});

describe('from the words and shapes of real servers', () => {
	const at = (status: number, answer: object) => refresh(1, status, answer);

	test.each([
		["Keycloak's session ended", 400, invalidGrant('Session not active'), 'refresh-session-ended'],
		["Keycloak's token not active", 400, invalidGrant('Token is not active'), 'refresh-not-active'],
		[
			"Google's expired or revoked",
			400,
			invalidGrant('Token has been expired or revoked.'),
			'refresh-not-active'
		],
		["Auth0's 403", 403, invalidGrant('Unknown or invalid refresh token.'), 'refresh-unknown'],
		[
			'a server that answers invalid_request',
			400,
			{ error: 'invalid_request', error_description: 'Invalid refresh token' },
			'refresh-unknown'
		],
		['a 403 without words', 403, invalidGrant(), 'refresh-refused']
	])('%s', (_name, status, answer, code) => {
		const ex = at(status, answer);
		expect(codeOf(ex)).toBe(code);
		// One error finding on the exchange, the precise one.
		const errors = diagnose(ex).filter((f) => f.level === 'error');
		expect(errors.map((f) => f.code)).toEqual([code]);
	});

	test('a non-standard shape is said beside the cause; the standard one is not', () => {
		expect(
			refreshRefusal(at(403, invalidGrant('Unknown or invalid refresh token.')))?.message
		).toContain('It answered 403 invalid_grant where RFC 6749 §5.2 has 400 invalid_grant');
		expect(refreshRefusal(at(400, invalidGrant('Token is not active')))?.message).not.toContain(
			'It answered'
		);
	});

	test('words that prove nothing leave the token endpoint’s own finding; no refusal of the token, none', () => {
		// oidc-provider keeps its detail to its logs: "grant request is invalid".
		const oidc = at(400, invalidGrant('grant request is invalid'));
		expect(refreshRefusal(oidc)).toBeUndefined();
		expect(
			diagnose(oidc)
				.filter((f) => f.level === 'error')
				.map((f) => f.code)
		).toEqual(['invalid_grant']);
		for (const answer of [
			{ error: 'invalid_client' },
			{ error: 'invalid_request', error_description: 'Missing grant_type' },
			{ error: 'invalid_scope' }
		])
			expect(refreshRefusal(at(400, answer)), answer.error).toBeUndefined();
		// A code exchange is no refresh.
		expect(
			refreshRefusal(tokenRequest('exchange', 'code=x', 400, invalidGrant('Token is not active')))
		).toBeUndefined();
	});
});

test('a HAR whose third refresh sends the first generation: one finding, naming the refresh that replaced it', () => {
	const flow = [
		exchange(),
		refresh(1, 200, tokens(2)),
		refresh(2, 200, tokens(3)),
		refresh(1, 400, invalidGrant('grant request is invalid'))
	];
	const imported = importHar(JSON.stringify(toHar(flow, { includeTokens: true })));
	expect(imported.ok).toBe(true);
	if (!imported.ok) return;
	const last = imported.exchanges.at(-1)!;
	expect(last.findings.filter((f) => f.level === 'error').map((f) => f.code)).toEqual([
		'refresh-superseded'
	]);
	expect(last.findings[0]!.message).toContain('the refresh #2 already returned a new one');
});
