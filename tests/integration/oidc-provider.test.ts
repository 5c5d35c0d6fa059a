/**
 * The built playground against an authorization server this project did not write (oidc-provider,
 * see tests/helpers/oidc.ts), over HTTP: the setup with custom endpoints, the provider's own sign-in
 * and consent pages, the callback with `code`, `state` and `iss`, the exchange, user-info, refresh,
 * and a wrong client secret shown as an Exchange with its finding.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, unescapeHtml } from '../helpers/client';
import {
	OIDC_CLIENT_ID,
	OIDC_CLIENT_SECRET,
	OIDC_SCOPE,
	oidcClient,
	signInAndConsent,
	startOidcProvider,
	type OidcServer
} from '../helpers/oidc';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
let oidc: OidcServer;

beforeAll(async () => {
	const port = await freePort();
	oidc = await startOidcProvider({
		clients: [oidcClient([`http://127.0.0.1:${port}/callback`])]
	});
	srv = await startServer({}, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
});

function exchanges(r: { data: Record<string, unknown> }): Exchange[] {
	return (r.data.exchanges as Exchange[]) ?? [];
}

/** The setup as a developer enters it for this server: base URL = issuer, the three endpoints. */
function setUp(c: Client, secret: string, fields: Record<string, string> = {}) {
	return c.action('setup', {
		base_url: oidc.issuer,
		client_id: OIDC_CLIENT_ID,
		client_secret: secret,
		scope: OIDC_SCOPE,
		redirect_uri: `${srv.url}/callback`,
		authorization_endpoint: oidc.endpoints.authorization,
		token_endpoint: oidc.endpoints.token,
		userinfo_endpoint: oidc.endpoints.userinfo,
		auto_exchange: 'true',
		...fields
	});
}

/** Setup, the provider's pages, and the callback: the page then holds a code to exchange. */
async function toCallback(
	c: Client,
	secret: string,
	fields: Record<string, string> = {}
): Promise<URL> {
	const saved = await setUp(c, secret, fields);
	expect(saved.type).toBe('success');
	const consentUrl = consentUrlFrom(await c.page());
	expect(consentUrl.startsWith(oidc.endpoints.authorization + '?')).toBe(true);
	const back = new URL(await signInAndConsent(new Client(oidc.origin), consentUrl));
	expect(back.origin + back.pathname).toBe(`${srv.url}/callback`);
	const cb = await c.fetch(back.toString());
	expect(cb.res.status).toBe(303);
	return back;
}

test('the provider mounted on its issuer path publishes the endpoints the setup is given', async () => {
	const res = await fetch(oidc.endpoints.discovery);
	expect(res.status).toBe(200);
	expect(await res.json()).toMatchObject({
		issuer: oidc.issuer,
		authorization_endpoint: oidc.endpoints.authorization,
		token_endpoint: oidc.endpoints.token,
		userinfo_endpoint: oidc.endpoints.userinfo,
		jwks_uri: oidc.endpoints.jwks,
		scopes_supported: expect.arrayContaining(['openid', 'read', 'write']),
		token_endpoint_auth_methods_supported: expect.arrayContaining(['client_secret_post']),
		authorization_response_iss_parameter_supported: true
	});
});

