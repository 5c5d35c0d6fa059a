/**
 * The sandbox consent page's `form-action` in real Chromium, which applies it to the redirect that
 * follows the Authorize or Deny post: a redirect URI on another origin (the loopback twin, an app of
 * SANDBOX_CLIENTS on another port) must be reached with no CSP violation, while the playground's own
 * pages allow forms to themselves only.
 */
import { afterAll, describe, expect } from 'vitest';
import http from 'node:http';
import type { TestServer } from '../helpers/server';
import { e2eTest } from '../helpers/fixtures';
import { listen } from '../helpers/listen';

/** The requests the other app received, as path and query. */
const appGot: string[] = [];
const app = http.createServer((req, res) => {
	appGot.push(req.url ?? '');
	res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
	res.end('<!doctype html><title>Other app</title><p>Back at the app.</p>');
});
const { url: appOrigin } = await listen(app);
afterAll(async () => {
	app.closeAllConnections();
	await new Promise<void>((ok) => app.close(() => ok()));
});

const test = e2eTest({
	PLAYGROUND_LOG: 'off',
	SANDBOX_CLIENTS: JSON.stringify([
		{
			client_id: 'other-port-app',
			client_secret: 'other-port-app-secret',
			name: 'Other port app',
			redirect_uris: [`${appOrigin}/cb`],
			default_scope: 'read'
		}
	])
});

function consentUrl(
	srv: TestServer,
	client_id: string,
	redirect_uri: string,
	state: string
): string {
	const q = new URLSearchParams({ client_id, redirect_uri, response_type: 'code', state });
	return `${srv.url}/sandbox/oauth2/auth?${q}`;
}

describe('form-action on the consent page', () => {
	test('Authorize and Deny to the loopback twin (localhost for 127.0.0.1) arrive with no CSP violation', async ({
		srv,
		newPage
	}) => {
		const twin = `http://localhost:${srv.port}/sandbox/landing`;
		for (const [button, expected] of [
			['Authorize', 'code='],
			['Deny', 'error=access_denied']
		] as const) {
			const p = await newPage();
			await p.goto(consentUrl(srv, 'sandbox-rw', twin, `twin-${button}`));
			await p.getByRole('button', { name: button }).click();
			await p.waitForURL((u) => u.href.startsWith(`${twin}?`));
			expect(p.url()).toContain(expected);
			expect(p.url()).toContain(`state=twin-${button}`);
			await p.context().close();
		}
	});

	test('Authorize and Deny to a SANDBOX_CLIENTS app on another port arrive with no CSP violation', async ({
		srv,
		newPage
	}) => {
		for (const [button, expected] of [
			['Authorize', 'code='],
			['Deny', 'error=access_denied']
		] as const) {
			const p = await newPage();
			await p.goto(consentUrl(srv, 'other-port-app', `${appOrigin}/cb`, `app-${button}`));
			await p.getByRole('button', { name: button }).click();
			await p.waitForURL((u) => u.href.startsWith(`${appOrigin}/cb?`));
			await p.getByText('Back at the app.').waitFor();
			const back = appGot.filter((u) => u.startsWith('/cb?')).at(-1);
			expect(back).toContain(expected);
			expect(back).toContain(`state=app-${button}`);
			await p.context().close();
		}
	});

	test("form hijack: a form injected into the playground's page cannot post to another origin", async ({
		srv,
		newPage,
		problems
	}) => {
		const p = await newPage();
		await p.goto(srv.url + '/');
		await p.locator('main[data-ready="true"]').waitFor();
		const blocked = p.evaluate(
			() =>
				new Promise<string>((done) => {
					document.addEventListener('securitypolicyviolation', (e) =>
						done(`${e.effectiveDirective} ${e.blockedURI}`)
					);
					const f = document.createElement('form');
					f.method = 'POST';
					f.action = 'http://127.0.0.1:9/steal';
					document.body.append(f);
					f.submit();
				})
		);
		expect(await blocked).toBe('form-action http://127.0.0.1:9/steal');
		// The violation this test caused on purpose is the one it expected, not a problem.
		expect(problems.splice(0).every((m) => /form-action/.test(m))).toBe(true);
	});
});
