/**
 * Where the client secret goes, for each way a client authenticates (RFC 6749 §2.3.1), and PKCE's
 * verifier (RFC 7636): the one place that attaches the secret (server/flow/client-auth.ts), the bodies it
 * goes into, the endpoints that are part of its binding, and the consent request's challenge. The
 * token requests go through an app's real sender to a scripted loopback service
 * (tests/helpers/scripted-service.ts), which records them as they arrived.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Session } from '$lib/server/session/session';
import { parseConfig } from '$lib/config.server.js';
import { createBase } from '$lib/base.server';
import { setupRuleErrors, setupWith, type Setup } from '$lib/oauth/setup';
import { bindingChanges, bindSecret, secretDestinations } from '$lib/oauth/secret-binding';
import { basicCredentials } from '$lib/oauth/auth-methods';
import { exchangeBody, refreshBody } from '$lib/oauth/token-endpoint';
import { consentParams } from '$lib/oauth/consent';
import { codeChallenge, newVerifier } from '$lib/server/flow/pkce';
import { clientAuth } from '$lib/server/flow/client-auth';
import { testApp } from './test-app';
import { stepOf } from './flow-modules';
import {
	startScriptedService,
	stepHeadersOf,
	urlOf,
	type ScriptedAnswer,
	type ScriptedService
} from '../helpers/scripted-service';

/**
 * What the flow hands its steps (flow/context.ts): an app, with its own sender, and the
 * playground's origin. The app is in local mode (no HOST, no allowed hosts), so its guard lets it
 * reach the loopback service.
 */
const step = stepOf(testApp(5));

/** The authorization server the token requests go to. */
let service: ScriptedService;
beforeAll(async () => {
	service = await startScriptedService();
});
afterAll(() => service.close());
beforeEach(() => service.reset());
afterEach(() => {
	expect(service.unscripted, 'every request found a scripted answer').toEqual([]);
	expect(service.queued(), 'every scripted answer was used').toBe(0);
});

const { exchangeCode, prepareConsent, refreshTokens } =
	await import('$lib/server/steps/flow-steps');
const { handleCallback } = await import('$lib/server/steps/redirect-back');

const SECRET = 'a:b%c+d e/é😀';

function setup(over: Partial<Setup> = {}): Setup {
	return setupWith({
		base_url: 'https://as.test',
		redirect_uri: 'http://127.0.0.1:5173/callback',
		client_id: 'app 1',
		scope: 'read',
		...over
	});
}

function session(over: Partial<Setup> = {}): Session {
	const s = setup(over);
	return { v: 1, setup: s, client_secret: SECRET, secret_for: bindSecret(s) };
}

describe('the endpoints that receive the secret', () => {
	test('revocation, introspection and pushed requests join the binding when set, and only then', () => {
		const keys = (over: Partial<Setup>) => secretDestinations(setup(over)).map((d) => d.key);
		expect(keys({})).toEqual(['token_endpoint']);
		expect(
			keys({
				revocation_endpoint: 'https://as.test/revoke',
				introspection_endpoint: 'https://as.test/introspect',
				pushed_authorization_request_endpoint: 'https://as.test/par',
				jwks_uri: 'https://as.test/jwks'
			})
		).toEqual([
			'token_endpoint',
			'revocation_endpoint',
			'introspection_endpoint',
			'pushed_authorization_request_endpoint'
		]);
	});

	test.each([
		['revocation_endpoint', 'revocation endpoint'],
		['introspection_endpoint', 'introspection endpoint'],
		['pushed_authorization_request_endpoint', 'pushed authorization request endpoint']
	] as const)('adding, changing or removing the %s drops the secret', (field, label) => {
		const bound = bindSecret(setup({ [field]: 'https://as.test/one' }));
		expect(bindingChanges(bound, setup({ [field]: 'https://as.test/one' }))).toEqual([]);
		expect(bindingChanges(bound, setup({ [field]: 'https://evil.test/one' }))).toEqual([label]);
		expect(bindingChanges(bound, setup())).toEqual([label]);
		expect(bindingChanges(bindSecret(setup()), setup({ [field]: 'https://as.test/one' }))).toEqual([
			label
		]);
	});

	test('a binding made before these endpoints existed still matches a setup without them', () => {
		const old = { client_id: 'app 1', urls: { token_endpoint: 'https://as.test/oauth2/token' } };
		expect(bindingChanges(old, setup())).toEqual([]);
		expect(bindingChanges(old, setup({ jwks_uri: 'https://as.test/jwks' }))).toEqual([]);
	});
});

describe('the rules between setup fields', () => {
	test('a public client must use PKCE; pushing needs an endpoint', () => {
		expect(setupRuleErrors(setup())).toEqual({});
		expect(setupRuleErrors(setup({ token_endpoint_auth_method: 'none' }))).toHaveProperty('pkce');
		expect(setupRuleErrors(setup({ token_endpoint_auth_method: 'none', pkce: 'S256' }))).toEqual(
			{}
		);
		expect(setupRuleErrors(setup({ use_par: true }))).toHaveProperty(
			'pushed_authorization_request_endpoint'
		);
		expect(
			setupRuleErrors(
				setup({ use_par: true, pushed_authorization_request_endpoint: 'https://as.test/par' })
			)
		).toEqual({});
	});
});