test('the whole flow: setup, sign-in and consent on the provider, callback, exchange, user-info, refresh', async () => {
	const c = new Client(srv.url);
	const back = await toCallback(c, OIDC_CLIENT_SECRET);
	expect(back.searchParams.get('code')).toBeTruthy();
	expect(back.searchParams.get('state')).toBeTruthy();
	// RFC 9207: oidc-provider names itself on the redirect; the playground shows and keeps it.
	expect(back.searchParams.get('iss')).toBe(oidc.issuer);
	const page = unescapeHtml(await c.page());
	expect(page).toContain('data-verdict="code"');
	expect(page).toContain('Issuer identifier (RFC 9207)');
	expect(page).toContain(oidc.issuer);
	// No issuer in the setup: its origin is the authorization endpoint's, so it is shown, not checked.
	expect(page).toContain('not checked: no issuer known');
	expect(page).not.toContain('strict-client-rejects');

	const ex = await c.action('exchange');
	expect(ex.type).toBe('success');
	const [tokenEx] = exchanges(ex);
	expect(tokenEx!.request.url).toBe(oidc.endpoints.token);
	expect(tokenEx!.request.body).toContain('client_secret=<redacted>');
	expect(tokenEx!.response!.status).toBe(200);
	const tokens = JSON.parse(tokenEx!.response!.body) as Record<string, unknown>;
	expect(tokens).toMatchObject({ token_type: 'Bearer', scope: OIDC_SCOPE });
	expect(typeof tokens.access_token).toBe('string');
	expect(typeof tokens.refresh_token).toBe('string');
	expect(typeof tokens.id_token).toBe('string');
	expect(tokenEx!.findings.filter((f) => f.level === 'error')).toEqual([]);
	expect(await c.page()).toContain(String(tokens.access_token));

	const ui = await c.action('userinfo');
	const [uiEx] = exchanges(ui);
	expect(uiEx!.request.url).toBe(oidc.endpoints.userinfo);
	expect(uiEx!.response!.status).toBe(200);
	expect(JSON.parse(uiEx!.response!.body)).toEqual({ sub: 'alice' });
	// Not the feed-reader service: none of its advice (its user record's userId) on this answer.
	expect(uiEx!.findings.map((f) => f.code)).not.toContain('userinfo-fields');

	const rf = await c.action('refresh');
	const [rfEx] = exchanges(rf);
	expect(rfEx!.request.body).toContain('grant_type=refresh_token');
	expect(rfEx!.request.body).toContain('client_secret=<redacted>');
	expect(rfEx!.response!.status).toBe(200);
	const refreshed = JSON.parse(rfEx!.response!.body) as Record<string, unknown>;
	expect(refreshed.access_token).not.toBe(tokens.access_token);
	expect(await c.page()).toContain(String(refreshed.access_token));

	// A server this project did not write passes the second judge (oauth/strict-client.ts): the
	// redirect with its iss, and the token answers with their id_token.
	for (const e of [tokenEx!, rfEx!])
		expect(e.findings.map((f) => f.code)).not.toContain('strict-client-rejects');

	// The access token from the refresh works too.
	const again = await c.action('userinfo');
	expect(exchanges(again)[0]!.response!.status).toBe(200);

	for (const s of c.seen) expect(s.body + s.headers).not.toContain(OIDC_CLIENT_SECRET);
});

test('a wrong client secret: the provider answers 401 invalid_client, shown as an Exchange with its finding', async () => {
	const c = new Client(srv.url);
	await toCallback(c, 'not-the-secret');
	const ex = await c.action('exchange');
	const [tokenEx] = exchanges(ex);
	expect(tokenEx!.request.url).toBe(oidc.endpoints.token);
	expect(tokenEx!.request.body).toContain('client_secret=<redacted>');
	expect(tokenEx!.response!.status).toBe(401);
	expect(JSON.parse(tokenEx!.response!.body)).toMatchObject({ error: 'invalid_client' });
	const finding = tokenEx!.findings.find((f) => f.code === 'invalid_client');
	expect(finding?.level).toBe('error');
	expect(finding?.message).toMatch(/did not accept the client credentials/);
	expect(await c.page()).not.toContain('data-testid="access-token"');
	for (const s of c.seen) expect(s.body + s.headers).not.toContain('not-the-secret');
});

test('the right issuer in the setup: the iss oidc-provider sends matches, and the code is exchanged', async () => {
	const c = new Client(srv.url);
	const back = await toCallback(c, OIDC_CLIENT_SECRET, { issuer: oidc.issuer });
	expect(back.searchParams.get('iss')).toBe(oidc.issuer);
	const page = unescapeHtml(await c.page());
	expect(page).toContain('data-issuer="match"');
	expect(page).not.toContain('data-testid="issuer-alert"');
	const [tokenEx] = exchanges(await c.action('exchange'));
	expect(tokenEx!.response!.status).toBe(200);
	expect(tokenEx!.findings.filter((f) => f.level === 'error')).toEqual([]);
});

test('mix-up: a wrong issuer in the setup stops the flow with the warning, then "Exchange anyway" exchanges the code', async () => {
	const c = new Client(srv.url);
	// One character off (a trailing slash) is another issuer: RFC 9207 §2.4 compares exactly.
	const wrong = `${oidc.issuer}/`;
	await toCallback(c, OIDC_CLIENT_SECRET, { issuer: wrong });
	const page = unescapeHtml(await c.page());
	expect(page).toContain('data-issuer="mismatch"');
	expect(page).toContain('data-testid="issuer-alert"');
	expect(page).toContain('Possible mix-up attack: the code was not exchanged.');
	expect(page).toContain(wrong);
	const refused = await c.action('exchange');
	expect(refused.status).toBe(409);
	expect(exchanges(refused)).toEqual([]);
	const [tokenEx] = exchanges(await c.action('exchange', { anyway: '1' }));
	expect(tokenEx!.request.url).toBe(oidc.endpoints.token);
	expect(tokenEx!.response!.status).toBe(200);
	expect(unescapeHtml(await c.page())).toContain('you exchanged the code anyway');
	for (const s of c.seen) expect(s.body + s.headers).not.toContain(OIDC_CLIENT_SECRET);
});
