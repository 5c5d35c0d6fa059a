/**
 * Real Chromium through playwright-core. The browser is Debian's (CHROMIUM_PATH, else /usr/bin/chromium):
 * a missing browser fails the run with a clear message; it never skips.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_FLAGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync'
];

export const SHOTS = 'test-output/screenshots';

export async function launch(): Promise<Browser> {
	const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
	if (!existsSync(executablePath))
		throw new Error(
			`Chromium was not found at ${executablePath}. Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH. The e2e tests need a real browser and do not skip.`
		);
	return chromium.launch({ executablePath, args: CHROMIUM_FLAGS, headless: true });
}

export async function shot(page: Page, name: string): Promise<void> {
	mkdirSync(SHOTS, { recursive: true });
	await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}
