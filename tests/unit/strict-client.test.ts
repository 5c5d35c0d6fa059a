/**
 * oauth4webapi as a second judge (oauth/strict-client.ts): recorded answers the library rejects get
 * one info finding in its words, beside ours; the sandbox's own answers, the server's own OAuth
 * errors and answers ours already call no OAuth answer get none; and it never throws.
 */
import { describe, expect, test } from 'vitest';
import { calculatePKCECodeChallenge } from 'oauth4webapi';
import type { Exchange, Finding, Step } from '$lib/exchange/types';
import { pkceVerdict, redirectVerdict, strictVerdict } from '$lib/oauth/strict-client';
import { newId, signCode } from '$lib/sandbox/signing.server';
import { tokenEndpoint } from '$lib/sandbox/token-route.server';
import { newVerifier } from '$lib/server/flow/pkce';
import { testSandbox } from './test-app';

/** The built-in sandbox whose real answers are judged, with a session key of this file's own. */
const sandbox = testSandbox({
	PLAYGROUND_SESSION_KEY: Buffer.alloc(32, 'unit-test-strict-client-key').toString('base64url')
});

const SETUP = { issuer: '', client_id: 'sandbox-rw' };
const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

function recorded(
	step: Step,
	status: number,
	body: unknown,
	headers: [string, string][] = [JSON_TYPE],
	findings: Finding[] = []
): Exchange {
	return {
		id: 'x',
		step,
		startedAt: '2026-01-01T00:00:00.000Z',
		request: {
			method: 'POST',
			url: 'https://as.test/token',
			httpVersion: '1.1',
			headers: [],
			body: ''
		},
		response: {
			status,
			statusText: '',
			httpVersion: '1.1',
			headers,
			body: typeof body === 'string' ? body : JSON.stringify(body),
			truncated: false
		},
		timing: { total: 1 },
		findings
	};
}

const GOOD_TOKENS = {
	access_token: 'at',
	token_type: 'Bearer',
	expires_in: 3600,
	refresh_token: 'rt',
	scope: 'read'
};

function expectRejection(f: Finding | undefined, words: RegExp) {
	expect(f).toMatchObject({ level: 'info', code: 'strict-client-rejects' });
	expect(f!.message).toMatch(/^A strict client library \(oauth4webapi\) would reject this/);
	expect(f!.message).toMatch(words);
	expect(f!.ref).toMatch(/^https:\/\/github\.com\/panva\/oauth4webapi\//);
}

describe('the sandbox’s own answers pass', () => {
	const ORIGIN = 'http://127.0.0.1:5173';
	async function post(fields: Record<string, string>, step: Step): Promise<Exchange> {
		const res = await tokenEndpoint(
			sandbox,
			new Request(`${ORIGIN}/sandbox/oauth2/token`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams(fields).toString()
			}),
			ORIGIN
		);
		return recorded(step, res.status, await res.text(), [...res.headers.entries()]);
	}

	test('the code exchange, the refresh and an invalid_grant', async () => {
		const gen = await (await sandbox.store()).generation();
		const { token: code } = await signCode(
			sandbox,
			{
				client_id: 'sandbox-rw',
				redirect_uri: `${ORIGIN}/callback`,
				scope: 'read write',
				fam: newId(),
				gen
			},
			60
		);
		const rw = { client_id: 'sandbox-rw', client_secret: 'sandbox-rw-secret' };
		const exchange = await post(
			{
				code,
				redirect_uri: `${ORIGIN}/callback`,
				...rw,
				scope: '',
				grant_type: 'authorization_code'
			},
			'exchange'
		);
		expect(exchange.response!.status).toBe(200);
		expect(await strictVerdict(exchange, SETUP)).toBeUndefined();
		const refresh_token = (JSON.parse(exchange.response!.body) as { refresh_token: string })
			.refresh_token;
		const refreshed = await post({ ...rw, grant_type: 'refresh_token', refresh_token }, 'refresh');
		expect(refreshed.response!.status).toBe(200);
		expect(await strictVerdict(refreshed, SETUP)).toBeUndefined();
		// The code again: the server's own error, which the library only passes on.
		const again = await post(
			{
				code,
				redirect_uri: `${ORIGIN}/callback`,
				...rw,
				scope: '',
				grant_type: 'authorization_code'
			},
			'exchange'
		);
		expect(again.response!.status).toBe(400);
		expect(await strictVerdict(again, SETUP)).toBeUndefined();
	});
});

