/**
 * The authorization server's metadata (RFC 8414, OpenID Connect Discovery): the well-known URLs, the
 * exact issuer comparison, the setup values a document fills, and the secret kept across a fill only
 * for the destinations the user confirmed.
 */
import { describe, expect, test } from 'vitest';
import {
	chooseAuthMethod,
	metadataSchema,
	sameIssuer,
	toSetupValues,
	wellKnownUrls
} from '$lib/oauth/metadata';
import { secretAfterSave } from '$lib/server/flow/secret';
import { testApp } from './test-app';
import { setupWith, type Setup } from '$lib/oauth/setup';
import { bindSecret, secretDestinations } from '$lib/oauth/secret-binding';
import type { Session } from '$lib/server/session/session';

describe('where the metadata is', () => {
	test.each([
		[
			'https://as.test',
			'https://as.test/.well-known/oauth-authorization-server',
			'https://as.test/.well-known/openid-configuration'
		],
		[
			'https://as.test/',
			'https://as.test/.well-known/oauth-authorization-server',
			'https://as.test/.well-known/openid-configuration'
		],
		[
			'https://as.test:8443/tenant/one',
			'https://as.test:8443/.well-known/oauth-authorization-server/tenant/one',
			'https://as.test:8443/tenant/one/.well-known/openid-configuration'
		],
		[
			'http://127.0.0.1:9/oidc/',
			'http://127.0.0.1:9/.well-known/oauth-authorization-server/oidc',
			'http://127.0.0.1:9/oidc/.well-known/openid-configuration'
		]
	])('%s: RFC 8414 inserts, OpenID Connect appends', (issuer, rfc8414, oidc) => {
		expect(wellKnownUrls(issuer)).toEqual([rfc8414, oidc]);
	});
});

test('the issuer is compared exactly (RFC 8414 §3.3)', () => {
	expect(sameIssuer('https://as.test/oidc', 'https://as.test/oidc')).toBe(true);
	for (const other of ['https://as.test/oidc/', 'https://AS.test/oidc', 'http://as.test/oidc'])
		expect(sameIssuer(other, 'https://as.test/oidc')).toBe(false);
});

describe('the values a document fills', () => {
	test('the client authentication: the current one when listed, else post, Basic, none; none listed means Basic', () => {
		expect(
			chooseAuthMethod(['client_secret_basic', 'client_secret_post'], 'client_secret_basic')
		).toBe('client_secret_basic');
		expect(chooseAuthMethod(['client_secret_basic', 'client_secret_post'], 'none')).toBe(
			'client_secret_post'
		);
		expect(chooseAuthMethod(['private_key_jwt', 'client_secret_basic'], 'client_secret_post')).toBe(
			'client_secret_basic'
		);
		expect(chooseAuthMethod(['none'], 'client_secret_post')).toBe('none');
		expect(chooseAuthMethod(undefined, 'client_secret_post')).toBe('client_secret_basic');
		expect(chooseAuthMethod(['private_key_jwt'], 'client_secret_post')).toBe('client_secret_post');
	});

	test('endpoints, issuer, PKCE when S256 is listed, PAR when required', () => {
		const doc = metadataSchema.parse({
			issuer: 'https://as.test',
			authorization_endpoint: 'https://as.test/auth',
			token_endpoint: 'https://as.test/token',
			userinfo_endpoint: 'https://as.test/me',
			revocation_endpoint: 'https://as.test/revoke',
			introspection_endpoint: 'https://as.test/introspect',
			pushed_authorization_request_endpoint: 'https://as.test/par',
			require_pushed_authorization_requests: true,
			jwks_uri: 'https://as.test/jwks',
			code_challenge_methods_supported: ['S256'],
			token_endpoint_auth_methods_supported: ['client_secret_post']
		});
		expect(
			toSetupValues(doc, { token_endpoint_auth_method: 'client_secret_post', pkce: 'off' })
		).toEqual({
			issuer: 'https://as.test',
			authorization_endpoint: 'https://as.test/auth',
			token_endpoint: 'https://as.test/token',
			userinfo_endpoint: 'https://as.test/me',
			revocation_endpoint: 'https://as.test/revoke',
			introspection_endpoint: 'https://as.test/introspect',
			pushed_authorization_request_endpoint: 'https://as.test/par',
			jwks_uri: 'https://as.test/jwks',
			token_endpoint_auth_method: 'client_secret_post',
			pkce: 'S256',
			use_par: true
		});
		const bare = metadataSchema.parse({ issuer: 'https://as.test' });
		expect(
			toSetupValues(bare, { token_endpoint_auth_method: 'client_secret_post', pkce: 'plain' })
		).toEqual({
			issuer: 'https://as.test',
			token_endpoint_auth_method: 'client_secret_basic'
		});
	});

	test.each([
		[{}],
		[{ issuer: '' }],
		[{ issuer: 'https://as.test', token_endpoint: 'javascript:alert(1)' }],
		[{ issuer: 'https://as.test', scopes_supported: 'read' }],
		[{ issuer: 'https://as.test', authorization_response_iss_parameter_supported: 'yes' }]
	])('a document with a member of the wrong type is refused: %j', (doc) => {
		expect(metadataSchema.safeParse(doc).success).toBe(false);
	});
});

