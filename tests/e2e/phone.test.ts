/**
 * The page on a phone (390 × 844, touch) and on a desktop (1280), in real Chromium: one sandbox flow
 * through every step and state, with the layout checked at each. Nothing may run off the right edge
 * unless it scrolls inside a box of its own, the page never scrolls sideways, every tap target on the
 * phone is at least 44 × 44 CSS px, axe finds nothing in the light theme or the dark one (the colours
 * measured on the phone, the dark ones at the states that together show every kind of element,
 * every other rule at both widths), and a docs link's banner stays in reach
 * while the focus moves down the page. Screenshots of every state go to
 * test-output/screenshots/phone-*.png and desktop-*.png.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOTS, shot } from '../helpers/browser';
import { flowUrl, openPlayground, unhighlighted } from '../helpers/e2e';
import { clippedSelects, overflowProblems, smallTargets } from '../helpers/layout';
import { axeProblems, PASSES } from '../helpers/axe';
import { e2eTest, type NewPage } from '../helpers/fixtures';

const test = e2eTest();

/** A redirect URI long enough to run off a phone's screen, and registered nowhere. */
const LONG_PATH =
	'/callback/registered-somewhere-else/' + 'averylongsegmentwithoutanybreak'.repeat(4) + '/end';

const SIZES = {
	phone: { width: 390, height: 844, isMobile: true, hasTouch: true },
	desktop: { width: 1280, height: 800, isMobile: false, hasTouch: false }
} as const;
type Size = keyof typeof SIZES;

function open(newPage: NewPage, size: Size): Promise<Page> {
	const { width, height, isMobile, hasTouch } = SIZES[size];
	return newPage({ width, height }, { isMobile, hasTouch, colorScheme: 'light' });
}

/**
 * Where the dark theme's colours are measured. It changes nothing but the colours `light-dark()`
 * picks (src/app.css), so it is measured where the states together show every kind of element:
 * the flow with every disclosure open and every block highlighted (13b: the setup, the findings,
 * the tokens, the step-up, the transcript, the exports), the registration check's mismatch, the
 * sandbox's consent page, the dialogs, each other page, and a docs link's banner and reminder. The
 * light theme is measured at every state.
 */
const DARK_AT = new Set([
	'03-consent-shown',
	'04-redirect-uri-mismatch',
	'05-sandbox-consent-page',
	'13b-every-disclosure-open',
	'14-start-over-dialog',
	'15-shortcuts-dialog',
	'20-api-docs',
	'21-link',
	'22-sandbox',
	'23-sandbox-landing',
	'30-docs-link',
	'32-docs-link-focus-on-check'
]);

/**
 * The flow's states whose every element is still on the page when every disclosure is opened at
 * 13b (the cards keep their results, the transcript holds every exchange; the verdict line's tones
 * are checked in verdicts.test.ts): axe checks them there, once per width, and here only the
 * layout is checked (the edge, the tap targets).
 */
const WITHIN_13B = new Set([
	'06-callback-exchange-tokens',
	'07-jwt-open',
	'09-refresh',
	'10-api-result',
	'12-transcript-open',
	'13-export-tools'
]);

/**
 * Checks the layout of the state the page is in, and saves its screenshot: nothing off the right
 * edge, no select that cuts off its choice, (on the phone) no tap target under 44 px, and no axe violation or undecided result (in the
 * light theme, and on the phone the dark one where DARK_AT says: PASSES; none for a state WITHIN_13B).
 * Failures name the elements.
 */
async function checkLayout(p: Page, size: Size, name: string): Promise<void> {
	await shot(p, `${size}-${name}`);
	expect.soft(await overflowProblems(p), `${name}: elements past the right edge`).toEqual([]);
	expect.soft(await clippedSelects(p), `${name}: selects that cut off their choice`).toEqual([]);
	if (size === 'phone')
		expect.soft(await smallTargets(p), `${name}: tap targets under 44 × 44 px`).toEqual([]);
	for (const { scheme, rules, except } of PASSES[size]) {
		if (WITHIN_13B.has(name) || (scheme === 'dark' && !DARK_AT.has(name))) continue;
		await p.emulateMedia({ colorScheme: scheme });
		if (scheme === 'dark') await shot(p, `${size}-${name}-dark`);
		const found = (await axeProblems(p, { rules, except })).map(
			(v) => `${v.kind} ${v.id} (${v.impact}) ${v.help} → ${v.nodes.join(' | ')}`
		);
		expect.soft(found, `${name}, ${scheme}: axe`).toEqual([]);
	}
	// The desktop's dark theme is not measured, but a person looking at the screenshots sees it.
	if (SCREENSHOTS && size === 'desktop') {
		await p.emulateMedia({ colorScheme: 'dark' });
		await shot(p, `${size}-${name}-dark`);
	}
	await p.emulateMedia({ colorScheme: 'light' });
}