describe('token answers the library rejects', () => {
	test.each([
		['without token_type', { access_token: 'at' }, /"token_type" property must be a string/],
		[
			'with a token_type that is no string',
			{ access_token: 'at', token_type: 7 },
			/"token_type" property must be a string/
		],
		[
			'with a token_type it does not know',
			{ ...GOOD_TOKENS, token_type: 'mac' },
			/unsupported `token_type` value/
		],
		[
			'with a negative expires_in',
			{ ...GOOD_TOKENS, expires_in: -5 },
			/"expires_in" property must be a non-negative number/
		],
		[
			'with a scope that is no string',
			{ ...GOOD_TOKENS, scope: ['read'] },
			/"scope" property must be a string/
		]
	])('%s', async (_, body, words) => {
		for (const step of ['exchange', 'refresh'] as const)
			expectRejection(await strictVerdict(recorded(step, 200, body), SETUP), words);
	});

	test('an error object sent with a non-JSON Content-Type', async () => {
		const ex = recorded('exchange', 400, { error: 'invalid_grant' }, [
			['Content-Type', 'text/plain']
		]);
		expectRejection(await strictVerdict(ex, SETUP), /content-type must be application\/json/);
	});

	test('beside our own error on the same member, it is still said: it names the rule a client enforces', async () => {
		const ours: Finding = { level: 'error', code: 'missing-token_type', message: 'no token_type' };
		const ex = recorded('exchange', 200, { access_token: 'at' }, [JSON_TYPE], [ours]);
		expectRejection(await strictVerdict(ex, SETUP), /token_type/);
	});

	test('an id_token is left to the JWT check: the playground asks for no openid, so it is not judged here', async () => {
		const alien = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"iss":"https://elsewhere.test"}').toString('base64url')}.`;
		expect(
			await strictVerdict(recorded('exchange', 200, { ...GOOD_TOKENS, id_token: alien }), SETUP)
		).toBeUndefined();
	});
});

describe('no finding where it would add nothing', () => {
	test.each([
		['the server’s own OAuth error', recorded('exchange', 400, { error: 'invalid_grant' })],
		[
			'a 401 with a challenge',
			recorded('refresh', 401, { error: 'invalid_client' }, [
				JSON_TYPE,
				['WWW-Authenticate', 'Basic realm="x"']
			])
		],
		[
			'an HTML page our findings already call the wrong endpoint',
			recorded(
				'exchange',
				404,
				'<html></html>',
				[['Content-Type', 'text/html']],
				[{ level: 'error', code: 'wrong-endpoint', message: 'not the token endpoint' }]
			)
		],
		[
			'a 5xx our findings already call a server failure',
			recorded(
				'exchange',
				502,
				'Bad gateway',
				[['Content-Type', 'text/plain']],
				[{ level: 'error', code: 'server-error', message: 'failed' }]
			)
		],
		[
			'a cut-off body',
			{
				...recorded('exchange', 200, '{"access_tok'),
				response: { ...recorded('exchange', 200, '{"access_tok').response!, truncated: true }
			}
		],
		[
			'no answer at all',
			{
				...recorded('exchange', 200, ''),
				response: undefined,
				failure: { kind: 'refused', message: 'refused' }
			} as Exchange
		],
		['a step the library has no judge for', recorded('userinfo', 200, 'not json')]
	])('%s', async (_, ex) => {
		expect(await strictVerdict(ex, SETUP)).toBeUndefined();
	});
});

describe('pushed requests, revocation and introspection', () => {
	test('a pushed request’s 201 without expires_in is rejected; a whole one passes', async () => {
		expectRejection(
			await strictVerdict(recorded('par', 201, { request_uri: 'urn:x' }), SETUP),
			/"expires_in" property must be a number/
		);
		expect(
			await strictVerdict(recorded('par', 201, { request_uri: 'urn:x', expires_in: 60 }), SETUP)
		).toBeUndefined();
	});

	test('a revocation answered 204 is rejected (RFC 7009 §2.2 says 200); a 200 passes', async () => {
		expectRejection(
			await strictVerdict(recorded('revoke', 204, ''), SETUP),
			/not a conform Revocation Endpoint response/
		);
		expect(await strictVerdict(recorded('revoke', 200, ''), SETUP)).toBeUndefined();
	});

	test('an introspection whose active is no boolean is rejected; a whole one passes', async () => {
		expectRejection(
			await strictVerdict(recorded('introspect', 200, { active: 'yes' }), SETUP),
			/"active" property must be a boolean/
		);
		expect(
			await strictVerdict(recorded('introspect', 200, { active: true, scope: 'read' }), SETUP)
		).toBeUndefined();
	});
});

