/**
 * `invalid_grant` on a code exchange, with what the service's words say (diagnose.ts): expired,
 * used already, or its redirect_uri, each certain, in several servers' real wording; words that
 * weigh causes or prove nothing keep the list of likely causes.
 */
import { expect, test } from 'vitest';
import { diagnose } from '$lib/oauth/diagnose';
import type { Exchange } from '$lib/exchange/types';

const exchange = (description?: string): Exchange => ({
	id: 'x1',
	step: 'exchange',
	startedAt: '2026-12-06T10:00:00.000Z',
	request: {
		method: 'POST',
		url: 'https://id.example.test/oauth2/token',
		httpVersion: '1.1',
		headers: [['Content-Type', 'application/x-www-form-urlencoded']],
		body: 'grant_type=authorization_code&code=abc&redirect_uri=https%3A%2F%2Fapp.test%2Fcb'
	},
	response: {
		status: 400,
		statusText: 'Bad Request',
		httpVersion: '1.1',
		headers: [
			['Content-Type', 'application/json'],
			['Cache-Control', 'no-store']
		],
		body: JSON.stringify({
			error: 'invalid_grant',
			...(description ? { error_description: description } : {})
		}),
		truncated: false
	},
	timing: { total: 4 },
	findings: []
});
const first = (description?: string) => {
	const errors = diagnose(exchange(description)).filter((f) => f.level === 'error');
	expect(errors).toHaveLength(1);
	return errors[0]!.message;
};

test.each([
	[
		"the sandbox's expiry",
		'The authorization code has expired (codes are valid for 60 seconds): exchange it at once',
		/^The authorization code had expired\./
	],
	[
		"the sandbox's reuse",
		'The authorization code has already been used; the tokens issued from it are now revoked',
		/^The authorization code had been used already: a code is exchanged once\./
	],
	[
		"Keycloak's redirect_uri",
		'Incorrect redirect_uri',
		/^The code was refused for its redirect_uri/
	],
	[
		"the sandbox's redirect_uri",
		'The redirect_uri does not match the one used in the consent request',
		/^The code was refused for its redirect_uri/
	],
	// Entra ID's "or" joins two tokens, or two remedies, never two causes.
	[
		"Entra ID's reuse",
		'AADSTS70002: Error validating credentials. AADSTS54005: OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.',
		/^The authorization code had been used already/
	],
	[
		"Entra ID's expiry",
		'AADSTS70002: Error validating credentials. AADSTS70008: The provided authorization code or refresh token is expired. Send a new interactive authorization request for this user and resource.\r\nTrace ID: 3939d04c-d7ba-42bf-9cb7-1e5854cdce9e\r\nCorrelation ID: a8125194-2dc8-4078-90ba-7b6592a7f231\r\nTimestamp: 2016-04-11 18:00:12Z',
		/^The authorization code had expired\./
	],
	[
		"Entra ID's expiry by inactivity",
		'AADSTS70008: The provided authorization code or refresh token has expired due to inactivity. Send a new interactive authorization request for this user and resource.',
		/^The authorization code had expired\./
	]
])('%s: certain, in one finding', (_name, words, message) => {
	expect(first(words)).toMatch(message);
});

test.each([
	["Okta's", 'The authorization code is invalid or has expired.'],
	["GitHub's", 'The code passed is incorrect or expired.'],
	[
		"the sandbox's forgotten store",
		"The authorization code was issued before the sandbox's store was emptied or replaced, so whether it was already used is not known: start a new consent"
	],
	["Keycloak's", 'Code not valid'],
	["oidc-provider's", 'grant request is invalid'],
	['no words', undefined]
])('%s words prove no one cause: the likely causes', (_name, words) => {
	expect(first(words)).toMatch(/^The authorization code was refused\./);
});

/** What the page knows of the code (diagnose.ts `code`): times on a fake clock, epoch ms. */
const T = Date.parse('2026-12-06T10:00:00.000Z');
const known = (
	description: string | undefined,
	code: { receivedAt: number; sentAt: number; lifetime?: number; sentBefore?: boolean }
) => {
	const errors = diagnose(exchange(description), { code }).filter((f) => f.level === 'error');
	expect(errors).toHaveLength(1);
	return errors[0]!;
};