/** Opens every exchange in `scope` (closed ones keep their long lines out of the layout). */
async function openExchanges(p: Page, scope: string): Promise<void> {
	await p
		.locator(`${scope} details.exchange`)
		.evaluateAll((els) => els.forEach((e) => ((e as HTMLDetailsElement).open = true)));
}

async function openSetup(p: Page): Promise<void> {
	if (!(await p.getByLabel('Client id').isVisible())) await p.getByTestId('setup-summary').click();
}

describe('every step and state fits the screen', () => {
	for (const size of ['phone', 'desktop'] as const)
		test(
			`the sandbox flow, at ${SIZES[size].width} px`,
			{ timeout: 180_000 },
			async ({ srv, newPage }) => {
				const p = await open(newPage, size);
				const check = (name: string) => checkLayout(p, size, name);

				await openPlayground(p, srv.url);
				await check('01-fresh-setup');
				await p.getByText('Advanced settings').click();
				await check('02-setup-advanced');

				await p.getByRole('button', { name: 'Sandbox (read only)' }).click();
				await p.getByTestId('consent-url').waitFor();
				// What each button does, in words a phone shows (no hover): opened, it is laid out and
				// checked with the rest.
				await p.getByText('What these buttons do').click();
				expect(await p.getByTestId('button-help').locator('dt').allInnerTexts()).toEqual([
					'Open the consent page',
					'Get a code for the script',
					'Check the consent URL',
					'Check the client secret'
				]);
				await check('03-consent-shown');

				// The registration check with a redirect URI the sandbox does not know: the mismatch.
				await openSetup(p);
				await p.getByLabel('Redirect URI to register').fill(srv.url + LONG_PATH);
				await p.getByRole('button', { name: 'Save setup' }).click();
				await expect
					.poll(() => p.getByTestId('consent-url').textContent())
					.toContain('averylongsegment');
				await p.getByRole('button', { name: 'Check the consent URL' }).click();
				const mismatch = p.locator('#consent [data-code="redirect_uri_mismatch"]');
				await mismatch.waitFor();
				await openExchanges(p, '#consent');
				await check('04-redirect-uri-mismatch');

				// Back to the registered redirect URI; the sandbox's own consent page.
				await openSetup(p);
				await p.getByRole('button', { name: 'Sandbox (read only)' }).click();
				await expect
					.poll(() => p.getByTestId('consent-url').textContent())
					.not.toContain('averylongsegment');
				await p.getByRole('link', { name: 'Open the consent page' }).click();
				await p.waitForURL(/\/sandbox\/oauth2\/auth/);
				await check('05-sandbox-consent-page');
				await p.getByRole('button', { name: 'Authorize' }).click();
				await p.waitForURL(flowUrl(srv.url));
				await p.getByTestId('access-token').waitFor();
				// Back from the consent in a window that was this size from the start: the exchange
				// lands on its verdict, with the focus, wholly in the first screen.
				await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('verdict');
				const verdict = (await p.locator('#verdict').boundingBox())!;
				expect(verdict.y).toBeGreaterThanOrEqual(0);
				expect(verdict.y + verdict.height).toBeLessThanOrEqual(SIZES[size].height);
				expect(await p.locator('#verdict').innerText()).toMatch(/^✓ Tokens received: read,/);
				await openExchanges(p, '.flow');
				await check('06-callback-exchange-tokens');

				const jwt = p.locator('[data-jwt="access_token"] summary');
				if (await jwt.count()) await jwt.click();
				await check('07-jwt-open');

				await p.getByRole('button', { name: 'Read the user info' }).click();
				await expect
					.poll(() => p.locator('#userinfo details.exchange').textContent())
					.toContain('"userId"');
				// The answer first: the body's first line is in the first screen, below the sticky bar.
				const body = p.locator('#userinfo pre[aria-label="Response body, pretty-printed"]');
				await expect
					.poll(async () => {
						const top = (await body.boundingBox())?.y ?? -1;
						return top > 0 && top + 24 < SIZES[size].height;
					})
					.toBe(true);
				// On the phone the request is its first line, whole a click away.
				const whole = p.locator('#userinfo details.whole-request > summary');
				expect(await whole.count()).toBe(size === 'phone' ? 1 : 0);
				await check('08-user-info');
				if (size === 'phone') {
					expect(await p.locator('#userinfo .request-line').innerText()).toBe(
						'GET /sandbox/reader/api/0/user-info HTTP/1.1'
					);
					await whole.click();
					await p.locator('#userinfo pre[aria-label="Request line and headers"]').waitFor();
					expect(await p.locator('#userinfo .request-line').isVisible()).toBe(false);
				}
				// The bearer token is shortened on the page, said so, and shown whole on a click.
				const shortened = p.locator('#userinfo .shortened');
				expect(await shortened.innerText()).toMatch(
					/^The bearer token is shortened here: \S{4}…\S{6}, \d+ characters\.\s*Show all$/
				);
				const head = p.locator('#userinfo pre[aria-label="Request line and headers"]');
				expect(await head.innerText()).toMatch(/Authorization: Bearer \S{4}…\S{6}\n/);
				await shortened.getByRole('button', { name: 'Show all' }).click();
				expect(await head.innerText()).toMatch(/Authorization: Bearer \S{30,}\n/);
				await shot(p, `${size}-08b-user-info-request`);

				await p.getByRole('button', { name: 'Refresh the access token' }).click();
				await expect.poll(() => p.getByTestId('rotation').textContent()).toContain('rotated');
				await openExchanges(p, '#refresh');
				await check('09-refresh');

				await p.getByLabel(/Path below/).fill('stream/items/ids');
				await p.locator('#api-query').fill('s=user/-/state/com.google/reading-list&n=20');
				await p.getByRole('button', { name: 'Send' }).click();
				await expect
					.poll(() => p.locator('#api details.exchange').first().textContent())
					.toContain('200');
				await check('10-api-result');

				// An error finding: a write with the read-only client.
				await p.getByLabel('Method').selectOption('POST');
				await p.getByLabel(/Path below/).fill('edit-tag');
				await p.getByLabel('Form body').fill('i=item-1&a=user/-/state/com.google/starred');
				await p.getByRole('button', { name: 'Send' }).click();
				await p.locator('#api [data-code="insufficient_scope"]').waitFor();
				await check('11-error-finding');

				// The transcript with every exchange open, and its export tools.
				await openExchanges(p, '.transcript');
				await p.locator('#transcript-title').scrollIntoViewIfNeeded();
				await check('12-transcript-open');
				await p.getByRole('checkbox', { name: 'include tokens' }).check();
				await p.getByRole('group', { name: 'Export and import' }).scrollIntoViewIfNeeded();
				await check('13-export-tools');
				// Every disclosure open at once: the setup, paste-back mode, decoded JWTs, every exchange.
				await p
					.locator('details')
					.evaluateAll((els) => els.forEach((e) => ((e as HTMLDetailsElement).open = true)));
				// Every code block highlighted, so that axe measures the highlighter's colours.
				await expect.poll(() => unhighlighted(p), { timeout: 10_000 }).toBe(0);
				await check('13b-every-disclosure-open');

				await p.getByRole('button', { name: 'Start over' }).click();
				await p.getByRole('dialog').waitFor();
				await check('14-start-over-dialog');
				await p.keyboard.press('Escape');
				await p.getByRole('button', { name: 'Shortcuts' }).click();
				await p.getByRole('dialog').waitFor();
				await check('15-shortcuts-dialog');
				await p.keyboard.press('Escape');
			}
		);

	test('the other pages: /api-docs, /link, the sandbox pages, at 390 and 1280 px', async ({
		srv,
		newPage
	}) => {
		for (const size of ['phone', 'desktop'] as const) {
			const p = await open(newPage, size);
			const check = (name: string) => checkLayout(p, size, name);
			await p.goto(srv.url + '/api-docs');
			await check('20-api-docs');
			await p.goto(srv.url + '/link');
			await p.getByLabel('Base URL').fill(`${srv.url}/sandbox${LONG_PATH}`);
			await check('21-link');
			// Inline code shows as code, never as backticks.
			expect(await p.locator('main').innerText()).not.toContain('`');
			await p.goto(srv.url + '/sandbox');
			await check('22-sandbox');
			await p.goto(srv.url + `/sandbox/landing?code=${'c'.repeat(200)}&state=${'s'.repeat(120)}`);
			await check('23-sandbox-landing');
			await p.context().close();
		}
	});
});

