/**
 * The whole flow in real Chromium against an authorization server this project did not write
 * (oidc-provider, see tests/helpers/oidc.ts): the setup with the provider's endpoints in Advanced
 * settings, the provider's own sign-in and consent pages, back to the playground with the code
 * exchanged. Every response the browser receives, every URL it requests and the server's log are
 * scanned for the client secret. The provider rotates the refresh token on every use, and the
 * previous one, tried in a fork, is refused and the grant revoked. Screenshots at 1280 and 390 px go
 * to test-output/screenshots/.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { shot } from '../helpers/browser';
import { flowUrl, OFF_LOOPBACK, openPlayground } from '../helpers/e2e';
import { axeProblems } from '../helpers/axe';
import {
	OIDC_CLIENT_ID,
	OIDC_CLIENT_SECRET,
	OIDC_SCOPE,
	oidcClient,
	rotatingRefreshTokens,
	type OidcServer
} from '../helpers/oidc';
import { e2eTest, type Recorded } from '../helpers/fixtures';

/** Every page's traffic over the whole run, for the scan at its end. */
const traffic: Recorded = { bodies: [], urls: [] };

// The provider rotates the client's refresh token on every use (by default oidc-provider rotates a
// confidential client's only late in its life), so that a refresh leaves an older one to try.
const test = e2eTest(
	{},
	{
		record: true,
		oidc: (uris) => ({
			clients: [oidcClient(uris)],
			configuration: rotatingRefreshTokens([OIDC_CLIENT_ID])
		})
	}
	// eslint-disable-next-line no-empty-pattern
).extend('traffic', async ({}) => traffic);

/** Fills the setup as a developer would for this server: base URL = issuer, endpoints in Advanced settings. */
async function fillSetup(p: Page, oidc: OidcServer, issuer = ''): Promise<void> {
	await p.getByLabel('Base URL of the service').fill(oidc.issuer);
	await p.getByLabel('Client id').fill(OIDC_CLIENT_ID);
	await p.getByLabel('Client secret').fill(OIDC_CLIENT_SECRET);
	await p.getByLabel('Scope', { exact: true }).fill(OIDC_SCOPE);
	await p.getByText('Advanced settings').click();
	await p.getByLabel('Authorization endpoint').fill(oidc.endpoints.authorization);
	await p.getByLabel('Token endpoint').fill(oidc.endpoints.token);
	await p.getByLabel('User-info endpoint').fill(oidc.endpoints.userinfo);
	if (issuer) await p.getByLabel('Issuer').fill(issuer);
	await p.getByRole('button', { name: 'Save setup' }).click();
	await expect.poll(() => p.getByTestId('secret-hint').textContent()).toContain('A secret is set');
	expect(await p.getByLabel('Client secret').inputValue()).toBe('');
}

/** From the consent step: the provider's sign-in page, then its consent page, then back. */
async function signInAndConsent(
	p: Page,
	srv: TestServer,
	oidc: OidcServer,
	shots?: string
): Promise<void> {
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await p.waitForURL(
		(u) => u.origin === oidc.origin && u.pathname.startsWith('/oidc/interaction/')
	);
	await p.locator('input[name="login"]').waitFor();
	if (shots) await shot(p, `${shots}-provider-sign-in`);
	await p.locator('input[name="login"]').fill('alice');
	await p.locator('input[name="password"]').fill('any password');
	await p.getByRole('button', { name: 'Sign-in' }).click();
	await p.getByRole('button', { name: 'Continue' }).waitFor();
	expect(await p.locator('body').textContent()).toContain('write');
	if (shots) await shot(p, `${shots}-provider-consent`);
	await p.getByRole('button', { name: 'Continue' }).click();
	await p.waitForURL(flowUrl(srv.url));
}

/**
 * The page landed on its verdict: the line has the focus, lies wholly in the first screen at the
 * window's size, and says `text`.
 */
async function landedOn(p: Page, text: string | RegExp): Promise<void> {
	await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('verdict');
	const box = (await p.locator('#verdict').boundingBox())!;
	expect(box.y).toBeGreaterThanOrEqual(0);
	expect(box.y + box.height).toBeLessThanOrEqual(p.viewportSize()!.height);
	expect(await p.locator('#verdict').innerText()).toMatch(text);
}

/** Waits for the automatic exchange's record, then wants it to be a 200 with the tokens shown. */
async function exchanged(p: Page): Promise<void> {
	const exchange = p.locator('#exchange details.exchange');
	await exchange.waitFor();
	await expect.poll(() => exchange.textContent()).toMatch(/HTTP\/1\.1 \d{3}/);
	expect(await exchange.textContent()).toContain('HTTP/1.1 200 OK');
	await p.getByTestId('access-token').waitFor();
}

