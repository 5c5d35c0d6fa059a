/**
 * In real Chromium: Start over asks first and can be undone (the flow and the tab's transcript come
 * back; the offer ends after 30 s, on the page's faked clock), errors stay in view with the focus on
 * them, a step the user started moves the focus to its result, the automatic exchange lands on the
 * verdict (or announces it when the user has moved the focus), and a denial is worded for the
 * provider it came from (oidc-provider here; the sandbox's wording is checked in flow.test.ts).
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import {
	choosePreset,
	decide,
	flowUrl,
	OFF_LOOPBACK,
	openPlayground,
	signIn
} from '../helpers/e2e';
import { axeAt, axeProblems } from '../helpers/axe';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_SCOPE } from '../helpers/oidc';
import { e2eTest, type NewPage } from '../helpers/fixtures';

const PRESET = 'Sandbox (read write)';

const test = e2eTest();

/** A page off loopback, 1280 × 800 unless said, with the page's clock if asked for. */
async function open(
	newPage: NewPage,
	opts: { width?: number; clock?: boolean } = {}
): Promise<Page> {
	const page = await newPage({ width: opts.width ?? 1280, height: 800 }, OFF_LOOPBACK);
	// The page's clock is installed before anything loads; time flows until a test moves it.
	if (opts.clock) await page.clock.install();
	return page;
}

/** What has the focus: a button by its text, else its data-result-of / data-error-of marker, id, or tag. */
const focused = (p: Page) =>
	p.evaluate(() => {
		const el = document.activeElement as HTMLElement | null;
		if (!el || el === document.body) return 'body';
		if (el.tagName === 'BUTTON') return `button:${el.textContent?.trim()}`;
		return (
			(el.dataset.resultOf && `result:${el.dataset.resultOf}`) ||
			(el.dataset.errorOf && `error:${el.dataset.errorOf}`) ||
			(el.id && `#${el.id}`) ||
			`${el.tagName.toLowerCase()}:${el.textContent?.trim()}`
		);
	});

const transcriptIds = (p: Page) =>
	p
		.locator('.transcript details[data-exchange-id]')
		.evaluateAll((els) => els.map((e) => e.getAttribute('data-exchange-id')));

/**
 * From the preset to the automatic exchange on return: the focus lands on the verdict, which is in
 * the first screen, said once, and passes axe (light and dark); Tab and Enter reach the tokens.
 */
async function verdictOnReturn(p: Page, base: string, width: number): Promise<void> {
	await choosePreset(p, base, PRESET);
	await decide(p);
	await p.waitForURL(flowUrl(base));
	await p.getByTestId('access-token').waitFor();
	await expect.poll(() => focused(p)).toBe('#verdict');
	const verdict = p.locator('#verdict');
	// A 60-minute token read in the second it was issued has exactly an hour left: "1 h".
	expect(await verdict.textContent()).toMatch(
		/^\s*✓ Tokens received: read write, expires in (59 min|1 h)\s*$/
	);
	expect(await p.title()).toMatch(/^✓ Tokens received: read write, expires in (\d+ min|1 h) · /);
	const box = (await verdict.boundingBox())!;
	expect(box.y + box.height).toBeLessThanOrEqual(800);
	// Focused, it is said once: the live region stays quiet.
	expect((await p.locator('.progress[role="status"]').textContent())?.trim()).toBe('');
	await shot(p, `verdict-ok-${width}`, { screen: true });
	// axe on the verdict, light and dark: the colours on the phone (PASSES).
	const size = width === 390 ? 'phone' : 'desktop';
	expect(await axeAt(p, size), `axe: the verdict, ${width} px`).toEqual([]);
	await p.emulateMedia({ colorScheme: 'dark' });
	await shot(p, `verdict-ok-dark-${width}`, { screen: true });
	await p.emulateMedia({ colorScheme: 'light' });
	// The tokens are one activation away.
	await p.keyboard.press('Tab');
	await p.keyboard.press('Enter');
	await expect.poll(() => p.evaluate(() => location.hash)).toBe('#tokens');
}

