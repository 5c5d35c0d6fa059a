/**
 * Several flows at once, one per tab, in real Chromium: two pages of one browser context (one cookie
 * jar) run the flow with two different clients, interleaved (consent opened in A, setup changed in
 * B, consent authorized in A, then in B), against the sandbox and against oidc-provider; both end
 * with their own tokens and no warning. A duplicated tab forks a flow of its own; a bare `/` goes back
 * to the tab's flow. Every response and URL is scanned for the client secrets.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import { axeAt } from '../helpers/axe';
import {
	choosePreset,
	decide,
	fillOidcSetup,
	flowOf,
	flowUrl,
	OFF_LOOPBACK,
	openPlayground,
	throughProvider
} from '../helpers/e2e';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, oidcClient } from '../helpers/oidc';
import { e2eTest, type Recorded } from '../helpers/fixtures';

/** A second registration at the provider, for the second tab. */
const SECOND_ID = 'playground-app-2';
const SECOND_SECRET = 'oidc-Second-8Hq3-zT5w';

// One browser is a context whose pages are its tabs (one cookie jar), kept off the network: the
// first tab from newPage, the others from newTab. Each test's traffic and the server's log are
// scanned for the client secrets as it ends.
const test = e2eTest(
	{},
	{
		record: true,
		oidc: (redirect) => ({
			clients: [
				oidcClient(redirect),
				oidcClient(redirect, { client_id: SECOND_ID, client_secret: SECOND_SECRET })
			]
		})
	}
).extend('traffic', async ({ srv }, { onCleanup }) => {
	const traffic: Recorded = { bodies: [], urls: [] };
	onCleanup(() => {
		for (const secret of [OIDC_CLIENT_SECRET, SECOND_SECRET]) {
			expect(traffic.bodies.filter((b) => b.text.includes(secret)).map((b) => b.url)).toEqual([]);
			expect(traffic.urls.filter((u) => u.includes(secret))).toEqual([]);
			expect(srv.logs()).not.toContain(secret);
		}
	});
	return traffic;
});

/** The tab shows its tokens, and nothing about an ignored, stopped or mixed-up redirect. */
async function ownTokensNoWarning(p: Page, clientId: string): Promise<string> {
	await p.getByTestId('access-token').waitFor();
	const exchange = p.locator('#exchange details.exchange');
	await expect.poll(() => exchange.textContent()).toContain('HTTP/1.1 200 OK');
	expect(await exchange.textContent()).toContain(`client_id=${clientId}&`);
	for (const id of ['ignored-callback', 'state-alert', 'issuer-alert'])
		expect(await p.getByTestId(id).count(), id).toBe(0);
	expect(await p.locator('main').textContent()).not.toMatch(/forged|forgery|dropped/);
	return (await p.getByTestId('access-token').textContent())!;
}

describe('Start over is one tab’s', () => {
	test('Start over in A leaves B untouched; Undo restores A', async ({ srv, newPage, newTab }) => {
		const a = await newPage(undefined, OFF_LOOPBACK);
		const b = await newTab(a);
		const signIn = async (p: Page, preset: string, client: string) => {
			await choosePreset(p, srv.url, preset);
			await p.getByRole('link', { name: 'Open the consent page' }).click();
			await p.getByRole('button', { name: 'Authorize' }).click();
			await p.waitForURL(`${srv.url}/?flow=${flowOf(p)}`);
			return ownTokensNoWarning(p, client);
		};
		const tokenA = await signIn(a, 'Sandbox (read write)', 'sandbox-rw');
		const tokenB = await signIn(b, 'Sandbox (read only)', 'sandbox-ro');
		// A starts over, confirmed in the dialog: A's flow is cleared, B's is not.
		await a.locator('header').getByRole('button', { name: 'Start over' }).click();
		await a.getByRole('dialog').getByRole('button', { name: 'Start over' }).click();
		await a.getByTestId('undo-notice').waitFor();
		await expect.poll(() => a.getByTestId('access-token').count()).toBe(0);
		await b.reload();
		expect(await b.getByTestId('access-token').textContent()).toBe(tokenB);
		expect(await b.locator('#exchange details.exchange').textContent()).toContain(
			'client_id=sandbox-ro&'
		);
		// Undo in A brings A's own flow back, tokens included; B still holds its own.
		await a.getByRole('button', { name: 'Undo' }).click();
		await expect.poll(() => a.getByTestId('access-token').textContent()).toBe(tokenA);
		await a.reload();
		expect(await a.getByTestId('access-token').textContent()).toBe(tokenA);
		await b.reload();
		expect(await b.getByTestId('access-token').textContent()).toBe(tokenB);
	});
});