describe('against oidc-provider', () => {
	test('setup with its endpoints, sign-in and consent on its pages, exchange, user-info, refresh', async ({
		srv,
		oidc,
		newPage
	}) => {
		const p = await newPage({ width: 1280, height: 800 }, OFF_LOOPBACK);
		await openPlayground(p, srv.url);
		await fillSetup(p, oidc, oidc.issuer);
		const consentUrl = await p.getByTestId('consent-url').textContent();
		expect(consentUrl?.startsWith(oidc.endpoints.authorization + '?')).toBe(true);
		expect(consentUrl).toContain('scope=openid+read+write');
		await shot(p, 'oidc-01-setup');

		await signInAndConsent(p, srv, oidc, 'oidc-02');
		// Exchanged automatically on return, and the page lands on the verdict.
		await exchanged(p);
		await landedOn(p, /^✓ Tokens received: openid read write, expires in (\d+ min|1 h)$/);
		expect(p.url()).toMatch(flowUrl(srv.url));
		expect(await p.getByTestId('saved-state').textContent()).toBe(
			await p.getByTestId('returned-state').textContent()
		);
		// The right issuer in the setup: the iss oidc-provider sends matches (RFC 9207).
		expect(await p.getByTestId('issuer-verdict').textContent()).toBe('✓ match');
		expect(await p.getByTestId('expected-issuer').textContent()).toBe(oidc.issuer);
		const redirect = p.locator('#callback table.params');
		expect(await redirect.textContent()).toContain(oidc.issuer);
		expect(await redirect.textContent()).toContain('Issuer identifier (RFC 9207)');
		const exchange = p.locator('#exchange details.exchange');
		await expect.poll(() => exchange.textContent()).toContain('client_secret=<redacted>');
		expect(await exchange.textContent()).toContain(
			`POST ${new URL(oidc.endpoints.token).pathname}`
		);
		expect(await exchange.textContent()).toContain('HTTP/1.1 200 OK');
		expect(await exchange.textContent()).toContain('"refresh_token"');
		await shot(p, 'oidc-03-tokens');

		await p.getByRole('button', { name: 'Read the user info' }).click();
		await expect
			.poll(() => p.locator('#userinfo details.exchange').textContent())
			.toContain('"sub": "alice"');

		const before = await p.getByTestId('access-token').textContent();
		await p.getByRole('button', { name: 'Refresh the access token' }).click();
		await expect.poll(() => p.getByTestId('access-token').textContent()).not.toBe(before);
		const steps = await p
			.locator('.transcript details.exchange')
			.evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));
		expect(steps).toEqual(['consent', 'callback', 'exchange', 'userinfo', 'refresh']);
		await shot(p, 'oidc-04-userinfo-refresh');

		// The provider rotated the refresh token: its previous one, tried in a fork, is refused as a
		// reuse, and the provider revokes the grant (the current token and the access token too).
		await expect.poll(() => p.getByTestId('rotation').textContent()).toContain('rotated');
		const original = p.url();
		await p.getByTestId('replay-refresh').click();
		const dialog = p.getByTestId('replay-refresh-dialog');
		expect(await dialog.getByRole('heading').innerText()).toBe(
			`Send a superseded refresh token of ${OIDC_CLIENT_ID} to ${new URL(oidc.issuer).host}?`
		);
		await dialog.getByRole('button', { name: 'Send it in a fork' }).click();
		await p.waitForURL((u) => u.href !== original);
		await p.getByTestId('refresh-try-fork').waitFor();
		await expect
			.poll(() =>
				p
					.locator('.transcript details.exchange')
					.evaluateAll((els) =>
						els.slice(-3).map((e) => e.querySelector('[data-code]')?.getAttribute('data-code'))
					)
			)
			.toEqual([
				'refresh-replay-refused',
				'refresh-replay-family-revoked',
				'refresh-replay-access-revoked'
			]);
		expect(await p.locator('#verdict').innerText()).toBe(
			'✕ Tokens revoked: the service revoked them when a superseded refresh token came back'
		);
	});

	test('the same flow at phone width', async ({ srv, oidc, newPage }) => {
		const p = await newPage({ width: 390, height: 844 }, OFF_LOOPBACK);
		await openPlayground(p, srv.url);
		await fillSetup(p, oidc);
		// The provider's "[ Cancel ]" on its sign-in page: access_denied, in its words, and the line
		// says the consent was declined, with the focus, in the phone's first screen.
		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await p.waitForURL((u) => u.origin === oidc.origin);
		await p.getByRole('link', { name: '[ Cancel ]' }).click();
		await p.waitForURL(flowUrl(srv.url));
		await landedOn(p, /^⊘ Consent declined$/);
		expect(await p.getByTestId('auth-error').textContent()).toContain(
			'End-User aborted interaction'
		);
		await shot(p, 'oidc-05-phone-declined');
		// A new request prepared after the decline: the line speaks of it.
		await p.locator('#consent').getByRole('button', { name: 'Prepare a new one' }).click();
		await expect
			.poll(() => p.locator('#verdict').innerText())
			.toBe('Step 1, a new consent request for scope openid read write is ready to open');
		await signInAndConsent(p, srv, oidc, 'oidc-05-phone');
		await exchanged(p);
		await landedOn(p, /^✓ Tokens received: openid read write, expires in (\d+ min|1 h)$/);
		// No issuer in the setup: iss is on the authorization endpoint's origin, shown, not checked.
		expect(await p.getByTestId('issuer-verdict').textContent()).toBe(
			'not checked: no issuer known'
		);
		await expect
			.poll(() => p.locator('#exchange details.exchange').textContent())
			.toContain('client_secret=<redacted>');
		await shot(p, 'oidc-06-phone-tokens');
		await shot(p.locator('#exchange'), 'oidc-07-phone-exchange');
		const overflow = await p.evaluate(
			() => document.documentElement.scrollWidth - document.documentElement.clientWidth
		);
		expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
	});
});

