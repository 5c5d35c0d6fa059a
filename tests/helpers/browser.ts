/**
 * Real Chromium through playwright-core (scripts/lib/browser.js, shared with the bench). The browser is
 * Debian's chromium-headless-shell (CHROMIUM_PATH, else /usr/bin/chromium-headless-shell): a missing browser fails the run with a clear
 * message; it never skips.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { CHROMIUM_FLAGS, launchChromium } from '../../scripts/lib/browser.js';

export { CHROMIUM_FLAGS };

export const SHOTS = 'test-output/screenshots';

/** Chromium; `hostResolverRules` maps names to addresses (`MAP rebind.test 127.0.0.1`). */
export function launch(opts: { hostResolverRules?: string } = {}): Promise<Browser> {
	return launchChromium(opts);
}

/**
 * Whether the e2e tests save their screenshots: with `SCREENSHOTS=1` (`npm run test:e2e:shots`).
 * They are for a person to look at, at desktop and phone widths, after a change to the page; no
 * test reads them, so `npm test` skips them (docs/testing.md has what that saves).
 */
export const SCREENSHOTS = process.env.SCREENSHOTS === '1';

/**
 * Saves a screenshot as `test-output/screenshots/<name>.png` when SCREENSHOTS is on: of the whole
 * page (`screen: true`: only what the viewport shows), or of one element.
 */
export async function shot(
	target: Page | Locator,
	name: string,
	{ screen = false }: { screen?: boolean } = {}
): Promise<void> {
	if (!SCREENSHOTS) return;
	mkdirSync(SHOTS, { recursive: true });
	const path = `${SHOTS}/${name}.png`;
	if ('goto' in target) await target.screenshot({ path, fullPage: !screen });
	else await target.screenshot({ path });
}
