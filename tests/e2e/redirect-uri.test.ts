/**
 * The redirect-URI near miss in Chromium. At a phone's width: a SANDBOX_CLIENTS client registered
 * for localhost only, with a long redirect URI, and the playground on 127.0.0.1. The registration
 * check's finding names the difference and the fix, and its long URIs wrap inside the finding. At
 * 1280 px: oidc-provider, a server this project did not write, with the client registered one
 * trailing slash away; the page warns after Save, and the check reads the provider's own error page.
 * Then, on the same page, @node-oauth/oauth2-server behind express-oauth-server with its client the
 * same slash away: it answers its sign-in page, so the card and the verdict line say that nothing
 * was judged yet, under the same near-miss warning, and never "accepted".
 */
import { expect } from 'vitest';
import { shot } from '../helpers/browser';
import { fillOidcSetup, OFF_LOOPBACK, openPlayground } from '../helpers/e2e';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, oidcClient } from '../helpers/oidc';
import { axeProblems } from '../helpers/axe';
import { e2eTest } from '../helpers/fixtures';
import { nodeOAuthClient, startNodeOAuth } from '../helpers/node-oauth';

const path = `/sandbox/landing/${'a-rather-long-path-segment/'.repeat(16)}end`;

const test = e2eTest(
	(origin) => ({
		SANDBOX_CLIENTS: JSON.stringify([
			{
				client_id: 'localhost-only',
				client_secret: 'localhost-only-secret',
				redirect_uris: [`http://localhost:${new URL(origin).port}${path}`],
				default_scope: 'read'
			}
		])
	}),
	// The provider's client is registered one trailing slash away from the playground's callback.
	{ oidc: (redirectUris) => ({ clients: [oidcClient(redirectUris.map((u) => u + '/'))] }) }
).extend('node', { scope: 'file' }, async ({ srv }, { onCleanup }) => {
	// @node-oauth/oauth2-server, its client registered the same trailing slash away.
	const node = await startNodeOAuth([
		nodeOAuthClient('node-slash', 'node-Secret-4Lp9', [`${srv.url}/callback/`])
	]);
	onCleanup(() => node.stop());
	return node;
});

test('a client registered for localhost only: the check names the difference, and the long URIs wrap at 390 px', async ({
	srv,
	newPage,
	problems
}) => {
	const port = srv.port;
	const p = await newPage({ width: 390, height: 844 }, OFF_LOOPBACK);
	await openPlayground(p, srv.url);
	await p.getByLabel('Base URL of the service').fill(`${srv.url}/sandbox`);
	await p.getByLabel('Client id').fill('localhost-only');
	await p.getByLabel('Client secret').fill('localhost-only-secret');
	await p.getByLabel('Redirect URI to register').fill(`${srv.url}${path}`);
	await p.getByRole('button', { name: 'Save setup' }).click();
	await p.getByTestId('consent-url').waitFor();
	// Before consent: the playground knows the sandbox's registrations, and says it will refuse.
	expect(await p.getByTestId('redirect-refusal').innerText()).toContain(
		'The sandbox registered it with localhost instead of 127.0.0.1'
	);
	await p.getByRole('button', { name: 'Check the consent URL' }).click();
	const finding = p.locator('#consent li.finding[data-code="redirect_uri_mismatch"]');
	await finding.waitFor();
	// The two URIs show as code, not between backticks.
	expect(await finding.locator('.fix').innerText()).toBe(
		`The sandbox registered it with localhost instead of 127.0.0.1: http://localhost:${port}${path}; send exactly that, or add ${srv.url}${path} to the registration.`
	);
	expect(await finding.locator('.fix code').allInnerTexts()).toEqual([
		`http://localhost:${port}${path}`,
		`${srv.url}${path}`
	]);
	await finding.scrollIntoViewIfNeeded();
	await shot(p, '60-redirect-uri-near-miss-390');
	await shot(finding, '61-redirect-uri-finding-390');
	await shot(p.getByTestId('redirect-refusal'), '62-redirect-uri-before-consent-390');
	const box = await finding.evaluate((el) => {
		const r = el.getBoundingClientRect();
		return { right: r.right, scroll: el.scrollWidth, client: el.clientWidth };
	});
	expect(box.right, 'the finding ends inside the viewport').toBeLessThanOrEqual(390);
	expect(box.scroll, 'nothing in the finding runs past its box').toBeLessThanOrEqual(box.client);
	// The form shows the sandbox's own registration as the registered redirect URI.
	expect(await p.getByLabel('Redirect URI as registered').inputValue()).toBe(
		`http://localhost:${port}${path}`
	);
	expect(await axeProblems(p), 'axe: the warning and the finding').toEqual([]);
	expect(problems, 'no console errors, page errors or CSP violations').toEqual([]);
});

