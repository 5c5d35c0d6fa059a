/**
 * Real Chromium through playwright-core (scripts/lib/browser.js, shared with the bench). The browser is
 * Debian's (CHROMIUM_PATH, else /usr/bin/chromium): a missing browser fails the run with a clear
 * message; it never skips.
 */
import { mkdirSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_FLAGS, launchChromium } from '../../scripts/lib/browser.js';
import { startServer, type TestServer } from './server';

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

/**
 * A test file's playground server and Chromium: started before its tests, stopped after them. The
 * returned object holds both once its `beforeAll` has run.
 */
export function serverAndBrowser(env: Record<string, string> = {}): {
	srv: TestServer;
	browser: Browser;
} {
	const held = {} as { srv: TestServer; browser: Browser };
	beforeAll(async () => {
		held.srv = await startServer(env);
		held.browser = await launch();
	});
	afterAll(async () => {
		await held.browser?.close();
		await held.srv?.stop();
	});
	return held;
}
