/**
 * Short ways, in real Chromium at 1280 × 800 and 390 × 844, one walk per width: on /link the built
 * link stays beside the fields (sticky on the desktop, a jump to it on the phone); a docs link's
 * reader finds Save beside the secret field, the next stop for the keyboard; the link's sticky
 * reminder appears over the banner it repeats, never over the page's text; a Save or a preset keeps
 * the page where it was, the focus on step 1's heading under the folded setup. axe finds nothing
 * in the new states (light and dark: tests/helpers/axe.ts PASSES).
 */
import { describe, expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import { axeAt } from '../helpers/axe';
import { openPlayground } from '../helpers/e2e';
import { e2eTest, type NewPage } from '../helpers/fixtures';

const test = e2eTest();

const SIZES = {
	desktop: { width: 1280, height: 800, isMobile: false, hasTouch: false },
	phone: { width: 390, height: 844, isMobile: true, hasTouch: true }
} as const;
type Size = keyof typeof SIZES;

function open(newPage: NewPage, size: Size): Promise<Page> {
	const { width, height, isMobile, hasTouch } = SIZES[size];
	return newPage({ width, height }, { isMobile, hasTouch, colorScheme: 'light' });
}

async function box(l: Locator) {
	const b = await l.boundingBox();
	expect(b, 'a box on the page').not.toBeNull();
	return b!;
}

/** Whether the element is wholly on the screen, below `from` (the sticky bar's bottom, or 0). */
async function onScreen(p: Page, l: Locator, from = 0): Promise<boolean> {
	const b = await box(l);
	return b.y >= from - 0.5 && b.y + b.height <= p.viewportSize()!.height + 0.5;
}

/** Where the page's scroll-padding stops what is scrolled to: just below the sticky bar. */
const belowBar = (p: Page) =>
	p.evaluate(() => parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0);

/** The id of the focused element, and its text for one that has no id. */
const focused = (p: Page) =>
	p.evaluate(() => {
		const a = document.activeElement;
		return a?.id ? `#${a.id}` : (a?.textContent?.trim() ?? '');
	});

/** Waits for two frames: the page's observers and the updates they make have run. */
const frames = (p: Page) =>
	p.evaluate(
		() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null))))
	);

/** The top of an element on the screen, read in the page (no scrolling to it). */
const topOf = (p: Page, selector: string) =>
	p.evaluate((s) => document.querySelector(s)!.getBoundingClientRect().top, selector);

