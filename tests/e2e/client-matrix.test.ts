/**
 * Every way a client authenticates, in real Chromium against oidc-provider (a server this project
 * did not write), each through the whole of what its metadata advertises: "Fill from metadata"
 * fills the form; the request is pushed (PAR) and the flow completes with PKCE; the ID token's
 * signature is valid against the issuer's keys and a tampered copy is not; introspection says
 * active; the access token is revoked and then proven not to work; introspection says inactive.
 * Then, for each client, the wrong choice in the setup and the finding that names the right one.
 * Screenshots at 1280 px, and at 390 px for the public client.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { shot } from '../helpers/browser';
import { OFF_LOOPBACK, openPlayground, throughProvider } from '../helpers/e2e';
import {
	adminEndpoints,
	MATRIX,
	OIDC_SCOPE,
	standardServer,
	type MatrixClient,
	type OidcServer
} from '../helpers/oidc';
import { e2eTest, type Recorded } from '../helpers/fixtures';

const test = e2eTest(
	{},
	{ record: true, oidc: standardServer }
	// eslint-disable-next-line no-empty-pattern
).extend('traffic', async ({}, { onCleanup }) => {
	const traffic: Recorded = { bodies: [], urls: [] };
	// No secret of any registration reached the page, in a body or an address.
	onCleanup(() => {
		const seen = traffic.bodies.map((b) => b.text).join('\n') + traffic.urls.join('\n');
		for (const c of MATRIX) if (c.secret) expect(seen).not.toContain(c.secret);
	});
	return traffic;
});

/** The fields a developer types before asking for the metadata. */
async function typeClient(
	p: Page,
	srv: TestServer,
	oidc: OidcServer,
	id: string,
	secret: string
): Promise<void> {
	await openPlayground(p, srv.url);
	await p.getByLabel('Base URL of the service').fill(oidc.issuer);
	await p.getByLabel('Client id').fill(id);
	if (secret) await p.getByLabel('Client secret').fill(secret);
	await p.getByLabel('Scope', { exact: true }).fill(OIDC_SCOPE);
}

/** Signs in on the provider's pages and waits for the exchange's answer. */
async function consentAndExchange(p: Page, srv: TestServer, status: string): Promise<string> {
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await throughProvider(p, srv.url);
	const answer = p.locator('#exchange [data-result-of="exchange"]');
	await expect.poll(() => answer.textContent()).toContain(`HTTP/1.1 ${status}`);
	return (await p.locator('#exchange').textContent()) ?? '';
}

describe.each(MATRIX.map((c, i) => [c.id, c, i === 2 ? 390 : 1280] as const))(
	'%s',
	(_name, client: MatrixClient, width: number) => {
		test(`at ${width} px: metadata, PAR, PKCE, the ID token's signature, introspection and revocation`, async ({
			srv,
			oidc,
			newPage
		}) => {
			const p = await newPage({ width, height: 900 }, OFF_LOOPBACK);
			await typeClient(p, srv, oidc, client.id, client.secret);
			await p.getByRole('button', { name: 'Fill from metadata' }).click();
			await expect
				.poll(() => p.getByTestId('metadata-outcome').textContent())
				.toContain('Metadata found');
			const admin = adminEndpoints(oidc);
			const filled: [string, string][] = [
				['Token endpoint', oidc.endpoints.token],
				['Revocation endpoint', admin.revocation],
				['Introspection endpoint', admin.introspection],
				['Pushed authorization request endpoint', admin.par],
				['JWKS URI', oidc.endpoints.jwks],
				['Issuer', oidc.issuer]
			];
			for (const [label, value] of filled) {
				const field = p.getByLabel(label, { exact: true });
				expect(await field.inputValue(), label).toBe(value);
				expect(await field.getAttribute('data-from-metadata'), label).toBe('true');
			}
			expect(await p.getByLabel('PKCE').inputValue()).toBe('S256');
			// The metadata lists every method; the registration decides which one this client uses.
			await p.getByLabel('Client authentication').selectOption(client.method);
			await p.getByLabel('Push the authorization request first (PAR)').check();
			await shot(p, `matrix-${client.id}-01-filled-${width}`);
			await p.getByRole('button', { name: 'Save setup' }).click();

			await p.getByRole('button', { name: 'Push the request (PAR)' }).click();
			await expect.poll(() => p.getByTestId('consent-url').textContent()).toContain('request_uri=');
			expect(await p.locator('#consent [data-result-of="par"]').textContent()).toContain('201');
			const pushed = (await p.locator('#consent').textContent()) ?? '';
			expect(pushed).toContain('code_challenge_method=S256');

			const exchange = await consentAndExchange(p, srv, '200 OK');
			expect(exchange).toContain('code_verifier=');
			if (client.method === 'client_secret_basic') {
				expect(exchange).toContain('Authorization: Basic <redacted>');
				expect(exchange).not.toContain('client_secret=');
			} else if (client.method === 'client_secret_post')
				expect(exchange).toContain('client_secret=<redacted>');
			else expect(exchange).not.toMatch(/client_secret|Authorization:/);
			await p.getByTestId('access-token').waitFor();

			const idToken = p.locator('[data-jwt="id_token"]');
			await idToken.locator('summary').click();
			await idToken.getByRole('button', { name: 'Check the signature' }).click();
			await expect
				.poll(() => idToken.getByTestId('jwt-outcome').textContent())
				.toContain('Signature valid');
			const jwt = (await p.locator('dd:has([data-jwt="id_token"]) > code').textContent()) ?? '';
			const [h, pl, s] = jwt.trim().split('.') as [string, string, string];
			expect(s.length).toBeGreaterThan(10);
			const i = Math.floor(s.length / 2);
			const other = p.getByTestId('jwt-other');
			await other.locator('summary').click();
			await other
				.getByTestId('jwt-paste')
				.fill(`${h}.${pl}.${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`);
			await other.getByRole('button', { name: 'Check the signature' }).click();
			await expect
				.poll(() => other.getByTestId('jwt-outcome').textContent())
				.toContain('Signature not valid');

			const intro = p.locator('#introspect');
			await intro.getByRole('button', { name: 'Introspect the access token' }).click();
			await expect
				.poll(() => p.getByTestId('introspect-verdict').textContent())
				.toContain('The access token is active');
			await p.locator('#revoke').getByRole('button', { name: 'Revoke the access token' }).click();
			await expect
				.poll(() => p.getByTestId('revoke-verdict').textContent())
				.toContain('The access token no longer works');
			await expect.poll(() => p.locator('#userinfo').textContent()).toContain('401');
			await intro.getByRole('button', { name: 'Introspect the access token' }).click();
			await expect
				.poll(() => p.getByTestId('introspect-verdict').textContent())
				.toContain('access token is not active');
			await p.locator('#revoke').scrollIntoViewIfNeeded();
			await shot(p, `matrix-${client.id}-02-revoked-${width}`);
			const overflow = await p.evaluate(
				() => document.documentElement.scrollWidth - document.documentElement.clientWidth
			);
			expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
		});
	}
);

