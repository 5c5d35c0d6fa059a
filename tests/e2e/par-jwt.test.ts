/**
 * Pushed authorization requests and the JWT signature check in real Chromium, against oidc-provider:
 * "Push the request" turns the consent link into client_id + request_uri with its countdown, and the
 * flow completes through it; the JWT client's access token shows "Signature valid" with its kid,
 * then "Check another JWT" with a middle character of the signature changed shows it invalid.
 * Screenshots at 1280 and 390 px.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import { flowUrl, OFF_LOOPBACK, openPlayground } from '../helpers/e2e';
import { axeProblems } from '../helpers/axe';
import { baseConfiguration, jwtAccessTokens, type OidcServer } from '../helpers/oidc';
import { e2eTest } from '../helpers/fixtures';

const SECRET = 'jwt-Secret-1';

const test = e2eTest(
	{},
	{
		oidc: (redirect) => ({
			clients: [
				{
					client_id: 'oidc-jwt',
					client_secret: SECRET,
					redirect_uris: redirect,
					grant_types: ['authorization_code', 'refresh_token'],
					token_endpoint_auth_method: 'client_secret_post'
				}
			],
			configuration: {
				features: {
					...baseConfiguration().features,
					pushedAuthorizationRequests: { enabled: true },
					resourceIndicators: jwtAccessTokens()
				}
			}
		})
	}
);

async function fillSetup(p: Page, oidc: OidcServer): Promise<void> {
	await p.getByLabel('Base URL of the service').fill(oidc.issuer);
	await p.getByLabel('Client id').fill('oidc-jwt');
	await p.getByLabel('Client secret').fill(SECRET);
	await p.getByLabel('Scope', { exact: true }).fill('openid read');
	await p.getByText('Advanced settings').click();
	await p.getByLabel('Authorization endpoint').fill(oidc.endpoints.authorization);
	await p.getByLabel('Token endpoint').fill(oidc.endpoints.token);
	await p.getByLabel('User-info endpoint').fill(oidc.endpoints.userinfo);
	await p.getByLabel('Issuer').fill(oidc.issuer);
	await p.getByLabel('Pushed authorization request endpoint').fill(`${oidc.issuer}/request`);
	await p.getByLabel('JWKS URI').fill(oidc.endpoints.jwks);
	await p.getByLabel('Push the authorization request first (PAR)').check();
	await p.getByRole('button', { name: 'Save setup' }).click();
	await expect.poll(() => p.getByTestId('secret-hint').textContent()).toContain('A secret is set');
}

for (const size of [
	{ width: 1280, height: 800, name: 'wide' },
	{ width: 390, height: 844, name: 'phone' }
])
	test(`PAR completes the flow, then the JWT signature is valid and a tampered paste invalid (${size.name})`, async ({
		srv,
		oidc,
		newPage
	}) => {
		const p = await newPage(size, OFF_LOOPBACK);
		await openPlayground(p, srv.url);
		await fillSetup(p, oidc);
		await p.getByTestId('par-not-pushed').waitFor();
		await p.getByRole('button', { name: 'Push the request (PAR)' }).click();
		await expect.poll(() => p.getByTestId('consent-url').textContent()).toContain('request_uri=');
		const link = new URL((await p.getByTestId('consent-url').textContent()) ?? '');
		expect([...link.searchParams.keys()]).toEqual(['client_id', 'request_uri']);
		await expect.poll(() => p.getByTestId('par-expiry').textContent()).toMatch(/expires in \d+ s/);
		expect(await p.locator('#consent table.params').textContent()).toContain(
			'pushed authorization request'
		);
		await p.locator('#consent [data-result-of="par"]').waitFor();
		await shot(p, `par-01-pushed-${size.name}`);
		await p.locator('#consent-open').evaluate((e) => e.scrollIntoView({ block: 'center' }));
		await shot(p, `par-02-consent-card-${size.name}`, { screen: true });

		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await p.waitForURL((u) => u.origin === oidc.origin);
		await p.locator('input[name="login"]').fill('alice');
		await p.locator('input[name="password"]').fill('any password');
		await p.getByRole('button', { name: 'Sign-in' }).click();
		await p.getByRole('button', { name: 'Continue' }).click();
		await p.waitForURL(flowUrl(srv.url));
		await p.getByTestId('access-token').waitFor();
		const access = (await p.getByTestId('access-token').textContent()) ?? '';
		expect(access.split('.')).toHaveLength(3);

		const jwt = p.locator('[data-jwt="access_token"]');
		await jwt.locator('summary').click();
		expect(await jwt.textContent()).toContain('The signature was not checked');
		await jwt.getByRole('button', { name: 'Check the signature' }).click();
		const outcome = jwt.getByTestId('jwt-outcome');
		await outcome.waitFor();
		expect(await outcome.textContent()).toContain('Signature valid');
		expect(await outcome.textContent()).toContain('test-1');
		expect(await jwt.textContent()).not.toContain('The signature was not checked');
		await outcome.scrollIntoViewIfNeeded();
		await shot(p, `jwt-01-valid-${size.name}`);
		await shot(jwt, `jwt-03-valid-card-${size.name}`);

		const [h, pl, s] = access.split('.') as [string, string, string];
		const i = Math.floor(s.length / 2);
		const tampered = `${h}.${pl}.${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
		const other = p.getByTestId('jwt-other');
		await other.locator('summary').click();
		await other.getByTestId('jwt-paste').fill(tampered);
		await other.getByRole('button', { name: 'Check the signature' }).click();
		await expect
			.poll(() => other.getByTestId('jwt-outcome').textContent())
			.toContain('Signature not valid');
		// The focus goes to this newest outcome, not to the access token's earlier one.
		await expect
			.poll(() => p.evaluate(() => !!document.activeElement?.closest('[data-testid="jwt-other"]')))
			.toBe(true);
		// Editing the pasted token hides the outcome: it was for the token that was checked.
		await other.getByTestId('jwt-paste').fill(access);
		expect(await other.getByTestId('jwt-outcome').count()).toBe(0);
		await other.getByTestId('jwt-paste').fill(tampered);
		await other.getByTestId('jwt-outcome').scrollIntoViewIfNeeded();
		const found = (await axeProblems(p)).map((v) => `${v.kind} ${v.id}: ${v.nodes.join(' | ')}`);
		expect(found, 'no axe problems with the check outcomes shown').toEqual([]);
		await shot(p, `jwt-02-tampered-${size.name}`);
		await shot(other, `jwt-04-tampered-card-${size.name}`);
		const overflow = await p.evaluate(
			() => document.documentElement.scrollWidth - document.documentElement.clientWidth
		);
		expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
	});

test('the request_uri countdown runs on the page clock: expired, it says to push again, and pushing again gives a new link', async ({
	srv,
	oidc,
	newPage
}) => {
	const p = await newPage({ width: 1280, height: 800 }, OFF_LOOPBACK);
	// The page's clock only: the browser's time is moved, the provider's is not.
	await p.clock.install();
	await openPlayground(p, srv.url);
	await fillSetup(p, oidc);
	const note = p.getByTestId('par-not-pushed');
	await note.waitFor();
	expect(await note.textContent()).toContain('require_pushed_authorization_requests');
	await p.locator('#consent').evaluate((e) => e.scrollIntoView());
	await shot(p, 'par-03-not-pushed-wide');
	await p.getByRole('button', { name: 'Push the request (PAR)' }).click();
	const expiry = p.getByTestId('par-expiry');
	await expect.poll(() => expiry.getAttribute('data-expired')).toBe('false');
	const first = await p.getByTestId('consent-url').textContent();
	await p.clock.fastForward('01:01');
	await expect.poll(() => expiry.getAttribute('data-expired')).toBe('true');
	expect(await expiry.textContent()).toContain('push the request again');
	await p.getByTestId('par-expiry').evaluate((e) => e.scrollIntoView({ block: 'center' }));
	await shot(p, 'par-04-expired-wide');
	await p.getByRole('button', { name: 'Push again' }).click();
	// A new handle (the page's clock is now 61 s ahead of the servers', so its countdown is not asserted).
	await expect.poll(() => p.getByTestId('consent-url').textContent()).not.toBe(first);
	expect(await p.locator('#consent [data-result-of="par"]').textContent()).toContain('201');
});