/**
 * Where the docs-link banner is, against the focused element: it must be on the screen (it, or a
 * repeat of it), and nothing sticky may cover the focused element. Returns what is wrong, or ''.
 */
async function bannerInReach(p: Page, name: string): Promise<string> {
	// What the phone's screen shows at this moment (the full-page shot below scrolls the page).
	await shot(p, `phone-${name}-screen`, { screen: true });
	return p.evaluate(() => {
		const focused = document.activeElement as HTMLElement | null;
		if (!focused || focused === document.body) return 'nothing has focus';
		const f = focused.getBoundingClientRect();
		const banners = [...document.querySelectorAll('[data-testid^="prefill-banner"]')].filter((b) =>
			b.checkVisibility({ checkVisibilityCSS: true })
		);
		const onScreen = banners.filter((b) => {
			const r = b.getBoundingClientRect();
			return r.height > 0 && r.bottom > 0 && r.top < innerHeight;
		});
		if (!onScreen.length) return `no docs-link banner on screen (focus on #${focused.id})`;
		if (f.bottom <= 0 || f.top >= innerHeight)
			return `the focused #${focused.id} is off screen (top ${f.top}, bottom ${f.bottom}, viewport ${innerHeight})`;
		// The middle of the focused element's visible part must be the element itself.
		const x = (Math.max(f.left, 0) + Math.min(f.right, innerWidth)) / 2;
		const y = (Math.max(f.top, 0) + Math.min(f.bottom, innerHeight)) / 2;
		const hit = document.elementFromPoint(x, y);
		if (!hit || !(focused === hit || focused.contains(hit)))
			return `the focused #${focused.id} is covered by ${hit?.tagName.toLowerCase()}.${hit?.className}`;
		return '';
	});
}