test('a code back 63 s before its exchange, never sent, where codes live 60 s: expired, certain', () => {
	const f = known('grant request is invalid', { receivedAt: T, sentAt: T + 63_000, lifetime: 60 });
	expect(f.code).toBe('invalid_grant');
	expect(f.message).toMatch(
		/^The authorization code had expired: it came back 63 s before this exchange, and the server’s codes live 60 s\. It was never sent before\./
	);
	expect(f.message).toContain('"grant request is invalid"');
});

test('within the lifetime, or with no known lifetime: the likely causes, most likely first', () => {
	expect(known(undefined, { receivedAt: T, sentAt: T + 60_000, lifetime: 60 }).message).toMatch(
		/^The authorization code was refused\./
	);
	expect(known(undefined, { receivedAt: T, sentAt: T + 3_600_000 }).message).toMatch(
		/^The authorization code was refused\./
	);
});

test('a code the transcript shows sent before: used twice, even when old', () => {
	const f = known(undefined, { receivedAt: T, sentAt: T + 90_000, lifetime: 60, sentBefore: true });
	expect(f.message).toMatch(/^The authorization code was sent before, by the exchange above/);
});

test('the server’s own words still decide first', () => {
	const f = known('The authorization code has already been used', {
		receivedAt: T,
		sentAt: T + 90_000,
		lifetime: 60
	});
	expect(f.message).toMatch(/^The authorization code had been used already/);
});

test('GitHub’s own errors, in its 200s, are read as the standard ones they stand for', () => {
	const github = (error: string, words: string) => {
		const ex = exchange();
		ex.response = {
			...ex.response!,
			status: 200,
			statusText: 'OK',
			body: JSON.stringify({ error, error_description: words })
		};
		return diagnose(ex).filter((f) => f.level !== 'info');
	};
	// Its refused code: the likely causes, as for invalid_grant; and the status said beside it.
	const code = github('bad_verification_code', 'The code passed is incorrect or expired.');
	expect(code.map((f) => f.code)).toEqual(['invalid_grant', 'error-in-success']);
	expect(code[0]!.message).toBe(
		'The authorization code was refused. The service said: "The code passed is incorrect or expired.".'
	);
	expect(code[0]!.fix).toMatch(/^Likely causes: the code was already used/);
	// Its refused client credentials: what invalid_client says.
	const client = github(
		'incorrect_client_credentials',
		'The client_id and/or client_secret passed are incorrect.'
	);
	expect(client.map((f) => f.code)).toEqual(['invalid_client', 'error-in-success']);
});

test('words of an expiry that is not the code’s: Entra ID’s expired client secret is what invalid_client says', () => {
	const ex = exchange();
	ex.response = {
		...ex.response!,
		status: 401,
		statusText: 'Unauthorized',
		body: JSON.stringify({
			error: 'invalid_client',
			error_description:
				"AADSTS7000222: The provided client secret keys for app '6b2d1d92-7018-4182-b70e-821127bec509' are expired. Visit the Azure portal to create new keys for your app: https://aka.ms/NewClientSecret, or consider using certificate credentials for added security: https://aka.ms/certCreds"
		})
	};
	const errors = diagnose(ex).filter((f) => f.level === 'error');
	expect(errors.map((f) => f.code)).toEqual(['invalid_client']);
	expect(errors[0]!.message).toMatch(/^The service did not accept the client credentials\./);
});

test('on another server’s setup, a refused code is still a refused code, not a scope', () => {
	const errors = diagnose(exchange('Code not valid'), {
		advice: { service: false, scopes: ['openid'] }
	}).filter((f) => f.level === 'error');
	expect(errors.map((f) => f.code)).toEqual(['invalid_grant']);
	expect(errors[0]!.message).toMatch(/^The authorization code was refused\./);
});
