/**
 * "Fill from metadata" in real Chromium against oidc-provider: the form is filled and marked, an
 * edited field loses its mark, the fill moves the URL that receives the secret so the page asks,
 * "Keep it" keeps the secret for the new hosts, and the flow then completes. A document that names
 * another issuer is refused, and the form keeps what was typed. Screenshots at 1280 and 390 px.
 */
import { expect } from 'vitest';
import http from 'node:http';
import { shot } from '../helpers/browser';
import { OFF_LOOPBACK, openPlayground, throughProvider } from '../helpers/e2e';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_SCOPE } from '../helpers/oidc';
import { listen } from '../helpers/listen';
import { e2eTest } from '../helpers/fixtures';

const test = e2eTest({}, { record: true });

test.for([1280, 390])(
	'at %i px: fill, the secret question, keep, and the flow',
	async (width, { srv, oidc, newPage, traffic }) => {
		const p = await newPage({ width, height: 900 }, OFF_LOOPBACK);
		await openPlayground(p, srv.url);
		// First saved with the documented endpoints under the issuer, and the secret.
		await p.getByLabel('Base URL of the service').fill(oidc.issuer);
		await p.getByLabel('Client id').fill(OIDC_CLIENT_ID);
		await p.getByLabel('Client secret').fill(OIDC_CLIENT_SECRET);
		await p.getByLabel('Scope', { exact: true }).fill(OIDC_SCOPE);
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect
			.poll(() => p.getByTestId('secret-hint').textContent())
			.toContain('A secret is set');

		await p.getByTestId('setup-summary').click();
		await p.getByRole('button', { name: 'Fill from metadata' }).click();
		await expect
			.poll(() => p.getByTestId('metadata-outcome').textContent())
			.toContain('Metadata found');
		const token = p.getByLabel('Token endpoint');
		expect(await token.inputValue()).toBe(oidc.endpoints.token);
		expect(await token.getAttribute('data-from-metadata')).toBe('true');
		expect(await p.getByLabel('PKCE').inputValue()).toBe('S256');
		expect(await p.getByLabel('Issuer').inputValue()).toBe(oidc.issuer);
		// An edited field loses its mark; the others keep theirs.
		const userinfo = p.getByLabel('User-info endpoint');
		await userinfo.fill(oidc.endpoints.userinfo);
		expect(await userinfo.getAttribute('data-from-metadata')).toBeNull();
		expect(await token.getAttribute('data-from-metadata')).toBe('true');

		const question = p.getByRole('group', { name: 'The secret and the new hosts' });
		await question.waitFor();
		expect(await question.textContent()).toContain(new URL(oidc.issuer).host);
		await question.getByRole('button', { name: 'Keep it for these hosts' }).click();
		await shot(p, `discovery-${width}`);
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect
			.poll(() => p.getByTestId('consent-url').textContent())
			.toContain(oidc.endpoints.authorization);
		expect(await p.getByTestId('secret-hint').textContent()).toContain('A secret is set');
		expect(await p.getByTestId('consent-url').textContent()).toContain(
			'code_challenge_method=S256'
		);

		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await throughProvider(p, srv.url);
		await p.getByTestId('access-token').waitFor();
		const page = traffic.bodies.map((b) => b.text).join('\n') + traffic.urls.join('\n');
		expect(page).not.toContain(OIDC_CLIENT_SECRET);
	}
);

test('a document whose issuer is another is refused: the page says why, and nothing typed is changed', async ({
	srv,
	newPage
}) => {
	const seen: string[] = [];
	const fake = http.createServer((req, res) => {
		seen.push(req.url ?? '');
		const body = JSON.stringify({
			issuer: 'https://evil.test',
			authorization_endpoint: 'https://evil.test/auth',
			token_endpoint: 'https://evil.test/token'
		});
		res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
	});
	const fakeAt = await listen(fake);
	try {
		const base = `${fakeAt.url}/as`;
		const p = await newPage({ width: 1280, height: 900 }, OFF_LOOPBACK);
		await openPlayground(p, srv.url);
		await p.getByLabel('Base URL of the service').fill(base);
		await p.getByLabel('Client id').fill(OIDC_CLIENT_ID);
		await p.getByText('Advanced settings').click();
		await p.getByLabel('Token endpoint').fill(`${base}/token`);
		await p.getByRole('button', { name: 'Fill from metadata' }).click();
		const outcome = p.getByTestId('metadata-outcome');
		await expect.poll(() => outcome.textContent()).toContain('RFC 8414 §3.3');
		expect(await outcome.textContent()).toContain('"https://evil.test"');
		expect(await p.getByLabel('Token endpoint').inputValue()).toBe(`${base}/token`);
		expect(await p.getByLabel('Token endpoint').getAttribute('data-from-metadata')).toBeNull();
		expect(await p.getByLabel('Base URL of the service').inputValue()).toBe(base);
		expect(seen).toEqual(['/.well-known/oauth-authorization-server/as']);
		await p.getByTestId('metadata-outcome').scrollIntoViewIfNeeded();
		await shot(p, 'discovery-wrong-issuer');
	} finally {
		await new Promise<void>((ok) => fake.close(() => ok()));
	}
});
