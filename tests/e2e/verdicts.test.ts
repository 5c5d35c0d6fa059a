/**
 * In real Chromium, against the sandbox: every outcome of the consent gets the one-line verdict at
 * the top, in the first screen, with the focus when the user had not moved it, at desktop and phone
 * widths (each state is looked at in one window at 1280 × 800, then 390 × 844): a consent refused (a read-only registration asking for write), a consent declined after
 * tokens (its card in the sandbox's words), a code for the script, and "Check the consent URL" (what it checked and what it did not);
 * and "Check the client secret" with a wrong secret, then the right one, without a consent.
 * On the way, the refused scope's card offers "Try again with scope read", which asks for read and
 * completes the flow, and the exchange on return lands on its verdict, "✓ Tokens received".
 * Never a stale line: each outcome replaces the one before it, and a new consent request, ready or
 * opened with nothing back yet, is the line until something comes back.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOTS, shot } from '../helpers/browser';
import { choosePreset, flowUrl, OFF_LOOPBACK } from '../helpers/e2e';
import { axeAt } from '../helpers/axe';
import { e2eTest } from '../helpers/fixtures';

const test = e2eTest();

/** What has the focus: the verdict by its id, else a tag and its text. */
const focused = (p: Page) =>
	p.evaluate(() => {
		const el = document.activeElement as HTMLElement | null;
		if (!el || el === document.body) return 'body';
		return el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}:${el.textContent?.trim()}`;
	});

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The verdict's text, and that it is wholly inside the first screen at the window's size. */
async function verdictInView(p: Page): Promise<string> {
	const { height } = p.viewportSize()!;
	const verdict = p.locator('#verdict');
	const box = (await verdict.boundingBox())!;
	expect(box.y).toBeGreaterThanOrEqual(0);
	expect(box.y + box.height).toBeLessThanOrEqual(height);
	return (await verdict.innerText()).trim();
}

/**
 * The state the page is in, at both widths: the verdict with the focus and `text`, in the first
 * screen at 1280 × 800 and at 390 × 844, axe at each (light and dark on the phone: PASSES), and
 * its screenshots; then the window is the desktop's again.
 */
async function atBothWidths(p: Page, text: string | RegExp, name: string): Promise<void> {
	await expect.poll(() => focused(p)).toBe('#verdict');
	expect(await verdictInView(p)).toMatch(text);
	expect(await axeAt(p, 'desktop'), `axe: ${name}, 1280 px`).toEqual([]);
	await shot(p, `verdict-${name}-1280`, { screen: true });
	await p.setViewportSize(PHONE);
	// Scrolled to the top, as the page is when it lands with the verdict.
	await p.evaluate(() => window.scrollTo(0, 0));
	expect(await verdictInView(p)).toMatch(text);
	expect(await focused(p)).toBe('#verdict');
	expect(await axeAt(p, 'phone'), `axe: ${name}, 390 px`).toEqual([]);
	await shot(p, `verdict-${name}-390`, { screen: true });
	if (SCREENSHOTS) {
		await p.emulateMedia({ colorScheme: 'dark' });
		await shot(p, `verdict-${name}-dark-390`, { screen: true });
		await p.emulateMedia({ colorScheme: 'light' });
	}
	await p.setViewportSize(DESKTOP);
}

/** Opens the consent page from the consent step (a link or the script's button) and decides. */
async function consentAndBack(p: Page, base: string, decision?: 'Authorize' | 'Deny') {
	if (decision) {
		await p.waitForURL(/\/sandbox\/oauth2\/auth/);
		await p.getByRole('button', { name: decision }).click();
	}
	await p.waitForURL(flowUrl(base));
	await p.locator('main[data-ready="true"]').waitFor();
}

test("the consent's outcomes are the verdict, in the first screen with the focus, at 1280 and 390 px", async ({
	srv,
	newPage
}) => {
	const p = await newPage(DESKTOP, OFF_LOOPBACK);

	// A read-only registration asking for write: the service refuses it on the redirect back.
	await choosePreset(p, srv.url, 'Sandbox (read only)');
	await p.getByTestId('setup-summary').click();
	await p.getByLabel('Scope', { exact: true }).fill('read write');
	await p.getByRole('button', { name: 'Save setup' }).click();
	await expect.poll(() => p.getByTestId('consent-url').textContent()).toContain('scope=read+write');
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await consentAndBack(p, srv.url);
	await atBothWidths(
		p,
		'✕ Step 2, consent refused: invalid_scope, this application is registered as "Read only" and cannot request write',
		'consent-refused'
	);
	expect(await p.title()).toMatch(/^✕ Step 2, consent refused: invalid_scope/);
	expect(await p.locator('#verdict a').getAttribute('href')).toBe('#callback');
	// The transcript's badge names the refusal, not only the playground's own 303.
	expect(
		await p
			.locator('.transcript details.exchange[data-step="callback"] > summary .badge')
			.last()
			.innerText()
	).toBe('303 See Other, consent refused: invalid_scope');
	// The verdict's link leads to the card, where "Try again" is.
	await p.keyboard.press('Tab');
	await p.keyboard.press('Enter');
	await expect.poll(() => p.evaluate(() => location.hash)).toBe('#callback');

	// The card explains it and offers the scope the registration allows.
	const alert = p.getByTestId('auth-error');
	expect(await alert.textContent()).toContain('invalid_scope');
	expect(await alert.textContent()).toContain('ask for "read" only');
	// Try again with that scope: tokens, and the line says so.
	await alert.getByRole('button', { name: 'Try again with scope read' }).click();
	await expect.poll(() => p.getByTestId('consent-url').textContent()).toMatch(/scope=read&/);
	expect(await p.getByLabel('Scope', { exact: true }).inputValue()).toBe('read');
	// The line speaks of the new request, and of the refusal as earlier: never a stale line.
	expect(await p.locator('#verdict').innerText()).toBe(
		'Step 1, a new consent request for scope read is ready to open (earlier: consent refused: invalid_scope, this application is registered as "Read only" and cannot request write)'
	);
	expect(await axeAt(p, 'desktop'), 'axe: a new consent request ready').toEqual([]);
	await shot(p, '11-try-again-with-scope-read');
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await consentAndBack(p, srv.url, 'Authorize');
	await p.getByTestId('access-token').waitFor();
	// The exchange on return lands on the verdict. A 60-minute token read in the second it was
	// issued has exactly an hour left: "1 h".
	await atBothWidths(p, /^✓ Tokens received: read, expires in (59 min|1 h)$/, 'ok');
	expect(await p.title()).toMatch(/^✓ Tokens received: read, expires in (\d+ min|1 h) · /);
	// Focused, it is said once: the live region stays quiet.
	expect((await p.locator('.progress[role="status"]').textContent())?.trim()).toBe('');
	// The tokens are one activation away.
	await p.keyboard.press('Tab');
	await p.keyboard.press('Enter');
	await expect.poll(() => p.evaluate(() => location.hash)).toBe('#tokens');
	const tokensFrom = await p
		.locator('.transcript details.exchange[data-step="exchange"]')
		.last()
		.locator(':scope > summary')
		.innerText();
	const n = /#(\d+)/.exec(tokensFrom)?.[1];
	expect(n).toBeDefined();

	// A new consent request, opened, and the user comes back with Back instead of deciding: the
	// card says what to do when the service does not send the browser back.
	await p.locator('#consent').getByRole('button', { name: 'Prepare a new one' }).click();
	const notBack = p.getByTestId('not-sent-back');
	expect(await notBack.count()).toBe(0);
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await p.waitForURL(/\/sandbox\/oauth2\/auth/);
	await p.goBack();
	await p.locator('main[data-ready="true"]').waitFor();
	await notBack.waitFor();
	expect(await notBack.innerText()).toMatch(/^Not sent back\? .*"Check the consent URL".*a HAR/);
	// The line says the consent page was opened and nothing came back, and that the tokens work.
	expect(await p.locator('#verdict').innerText()).toBe(
		`Step 1, consent page opened for scope read; nothing came back yet; the tokens from #${n} still work`
	);
	// Then declined: nothing failed, and the tokens still work.
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await consentAndBack(p, srv.url, 'Deny');
	await atBothWidths(p, `⊘ Consent declined; the tokens from #${n} still work`, 'consent-declined');
	// The card shows access_denied, in the sandbox's words: declined, start the consent step again,
	// and choose Authorize.
	const denied = p.getByTestId('auth-error');
	const text = (await denied.textContent()) ?? '';
	expect(text).toContain('access_denied');
	expect(text).toContain('declined consent');
	expect(text).toContain('start the consent step again');
	expect(text).toContain('choose Authorize');
	await denied.scrollIntoViewIfNeeded();
	await shot(p, '10-access-denied');

	// "Check the consent URL": the line says what was checked, and what was not.
	await p.locator('#consent').getByRole('button', { name: 'Prepare a new one' }).click();
	// The check lands on its line, with the focus, in the first screen at both widths.
	await p.getByRole('button', { name: 'Check the consent URL' }).click();
	await atBothWidths(
		p,
		'✓ Registration check: client_id and redirect_uri accepted; the scope and any client secret are not checked here',
		'registration-check'
	);

	// A code for the script: kept, not exchanged, and the line says so, with the focus.
	await p.getByTestId('code-for-script').click();
	await consentAndBack(p, srv.url, 'Authorize');
	await p.getByTestId('script-code').waitFor();
	await atBothWidths(p, 'Code ready for the script, not exchanged', 'code-for-script');
});

