// (h) The page's own time on a step, in Chromium: from the click's `event.timeStamp` on "Read the
// user info" to the frame after the result is drawn, minus the action request's time at the server
// and on the wire (its Resource Timing `responseStart − requestStart`): what the browser spends
// sending the form, reading the answer and drawing it. The flow is a real one, through the sandbox:
// the read-write preset, its consent page, the automatic exchange; then `CONFIG.interactionRuns`
// calls, each a fresh click on the same page.
import { launchChromium } from '../lib/browser.js';
import { CONFIG, TARGETS, yes } from './config.js';
import { stats } from './stats.js';

// In the page: each click's time stamp, and a promise for the frame after the next result is drawn.
const HOOK = `window.__h = { clicks: [] };
document.addEventListener('click', (e) => {
	if (e.target instanceof Element && e.target.closest('#userinfo button[type=submit]')) window.__h.clicks.push(e.timeStamp);
}, true);`;

/** @param {import('playwright-core').Page} page */
async function oneCall(page) {
	const before = await page
		.locator('#userinfo details.exchange')
		.last()
		.getAttribute('data-exchange-id', { timeout: 100 })
		.catch(() => null);
	// Armed before the click: resolves in the frame after the one that draws a new exchange.
	await page.evaluate((old) => {
		const w = /** @type {any} */ (window);
		w.__h.drawn = new Promise((resolve) => {
			const step = document.getElementById('userinfo');
			const seen = () => {
				const all = step?.querySelectorAll('details.exchange[data-exchange-id]');
				const last = all?.[all.length - 1];
				return last && last.getAttribute('data-exchange-id') !== old;
			};
			const obs = new MutationObserver(() => {
				if (!seen()) return;
				obs.disconnect();
				// The result is in the DOM: the next frame draws it; the one after marks it drawn.
				requestAnimationFrame(() => requestAnimationFrame((t) => resolve(t)));
			});
			obs.observe(/** @type {Node} */ (step), { childList: true, subtree: true, attributes: true });
		});
	}, before);
	const button = page.getByRole('button', { name: 'Read the user info' });
	await button.click();
	return page.evaluate(async () => {
		const w = /** @type {any} */ (window);
		const drawn = await w.__h.drawn;
		const click = w.__h.clicks.at(-1);
		const action = /** @type {PerformanceResourceTiming[]} */ (
			performance.getEntriesByType('resource')
		)
			.filter((e) => e.name.includes('/userinfo') && e.startTime >= click)
			.at(-1);
		if (!action) throw new Error('no Resource Timing entry for the userinfo action');
		const server = action.responseStart - action.requestStart;
		return {
			totalMs: Math.round((drawn - click) * 10) / 10,
			requestMs: Math.round(server * 10) / 10,
			pageMs: Math.round((drawn - click - server) * 10) / 10
		};
	});
}

/** (h) In Chromium, against the playground (and its sandbox) at `base`. @param {string} base */
export async function measureInteraction(base) {
	const browser = await launchChromium();
	try {
		const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
		const page = await context.newPage();
		await page.addInitScript(HOOK);
		await page.goto(base + '/');
		await page.locator('main[data-ready="true"]').waitFor();
		await page.getByRole('button', { name: 'Sandbox (read write)' }).click();
		await page.getByRole('link', { name: 'Open the consent page' }).click();
		await page.waitForURL(/\/sandbox\/oauth2\/auth/);
		await page.getByRole('button', { name: 'Authorize' }).click();
		await page.getByTestId('access-token').waitFor();
		await page.locator('main[data-ready="true"]').waitFor();
		/** @type {Awaited<ReturnType<typeof oneCall>>[]} */
		const runs = [];
		for (let i = 0; i < CONFIG.warmup / 4 + CONFIG.interactionRuns; i++) {
			await page.getByRole('button', { name: 'Read the user info' }).waitFor();
			await page.waitForFunction(
				() =>
					!(
						/** @type {HTMLButtonElement | null} */ (
							document.querySelector('#userinfo button[type=submit]')
						)?.disabled
					)
			);
			const r = await oneCall(page);
			if (i >= CONFIG.warmup / 4) runs.push(r);
		}
		return {
			page: stats(runs.map((r) => r.pageMs)),
			total: stats(runs.map((r) => r.totalMs)),
			request: stats(runs.map((r) => r.requestMs)),
			runs
		};
	} finally {
		await browser.close();
	}
}

/** @typedef {Awaited<ReturnType<typeof measureInteraction>>} Interaction */

/** @param {Interaction} h @returns {import('./config.js').Row} */
export function interactionRow(h) {
	return {
		figure: '(h) click to drawn, userinfo step, in Chromium',
		measured: `${h.page.median.toFixed(1)} ms median (p90 ${h.page.p90.toFixed(1)} ms) besides the request's ${h.request.median.toFixed(1)} ms`,
		target: `≤ ${TARGETS.interactionMs} ms`,
		met: yes(h.page.median <= TARGETS.interactionMs)
	};
}

/** @param {Interaction} h */
export function interactionDetails(h) {
	return `  (h) ${h.page.n} calls: click to the frame after the result is drawn ${h.total.median} ms median (min ${h.total.min}, max ${h.total.max}), of which the action request (responseStart − requestStart) ${h.request.median} ms`;
}
