/** Steps the e2e tests share: a sandbox preset, the consent decision, a whole sign-in. */
import { expect } from 'vitest';
import type { BrowserContextOptions, Page } from 'playwright-core';
import type { OidcServer } from './oidc';

/** What a page did, for the secret scan and the console check after each test. */
export interface Traffic {
	problems: string[];
	bodies: { url: string; text: string }[];
	urls: string[];
}

/** Reports every Content-Security-Policy violation of a document to the test, as it happens. */
const REPORT_CSP = `document.addEventListener('securitypolicyviolation', (e) => {
	window.__pgCspViolation(
		e.effectiveDirective + ' blocked ' + (e.blockedURI || '(inline)') +
			(e.sample ? ' "' + e.sample + '"' : '') + ' at ' + e.sourceFile + ':' + e.lineNumber
	);
});`;

/**
 * Records the page's console errors, page errors, every Content-Security-Policy violation (the
 * `securitypolicyviolation` events of every document it shows, and the console's CSP messages of
 * any level), every URL it asked for and every body it got. A test fails on any problem.
 */
export async function watch(page: Page, t: Traffic | { problems: string[] }): Promise<Page> {
	await page.exposeBinding('__pgCspViolation', ({ frame }, text: string) => {
		t.problems.push(`csp: ${text} (page ${frame.url()})`);
	});
	await page.addInitScript(REPORT_CSP);
	page.on('console', (m) => {
		if (m.type() === 'error') t.problems.push(`console: ${m.text()}`);
		else if (/content.security.policy/i.test(m.text()))
			t.problems.push(`console ${m.type()}: ${m.text()}`);
	});
	page.on('pageerror', (e) => t.problems.push(`pageerror: ${e.message}`));
	if ('urls' in t) page.on('request', (r) => t.urls.push(r.url()));
	if ('bodies' in t)
		page.on('response', async (r) => {
			try {
				t.bodies.push({ url: r.url(), text: (await r.body()).toString('utf8') });
			} catch {
				/* redirects have no body */
			}
		});
	return page;
}

/** From the playground's consent step: open the consent page and press Authorize (or Deny). */
export async function decide(p: Page, decision: 'Authorize' | 'Deny' = 'Authorize'): Promise<void> {
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await p.waitForURL(/\/sandbox\/oauth2\/auth/);
	await p.getByRole('button', { name: decision }).click();
}

/** The address of a flow's page on `base`: `/?flow=<id>` (src/lib/oauth/flow-id.ts). */
export function flowUrl(base: string): RegExp {
	return new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\?flow=[A-Za-z0-9_-]{16}$`);
}

/** The flow id in a page's address. */
export const flowOf = (p: Page) => new URL(p.url()).searchParams.get('flow') ?? '';

/** Opens the playground and waits until its script runs (buttons clicked before that do nothing). */
export async function openPlayground(p: Page, base: string): Promise<void> {
	await p.goto(base + '/');
	await p.locator('main[data-ready="true"]').waitFor();
}

/** Opens the playground and chooses a sandbox preset; the consent URL is then on the page. */
export async function choosePreset(p: Page, base: string, label: string): Promise<void> {
	await openPlayground(p, base);
	await p.getByRole('button', { name: label }).click();
	await p.getByTestId('consent-url').waitFor();
}

/** The whole way to tokens with a sandbox preset: consent, Authorize, the automatic exchange. */
export async function signIn(p: Page, base: string, label: string): Promise<void> {
	await choosePreset(p, base, label);
	await decide(p);
	await p.waitForURL(flowUrl(base));
	await p.getByTestId('access-token').waitFor();
}

/** The setup for the provider, as a developer fills it. */
export async function fillOidcSetup(
	p: Page,
	oidc: OidcServer,
	clientId: string,
	secret: string,
	scope = 'openid read write'
): Promise<void> {
	await p.getByLabel('Base URL of the service').fill(oidc.issuer);
	await p.getByLabel('Client id').fill(clientId);
	await p.getByLabel('Client secret').fill(secret);
	await p.getByLabel('Scope', { exact: true }).fill(scope);
	const advanced = p.getByText('Advanced settings');
	if (!(await p.getByLabel('Token endpoint').isVisible())) await advanced.click();
	await p.getByLabel('Authorization endpoint').fill(oidc.endpoints.authorization);
	await p.getByLabel('Token endpoint').fill(oidc.endpoints.token);
	await p.getByLabel('User-info endpoint').fill(oidc.endpoints.userinfo);
	await p.getByRole('button', { name: 'Save setup' }).click();
	await expect
		.poll(() => p.getByTestId('consent-url').textContent())
		.toContain(`client_id=${clientId}`);
}

/**
 * The provider's pages, from wherever the tab is on them: its sign-in form (skipped when the
 * browser already signed in there), then its consent form, until it sends the tab back.
 */
export async function throughProvider(p: Page, base: string): Promise<void> {
	const back = flowUrl(base);
	for (let hop = 0; hop < 4 && !back.test(p.url()); hop++) {
		const login = p.locator('input[name="login"]');
		const consent = p.getByRole('button', { name: 'Continue' });
		await login.or(consent).or(p.locator('main[data-ready]')).first().waitFor();
		if (back.test(p.url())) return;
		const from = p.url();
		if (await login.isVisible()) {
			await login.fill('alice');
			await p.locator('input[name="password"]').fill('any password');
			await p.getByRole('button', { name: 'Sign-in' }).click();
		} else await consent.click();
		await p.waitForURL((u) => u.href !== from);
	}
}

/**
 * Browser-context options that keep a context off the network: every request to a host other than
 * loopback (a name or an address) goes to a proxy on a loopback port where nothing listens, and
 * fails; loopback itself is reached directly. (A `route` that refused them did the same, but any
 * route turns the context's HTTP cache off and sends every request through the test process: an
 * oidc-provider sign-in cost a fifth more.) The provider's pages import no web font
 * (tests/helpers/oidc.ts), so they ask for nothing off loopback.
 */
export const OFF_LOOPBACK: BrowserContextOptions = {
	proxy: { server: 'http://127.0.0.1:9', bypass: '127.0.0.1' }
};

/** How many code blocks are still being highlighted (a few dozen lines per frame, busy meanwhile). */
export const unhighlighted = (p: Page) =>
	p.evaluate(() => document.querySelectorAll('pre.code[aria-busy="true"]').length);