describe('the wrong choice, and the finding that names the right one', () => {
	async function saveWith(
		p: Page,
		oidc: OidcServer,
		client: MatrixClient,
		method: string,
		pkce: string
	) {
		await p.getByText('Advanced settings').click();
		await p.getByLabel('Authorization endpoint').fill(oidc.endpoints.authorization);
		await p.getByLabel('Token endpoint').fill(oidc.endpoints.token);
		await p.getByLabel('User-info endpoint').fill(oidc.endpoints.userinfo);
		await p.getByLabel('Client authentication').selectOption(method);
		await p.getByLabel('PKCE').selectOption(pkce);
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect
			.poll(() => p.getByTestId('consent-url').textContent())
			.toContain(`client_id=${client.id}`);
	}

	test(`${MATRIX[0].id} with PKCE off: the consent is refused, and the finding says to turn PKCE on`, async ({
		srv,
		oidc,
		newPage
	}) => {
		const p = await newPage({ width: 1280, height: 900 }, OFF_LOOPBACK);
		const client = MATRIX[0];
		await typeClient(p, srv, oidc, client.id, client.secret);
		await saveWith(p, oidc, client, client.method, 'off');
		await p.getByRole('link', { name: 'Open the consent page' }).click();
		const callback = p.locator('#callback');
		await expect.poll(() => callback.textContent()).toContain('invalid_request');
		const alert = p.getByTestId('auth-error');
		expect(await alert.textContent()).toContain('requires PKCE for this client');
		expect(await alert.textContent()).toContain('Turn PKCE on (S256)');
		await shot(p, 'matrix-wrong-pkce-off');
	});

	test(`${MATRIX[1].id} sent as public: the exchange is refused, and the finding names the secret methods`, async ({
		srv,
		oidc,
		newPage
	}) => {
		const p = await newPage({ width: 1280, height: 900 }, OFF_LOOPBACK);
		const client = MATRIX[1];
		await typeClient(p, srv, oidc, client.id, '');
		// A secret outside printable ASCII is not a client secret by RFC 6749 (oidc-provider refuses
		// such a registration): the form says so while it is typed, and forgets it when it is fixed.
		const secret = p.getByLabel('Client secret');
		await secret.fill('b:ä%+');
		const chars = p.locator('#client_secret-chars');
		expect(await chars.textContent()).toContain('outside printable ASCII');
		expect(await secret.getAttribute('aria-describedby')).toContain('client_secret-chars');
		await secret.fill('');
		expect(await chars.count()).toBe(0);
		await saveWith(p, oidc, client, 'none', 'S256');
		const text = await consentAndExchange(p, srv, '401');
		expect(text).toContain('does not accept this client as a public client');
		expect(text).toContain('client_secret_post or client_secret_basic');
	});

	test(`${MATRIX[2].id} sent with a secret: the exchange is refused, and its one finding names a public registration`, async ({
		srv,
		oidc,
		newPage
	}) => {
		const p = await newPage({ width: 1280, height: 900 }, OFF_LOOPBACK);
		const client = MATRIX[2];
		await typeClient(p, srv, oidc, client.id, 'not-a-registered-secret');
		await saveWith(p, oidc, client, 'client_secret_post', 'S256');
		const text = await consentAndExchange(p, srv, '401');
		// oidc-provider says only "client authentication failed", and its metadata lists the
		// secret methods (for other clients): nothing points to the method, so the one finding is
		// the refused client, whose fix ends with the registration's method.
		expect(text).toContain('did not accept the client credentials');
		expect(text).toContain('whether it is a public client');
		expect(text).not.toContain('sent as client_secret_post');
		expect(await p.locator('#exchange li.finding-error').count()).toBe(1);
		await shot(p, 'matrix-wrong-public-with-secret');
	});
});