describe('mix-up (RFC 9207) against oidc-provider', () => {
	for (const size of [
		{ width: 1280, height: 800, name: 'wide' },
		{ width: 390, height: 844, name: 'phone' }
	])
		test(`mix-up, ${size.name}: a wrong issuer stops the automatic exchange with the warning, and "Exchange anyway" from the keyboard exchanges the code`, async ({
			srv,
			oidc,
			newPage
		}) => {
			const p = await newPage(size, OFF_LOOPBACK);
			await openPlayground(p, srv.url);
			const wrong = `${oidc.origin}/another-server`;
			await fillSetup(p, oidc, wrong);
			await signInAndConsent(p, srv, oidc);
			await p.locator('main[data-ready="true"]').waitFor();
			const alert = p.getByTestId('issuer-alert');
			await alert.waitFor();
			const text = (await alert.textContent()) ?? '';
			expect(text).toContain('Possible mix-up attack: the code was not exchanged.');
			expect(text).toContain(wrong);
			expect(text).toContain(oidc.issuer);
			expect(text).toMatch(/In a mix-up attack/);
			expect(await p.getByTestId('issuer-verdict').textContent()).toBe('✕ mismatch');
			await landedOn(
				p,
				/^✕ Step 2, callback, failed: possible mix-up attack: the redirect names the issuer /
			);
			expect(await p.locator('#callback').getAttribute('class')).toContain('step-failed');
			// The automatic exchange did not run: nothing in flight, no exchange, no token.
			expect(await p.getByTestId('busy').count()).toBe(0);
			expect(await p.locator('#exchange details.exchange').count()).toBe(0);
			expect(await p.getByTestId('access-token').count()).toBe(0);
			await p.getByTestId('code-held').waitFor();
			await shot(p, `iss-01-mix-up-${size.name}`);
			await p.evaluate(() => window.scrollTo(0, 0));
			const found = (await axeProblems(p)).map((v) => `${v.kind} ${v.id}: ${v.nodes.join(' | ')}`);
			expect(found, 'no axe problems with the warning shown').toEqual([]);
			await shot(p.locator('#callback'), `iss-02-callback-${size.name}`);
			const overflow = await p.evaluate(
				() => document.documentElement.scrollWidth - document.documentElement.clientWidth
			);
			expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);

			// "Exchange anyway", from the keyboard; the progress line shows while it is under way.
			let release!: () => void;
			const held = new Promise<void>((ok) => (release = ok));
			await p.route(
				(u) => u.search === '?/exchange',
				async (route) => {
					await held;
					await route.continue();
				}
			);
			await p.getByRole('button', { name: 'Exchange anyway' }).focus();
			await p.keyboard.press('Enter');
			await expect
				.poll(() => p.getByTestId('busy').textContent())
				.toBe('Exchanging the code for tokens…');
			release();
			await exchanged(p);
			await p.unrouteAll();
			expect(await alert.textContent()).toContain('you exchanged the code anyway');
			await shot(p, `iss-03-exchanged-anyway-${size.name}`);
		});
});

describe('secret hygiene over the whole run', () => {
	test('the client secret is in no response the browser got, no URL, and no server log line', ({
		srv,
		oidc
	}) => {
		const { bodies, urls } = traffic;
		expect(bodies.filter((b) => b.url.startsWith(oidc.origin)).length).toBeGreaterThan(3);
		const leaks = bodies.filter(
			(b) =>
				b.text.includes(OIDC_CLIENT_SECRET) ||
				b.text.includes(encodeURIComponent(OIDC_CLIENT_SECRET))
		);
		expect(leaks.map((l) => l.url)).toEqual([]);
		expect(
			urls.filter((u) => u.includes(OIDC_CLIENT_SECRET) || u.includes('client_secret'))
		).toEqual([]);
		expect(srv.logs()).not.toContain(OIDC_CLIENT_SECRET);
	});
});
