// `npm run screenshot`: the README's picture, made the way a user sees the page. It builds when
// needed, starts the built server on a free loopback port, drives Debian's Chromium through the
// sandbox flow (preset, consent, Authorize, back with tokens) and saves the first screen at
// 1280 × 800 as docs/screenshot.png. Run it after a change to the page, and commit the picture.
import { ensureBuild } from './ensure-build.js';
import { startServer } from './lib/server.js';
import { launchChromium } from './lib/browser.js';

const OUT = 'docs/screenshot.png';

ensureBuild();
const server = await startServer({ env: { PLAYGROUND_LOG: 'off' } });
const browser = await launchChromium();
try {
	const context = await browser.newContext({
		viewport: { width: 1280, height: 800 },
		colorScheme: 'light'
	});
	const page = await context.newPage();
	await page.goto(`${server.url}/`);
	await page.locator('main[data-ready="true"]').waitFor();
	await page.getByRole('button', { name: 'Sandbox (read write)' }).click();
	await page.getByTestId('consent-url').waitFor();
	await page.getByRole('link', { name: 'Open the consent page' }).click();
	await page.waitForURL(/\/sandbox\/oauth2\/auth/);
	await page.getByRole('button', { name: 'Authorize' }).click();
	await page.getByTestId('access-token').waitFor();
	await page.evaluate(() => window.scrollTo(0, 0));
	await page.screenshot({ path: OUT });
	console.log(`Saved ${OUT}`);
} finally {
	await browser.close();
	await server.stop();
}
