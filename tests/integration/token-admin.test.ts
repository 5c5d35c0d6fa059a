/**
 * Introspection (RFC 7662) and revocation (RFC 7009) through the built playground, against an
 * authorization server this project did not write (oidc-provider, tests/helpers/oidc.ts): the token
 * is active, revoked, proven unusable, and inactive; a revoked refresh token ends the grant; a
 * revocation endpoint that answers 200 and revokes nothing is caught by the proof; and an endpoint
 * changed after the secret was entered receives nothing.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import http from 'node:http';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';
import {
	adminFeatures,
	OIDC_CLIENT_ID,
	OIDC_CLIENT_SECRET,
	OIDC_SCOPE,
	oidcClient,
	signInAndConsent,
	startOidcProvider,
	type OidcServer
} from '../helpers/oidc';
import type { Exchange } from '../../src/lib/exchange/types';
import { listen } from '../helpers/listen';

let srv: TestServer;
let oidc: OidcServer;

beforeAll(async () => {
	const port = await freePort();
	oidc = await startOidcProvider({
		clients: [oidcClient([`http://127.0.0.1:${port}/callback`])],
		configuration: { features: adminFeatures() }
	});
	srv = await startServer({}, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
});

const exchanges = (r: { data: Record<string, unknown> }): Exchange[] =>
	(r.data.exchanges as Exchange[]) ?? [];
const codes = (ex: Exchange | undefined) => (ex?.findings ?? []).map((f) => f.code);

/** Setup with the provider's revocation and introspection endpoints, through to tokens. */
async function withTokens(c: Client, fields: Record<string, string> = {}) {
	const saved = await c.action('setup', {
		base_url: oidc.issuer,
		client_id: OIDC_CLIENT_ID,
		client_secret: OIDC_CLIENT_SECRET,
		scope: OIDC_SCOPE,
		redirect_uri: `${srv.url}/callback`,
		authorization_endpoint: oidc.endpoints.authorization,
		token_endpoint: oidc.endpoints.token,
		userinfo_endpoint: oidc.endpoints.userinfo,
		revocation_endpoint: `${oidc.issuer}/token/revocation`,
		introspection_endpoint: `${oidc.issuer}/token/introspection`,
		...fields
	});
	expect(saved.type).toBe('success');
	const back = await signInAndConsent(new Client(oidc.origin), consentUrlFrom(await c.page()));
	expect((await c.fetch(back)).res.status).toBe(303);
	const ex = await c.action('exchange');
	expect(exchanges(ex)[0]!.response!.status).toBe(200);
}

test('introspection says active; revoking the access token is proven by user-info; introspection then says inactive', async () => {
	const c = new Client(srv.url);
	await withTokens(c);

	const before = await c.action('introspect', { which: 'access_token' });
	expect(before.type).toBe('success');
	const [active] = exchanges(before);
	expect(active!.step).toBe('introspect');
	expect(active!.request.url).toBe(`${oidc.issuer}/token/introspection`);
	expect(active!.request.body).toMatch(/^token=.+&token_type_hint=access_token&client_id=/);
	expect(active!.request.body).toContain('client_secret=<redacted>');
	expect(JSON.parse(active!.response!.body)).toMatchObject({ active: true });
	expect(codes(active)).toContain('introspection-active');

	const rv = await c.action('revoke', { which: 'access_token' });
	expect(rv.type).toBe('success');
	const [revocation, proof] = exchanges(rv);
	expect(revocation!.step).toBe('revoke');
	expect(revocation!.response!.status).toBe(200);
	expect(codes(revocation)).toEqual(
		expect.arrayContaining(['revocation-accepted', 'revocation-proven'])
	);
	expect(proof!.step).toBe('userinfo');
	expect(proof!.request.url).toBe(oidc.endpoints.userinfo);
	expect(proof!.response!.status).toBe(401);
	// The token panel says so, for the access token only.
	const page = await c.page();
	expect(page).toContain('data-testid="access-revoked"');
	expect(page).not.toContain('data-testid="refresh-revoked"');

	const after = await c.action('introspect', { which: 'access_token' });
	const [inactive] = exchanges(after);
	expect(JSON.parse(inactive!.response!.body)).toEqual({ active: false });
	expect(codes(inactive)).toContain('introspection-inactive');
	// The provider's answers pass the second judge (oauth/strict-client.ts).
	for (const e of [active, revocation, inactive])
		expect(codes(e)).not.toContain('strict-client-rejects');

	for (const s of c.seen) expect(s.body + s.headers).not.toContain(OIDC_CLIENT_SECRET);
});

test('revoking the refresh token ends the grant: the refresh grant is refused', async () => {
	const c = new Client(srv.url);
	await withTokens(c);
	const rv = await c.action('revoke', { which: 'refresh_token' });
	const [revocation, proof] = exchanges(rv);
	expect(revocation!.request.body).toContain('token_type_hint=refresh_token');
	expect(proof!.step).toBe('refresh');
	expect(proof!.response!.status).toBe(400);
	expect(JSON.parse(proof!.response!.body)).toMatchObject({ error: 'invalid_grant' });
	expect(codes(revocation)).toContain('revocation-proven');
	expect(await c.page()).toContain('data-testid="refresh-revoked"');
	const intro = await c.action('introspect', { which: 'refresh_token' });
	expect(JSON.parse(exchanges(intro)[0]!.response!.body)).toEqual({ active: false });
	// A refresh after it: refused, and its one finding names the cause this flow knows.
	const [again] = exchanges(await c.action('refresh'));
	const errors = again!.findings.filter((f) => f.level === 'error');
	expect(errors.map((f) => f.code)).toEqual(['refresh-revoked']);
	expect(errors[0]!.message).toMatch(
		/^The refresh token sent was revoked by this flow \(step 8\): a revoked refresh token is refused\./
	);
});