test('never throws, whatever was recorded', async () => {
	const odd: Exchange[] = [
		recorded('exchange', 200, { access_token: 'at' }, [['Bad Name', 'x'], JSON_TYPE]),
		recorded('exchange', 200, GOOD_TOKENS, [['X-Split', 'a\r\nb'], JSON_TYPE]),
		recorded('exchange', 99, GOOD_TOKENS),
		recorded('exchange', 204, GOOD_TOKENS)
	];
	for (const ex of odd) {
		await expect(strictVerdict(ex, SETUP)).resolves.not.toThrow();
		await expect(strictVerdict(ex, { issuer: '', client_id: '' })).resolves.not.toThrow();
	}
	// A header the WHATWG Response cannot hold is left out; the rest is judged.
	expectRejection(await strictVerdict(odd[0]!, SETUP), /"token_type" property must be a string/);
});

describe('the redirect back (validateAuthResponse)', () => {
	const expected = {
		state: 'st',
		issuer: 'https://as.test',
		issParam: false,
		client_id: 'sandbox-rw'
	};
	const q = (s: string) => new URLSearchParams(s);

	test('a wrong iss is rejected: the mix-up attack RFC 9207 stops', () => {
		expectRejection(
			redirectVerdict(q('code=c&state=st&iss=https://evil.test'), expected),
			/unexpected "iss" \(issuer\) response parameter value/
		);
	});

	test('no iss from a server whose metadata says it sends one is rejected', () => {
		expectRejection(
			redirectVerdict(q('code=c&state=st'), { ...expected, issParam: true }),
			/response parameter "iss" \(issuer\) missing/
		);
	});

	test('a token on the redirect (implicit or hybrid) is rejected', () => {
		expectRejection(
			redirectVerdict(q('code=c&state=st&id_token=x'), expected),
			/implicit and hybrid flows are not supported/
		);
	});

	test('a wrong or missing state is rejected', () => {
		expectRejection(redirectVerdict(q('code=c&state=other'), expected), /"state"/);
		expectRejection(redirectVerdict(q('code=c'), expected), /"state" missing/);
	});

	test.each([
		['the right iss', 'code=c&state=st&iss=https://as.test', expected],
		['no iss from a server that does not announce it', 'code=c&state=st', expected],
		[
			'an iss with no issuer known: nothing to compare it with (ours compares origins)',
			'code=c&state=st&iss=https://as.test',
			{ ...expected, issuer: undefined }
		],
		['the server’s own error, which ours names', 'error=access_denied&state=st', expected]
	])('%s passes', (_, params, exp) => {
		expect(redirectVerdict(q(params), exp)).toBeUndefined();
	});
});

describe('PKCE (calculatePKCECodeChallenge)', () => {
	test('the verifier is RFC 7636 §4.1’s: 43 characters of base64url, random', () => {
		const seen = new Set(Array.from({ length: 20 }, () => newVerifier()));
		expect(seen.size).toBe(20);
		for (const v of seen) expect(v).toMatch(/^[A-Za-z0-9_-]{43}$/);
	});

	test('the challenge the consent request carried is checked against the verifier sent', async () => {
		const v = newVerifier();
		expect(await pkceVerdict(v, await calculatePKCECodeChallenge(v))).toBeUndefined();
		const wrong = await pkceVerdict(v, await calculatePKCECodeChallenge(`${v}x`));
		expect(wrong).toMatchObject({ level: 'info', code: 'strict-client-rejects' });
		expect(wrong!.message).toMatch(/code_challenge/);
		expect(await pkceVerdict(undefined, 'c')).toBeUndefined();
		expect(await pkceVerdict(v, undefined)).toBeUndefined();
	});
});