test('oidc-provider, registered one trailing slash away: warned after Save, then named from its error page; @node-oauth/oauth2-server the same slash away: not judged yet, behind its sign-in page', async ({
	srv,
	oidc,
	node,
	newPage,
	problems
}) => {
	const p = await newPage(undefined, OFF_LOOPBACK);
	await openPlayground(p, srv.url);
	await p.getByLabel('Redirect URI as registered').fill(`${srv.url}/callback/`);
	await fillOidcSetup(p, oidc, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, 'openid');
	const warning = p.getByTestId('redirect-refusal');
	expect(await warning.innerText()).toContain(
		'differs from “Redirect URI as registered”: the service will most likely show an error page'
	);
	expect(await warning.locator('code').allInnerTexts()).toEqual([
		`${srv.url}/callback/`,
		`${srv.url}/callback`
	]);
	await p.getByRole('button', { name: 'Check the consent URL' }).click();
	const finding = p.locator('#consent li.finding[data-code="redirect_uri_mismatch"]');
	await finding.waitFor();
	expect(await finding.innerText()).toContain('with the error invalid_redirect_uri');
	expect(await finding.locator('.fix').innerText()).toBe(
		`It was registered with a trailing slash: ${srv.url}/callback/; send exactly that, or add ${srv.url}/callback to the registration.`
	);
	expect(await p.locator('#consent li.finding-error').count()).toBe(1);
	// The check lands on its line, with the focus, in the first screen: what it found.
	await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('verdict');
	const line = p.locator('#verdict');
	expect((await line.boundingBox())!.y + (await line.boundingBox())!.height).toBeLessThanOrEqual(
		p.viewportSize()!.height
	);
	expect(await line.innerText()).toMatch(/^✕ Registration check: .*redirect/i);
	await finding.scrollIntoViewIfNeeded();
	await shot(p, '63-redirect-uri-oidc-provider-1280', { screen: true });
	expect(await axeProblems(p), 'axe: the warning and the finding').toEqual([]);

	// The same page, moved to @node-oauth/oauth2-server: the warning stays, and the check, answered
	// by the sign-in page, judged nothing (its card and the verdict line), never "accepted".
	await p.getByTestId('setup-summary').click();
	await p.getByLabel('Base URL of the service').fill(node.origin);
	await p.getByLabel('Client id').fill('node-slash');
	await p.getByLabel('Client secret').fill('node-Secret-4Lp9');
	await p.getByLabel('Scope', { exact: true }).fill('read');
	await p.getByLabel('Authorization endpoint').fill(node.endpoints.authorization);
	await p.getByLabel('Token endpoint').fill(node.endpoints.token);
	await p.getByLabel('User-info endpoint').fill(node.endpoints.userinfo);
	await p.getByRole('button', { name: 'Save setup' }).click();
	await expect
		.poll(() => p.getByTestId('consent-url').textContent())
		.toContain(node.endpoints.authorization);
	// A registered URI belongs to the service it was entered for: the move dropped it; typed anew.
	await p.getByTestId('setup-summary').click();
	await p.getByLabel('Redirect URI as registered').fill(`${srv.url}/callback/`);
	await p.getByRole('button', { name: 'Save setup' }).click();
	await expect
		.poll(() => p.getByTestId('redirect-refusal').textContent())
		.toContain('the service will most likely show an error page');
	await p.getByRole('button', { name: 'Check the consent URL' }).click();
	const notJudged = p.locator('#consent li.finding[data-code="sign-in-first"]');
	await notJudged.waitFor();
	const host = new URL(node.origin).host;
	expect(await notJudged.innerText()).toContain(
		`Not judged yet: ${host} asks the user to sign in first`
	);
	expect(await p.locator('#consent li.finding').count()).toBe(1);
	await expect
		.poll(() => p.locator('#verdict').innerText())
		.toContain(`Registration check: not judged yet: ${host} asks the user to sign in first`);
	expect(await p.locator('#consent').innerText()).not.toMatch(/accepted/i);
	expect(await p.locator('#verdict').innerText()).not.toMatch(/accepted/i);
	await notJudged.scrollIntoViewIfNeeded();
	await shot(p, '64-sign-in-first-node-oauth-1280', { screen: true });
	expect(await axeProblems(p), 'axe: the finding').toEqual([]);
	expect(problems, 'no console errors, page errors or CSP violations').toEqual([]);
});
