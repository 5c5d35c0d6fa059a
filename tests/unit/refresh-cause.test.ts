/**
 * Why a refresh failed (oauth/refresh-cause.ts): the cause named from what a recording holds of the
 * refresh token sent (an older generation after a rotation, a revocation, an expiry its answer
 * gave), and from the words and shapes of real servers' refusals, one finding each, "most likely"
 * where the words do not prove it.
 */
import { describe, expect, test } from 'vitest';
import { expiredAt, refreshHistories, refreshRefusal } from '$lib/oauth/refresh-cause';
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
		expect(histories.get(1)).toStrictEqual({});
		expect(histories.get(2)).toStrictEqual({});
		const found = refreshRefusal(flow[3]!, histories.get(3));
		expect(found?.code).toBe('refresh-superseded');
		expect(found?.message).toMatch(
			/^The refresh token sent is an older generation: the refresh #2 already returned a new one/
		);
	});

	test('a service that returns the same refresh token did not rotate it: nothing is superseded', () => {
		const flow = [exchange(), refresh(1, 200, tokens(1)), refresh(1, 400, invalidGrant())];
		expect(refreshHistories(flow).get(2)).toStrictEqual({});
	});

	test('a revocation on record: of the refresh token, certain; of its access token, likely', () => {
		const revokeRefresh = tokenRequest('revoke', 'token=refresh-token-1-abcdefgh', 200, {});
		const flow = [exchange(), revokeRefresh, refresh(1, 400, invalidGrant())];
		expect(refreshHistories(flow).get(2)).toEqual({ revoked: { by: 2, what: 'refresh' } });
		expect(codeOf(flow[2]!, refreshHistories(flow).get(2))).toBe('refresh-revoked');
		const revokeAccess = tokenRequest('revoke', 'token=access-token-1-abcdefgh', 200, {});
		const other = [exchange(), revokeAccess, refresh(1, 400, invalidGrant())];
		expect(refreshHistories(other).get(2)).toStrictEqual({ revoked: { by: 2, what: 'access' } });
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

describe('what is no refusal of the refresh token', () => {
	const answered = (status: number, body: string, contentType = 'application/json') => {
		const ex = refresh(1, status, {});
		ex.response = { ...ex.response!, headers: [['Content-Type', contentType]], body };
		return ex;
	};

	test('no answer, a success, or a server error: nothing said of the token', () => {
		const lost = refresh(1, 400, invalidGrant('Token is not active'));
		delete lost.response;
		expect(refreshRefusal(lost)).toBeUndefined();
		expect(refreshRefusal(refresh(1, 200, tokens(2)))).toBeUndefined();
		// A 5xx is the server's failure, whatever its body says.
		for (const status of [500, 503])
			expect(
				refreshRefusal(refresh(1, status, invalidGrant('Token is not active'))),
				`${status}`
			).toBeUndefined();
		// The last 4xx is judged; the first 5xx is not.
		expect(codeOf(refresh(1, 499, invalidGrant('Token is not active')))).toBe('refresh-not-active');
		expect(codeOf(refresh(1, 400, invalidGrant('Token is not active')))).toBe('refresh-not-active');
	});

	test("a proxy's 403 page, or a 403 with no OAuth error, is no refusal of the token", () => {
		expect(
			refreshRefusal(answered(403, '<html><body><h1>403 Forbidden</h1></body></html>', 'text/html'))
		).toBeUndefined();
		expect(refreshRefusal(answered(403, '{"message":"Forbidden"}'))).toBeUndefined();
		expect(refreshRefusal(answered(400, 'Bad Request', 'text/plain'))).toBeUndefined();
	});

	test.each(['invalid_client', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'])(
		'%s refuses the client or the request, even in a 403 whose words name a token',
		(error) => {
			const ex = refresh(1, 403, { error, error_description: 'Invalid refresh token' });
			expect(refreshRefusal(ex)).toBeUndefined();
		}
	);

	test('another error: the request’s in a 400, the token’s in a 403 whose words name its cause', () => {
		for (const error of ['server_error', 'access_denied', 'temporarily_unavailable'])
			expect(
				refreshRefusal(refresh(1, 400, { error, error_description: 'Token is not active' })),
				error
			).toBeUndefined();
		const found = refreshRefusal(
			refresh(1, 403, { error: 'access_denied', error_description: 'Token has been revoked' })
		);
		expect(found?.code).toBe('refresh-not-active');
		expect(found?.message).toContain('It answered 403 access_denied where');
	});

	test('a 400 invalid_request about the token is said to be one, beside its cause', () => {
		const found = refreshRefusal(
			refresh(1, 400, { error: 'invalid_request', error_description: 'Invalid refresh token' })
		);
		expect(found?.code).toBe('refresh-unknown');
		expect(found?.message).toContain('It answered 400 invalid_request where');
	});
});

describe("the service's words, as it spaced and phrased them", () => {
	test('quoted trimmed; blank words are no words', () => {
		const found = refreshRefusal(refresh(1, 400, invalidGrant('  Token is not active \n')));
		expect(found?.message).toContain('The service said: "Token is not active".');
		const blank = refreshRefusal(
			refresh(1, 403, { error: 'invalid_grant', error_description: ' \t ' })
		);
		expect(blank?.code).toBe('refresh-refused');
		expect(blank?.message).not.toContain('The service said');
	});

	test.each([
		'Session not active',
		'The session is not active',
		'Session expired',
		'User session has ended'
	])('"%s": the session ended', (words) => {
		expect(codeOf(refresh(1, 400, invalidGrant(words)))).toBe('refresh-session-ended');
	});
});

describe('the edges of the record', () => {
	test('a revocation that got no answer, or whose request named no token, revoked nothing', () => {
		const unanswered = tokenRequest('revoke', 'token=refresh-token-1-abcdefgh', 200, {});
		delete unanswered.response;
		expect(
			refreshHistories([exchange(), unanswered, refresh(1, 400, invalidGrant())]).get(2)
		).toStrictEqual({});
		const noToken = tokenRequest('revoke', 'token_type_hint=refresh_token', 200, {});
		const answer = tokens(1);
		delete (answer as Partial<typeof answer>).access_token;
		const issued = tokenRequest('exchange', 'grant_type=authorization_code&code=c', 200, answer);
		expect(
			refreshHistories([issued, noToken, refresh(1, 400, invalidGrant())]).get(2)
		).toStrictEqual({});
	});

	test('a new refresh token shortened in its answer says nothing of a rotation', () => {
		const same = { ...tokens(1), refresh_token: 'refr…efgh' };
		const flow = [exchange(), refresh(1, 200, same), refresh(1, 400, invalidGrant())];
		expect(refreshHistories(flow).get(2)).toStrictEqual({});
	});

	test('an expiry of 0 is none (Keycloak’s offline token); the expiry passes only after its last instant', () => {
		const offline = [exchange({ refresh_expires_in: 0 }), refresh(1, 400, invalidGrant(), 86_400)];
		expect(refreshHistories(offline).get(1)).toStrictEqual({});
		// The request that got the token started before the server issued it: sent exactly its
		// lifetime after that start, the token had not yet lived that long.
		const atTheEdge = [exchange({ refresh_expires_in: 60 }), refresh(1, 400, invalidGrant(), 60)];
		expect(refreshHistories(atTheEdge).get(1)).toStrictEqual({});
	});

	test('the first field with an expiry counts; one of 0 beside it is none', () => {
		const both = [
			exchange({ refresh_token_expires_in: 0, refresh_expires_in: 60 }),
			refresh(1, 400, invalidGrant(), 61)
		];
		expect(refreshHistories(both).get(1)).toStrictEqual({
			expired: { from: 1, field: 'refresh_expires_in 60' }
		});
	});

	test('a redirect is no refusal, whatever its body says', () => {
		expect(refreshRefusal(refresh(1, 302, invalidGrant('Token is not active')))).toBeUndefined();
	});
});

describe('the live flow’s refresh token past its expiry (expiredAt)', () => {
	const got = 1_000_000;
	test('expired from the instant its lifetime has passed since the answer came, in either field', () => {
		for (const field of ['refresh_token_expires_in', 'refresh_expires_in']) {
			expect(expiredAt({ [field]: 60 }, got, got + 59_999), field).toBeUndefined();
			expect(expiredAt({ [field]: 60 }, got, got + 60_000), field).toStrictEqual({ field });
		}
	});

	test('no expiry: none given, 0 (an offline token), or not a finite positive number', () => {
		for (const seconds of [undefined, 0, -60, Number.NaN, Number.POSITIVE_INFINITY, '60'])
			expect(
				expiredAt({ refresh_expires_in: seconds }, got, got + 10 ** 9),
				String(seconds)
			).toBeUndefined();
		// The first field with an expiry counts.
		expect(
			expiredAt({ refresh_token_expires_in: 0, refresh_expires_in: 60 }, got, got + 61_000)
		).toStrictEqual({ field: 'refresh_expires_in' });
	});
});

describe("GitHub's refusal: an error object in a 200", () => {
	// GitHub answers every token error with 200 and an error object; its refusal of a refresh
	// token is `bad_refresh_token`, "The refresh token passed is incorrect or expired."
	const github = () =>
		refresh(1, 200, {
			error: 'bad_refresh_token',
			error_description: 'The refresh token passed is incorrect or expired.'
		});

	test('its words name the cause, and the shape is said: a client that checks the status takes it for a success', () => {
		const found = refreshRefusal(github());
		expect(found?.code).toBe('refresh-not-active');
		expect(found?.message).toContain('It answered 200 bad_refresh_token where RFC 6749 §5.2');
		expect(found?.message).toContain(
			'a client that checks only the status code takes it for tokens'
		);
		// One error finding on the exchange, the precise one.
		expect(
			diagnose(github())
				.filter((f) => f.level === 'error')
				.map((f) => f.code)
		).toEqual(['refresh-not-active']);
	});

	test('an older generation of its rotating refresh tokens, on record: superseded', () => {
		const flow = [exchange(), refresh(1, 200, tokens(2)), github()];
		expect(codeOf(flow[2]!, refreshHistories(flow).get(2))).toBe('refresh-superseded');
	});

	test('a 200 with an error is judged as a 4xx is: of the token when it names the token, else not', () => {
		const found = refreshRefusal(
			refresh(1, 200, { error: 'invalid_request', error_description: 'Invalid refresh token' })
		);
		expect(found?.code).toBe('refresh-unknown');
		expect(found?.message).toContain('It answered 200 invalid_request where');
		expect(
			refreshRefusal(refresh(1, 200, { error: 'incorrect_client_credentials' }))
		).toBeUndefined();
		expect(refreshRefusal(refresh(1, 200, { error: 'unsupported_grant_type' }))).toBeUndefined();
		expect(refreshRefusal(refresh(1, 200, tokens(2)))).toBeUndefined();
	});
});