test('a revocation endpoint that answers 200 and revokes nothing: the proof says the token still works', async () => {
	const fake = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => res.writeHead(200, { 'Content-Length': '0' }).end());
	});
	const { port } = await listen(fake);
	try {
		const c = new Client(srv.url);
		await withTokens(c, { revocation_endpoint: `http://127.0.0.1:${port}/revoke` });
		const [revocation, proof] = exchanges(await c.action('revoke', { which: 'access_token' }));
		expect(proof!.response!.status).toBe(200);
		expect(codes(revocation)).toContain('revocation-not-effective');
		expect(await c.page()).not.toContain('data-testid="access-revoked"');
		expect(revocation!.findings.find((f) => f.code === 'revocation-not-effective')!.level).toBe(
			'error'
		);
	} finally {
		await new Promise<void>((ok) => fake.close(() => ok()));
	}
});

test('binding: a revocation endpoint changed after the secret was entered receives nothing (the save dropped the secret and the tokens)', async () => {
	const seen: string[] = [];
	const recorder = http.createServer((req, res) => {
		seen.push(`${req.method} ${req.url}`);
		req.resume();
		res.writeHead(200, { 'Content-Length': '0' }).end();
	});
	const { port } = await listen(recorder);
	try {
		const c = new Client(srv.url);
		await withTokens(c);
		// Saved again with another revocation endpoint and no secret typed: the secret is dropped.
		const saved = await c.action('setup', {
			base_url: oidc.issuer,
			client_id: OIDC_CLIENT_ID,
			client_secret: '',
			scope: OIDC_SCOPE,
			redirect_uri: `${srv.url}/callback`,
			authorization_endpoint: oidc.endpoints.authorization,
			token_endpoint: oidc.endpoints.token,
			userinfo_endpoint: oidc.endpoints.userinfo,
			revocation_endpoint: `http://127.0.0.1:${port}/revoke`,
			introspection_endpoint: `${oidc.issuer}/token/introspection`
		});
		expect(saved.type).toBe('success');
		const rv = await c.action('revoke', { which: 'access_token' });
		expect(rv.type).toBe('failure');
		expect(rv.status).toBe(409);
		expect(seen).toEqual([]);
	} finally {
		await new Promise<void>((ok) => recorder.close(() => ok()));
	}
});

test('the sandbox publishes no revocation endpoint: the step refuses, and nothing is sent', async () => {
	const c = new Client(srv.url);
	await c.action('preset', { preset: 'sandbox-rw' });
	const r = await c.action('revoke', { which: 'access_token' });
	expect(r.type).toBe('failure');
	expect([409]).toContain(r.status);
	const bad = await c.action('introspect', { which: 'id_token' });
	expect(bad.type).toBe('failure');
	expect(bad.status).toBe(400);
});

test('an OpenID user-info endpoint the metadata named refuses a token without openid: one finding naming it, the scope to ask for, and with it the call works', async () => {
	const c = new Client(srv.url);
	expect((await c.action('discover', { base_url: oidc.issuer, issuer: '' })).type).toBe('success');
	await withTokens(c, { scope: 'read' });
	const [refused] = exchanges(await c.action('userinfo'));
	// oidc-provider's own answer: 403 insufficient_scope, "access token missing openid scope".
	expect(refused!.response!.status).toBe(403);
	const errors = refused!.findings.filter((f) => f.level === 'error');
	expect(errors.map((f) => f.code)).toEqual(['openid-scope-missing']);
	expect(errors[0]!.message).toMatch(/^The user-info endpoint is OpenID Connect's/);
	expect(errors[0]!.suggest).toEqual({ field: 'scope', value: 'openid read' });
	expect(refused!.findings.map((f) => f.code)).not.toContain('wrong-endpoint');
	// Try again with that scope: a new consent, and the user-info read works.
	expect((await c.action('restart', { scope: 'openid read' })).type).toBe('success');
	const back = await signInAndConsent(new Client(oidc.origin), consentUrlFrom(await c.page()));
	expect((await c.fetch(back)).res.status).toBe(303);
	expect(exchanges(await c.action('exchange'))[0]!.response!.status).toBe(200);
	const [read] = exchanges(await c.action('userinfo'));
	expect(read!.response!.status).toBe(200);
	expect(read!.findings.filter((f) => f.level === 'error')).toEqual([]);
});

test('the same endpoint typed by hand, with no metadata fetched: a 403 stays a refusal of the scope', async () => {
	const c = new Client(srv.url);
	await withTokens(c, { scope: 'read' });
	const [refused] = exchanges(await c.action('userinfo'));
	expect(refused!.findings.map((f) => f.code)).not.toContain('openid-scope-missing');
});
