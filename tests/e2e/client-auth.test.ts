/**
 * Client authentication and PKCE in real Chromium against oidc-provider: a client registered for
 * HTTP Basic (its secret needs form-encoding) that requires PKCE, and a public client. Each flow
 * completes; the consent table shows the challenge and its method; the exchange shows the Basic
 * header and the verifier as they went, the secret never. Screenshots at 1280 and 390 px.
 */
import { expect } from 'vitest';
import { shot } from '../helpers/browser';
import { OFF_LOOPBACK, openPlayground, throughProvider } from '../helpers/e2e';
import { OIDC_SCOPE, oidcClient } from '../helpers/oidc';
import { e2eTest } from '../helpers/fixtures';

const BASIC_SECRET = 'b:a%s+i c/=~?';

const test = e2eTest(
	{},
	{
		record: true,
		oidc: (redirect) => ({
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
		})
	}
);

test.for([
	[1280, 'oidc-basic', 'client_secret_basic', BASIC_SECRET],
	[390, 'oidc-public', 'none', '']
] as const)(
	'at %i px: %s (%s) with PKCE completes the flow',
	async ([width, clientId, method, secret], { srv, oidc, newPage, traffic }) => {
		const p = await newPage({ width, height: 900 }, OFF_LOOPBACK);
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
		const seen = traffic.bodies.map((b) => b.text).join('\n') + traffic.urls.join('\n');
		if (secret) expect(seen).not.toContain(secret);
	}
);

test('the wrong method: a Basic client sent as public is refused, and the finding says what to change', async ({
	srv,
	oidc,
	newPage
}) => {
	const p = await newPage({ width: 1280, height: 900 }, OFF_LOOPBACK);
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