describe('Start over', () => {
	// One sign-in at 1280 px for three checks: the verdict on return (at 390 px too in
	// verdicts.test.ts), the focus
	// after "Read the user info", then Start over and Undo.
	test('the exchange on return lands on the verdict, in the first screen, at 1280 px; after "Read the user info" the focus lands on its result; Start over asks first, clears the flow, and Undo brings the flow and the transcript back', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage);
		await verdictOnReturn(p, srv.url, 1280);
		await p.getByRole('button', { name: 'Read the user info' }).click();
		await p.locator('#userinfo details.exchange').waitFor();
		await expect.poll(() => focused(p)).toBe('result:userinfo');
		const name = await p.evaluate(() => document.activeElement?.getAttribute('aria-label'));
		expect(name).toMatch(/^Result: #\d+ User-info, 200 OK$/);
		const before = await transcriptIds(p);
		expect(before.length).toBeGreaterThanOrEqual(3);
		const token = await p.getByTestId('access-token').textContent();

		// Asked first; Escape keeps the flow and gives the focus back.
		const startOver = p.locator('header').getByRole('button', { name: 'Start over' });
		await startOver.click();
		const dialog = p.getByRole('dialog', { name: 'Start over?' });
		await dialog.waitFor();
		expect(await focused(p)).toBe('button:Keep this flow');
		expect(await axeProblems(p)).toEqual([]);
		await p.keyboard.press('Escape');
		await dialog.waitFor({ state: 'hidden' });
		expect(await focused(p)).toBe('button:Start over');
		expect(await p.getByTestId('access-token').textContent()).toBe(token);

		// Confirmed from the keyboard: the flow and this tab's transcript go, Undo takes the focus.
		await startOver.press('Enter');
		await dialog.waitFor();
		await p.keyboard.press('Tab');
		expect(await focused(p)).toBe('button:Start over');
		await p.keyboard.press('Enter');
		const notice = p.getByTestId('undo-notice');
		await notice.waitFor();
		expect(await p.locator('.progress[role="status"]').textContent()).toContain('Started over.');
		await expect.poll(() => focused(p)).toBe('button:Undo');
		expect(await p.getByTestId('access-token').count()).toBe(0);
		expect(await transcriptIds(p)).toEqual([]);
		await expect.poll(() => p.getByTestId('consent-url').count()).toBe(0);
		// With no setup, the user-info card names no endpoint, and its hint reads as a sentence.
		expect(await p.locator('form[data-action="userinfo"] .muted').textContent()).toBe(
			'An expired token is refreshed first.'
		);

		await p.getByRole('button', { name: 'Undo' }).click();
		await p.getByTestId('access-token').waitFor();
		expect(await p.getByTestId('access-token').textContent()).toBe(token);
		expect(await transcriptIds(p)).toEqual(before);
		expect(await notice.count()).toBe(0);
		await expect.poll(() => focused(p)).toBe('button:Start over');
		// The flow really is back on the server: the tokens still work.
		await p.getByRole('button', { name: 'Read the user info' }).click();
		await expect.poll(async () => (await transcriptIds(p)).length).toBe(before.length + 1);
		expect(await p.locator('#userinfo details.exchange').first().textContent()).toContain('200 OK');
	});

	test('the Undo offer ends after 30 seconds (the page’s clock) and at the next action', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage, { clock: true });
		await signIn(p, srv.url, PRESET);
		const startOver = p.locator('header').getByRole('button', { name: 'Start over' });
		const confirm = () => p.getByRole('dialog').getByRole('button', { name: 'Start over' });
		await startOver.click();
		await confirm().click();
		const notice = p.getByTestId('undo-notice');
		await notice.waitFor();
		await p.clock.fastForward(29_000);
		expect(await notice.count()).toBe(1);
		expect(await focused(p)).toBe('button:Undo');
		await p.clock.fastForward(1_000);
		await notice.waitFor({ state: 'hidden' });
		// The focus was on Undo: it goes back to Start over, not to the end of the page.
		await expect.poll(() => focused(p)).toBe('button:Start over');

		// The next action ends it too: choosing a preset.
		await startOver.click();
		await confirm().click();
		await notice.waitFor();
		await p.getByRole('button', { name: PRESET }).click();
		await p.getByTestId('consent-url').waitFor();
		expect(await notice.count()).toBe(0);
	});

	test('screens: the confirmation and the Undo notice at 1280 and 390 px', async ({
		srv,
		newPage
	}) => {
		for (const width of [1280, 390]) {
			const p = await open(newPage, { width });
			await choosePreset(p, srv.url, PRESET);
			await p.locator('header').getByRole('button', { name: 'Start over' }).click();
			await p.getByRole('dialog').waitFor();
			await shot(p, `undo-confirm-${width}`, { screen: true });
			await p.getByRole('dialog').getByRole('button', { name: 'Start over' }).click();
			await p.getByTestId('undo-notice').waitFor();
			await shot(p, `undo-notice-${width}`, { screen: true });
			expect(await axeProblems(p)).toEqual([]);
			await p.context().close();
		}
	});
});