describe('a docs link on a phone', () => {
	test('the docs-link banner stays in reach as the focus moves down, and covers nothing', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage, 'phone');
		await p.goto(
			`${srv.url}/?base_url=${encodeURIComponent(`${srv.url}/sandbox`)}&client_id=sandbox-rw&scope=read%20write`
		);
		await p.getByTestId('prefill-banner').waitFor();
		await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('client_secret');
		await expect.poll(() => bannerInReach(p, '30-docs-link')).toBe('');
		await checkLayout(p, 'phone', '30-docs-link');

		await p.getByLabel('Client secret').fill('sandbox-rw-secret');
		await p.getByRole('button', { name: 'Save setup' }).click();
		// The focus moves to the consent step's heading, under the folded setup.
		await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('consent-title');
		await expect.poll(() => bannerInReach(p, '31-docs-link-focus-on-consent')).toBe('');
		await checkLayout(p, 'phone', '31-docs-link-focus-on-consent');

		// The check lands on its line at the top; its link takes the focus down to the card.
		await p.getByRole('button', { name: 'Check the consent URL' }).click();
		await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('verdict');
		await p.locator('#verdict a').click();
		await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('consent');
		// The banner went off the top: its reminder comes into the sticky bar.
		await p.getByTestId('prefill-banner-reminder').waitFor();
		await expect.poll(() => bannerInReach(p, '32-docs-link-focus-on-check')).toBe('');
		await checkLayout(p, 'phone', '32-docs-link-focus-on-check');

		// The reminder's Details goes back to the whole banner, below the sticky bar.
		await p.getByTestId('prefill-banner-reminder').getByRole('button', { name: 'Details' }).click();
		await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('prefill-banner');
		await expect.poll(() => bannerInReach(p, '33-docs-link-details')).toBe('');

		// A link naming a long host: its reminder wraps the name, off no edge.
		const host = 'sso.eu.staging.subscriptions.feedreaderservice.example';
		await p.goto(`${srv.url}/?base_url=https://${host}/reader&client_id=x`);
		await p.getByTestId('prefill-banner').waitFor();
		await p.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
		const reminder = p.getByTestId('prefill-banner-reminder');
		await reminder.waitFor();
		expect(await reminder.innerText()).toContain(host);
		expect(await overflowProblems(p)).toEqual([]);
		await shot(p, 'phone-34-docs-link-long-host', { screen: true });
	});
});
