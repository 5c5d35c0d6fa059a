/**
 * In real Chromium, against the sandbox: every outcome of the consent gets the one-line verdict at
 * the top, in the first screen, with the focus when the user had not moved it, at desktop and phone
 * widths: a consent refused (a read-only registration asking for write), a consent declined after
 * tokens, a code for the script, and "Check the consent URL" (what it checked and what it did not).
 * On the way, the refused scope's card offers "Try again with scope read", which asks for read and
 * completes the flow.
 * Never a stale line: each outcome replaces the one before it.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
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

/** The verdict's text, and that it is wholly inside the first screen (`height` tall). */
async function verdictInView(p: Page, height: number): Promise<string> {
	const verdict = p.locator('#verdict');
	const box = (await verdict.boundingBox())!;
	expect(box.y).toBeGreaterThanOrEqual(0);
	expect(box.y + box.height).toBeLessThanOrEqual(height);
	return (await verdict.innerText()).trim();
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

for (const [width, height] of [
	[1280, 800],
	[390, 844]
] as const)
	test(`the consent's outcomes are the verdict, in the first screen with the focus, at ${width} px`, async ({
		srv,
		newPage
	}) => {
		const p = await newPage({ width, height }, OFF_LOOPBACK);
		const size = width === 390 ? 'phone' : 'desktop';

		// A read-only registration asking for write: the service refuses it on the redirect back.
		await choosePreset(p, srv.url, 'Sandbox (read only)');
		await p.getByTestId('setup-summary').click();
		await p.getByLabel('Scope', { exact: true }).fill('read write');
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect
			.poll(() => p.getByTestId('consent-url').textContent())
			.toContain('scope=read+write');
		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await consentAndBack(p, srv.url);
		await expect.poll(() => focused(p)).toBe('#verdict');
		expect(await verdictInView(p, height)).toBe(
			'✕ Step 2, consent refused: invalid_scope, this application is registered as "Read only" and cannot request write'
		);
		expect(await p.title()).toMatch(/^✕ Step 2, consent refused: invalid_scope/);
		expect(await p.locator('#verdict a').getAttribute('href')).toBe('#callback');
		expect(await axeAt(p, size), `axe: the refused consent, ${width} px`).toEqual([]);
		await shot(p, `verdict-consent-refused-${width}`, { screen: true });
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
		if (width === 1280) await shot(p, '11-try-again-with-scope-read');
		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await consentAndBack(p, srv.url, 'Authorize');
		await p.getByTestId('access-token').waitFor();
		await expect
			.poll(() => p.locator('#verdict').innerText())
			.toMatch(/^✓ Tokens received: read, expires in/);
		const tokensFrom = await p
			.locator('.transcript details.exchange[data-step="exchange"]')
			.last()
			.locator(':scope > summary')
			.innerText();
		const n = /#(\d+)/.exec(tokensFrom)?.[1];
		expect(n).toBeDefined();

		// A new consent request, declined: nothing failed, and the tokens still work.
		await p.locator('#consent').getByRole('button', { name: 'Prepare a new one' }).click();
		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await consentAndBack(p, srv.url, 'Deny');
		await expect.poll(() => focused(p)).toBe('#verdict');
		expect(await verdictInView(p, height)).toBe(
			`⊘ Consent declined; the tokens from #${n} still work`
		);
		expect(await axeAt(p, size), `axe: the declined consent, ${width} px`).toEqual([]);
		await shot(p, `verdict-consent-declined-${width}`, { screen: true });

		// "Check the consent URL": the line says what was checked, and what was not.
		await p.locator('#consent').getByRole('button', { name: 'Prepare a new one' }).click();
		await p.getByRole('button', { name: 'Check the consent URL' }).click();
		await expect
			.poll(() => p.locator('#verdict').innerText())
			.toBe(
				'✓ Registration check: client_id and redirect_uri accepted; the secret and the scope are not checked here'
			);

		// A code for the script: kept, not exchanged, and the line says so, with the focus.
		await p.getByTestId('code-for-script').click();
		await consentAndBack(p, srv.url, 'Authorize');
		await p.getByTestId('script-code').waitFor();
		await expect.poll(() => focused(p)).toBe('#verdict');
		expect(await verdictInView(p, height)).toBe('Code ready for the script, not exchanged');
		expect(await axeAt(p, size), `axe: the code for the script, ${width} px`).toEqual([]);
		await shot(p, `verdict-code-for-script-${width}`, { screen: true });
	});