describe('two tabs, two clients, interleaved', () => {
	test('against the sandbox: consent opened in A, setup changed in B, authorized in A, then in B', async ({
		srv,
		newPage,
		newTab
	}) => {
		const a = await newPage(undefined, OFF_LOOPBACK);
		const b = await newTab(a);
		await choosePreset(a, srv.url, 'Sandbox (read write)');
		await choosePreset(b, srv.url, 'Sandbox (read write)');
		const flowA = flowOf(a);
		expect(flowOf(b)).not.toBe(flowA);
		// A opens its consent page; meanwhile B changes its setup (a new consent request).
		await a.getByRole('link', { name: 'Open the consent page' }).click();
		await a.waitForURL(/\/sandbox\/oauth2\/auth/);
		await b.getByTestId('setup-summary').click();
		await b.getByRole('button', { name: 'Sandbox (read only)' }).click();
		await expect.poll(() => b.getByTestId('consent-url').textContent()).toContain('sandbox-ro');
		const flowB = flowOf(b);
		// A authorizes: back to A's own flow, exchanged automatically.
		await a.getByRole('button', { name: 'Authorize' }).click();
		await a.waitForURL(`${srv.url}/?flow=${flowA}`);
		const tokenA = await ownTokensNoWarning(a, 'sandbox-rw');
		// Then B.
		await b.getByRole('link', { name: 'Open the consent page' }).click();
		await b.getByRole('button', { name: 'Authorize' }).click();
		await b.waitForURL(`${srv.url}/?flow=${flowB}`);
		const tokenB = await ownTokensNoWarning(b, 'sandbox-ro');
		expect(tokenB).not.toBe(tokenA);
		await shot(a, 'tabs-01-sandbox-a');
		await shot(b, 'tabs-01-sandbox-b');
		// Each tab still holds its own flow after a reload.
		await a.reload();
		expect(await a.getByTestId('access-token').textContent()).toBe(tokenA);
		await b.reload();
		expect(await b.getByTestId('access-token').textContent()).toBe(tokenB);
	});

	test('against oidc-provider: two registrations, interleaved the same way', async ({
		srv,
		oidc,
		newPage,
		newTab
	}) => {
		const a = await newPage(undefined, OFF_LOOPBACK);
		const b = await newTab(a);
		await openPlayground(a, srv.url);
		await fillOidcSetup(a, oidc, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET);
		await openPlayground(b, srv.url);
		await fillOidcSetup(b, oidc, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET);
		const flowA = flowOf(a);
		// A opens the provider's pages; meanwhile B switches to the second registration.
		await a.getByRole('link', { name: 'Open the consent page' }).click();
		await a.waitForURL((u) => u.origin === oidc.origin);
		await b.getByTestId('setup-summary').click();
		await fillOidcSetup(b, oidc, SECOND_ID, SECOND_SECRET);
		await expect.poll(() => b.getByTestId('consent-url').textContent()).toContain(SECOND_ID);
		const flowB = flowOf(b);
		expect(flowB).not.toBe(flowA);
		await throughProvider(a, srv.url);
		await a.waitForURL(`${srv.url}/?flow=${flowA}`);
		const tokenA = await ownTokensNoWarning(a, OIDC_CLIENT_ID);
		await b.getByRole('link', { name: 'Open the consent page' }).click();
		await throughProvider(b, srv.url);
		await b.waitForURL(`${srv.url}/?flow=${flowB}`);
		const tokenB = await ownTokensNoWarning(b, SECOND_ID);
		expect(tokenB).not.toBe(tokenA);
		await shot(b, 'tabs-02-oidc-b');
	});
});

