/**
 * Real Chromium through playwright-core (scripts/lib/browser.js, shared with the bench). The browser is
 * Debian's (CHROMIUM_PATH, else /usr/bin/chromium): a missing browser fails the run with a clear
 * message; it never skips.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_FLAGS, launchChromium } from '../../scripts/lib/browser.js';

export { CHROMIUM_FLAGS };

export const SHOTS = 'test-output/screenshots';

/** Chromium; `hostResolverRules` maps names to addresses (`MAP rebind.test 127.0.0.1`). */
export function launch(opts: { hostResolverRules?: string } = {}): Promise<Browser> {
	return launchChromium(opts);
}

export async function shot(page: Page, name: string): Promise<void> {
	mkdirSync(SHOTS, { recursive: true });
	await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}
