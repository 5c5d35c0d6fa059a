/**
 * Client authentication and PKCE in real Chromium against oidc-provider: a client registered for
 * HTTP Basic (its secret needs form-encoding) that requires PKCE, and a public client. Each flow
 * completes; the consent table shows the challenge and its method; the exchange shows the Basic
 * header and the verifier as they went, the secret never. Screenshots at 1280 and 390 px.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { launch, shot } from '../helpers/browser';
import { OFF_LOOPBACK, openPlayground, throughProvider, watch } from '../helpers/e2e';
import { OIDC_SCOPE, oidcClient, startOidcProvider, type OidcServer } from '../helpers/oidc';

const BASIC_SECRET = 'b:a%s+i c/=~?';

let srv: TestServer;
let oidc: OidcServer;
let browser: Browser;
let context: BrowserContext;
const problems: string[] = [];
const bodies: { url: string; text: string }[] = [];
const urls: string[] = [];

beforeAll(async () => {
	const port = await freePort();
	const redirect = [`http://127.0.0.1:${port}/callback`];
	oidc = await startOidcProvider({
		clients: [
			oidcClient(redirect, {
				client_id: 'oidc-basic',
				client_secret: BASIC_SECRET,
				token_endpoint_auth_method: 'client_secret_basic'
			}),
			oidcClient(redirect, {
				client_id: 'oidc-public',
				client_secret: undefined,
				token_endpoint_auth_method: 'none'
			})
		],
		configuration: { pkce: { required: () => true } }
	});
	srv = await startServer({}, port);
	browser = await launch();
});
afterAll(async () => {
	await browser?.close();
	await srv?.stop();
	await oidc?.stop();
});
afterEach(async () => {
	await context?.close();
	expect(problems.splice(0), 'no console errors, page errors or CSP violations').toEqual([]);
});

async function newPage(width: number): Promise<Page> {
	context = await browser.newContext({ viewport: { width, height: 900 }, ...OFF_LOOPBACK });
	return watch(await context.newPage(), { problems, bodies, urls });
}

test.each([
	[1280, 'oidc-basic', 'client_secret_basic', BASIC_SECRET],
	[390, 'oidc-public', 'none', '']
])('at %i px: %s (%s) with PKCE completes the flow', async (width, clientId, method, secret) => {
	const p = await newPage(width);
	await openPlayground(p, srv.url);
	await p.getByLabel('Base URL of the service').fill(oidc.issuer);
	await p.getByLabel('Client id').fill(clientId);
	if (secret) await p.getByLabel('Client secret').fill(secret);
	await p.getByLabel('Scope', { exact: true }).fill(OIDC_SCOPE);
	await p.getByText('Advanced settings').click();
	await p.getByLabel('Authorization endpoint').fill(oidc.endpoints.authorization);
	await p.getByLabel('Token endpoint').fill(oidc.endpoints.token);
	await p.getByLabel('User-info endpoint').fill(oidc.endpoints.userinfo);
	await p.getByLabel('Client authentication').selectOption(method);
	await p.getByLabel('PKCE').selectOption('S256');
	await p.getByRole('button', { name: 'Save setup' }).click();
	await expect
		.poll(() => p.getByTestId('consent-url').textContent())
		.toContain('code_challenge_method=S256');
	const consent = p.locator('#consent');
	expect(await consent.textContent()).toContain('code_challenge');
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await throughProvider(p, srv.url);
	await p.getByTestId('access-token').waitFor();
	const exchange = p.locator('#exchange');
	await expect.poll(() => exchange.textContent()).toContain('HTTP/1.1 200 OK');
	const text = (await exchange.textContent()) ?? '';
	expect(text).toContain('code_verifier=');
	if (method === 'client_secret_basic') {
		expect(text).toContain('Authorization: Basic <redacted>');
		expect(text).not.toContain('client_secret=');
	} else {
		expect(text).not.toContain('Authorization');
		expect(text).not.toContain('client_secret');
	}
	await shot(p, `client-auth-${clientId}-${width}`);
	const seen = bodies.map((b) => b.text).join('\n') + urls.join('\n');
	if (secret) expect(seen).not.toContain(secret);
});

test('the wrong method: a Basic client sent as public is refused, and the finding says what to change', async () => {
	const p = await newPage(1280);
	await openPlayground(p, srv.url);
	await p.getByLabel('Base URL of the service').fill(oidc.issuer);
	await p.getByLabel('Client id').fill('oidc-basic');
	await p.getByLabel('Scope', { exact: true }).fill(OIDC_SCOPE);
	await p.getByText('Advanced settings').click();
	await p.getByLabel('Authorization endpoint').fill(oidc.endpoints.authorization);
	await p.getByLabel('Token endpoint').fill(oidc.endpoints.token);
	await p.getByLabel('User-info endpoint').fill(oidc.endpoints.userinfo);
	await p.getByLabel('Client authentication').selectOption('none');
	await p.getByLabel('PKCE').selectOption('S256');
	await p.getByRole('button', { name: 'Save setup' }).click();
	await p.getByTestId('consent-url').waitFor();
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await throughProvider(p, srv.url);
	const exchange = p.locator('#exchange');
	await expect.poll(() => exchange.textContent()).toContain('401');
	const text = (await exchange.textContent()) ?? '';
	expect(text).toContain('does not accept this client as a public client');
	expect(text).toContain('client_secret_post or client_secret_basic');
	await shot(p, 'client-auth-wrong-method');
});