describe('HTTP Basic credentials (RFC 6749 §2.3.1)', () => {
	test('id and secret are form-encoded before base64, so every character arrives as typed', () => {
		const header = basicCredentials('app 1', SECRET);
		const decoded = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8');
		expect(header.startsWith('Basic ')).toBe(true);
		expect(decoded).toBe('app+1:a%3Ab%25c%2Bd+e%2F%C3%A9%F0%9F%98%80');
		const [id, secret] = decoded.split(':').map((p) => decodeURIComponent(p.replace(/\+/g, ' ')));
		expect([id, secret]).toEqual(['app 1', SECRET]);
	});
});

describe('clientAuth: the one place that attaches the secret', () => {
	test('client_secret_post: id and secret in the body, no header', () => {
		const auth = clientAuth(session(), 'token_endpoint');
		expect(auth).toMatchObject({
			ok: true,
			url: 'https://as.test/oauth2/token',
			headers: [],
			body: { client_id: 'app 1', client_secret: SECRET }
		});
	});

	test('client_secret_basic: the Basic header, nothing of the client in the body', () => {
		const auth = clientAuth(
			session({ token_endpoint_auth_method: 'client_secret_basic' }),
			'token_endpoint'
		);
		expect(auth).toMatchObject({
			ok: true,
			headers: [['Authorization', basicCredentials('app 1', SECRET)]],
			body: {}
		});
	});

	test('none: the client id alone, never a held secret', () => {
		const auth = clientAuth(
			session({ token_endpoint_auth_method: 'none', pkce: 'S256' }),
			'token_endpoint'
		);
		expect(auth).toEqual({
			ok: true,
			setup: expect.anything(),
			url: 'https://as.test/oauth2/token',
			headers: [],
			body: { client_id: 'app 1' }
		});
		expect(JSON.stringify(auth)).not.toContain('a:b');
	});

	test('a destination the setup does not have is refused, whatever the method', () => {
		for (const method of ['client_secret_post', 'client_secret_basic', 'none'] as const)
			expect(
				clientAuth(session({ token_endpoint_auth_method: method }), 'revocation_endpoint')
			).toMatchObject({ ok: false, status: 409 });
	});

	test('the URL is the setup’s own for that key', () => {
		const auth = clientAuth(
			session({
				revocation_endpoint: 'https://as.test/revoke',
				introspection_endpoint: 'https://as.test/introspect'
			}),
			'introspection_endpoint'
		);
		expect(auth).toMatchObject({ ok: true, url: 'https://as.test/introspect' });
	});

	test('a secret bound to other URLs is not attached (binding mismatch), for post and Basic', () => {
		for (const method of ['client_secret_post', 'client_secret_basic'] as const) {
			const s = session({ token_endpoint_auth_method: method });
			const moved: Session = {
				...s,
				setup: { ...s.setup!, revocation_endpoint: 'https://evil.test/revoke' }
			};
			expect(clientAuth(moved, 'revocation_endpoint')).toMatchObject({ ok: false, status: 409 });
			expect(clientAuth(moved, 'token_endpoint')).toMatchObject({ ok: false, status: 409 });
		}
	});

	test('no secret at all: post and Basic refuse, none goes on', () => {
		const without = (over: Partial<Setup>) => ({ ...session(over), client_secret: undefined });
		expect(clientAuth(without({}), 'token_endpoint')).toMatchObject({ ok: false });
		expect(
			clientAuth(without({ token_endpoint_auth_method: 'client_secret_basic' }), 'token_endpoint')
		).toMatchObject({ ok: false });
		expect(
			clientAuth(without({ token_endpoint_auth_method: 'none', pkce: 'S256' }), 'token_endpoint')
		).toMatchObject({ ok: true });
	});
});