test('"Check the client secret", without a consent: a wrong secret refused, the right one accepted, in the line and the card', async ({
	srv,
	newPage
}) => {
	const p = await newPage(DESKTOP, OFF_LOOPBACK);
	await choosePreset(p, srv.url, 'Sandbox (read only)');
	// A support engineer types the customer's secret, one character off.
	await p.getByTestId('setup-summary').click();
	await p.getByLabel('Client secret', { exact: true }).fill('sandbox-ro-secreT');
	await p.getByRole('button', { name: 'Save setup' }).click();
	await p.getByTestId('consent-url').waitFor();
	await p.getByRole('button', { name: 'Check the client secret' }).click();
	// The check lands on its line, with the focus, in the first screen at both widths.
	await atBothWidths(
		p,
		'✕ Client secret check: the service refused the client credentials (invalid_client)',
		'secret-refused'
	);
	// Its link leads to the card, where the check's answer says why and what it did not check.
	expect(await p.locator('#verdict a').getAttribute('href')).toBe('#consent');
	const result = p.locator('[data-result-of="secret"]');
	const card = (await result.innerText()).replace(/\s+/g, ' ');
	expect(card).toContain('The service refused the client credentials: it answered invalid_client');
	expect(card).toContain(
		'Not checked here: the redirect URI against the registration, and the scope'
	);
	expect(card).not.toContain('sandbox-ro-secreT');

	// The right secret: accepted, for certain against the sandbox; no consent page was opened.
	const secretField = p.getByLabel('Client secret', { exact: true });
	if (!(await secretField.isVisible())) await p.getByTestId('setup-summary').click();
	await secretField.fill('sandbox-ro-secret');
	await p.getByRole('button', { name: 'Save setup' }).click();
	// The check of the old secret is no verdict on the new one: the card says so, the line drops it.
	await p.getByTestId('secret-stale').waitFor();
	expect(await p.getByTestId('secret-stale').innerText()).toMatch(
		/^The last client secret check \(#\d+\) was of another secret/
	);
	expect(await result.count()).toBe(0);
	expect(await p.locator('#verdict').count()).toBe(0);
	await p.getByRole('button', { name: 'Check the client secret' }).click();
	await expect
		.poll(() => p.locator('#verdict').innerText())
		.toBe('✓ Client secret check: the service accepted the client credentials');
	// Accepted, though the made-up code was refused with a 400: a success on the card and the arrow.
	expect(await result.locator('summary .badge').innerText()).toBe(
		'400 Bad Request, credentials accepted'
	);
	expect(await p.locator('.transcript details.exchange[data-step="consent"]').count()).toBe(0);
	expect(await p.locator('.transcript details.exchange[data-step="secret"]').count()).toBe(2);
});