describe('errors and results in view, focus only for what the user started', () => {
	test('a paste-back error stays in view, with the focus on it and the text kept', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage);
		await choosePreset(p, srv.url, PRESET);
		await p.getByText('Paste-back mode').click();
		const pasted = p.getByLabel('The full address your application landed on', { exact: false });
		await pasted.fill('nothing useful here');
		await p.getByRole('button', { name: 'Use this redirect' }).click();
		const error = p.locator('details.paste').getByRole('alert');
		await error.waitFor();
		expect(await error.textContent()).toContain('holds no code, state or error parameter');
		await expect.poll(() => focused(p)).toBe('error:pasteback');
		expect(await p.locator('details.paste').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(
			true
		);
		expect(await error.isVisible()).toBe(true);
		expect(await pasted.inputValue()).toBe('nothing useful here');
		await shot(p, 'undo-pasteback-error');
	});

	test('with a wrong secret, the failed exchange is the verdict, in the first screen with the focus', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage, { width: 390 });
		await openPlayground(p, srv.url);
		await p.getByLabel('Client id').fill('sandbox-rw');
		await p.getByLabel('Client secret').fill('not-the-secret');
		await p.getByLabel('Scope', { exact: true }).fill('read write');
		await p.getByRole('button', { name: 'Save setup' }).click();
		await p.getByTestId('consent-url').waitFor();
		await decide(p);
		await p.waitForURL(flowUrl(srv.url));
		await expect.poll(() => focused(p)).toBe('#verdict');
		const verdict = p.locator('#verdict');
		expect((await verdict.textContent())?.trim()).toMatch(
			/^✕ Step 3, code exchange, failed: invalid_client, the service did not accept the client credentials$/
		);
		expect(await p.title()).toMatch(/^✕ Step 3, code exchange, failed: invalid_client/);
		const box = (await verdict.boundingBox())!;
		expect(box.y + box.height).toBeLessThanOrEqual(800);
		expect(await verdict.getByRole('link').getAttribute('href')).toBe('#exchange');
		// The diagram draws the failure by its meaning: the OAuth error, not the 401 alone.
		const arrow = p.locator('[data-arrow][data-step="exchange"]').last();
		expect(await arrow.textContent()).toContain('✕ invalid_client');
		// Moving by headings, the step's number and status are in its name.
		expect(
			await p.getByRole('heading', { name: 'Step 3: Code exchange, failed', exact: true }).count()
		).toBe(1);
		expect(await axeAt(p, 'phone'), 'axe: the failed verdict, light and dark').toEqual([]);
		await p.emulateMedia({ colorScheme: 'dark' });
		await shot(p, 'verdict-failed-dark-390', { screen: true });
		await p.emulateMedia({ colorScheme: 'light' });
		// The findings' inline code shows as code, never as backticks.
		expect(await p.locator('main').innerText()).not.toContain('`');
		await shot(p, 'verdict-failed-390', { screen: true });
	});

	test('focus theft: when the user moved the focus before the exchange ended, it stays, and the verdict is announced', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage);
		await choosePreset(p, srv.url, PRESET);
		// The exchange on return is held until the focus has moved.
		let held: () => void = () => {};
		const reached = new Promise<void>((arrived) => {
			void p.route(
				(u) => u.search.includes('/exchange'),
				async (route) => {
					arrived();
					await new Promise<void>((go) => (held = go));
					await route.continue();
				}
			);
		});
		await decide(p);
		await reached;
		await p.getByRole('button', { name: 'Shortcuts' }).focus();
		held();
		await p.getByTestId('access-token').waitFor();
		const region = p.locator('.progress[role="status"]');
		await expect.poll(() => region.textContent()).toContain('✓ Tokens received: read write');
		expect(await focused(p)).toBe('button:Shortcuts');
	});

	test('focus theft: the auto-refresh is announced and leaves the focus on the switch', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage, { clock: true });
		await signIn(p, srv.url, 'Sandbox (5-second token)');
		// The page's time stands still from here, so only the fast-forward below fires the refresh
		// (a refreshed 5-second token would otherwise be due again at once on the moved clock).
		await p.clock.pauseAt(Date.now() + 500);
		const toggle = p.getByLabel('Refresh automatically before expiry');
		await toggle.check();
		expect(await focused(p)).toBe('input:');
		const refreshes = p.locator('#refresh details.exchange');
		expect(await refreshes.count()).toBe(0);
		await p.clock.fastForward(5_000);
		await refreshes.first().waitFor();
		const region = p.locator('.progress[role="status"]');
		await expect.poll(() => region.textContent()).toContain('the access token was refreshed');
		expect(await p.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('checkbox');
	});
});

