/**
 * Introspection and revocation in real Chromium against oidc-provider: the token is active, is
 * revoked, the proof shows it no longer works, and introspection then says inactive. Screenshots
 * at 1280 and 390 px.
 */
import { expect } from 'vitest';
import { shot } from '../helpers/browser';
import { OFF_LOOPBACK, openPlayground, throughProvider } from '../helpers/e2e';
import {
	adminFeatures,
	OIDC_CLIENT_ID,
	OIDC_CLIENT_SECRET,
	OIDC_SCOPE,
	oidcClient
} from '../helpers/oidc';
import { e2eTest } from '../helpers/fixtures';

const test = e2eTest(
	{},
	{
		record: true,
		oidc: (redirect) => ({
			clients: [oidcClient(redirect)],
			configuration: { features: adminFeatures() }
		})
	}
);

test.for([1280, 390])(
	'at %i px: introspect, revoke with its proof, introspect again',
	async (width, { srv, oidc, newPage, traffic }) => {
		const p = await newPage({ width, height: 900 }, OFF_LOOPBACK);
		await openPlayground(p, srv.url);
		await p.getByLabel('Base URL of the service').fill(oidc.issuer);
		await p.getByLabel('Client id').fill(OIDC_CLIENT_ID);
		await p.getByLabel('Client secret').fill(OIDC_CLIENT_SECRET);
		await p.getByLabel('Scope', { exact: true }).fill(OIDC_SCOPE);
		await p.getByText('Advanced settings').click();
		await p.getByLabel('Authorization endpoint').fill(oidc.endpoints.authorization);
		await p.getByLabel('Token endpoint').fill(oidc.endpoints.token);
		await p.getByLabel('User-info endpoint').fill(oidc.endpoints.userinfo);
		await p.getByLabel('Revocation endpoint').fill(`${oidc.issuer}/token/revocation`);
		await p.getByLabel('Introspection endpoint').fill(`${oidc.issuer}/token/introspection`);
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect
			.poll(() => p.getByTestId('secret-hint').textContent())
			.toContain('A secret is set');
		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await throughProvider(p, srv.url);
		await p.getByTestId('access-token').waitFor();

		const intro = p.locator('#introspect');
		const revoke = p.locator('#revoke');
		await intro.getByRole('button', { name: 'Introspect the access token' }).click();
		await expect.poll(() => intro.textContent()).toContain('The access token is active');
		expect(await intro.textContent()).toContain('"active": true');

		await revoke.getByRole('button', { name: 'Revoke the access token' }).click();
		await expect
			.poll(() => p.getByTestId('revoke-verdict').textContent())
			.toContain('The access token no longer works');
		expect(await revoke.textContent()).toContain('proves nothing');
		await p.getByTestId('access-revoked').waitFor();
		// The proof is the user-info call, and its step shows what happened to it.
		await expect.poll(() => p.locator('#userinfo').textContent()).toContain('401');

		await intro.getByRole('button', { name: 'Introspect the access token' }).click();
		await expect
			.poll(() => p.getByTestId('introspect-verdict').textContent())
			.toContain('access token is not active');
		await revoke.scrollIntoViewIfNeeded();
		await shot(p, `token-admin-${width}`);

		const page = traffic.bodies.map((b) => b.text).join('\n') + traffic.urls.join('\n');
		expect(page).not.toContain(OIDC_CLIENT_SECRET);
	}
);
