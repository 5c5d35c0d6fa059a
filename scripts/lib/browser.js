// Real Chromium through playwright-core, for the e2e tests and the bench's first-load figure. The
// browser is Debian's chromium-headless-shell (CHROMIUM_PATH, else /usr/bin/chromium-headless-shell):
// the same Chromium build as the `chromium` package, its Blink and its network stack, without the
// desktop browser's shell around them, which is what playwright itself runs for headless tests. The
// e2e suite took 262 s with it against 355 s with the full browser (docs/history.md). A missing
// browser is an error, never a skip.
import { existsSync } from 'node:fs';

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

/**
 * @param {{ hostResolverRules?: string }} [opts] `hostResolverRules`: Chromium's
 *   `--host-resolver-rules`, e.g. `MAP rebind.test 127.0.0.1`, to serve a name from this machine
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchChromium(opts = {}) {
	const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
	if (!existsSync(executablePath))
		throw new Error(
			`Chromium was not found at ${executablePath}. Install Debian's package (apt-get install -y chromium-headless-shell) or set CHROMIUM_PATH. The e2e tests and the bench's first-load figure need a real browser; they do not skip.`
		);
	const { chromium } = await import('playwright-core');
	const args = opts.hostResolverRules
		? [...CHROMIUM_FLAGS, `--host-resolver-rules=${opts.hostResolverRules}`]
		: CHROMIUM_FLAGS;
	return chromium.launch({ executablePath, args, headless: true });
}
