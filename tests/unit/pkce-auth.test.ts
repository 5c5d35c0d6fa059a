/**
 * What a refused token request or consent says about the client's authentication method and PKCE
 * (pkce-auth.ts), and the PKCE verifier in the exports: shortened, and read from CODE_VERIFIER.
 */
import { describe, expect, test } from 'vitest';
import type { Exchange } from '$lib/exchange/types';
import { clientAuthFindings, pkceCallbackFindings } from '$lib/oauth/pkce-auth';
import { basicCredentials } from '$lib/oauth/auth-methods';
import { prepareForExport } from '$lib/exchange/redact';
import { toCurl } from '$lib/exchange/curl';
import { toNodeFetch } from '$lib/exchange/node-fetch';
import { ClientSecretBasic, calculatePKCECodeChallenge } from 'oauth4webapi';
import { codeChallenge } from '$lib/server/flow/pkce';

function tokenEx(step: 'exchange' | 'refresh', status: number, body: string, req = ''): Exchange {
	return {
		id: 'x',
		step,
		startedAt: '2026-01-01T00:00:00.000Z',
		request: {
			method: 'POST',
			url: 'https://as.test/token',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: req
		},
		response: {
			status,
			statusText: '',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body,
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

const codes = (fs: { code: string }[]) => fs.map((f) => f.code);
const INVALID_CLIENT =
	'{"error":"invalid_client","error_description":"client authentication failed"}';

/** An invalid_client whose description names the method, the sign that the method is the cause. */
const METHOD_REFUSED =
	'{"error":"invalid_client","error_description":"client_secret_basic is not allowed for this client"}';

describe('client authentication refused', () => {
	test('the method is named only where it is the likely cause: without a sign, a refused client is its id or secret', () => {
		const post = { method: 'client_secret_post', pkce: 'off' } as const;
		// The sandbox's own words for a wrong secret: nothing about the method.
		const sandbox =
			'{"error":"invalid_client","error_description":"unknown client_id or wrong client_secret"}';
		expect(clientAuthFindings(tokenEx('exchange', 401, sandbox), post)).toEqual([]);
		expect(clientAuthFindings(tokenEx('exchange', 401, INVALID_CLIENT), post)).toEqual([]);
		expect(
			clientAuthFindings(tokenEx('exchange', 401, INVALID_CLIENT), {
				method: 'client_secret_basic',
				pkce: 'off'
			})
		).toEqual([]);
		// The metadata lists this method: still the secret.
		expect(
			clientAuthFindings(tokenEx('exchange', 401, sandbox), {
				...post,
				supported: ['client_secret_post', 'client_secret_basic']
			})
		).toEqual([]);
	});

	test('the metadata does not list the method used: named, with a method it lists', () => {
		const [f, ...rest] = clientAuthFindings(tokenEx('exchange', 401, INVALID_CLIENT), {
			method: 'client_secret_basic',
			pkce: 'off',
			supported: ['private_key_jwt', 'client_secret_post']
		});
		expect(rest).toEqual([]);
		expect(f!.code).toBe('client-auth-method');
		expect(f!.message).toContain(
			"the server's metadata lists private_key_jwt, client_secret_post in token_endpoint_auth_methods_supported, not this one"
		);
		expect(f!.fix).toContain('try client_secret_post (the secret in the form body)');
		expect(f!.suggest).toEqual({
			field: 'token_endpoint_auth_method',
			value: 'client_secret_post'
		});
	});

	test('a Basic challenge to a secret sent in the body: the server wants Basic', () => {
		const ex = tokenEx('exchange', 401, INVALID_CLIENT);
		ex.response!.headers.push(['WWW-Authenticate', 'Basic realm="token"']);
		const post = { method: 'client_secret_post', pkce: 'off' } as const;
		expect(clientAuthFindings(ex, post).map((f) => f.code)).toEqual(['client-auth-method']);
		// The same challenge to a Basic request says only that the credentials were wrong.
		expect(clientAuthFindings(ex, { ...post, method: 'client_secret_basic' })).toEqual([]);
	});

	test('post: names the method used and suggests Basic; no word about form-encoding', () => {
		const [f] = clientAuthFindings(tokenEx('exchange', 401, METHOD_REFUSED), {
			method: 'client_secret_post',
			pkce: 'off'
		});
		expect(f!.code).toBe('client-auth-method');
		expect(f!.message).toContain('client_secret_post');
		expect(f!.message).not.toContain('form-encoded');
		expect(f!.fix).toContain('client_secret_basic');
		// A public registration refuses any secret: the fix names that way out too.
		expect(f!.fix).toContain('choose "none" (with PKCE, and no secret)');
	});

	test('Basic: names the form-encoding interop bug, in the same words whatever the secret holds', () => {
		const find = (secret: string) =>
			clientAuthFindings(
				tokenEx('refresh', 401, METHOD_REFUSED, `x=${encodeURIComponent(secret)}`),
				{ method: 'client_secret_basic', pkce: 'off' }
			);
		const [a] = find('plain-secret');
		expect(a!.message).toContain('form-encoded before base64');
		expect(a!.fix).toContain('client_secret_post');
		expect(find('with%and+plus')).toEqual(find('plain-secret'));
	});

	test('none: the server does not take this client as public', () => {
		expect(
			codes(
				clientAuthFindings(tokenEx('exchange', 400, INVALID_CLIENT), {
					method: 'none',
					pkce: 'S256'
				})
			)
		).toEqual(['public-client-refused']);
	});

	test('nothing for other steps, other errors, a success or a body that is not JSON', () => {
		const ctx = { method: 'client_secret_post', pkce: 'off' } as const;
		expect(
			clientAuthFindings({ ...tokenEx('exchange', 401, INVALID_CLIENT), step: 'userinfo' }, ctx)
		).toEqual([]);
		expect(clientAuthFindings(tokenEx('exchange', 400, '{"error":"invalid_scope"}'), ctx)).toEqual(
			[]
		);
		expect(clientAuthFindings(tokenEx('exchange', 200, '{"error":"invalid_client"}'), ctx)).toEqual(
			[]
		);
		expect(clientAuthFindings(tokenEx('exchange', 401, 'Unauthorized'), ctx)).toEqual([]);
		expect(clientAuthFindings(tokenEx('exchange', 401, '{"error":5}'), ctx)).toEqual([]);
	});
});

describe('PKCE', () => {
	test('invalid_grant naming PKCE with PKCE off: turn it on', () => {
		const ex = tokenEx(
			'exchange',
			400,
			'{"error":"invalid_grant","error_description":"PKCE verification failed, code_verifier is required"}'
		);
		const [f] = clientAuthFindings(ex, { method: 'client_secret_post', pkce: 'off' });
		expect(f).toMatchObject({
			code: 'pkce-required',
			level: 'error',
			suggest: { field: 'pkce', value: 'S256' }
		});
	});

	test('invalid_grant with PKCE on: the verifier of another consent, certain when the server says so', () => {
		const said = tokenEx(
			'exchange',
			400,
			'{"error":"invalid_grant","error_description":"PKCE verification failed"}'
		);
		expect(
			clientAuthFindings(said, { method: 'client_secret_post', pkce: 'S256' })[0]
		).toMatchObject({
			code: 'pkce-mismatch',
			level: 'error'
		});
		const silent = tokenEx('exchange', 400, '{"error":"invalid_grant"}');
		const [maybe] = clientAuthFindings(silent, { method: 'client_secret_post', pkce: 'S256' });
		expect(maybe).toMatchObject({ code: 'pkce-mismatch', level: 'info' });
		expect(maybe!.message).toMatch(/^One possible cause/);
	});

	test('invalid_grant without PKCE and without a word of it, or on a refresh: nothing from here', () => {
		expect(
			clientAuthFindings(tokenEx('exchange', 400, '{"error":"invalid_grant"}'), {
				method: 'client_secret_post',
				pkce: 'off'
			})
		).toEqual([]);
		expect(
			clientAuthFindings(
				tokenEx('refresh', 400, '{"error":"invalid_grant","error_description":"code_verifier"}'),
				{ method: 'client_secret_post', pkce: 'S256' }
			)
		).toEqual([]);
	});

	test('a consent refused for want of PKCE, and the plain warning', () => {
		expect(
			codes(
				pkceCallbackFindings(
					'invalid_request',
					'Authorization Server policy requires PKCE to be used for this request',
					'off'
				)
			)
		).toEqual(['pkce-required']);
		expect(pkceCallbackFindings('invalid_request', 'missing scope', 'off')).toEqual([]);
		expect(pkceCallbackFindings('invalid_request', 'PKCE', 'S256')).toEqual([]);
		expect(pkceCallbackFindings(undefined, undefined, 'S256')).toEqual([]);
		expect(codes(pkceCallbackFindings(undefined, undefined, 'plain'))).toEqual(['pkce-plain']);
	});

	test('our S256 challenge is oauth4webapi’s for random verifiers', async () => {
		for (let i = 0; i < 20; i++) {
			const v = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
			expect(codeChallenge(v, 'S256')).toBe(await calculatePKCECodeChallenge(v));
		}
	});
});

test('HTTP Basic credentials decode as oauth4webapi’s do, for ids and secrets that need form-encoding', async () => {
	// Both form-encode before base64 (RFC 6749 §2.3.1). oauth4webapi also escapes `*-._`, which the
	// WHATWG form serializer leaves as they are; a form decoder reads both the same.
	const decode = (header: string) =>
		Buffer.from(header.replace(/^Basic /, ''), 'base64')
			.toString('utf8')
			.split(':')
			.map((p) => decodeURIComponent(p.replace(/\+/g, ' ')));
	for (const [id, secret] of [
		['app 1', 'a:b%c+d e/é😀'],
		['x:y', "!'()*-._~"],
		['plain', 'plain']
	]) {
		const headers = new Headers();
		await ClientSecretBasic(secret!)(
			{ issuer: 'https://as.test' },
			{ client_id: id! },
			new URLSearchParams(),
			headers
		);
		const theirs = headers.get('authorization')!;
		expect(decode(basicCredentials(id!, secret!))).toEqual([id, secret]);
		expect(decode(basicCredentials(id!, secret!))).toEqual(decode(theirs));
		if (!/[*\-._]/.test(id! + secret!)) expect(basicCredentials(id!, secret!)).toBe(theirs);
	}
});

describe('the verifier in the exports', () => {
	const exchange = () =>
		tokenEx(
			'exchange',
			200,
			'{"access_token":"at-1234567890","token_type":"Bearer"}',
			'code=code-1234567890&redirect_uri=x&client_id=a&client_secret=%3Credacted%3E&scope=&grant_type=authorization_code&code_verifier=verifier-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG'
		);

	test('shortened unless tokens are included', () => {
		const [short] = prepareForExport([exchange()]);
		expect(short!.request.body).not.toContain(
			'verifier-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG'
		);
		const [whole] = prepareForExport([exchange()], true);
		expect(whole!.request.body).toContain('verifier-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG');
	});

	test('curl and Node fetch read it from CODE_VERIFIER', () => {
		const script = toCurl(exchange());
		expect(script).toContain('CODE_VERIFIER');
		expect(toNodeFetch(exchange())).toContain('CODE_VERIFIER');
	});
});

const RFC6749 = (s: string) => `RFC 6749 §${s}`;
const RFC7636 = (s: string) => `RFC 7636 §${s}`;

describe('levels and references', () => {
	test('a refused public client and a refused method are errors, with RFC 6749 §2.1 and §2.3.1', () => {
		const none = clientAuthFindings(tokenEx('exchange', 401, INVALID_CLIENT), {
			method: 'none',
			pkce: 'S256'
		});
		expect(none).toMatchObject([{ level: 'error', ref: RFC6749('2.1') }]);
		const post = clientAuthFindings(tokenEx('exchange', 401, METHOD_REFUSED), {
			method: 'client_secret_post',
			pkce: 'S256'
		});
		expect(post).toMatchObject([{ level: 'error', ref: RFC6749('2.3.1') }]);
	});

	test('PKCE required refers to RFC 7636 §4.4.1, a mismatch to §4.6', () => {
		const required = clientAuthFindings(
			tokenEx('exchange', 400, '{"error":"invalid_grant","error_description":"PKCE required"}'),
			{ method: 'client_secret_post', pkce: 'off' }
		);
		expect(required).toMatchObject([{ ref: RFC7636('4.4.1') }]);
		const mismatch = clientAuthFindings(tokenEx('exchange', 400, '{"error":"invalid_grant"}'), {
			method: 'client_secret_post',
			pkce: 'S256'
		});
		expect(mismatch).toMatchObject([{ ref: RFC7636('4.6') }]);
	});

	test('at the callback: PKCE required is an error (RFC 7636 §4.4.1), plain a warning (§7.2)', () => {
		expect(pkceCallbackFindings('invalid_request', 'PKCE is required', 'off')).toMatchObject([
			{ level: 'error', code: 'pkce-required', ref: RFC7636('4.4.1') }
		]);
		expect(pkceCallbackFindings(undefined, undefined, 'plain')).toMatchObject([
			{ level: 'warning', code: 'pkce-plain', ref: RFC7636('7.2') }
		]);
	});
});

describe('what counts as naming PKCE', () => {
	test.each([['code_verifier is required'], ['missing code challenge'], ['bad codeVerifier']])(
		'%j names it',
		(description) => {
			const ex = tokenEx(
				'exchange',
				400,
				JSON.stringify({ error: 'invalid_grant', error_description: description })
			);
			expect(codes(clientAuthFindings(ex, { method: 'client_secret_post', pkce: 'off' }))).toEqual([
				'pkce-required'
			]);
			expect(codes(pkceCallbackFindings('invalid_request', description, 'off'))).toEqual([
				'pkce-required'
			]);
		}
	);

	test('only invalid_grant at the exchange is read as a PKCE mismatch', () => {
		const ex = tokenEx(
			'exchange',
			400,
			'{"error":"invalid_scope","error_description":"code_verifier"}'
		);
		expect(clientAuthFindings(ex, { method: 'client_secret_post', pkce: 'S256' })).toEqual([]);
	});

	test('only invalid_request at the callback is read as PKCE required', () => {
		expect(pkceCallbackFindings('access_denied', 'PKCE is required', 'off')).toEqual([]);
		expect(pkceCallbackFindings('invalid_request', undefined, 'off')).toEqual([]);
	});
});