describe('short ways', () => {
	for (const size of ['desktop', 'phone'] as const)
		test(`at ${SIZES[size].width} px: the link beside the fields, Save beside the secret, a reminder over nothing but its banner, and a Save or a preset that keeps its place`, async ({
			srv,
			newPage
		}) => {
			const p = await open(newPage, size);
			const { height } = SIZES[size];

			// /link, Advanced open: whichever field is being filled in, the link is a glance away.
			await p.goto(srv.url + '/link');
			const builder = p.getByTestId('link-builder');
			await builder.getByText(/^Advanced:/).click();
			const link = p.getByTestId('built-link');
			const jump = p.getByRole('link', { name: 'Go to the link' });
			const fields: { field: Locator; change?: (f: Locator) => Promise<unknown> }[] = [
				{ field: builder.getByLabel('Client id'), change: (f) => f.fill('sandbox-rw') },
				{ field: builder.getByLabel('PKCE'), change: (f) => f.selectOption('S256') },
				{ field: builder.locator('.advanced input').last() }
			];
			for (const { field, change } of fields) {
				await field.focus();
				await change?.(field);
				const f = await box(field);
				if (size === 'desktop') {
					// Beside the field, on the screen with it.
					expect.soft(await onScreen(p, link), 'the link on the screen').toBe(true);
					expect
						.soft((await box(link)).x, 'the link right of the field')
						.toBeGreaterThan(f.x + f.width);
				} else {
					// A jump to it at the foot of the screen, over no part of the field.
					expect.soft(await jump.isVisible(), 'a jump to the link').toBe(true);
					if (await jump.isVisible()) {
						const j = await box(jump);
						expect.soft(j.y + j.height, 'the jump on the screen').toBeLessThanOrEqual(height);
						expect.soft(j.y, 'the jump below the field').toBeGreaterThanOrEqual(f.y + f.height);
					}
				}
			}
			expect(await link.innerText()).toContain('pkce=S256');
			await shot(p, `short-ways-link-${size}`, { screen: true });
			if (size === 'phone') {
				await jump.click();
				await expect.poll(() => onScreen(p, link)).toBe(true);
				await p.keyboard.press('Tab');
				expect(await focused(p)).toBe('Copy the link');
				await shot(p, `short-ways-link-jumped-${size}`, { screen: true });
			}
			expect(await axeAt(p, size), 'axe: /link with Advanced open').toEqual([]);
			await p.emulateMedia({ colorScheme: 'dark' });
			await shot(p, `short-ways-link-${size}-dark`, { screen: true });
			await p.emulateMedia({ colorScheme: 'light' });

			// The reader opens the link: the focus in the secret field, Advanced open (PKCE).
			await p.goto(await link.innerText());
			await p.locator('main[data-ready="true"]').waitFor();
			await expect.poll(() => focused(p)).toBe('#client_secret');
			const secret = p.getByLabel('Client secret');
			const save = p.getByRole('button', { name: 'Save', exact: true });
			expect.soft(await save.count(), 'a Save beside the secret').toBe(1);

			// Scrolled down from the top a little at a time, as a finger or a wheel does: the sticky
			// reminder shows once the banner's top has left the screen, over the banner it repeats,
			// not over the page's text that follows it.
			await p.evaluate(() => scrollTo(0, 0));
			const reminder = p.getByTestId('prefill-banner-reminder');
			// At the top, the banner in view: no reminder.
			await expect.poll(() => reminder.isVisible()).toBe(false);
			for (let step = 0; step < 60 && !(await reminder.isVisible()); step++) {
				await p.evaluate(() => scrollBy(0, 20));
				await frames(p);
			}
			expect(
				await reminder.isVisible(),
				`the reminder shows (scrolled to ${await p.evaluate(() => scrollY)}, the banner's top at ${await topOf(p, '#prefill-banner')})`
			).toBe(true);
			const [barBottom, textTop] = await p.evaluate(() => [
				document.querySelector('.sticky-bar')!.getBoundingClientRect().bottom,
				document.getElementById('main')!.getBoundingClientRect().top
			]);
			expect.soft(barBottom, 'the bar over the banner only').toBeLessThanOrEqual(textTop + 0.5);
			await shot(p, `short-ways-reminder-${size}`, { screen: true });

			// Save sits beside the secret, in its row, and comes next for the keyboard.
			await secret.fill('sandbox-rw-secret');
			await shot(p, `short-ways-reader-${size}`, { screen: true });
			if ((await save.count()) === 1) {
				const s = await box(secret);
				const b = await box(save);
				expect.soft(b.x, 'Save right of the secret').toBeGreaterThanOrEqual(s.x + s.width);
				expect
					.soft(Math.abs(b.y + b.height / 2 - (s.y + s.height / 2)), 'Save in the secret’s row')
					.toBeLessThan(4);
			}
			await p.keyboard.press('Tab');
			expect.soft(await focused(p), 'the next stop after the secret').toBe('Save');
			expect(await axeAt(p, size), 'axe: the reader’s form with Save beside the secret').toEqual(
				[]
			);
			await p.emulateMedia({ colorScheme: 'dark' });
			await shot(p, `short-ways-reader-${size}-dark`, { screen: true });
			await p.emulateMedia({ colorScheme: 'light' });

			// Saved: the page stays where it was. The setup folds into its line in its place (or just
			// below the sticky bar, were that place above the screen), step 1 comes up under it, and its
			// heading has the focus, on the screen, uncovered; the consent URL starts on the screen.
			const setupBefore = await topOf(p, '#setup');
			await p.keyboard.press('Enter');
			await expect.poll(() => focused(p)).toBe('#consent-title');
			await keptPlace(p, setupBefore, 'after Save');
			await shot(p, `short-ways-saved-${size}`, { screen: true });
			expect(await axeAt(p, size), 'axe: saved, the focus on step 1').toEqual([]);

			// A preset on a page of its own: the same.
			const q = await open(newPage, size);
			await openPlayground(q, srv.url);
			const presetBefore = await topOf(q, '#setup');
			await q.getByRole('button', { name: 'Sandbox (read write)' }).click();
			await expect.poll(() => focused(q)).toBe('#consent-title');
			await keptPlace(q, presetBefore, 'after a preset');
			await shot(q, `short-ways-preset-${size}`, { screen: true });
		});
});

/**
 * The setup card where it was (`before`, its top on the screen), or just below the sticky bar if
 * it was above it; step 1's heading wholly on the screen below the bar and not covered by it; the
 * consent URL starting on the screen.
 */
async function keptPlace(p: Page, before: number, when: string): Promise<void> {
	const bar = await belowBar(p);
	const after = await topOf(p, '#setup');
	expect.soft(after, `${when}: the setup card in its place`).toBeCloseTo(Math.max(before, bar), 0);
	const heading = p.locator('#consent-title');
	expect
		.soft(await onScreen(p, heading, bar), `${when}: step 1's heading on the screen`)
		.toBe(true);
	const covered = await heading.evaluate((h) => {
		const r = h.getBoundingClientRect();
		const hit = document.elementFromPoint(r.left + 10, r.top + r.height / 2);
		return !!hit && !h.contains(hit) && hit !== h ? hit.className : '';
	});
	expect.soft(covered, `${when}: the heading is not covered`).toBe('');
	const url = await box(p.getByTestId('consent-url'));
	expect
		.soft(url.y, `${when}: the consent URL starts on the screen`)
		.toBeLessThan(p.viewportSize()!.height);
}