describe('the secret across a fill that moves its destinations', () => {
	const SECRET = 'the-users-own-secret';
	const before = (over: Partial<Setup> = {}): Setup =>
		setupWith({
			base_url: 'https://a.test',
			redirect_uri: 'http://127.0.0.1/cb',
			client_id: 'app',
			...over
		});
	const session = (over: Partial<Session> = {}): Session => ({
		v: 1,
		setup: before(),
		client_secret: SECRET,
		secret_for: bindSecret(before()),
		...over
	});
	const moved = before({
		token_endpoint: 'https://b.test/token',
		revocation_endpoint: 'https://b.test/revoke'
	});
	const urls = (s: Setup) => secretDestinations(s).map((d) => d.url);
	/** The presets of the app serving the save. */
	const { presets } = testApp(2);

	test('kept for exactly the confirmed destinations, and bound to them', () => {
		const kept = secretAfterSave(
			presets,
			session(),
			moved,
			'',
			undefined,
			'http://127.0.0.1',
			urls(moved)
		);
		expect(kept.client_secret).toBe(SECRET);
		expect(kept.secret_for).toEqual(bindSecret(moved));
	});

	test('a list for other hosts, a list in another order, or none: dropped with the note', () => {
		const other = before({ token_endpoint: 'https://c.test/token' });
		for (const list of [urls(other), [...urls(moved)].reverse(), undefined, []]) {
			const r = secretAfterSave(presets, session(), moved, '', undefined, 'http://127.0.0.1', list);
			expect(r.client_secret).toBeUndefined();
			expect(r.secret_note).toContain('cleared');
		}
	});

	test('another client id never keeps it, confirmed or not', () => {
		const otherClient = { ...moved, client_id: 'someone-else' };
		const r = secretAfterSave(
			presets,
			session(),
			otherClient,
			'',
			undefined,
			'http://127.0.0.1',
			urls(otherClient)
		);
		expect(r.client_secret).toBeUndefined();
	});
});

describe('what a fill names, and only that', () => {
	const current = { token_endpoint_auth_method: 'client_secret_basic', pkce: 'off' } as const;

	test('an endpoint the document omits is not among the values at all', () => {
		const doc = metadataSchema.parse({
			issuer: 'https://as.test',
			token_endpoint: 'https://as.test/token'
		});
		expect(Object.keys(toSetupValues(doc, current)).sort()).toEqual([
			'issuer',
			'token_endpoint',
			'token_endpoint_auth_method'
		]);
	});

	test('PKCE is named only when it changes the choice to S256', () => {
		const doc = metadataSchema.parse({
			issuer: 'https://as.test',
			code_challenge_methods_supported: ['plain', 'S256']
		});
		expect(Object.keys(toSetupValues(doc, { ...current, pkce: 'S256' }))).not.toContain('pkce');
		expect(toSetupValues(doc, { ...current, pkce: 'plain' }).pkce).toBe('S256');
		const plainOnly = metadataSchema.parse({
			issuer: 'https://as.test',
			code_challenge_methods_supported: ['plain']
		});
		expect(Object.keys(toSetupValues(plainOnly, current))).not.toContain('pkce');
	});

	test('PAR is turned on only when required and its endpoint is given', () => {
		const offered = metadataSchema.parse({
			issuer: 'https://as.test',
			pushed_authorization_request_endpoint: 'https://as.test/par'
		});
		expect(Object.keys(toSetupValues(offered, current))).not.toContain('use_par');
		const noEndpoint = metadataSchema.parse({
			issuer: 'https://as.test',
			require_pushed_authorization_requests: true
		});
		expect(Object.keys(toSetupValues(noEndpoint, current))).not.toContain('use_par');
	});
});

describe('endpoint URLs', () => {
	test('http and https are taken', () => {
		for (const token_endpoint of ['http://127.0.0.1:9/token', 'https://as.test/token'])
			expect(metadataSchema.safeParse({ issuer: 'x', token_endpoint }).success).toBe(true);
	});

	test.each([['git+https://as.test/token'], ['ftp://as.test/token'], ['not a url']])(
		'%s is refused',
		(token_endpoint) => {
			expect(metadataSchema.safeParse({ issuer: 'x', token_endpoint }).success).toBe(false);
		}
	);
});