describe('a tab and its flow id', () => {
	test('a duplicated tab forks: it moves to a copy of the flow under a new id, and says so', async ({
		srv,
		newPage,
		newTab
	}) => {
		const a = await newPage(undefined, OFF_LOOPBACK);
		await choosePreset(a, srv.url, 'Sandbox (read write)');
		const flowA = flowOf(a);
		const consentA = await a.getByTestId('consent-url').textContent();
		// Duplicating a tab copies its address and its sessionStorage.
		const storage = await a.evaluate(() => JSON.stringify({ ...sessionStorage }));
		const b = await newTab(a);
		await b.addInitScript((copied: string) => {
			if (sessionStorage.length) return;
			for (const [k, v] of Object.entries(JSON.parse(copied) as Record<string, string>))
				sessionStorage.setItem(k, v);
		}, storage);
		await b.goto(a.url());
		const forked = b.getByTestId('forked');
		await forked.waitFor();
		expect(await forked.textContent()).toMatch(/copy of another tab’s flow/);
		await expect.poll(() => flowOf(b)).not.toBe(flowA);
		expect(b.url()).toMatch(flowUrl(srv.url));
		// The setup and its secret came along; the consent request is its own.
		await expect.poll(() => b.getByTestId('consent-url').textContent()).toContain('sandbox-rw');
		expect(await b.getByTestId('consent-url').textContent()).not.toBe(consentA);
		expect(await b.getByTestId('secret-hint').textContent()).toContain('A secret is set');
		expect(await b.evaluate(() => sessionStorage.getItem('playground.flow'))).toBe(flowOf(b));
		await shot(b, 'tabs-03-forked');
		// A is untouched, and both complete on their own.
		expect(await a.getByTestId('consent-url').textContent()).toBe(consentA);
		expect(await a.evaluate(() => sessionStorage.getItem('playground.flow'))).toBe(flowA);
		for (const [p, flow] of [
			[b, flowOf(b)],
			[a, flowA]
		] as const) {
			await p.getByRole('link', { name: 'Open the consent page' }).click();
			await p.getByRole('button', { name: 'Authorize' }).click();
			await p.waitForURL(`${srv.url}/?flow=${flow}`);
			await ownTokensNoWarning(p, 'sandbox-rw');
		}
	});

	// One preset for both: a bare / in the tab that chose it, then the same flow, signed in, opened in
	// a tab that does not hold its transcript.
	test('a bare / goes back to the flow this tab remembers; a new tab gets a new flow; a flow opened where its transcript is not: the page says its requests are in the tab that made them', async ({
		srv,
		newPage,
		newTab
	}) => {
		const a = await newPage(undefined, OFF_LOOPBACK);
		await choosePreset(a, srv.url, 'Sandbox (read write)');
		const flowA = flowOf(a);
		const consentA = await a.getByTestId('consent-url').textContent();
		await a.goto(srv.url + '/');
		await a.waitForURL(`${srv.url}/?flow=${flowA}`);
		await expect.poll(() => a.getByTestId('consent-url').textContent()).toBe(consentA);
		const fresh = await newTab(a);
		await openPlayground(fresh, srv.url);
		await expect.poll(() => fresh.url()).toMatch(flowUrl(srv.url));
		expect(flowOf(fresh)).not.toBe(flowA);
		expect(await fresh.getByTestId('consent-url').count()).toBe(0);

		// The flow, signed in; then opened in another tab.
		await decide(a);
		await a.waitForURL(flowUrl(srv.url));
		await a.getByTestId('access-token').waitFor();
		const url = a.url();
		// The tab that ran the flow, and with it its transcript, is gone; the flow is opened anew.
		expect(await a.getByTestId('elsewhere').count()).toBe(0);
		await a.close();
		const b = await newTab(a);
		await b.goto(url);
		await b.locator('main[data-ready="true"]').waitFor();
		expect(b.url()).toBe(url);
		await b.getByTestId('access-token').waitFor();
		const notice = b.getByTestId('elsewhere');
		await notice.waitFor();
		expect(await notice.innerText()).toContain('kept in the tab that made them');
		expect(await notice.innerText()).toContain('Import a HAR');
		expect(await b.locator('.transcript details.exchange').count()).toBe(0);
		await shot(b, 'tabs-elsewhere-1280', { screen: true });
		expect(await axeAt(b, 'desktop'), 'axe: the elsewhere notice, 1280 px').toEqual([]);
		await b.setViewportSize({ width: 390, height: 844 });
		await shot(b, 'tabs-elsewhere-390', { screen: true });
		// Light and dark on the phone, where the colours are measured (PASSES).
		expect(await axeAt(b, 'phone'), 'axe: the elsewhere notice, 390 px').toEqual([]);
		await b.emulateMedia({ colorScheme: 'dark' });
		await b.setViewportSize({ width: 1280, height: 800 });
		await shot(b, 'tabs-elsewhere-dark-1280', { screen: true });
	});
});