describe('token requests for each method', () => {
	test('the documented body is unchanged for client_secret_post without PKCE', () => {
		expect(exchangeBody({ code: 'c', redirect_uri: 'r', client_id: 'i', client_secret: 's' })).toBe(
			'code=c&redirect_uri=r&client_id=i&client_secret=s&scope=&grant_type=authorization_code'
		);
		expect(refreshBody({ client_id: 'i', client_secret: 's', refresh_token: 't' })).toBe(
			'client_id=i&client_secret=s&grant_type=refresh_token&refresh_token=t'
		);
		expect(exchangeBody({ code: 'c', redirect_uri: 'r', code_verifier: 'v' })).toBe(
			'code=c&redirect_uri=r&scope=&grant_type=authorization_code&code_verifier=v'
		);
	});

	test.each([
		['client_secret_post', undefined],
		['client_secret_basic', 'Authorization'],
		['none', undefined]
	] as const)('%s: the exchange and the refresh go as the method says', async (method, header) => {
		// The service refuses both requests: what is checked is what it received.
		const refusal: ScriptedAnswer = {
			status: 400,
			headers: [['Content-Type', 'application/json']],
			body: '{"error":"invalid_grant"}'
		};
		service.answer(refusal, refusal);
		const s = session({ token_endpoint_auth_method: method, pkce: 'S256', base_url: service.url });
		const consented = prepareConsent(s);
		const state = consented.pending!.state;
		const back = handleCallback(
			step,
			consented,
			new URL(`http://127.0.0.1:5173/callback?code=the-code&state=${state}`),
			new Headers()
		);
		await exchangeCode(step, back.session);
		await refreshTokens(step, {
			...s,
			tokens: {
				access_token: 'at',
				token_type: 'Bearer',
				refresh_token: 'rt',
				obtained_at: 0,
				granted_scope: 'read',
				requested_scope: 'read',
				extra: {}
			}
		});
		const token = `${service.url}/oauth2/token`;
		expect(service.received.map(urlOf)).toEqual([token, token]);
		for (const req of service.received) {
			const fields = new URLSearchParams(req.body);
			expect(fields.get('client_id')).toBe(method === 'client_secret_basic' ? null : 'app 1');
			expect(fields.get('client_secret')).toBe(method === 'client_secret_post' ? SECRET : null);
			expect(stepHeadersOf(req).find(([n]) => n === 'Authorization')?.[0]).toBe(header);
			if (method === 'none') expect(JSON.stringify(req)).not.toContain('a:b');
		}
		expect(new URLSearchParams(service.received[0]!.body).get('code_verifier')).toBe(
			consented.pending!.code_verifier
		);
	});
});

describe('PKCE (RFC 7636)', () => {
	test('the S256 challenge of RFC 7636 Appendix B', () => {
		const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
		expect(codeChallenge(verifier, 'S256')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
		expect(codeChallenge(verifier, 'plain')).toBe(verifier);
	});

	test('a verifier is 43 unreserved characters, new each time', () => {
		const a = newVerifier();
		expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(newVerifier()).not.toBe(a);
	});

	test('off: the consent URL carries no challenge and nothing is kept', () => {
		const s = prepareConsent(session());
		expect(s.pending!.consent_url).not.toContain('code_challenge');
		expect(s.pending!.code_verifier).toBeUndefined();
	});

	test.each(['S256', 'plain'] as const)(
		'%s: the URL has the challenge and method, the verifier stays in the session',
		(method) => {
			const s = prepareConsent(session({ pkce: method }));
			const url = new URL(s.pending!.consent_url);
			const verifier = s.pending!.code_verifier!;
			expect(url.searchParams.get('code_challenge')).toBe(codeChallenge(verifier, method));
			expect(url.searchParams.get('code_challenge_method')).toBe(method);
			if (method === 'S256') expect(s.pending!.consent_url).not.toContain(verifier);
			expect(s.pending!.code_challenge_method).toBe(method);
		}
	);

	test('the code carries the verifier of the consent it answers', () => {
		const s = prepareConsent(session({ pkce: 'S256' }));
		const back = handleCallback(
			step,
			s,
			new URL(`http://127.0.0.1:5173/callback?code=c&state=${s.pending!.state}`),
			new Headers()
		);
		expect(back.session.code).toMatchObject({
			value: 'c',
			code_verifier: s.pending!.code_verifier
		});
	});

	test('consent parameters keep their order; the endpoint’s own copies are replaced', () => {
		expect(
			consentParams({
				client_id: 'i',
				redirect_uri: 'r',
				scope: 's',
				state: 't',
				code_challenge: 'c',
				code_challenge_method: 'S256'
			})
		).toEqual([
			['client_id', 'i'],
			['redirect_uri', 'r'],
			['response_type', 'code'],
			['scope', 's'],
			['state', 't'],
			['code_challenge', 'c'],
			['code_challenge_method', 'S256']
		]);
	});
});

describe('the sealed setup', () => {
	test('fields at their default are not sealed, and come back on opening; an older setup gets the new defaults', async () => {
		const ring = createBase(
			parseConfig({ PLAYGROUND_SESSION_KEY: Buffer.alloc(32, 'k').toString('base64url') })
		);
		const { seal, open } = await import('$lib/server/session/session');
		const { openJwe } = await import('$lib/server/session/jwe');
		const full = setup({ pkce: 'S256' });
		const sealed = await seal({ v: 1, setup: full }, 'unitTestFlow-004', ring);
		const plain = new TextDecoder().decode(
			openJwe(sealed, Buffer.alloc(32, 'k')) ?? new Uint8Array()
		);
		expect(plain).toContain('"pkce":"S256"');
		expect(plain).not.toContain('token_endpoint_auth_method');
		expect(plain).not.toContain('jwks_uri');
		expect(await open(sealed, 'unitTestFlow-004', ring)).toEqual({
			ok: true,
			session: { v: 1, setup: full }
		});
	});
});