describe('a denial, worded for its provider', () => {
	// Against the sandbox: flow.test.ts ("Deny on the consent page"), on the denial it makes anyway.
	test('against oidc-provider: declined, start the consent step again, and no sandbox buttons', async ({
		srv,
		oidc,
		newPage
	}) => {
		const p = await open(newPage);
		await openPlayground(p, srv.url);
		await p.getByLabel('Base URL of the service').fill(oidc.issuer);
		await p.getByLabel('Client id').fill(OIDC_CLIENT_ID);
		await p.getByLabel('Client secret').fill(OIDC_CLIENT_SECRET);
		await p.getByLabel('Scope', { exact: true }).fill(OIDC_SCOPE);
		await p.getByText('Advanced settings').click();
		await p.getByLabel('Authorization endpoint').fill(oidc.endpoints.authorization);
		await p.getByLabel('Token endpoint').fill(oidc.endpoints.token);
		await p.getByLabel('User-info endpoint').fill(oidc.endpoints.userinfo);
		await p.getByRole('button', { name: 'Save setup' }).click();
		await p.getByTestId('consent-url').waitFor();
		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await p.waitForURL((u) => u.origin === oidc.origin);
		// The provider's own way to decline: Cancel on its sign-in page (access_denied).
		await p.getByRole('link', { name: '[ Cancel ]' }).click();
		await p.waitForURL(flowUrl(srv.url));
		const alert = p.getByTestId('auth-error');
		await alert.waitFor();
		const text = (await alert.textContent()) ?? '';
		expect(text).toContain('access_denied');
		expect(text).toContain('The user, or the provider, declined consent');
		expect(text).toContain('start the consent step again');
		expect(text).not.toMatch(/Authorize|Deny/);
	});
});
