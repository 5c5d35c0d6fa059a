// (j) A customer's HAR at the import's limits, in Chromium: a 5 MB file of 1,800 token requests
// sending 16 different 1,024-character client secrets is imported (its secrets hidden in a worker,
// its first 25 exchanges drawn), and one with a 17th secret is refused. What the page's main thread
// spends meanwhile: the longest task while the 16-secret file is imported and drawn (Long Tasks
// API), and the main thread's whole task time (DevTools' TaskDuration) from the choice of the
// 17-secret file to its refusal. Each in a fresh page. The e2e tests check what the user sees of
// both (the progress, the hidden secrets, the refusal's words); the time is measured here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../lib/browser.js';
import { manySecretsHar } from '../lib/many-secrets-har.js';
import { CONFIG, MiB, TARGETS, yes } from './config.js';
import { OBSERVE_LONG_TASKS } from './f-highlighting.js';
import { stats } from './stats.js';

const ENTRIES = 1800;

/** @param {import('playwright-core').Browser} browser @param {string} base */
async function freshPage(browser, base) {
	const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
	const page = await context.newPage();
	await page.addInitScript(OBSERVE_LONG_TASKS);
	await page.goto(base + '/');
	await page.locator('main[data-ready="true"]').waitFor();
	return { context, page };
}

/** The page's long tasks that started at `from` or later, once a frame and a task have run. @param {import('playwright-core').Page} page @param {number} from */
async function longTasksSince(page, from) {
	await page.evaluate(
		() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)))
	);
	return page.evaluate(
		(f) =>
			/** @type {{ start: number, ms: number }[]} */ (/** @type {any} */ (window).__long)
				.filter((t) => t.start >= f)
				.map((t) => Math.round(t.ms)),
		from
	);
}

/** The 16-secret import: its long tasks (ms), from the choice of the file to 25 exchanges drawn. @param {import('playwright-core').Page} page @param {string} file */
async function importAtTheLimit(page, file) {
	const from = await page.evaluate(() => performance.now());
	await page.getByTestId('import-har').setInputFiles(file);
	await page.getByTestId('imported-banner').waitFor({ timeout: 60_000 });
	await page.waitForFunction(
		() => document.querySelectorAll('.transcript details.exchange').length === 25,
		null,
		{ timeout: 60_000 }
	);
	return longTasksSince(page, from);
}

/** The 17-secret refusal: the main thread's task time (ms) from the choice of the file to the refusal. @param {import('playwright-core').Page} page @param {string} file */
async function refusedOverTheLimit(page, file) {
	const cdp = await page.context().newCDPSession(page);
	await cdp.send('Performance.enable');
	const clock = async () => {
		const { metrics } = await cdp.send('Performance.getMetrics');
		return 1000 * (metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN);
	};
	const before = await clock();
	await page.getByTestId('import-har').setInputFiles(file);
	await page.getByTestId('import-error').waitFor({ timeout: 60_000 });
	return Math.round((await clock()) - before);
}

/** (j) In Chromium, against the playground at `base`. @param {string} base */
export async function measureHarLimits(base) {
	const dir = mkdtempSync(join(tmpdir(), 'bench-har-limits-'));
	const sixteen = join(dir, '16-secrets.har');
	const seventeen = join(dir, '17-secrets.har');
	writeFileSync(sixteen, manySecretsHar({ secrets: 16, entries: ENTRIES, bytes: 5 * MiB }).text);
	writeFileSync(seventeen, manySecretsHar({ secrets: 17, entries: ENTRIES, bytes: 5 * MiB }).text);
	const browser = await launchChromium();
	try {
		/** @type {number[][]} */
		const imported = [];
		/** @type {number[]} */
		const refused = [];
		for (let i = 0; i < CONFIG.harRuns; i++) {
			const a = await freshPage(browser, base);
			imported.push(await importAtTheLimit(a.page, sixteen));
			await a.context.close();
			const b = await freshPage(browser, base);
			refused.push(await refusedOverTheLimit(b.page, seventeen));
			await b.context.close();
		}
		return {
			entries: ENTRIES,
			importLongestTask: stats(imported.map((t) => Math.max(0, ...t))),
			importLongTasks: imported,
			refusalMainThread: stats(refused)
		};
	} finally {
		await browser.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

/** @typedef {Awaited<ReturnType<typeof measureHarLimits>>} HarLimits */

/** @param {HarLimits} j @returns {import('./config.js').Row} */
export function harLimitsRow(j) {
	const longest = j.importLongestTask.max;
	const refusal = j.refusalMainThread;
	return {
		figure: '(j) 5 MB HAR at the limits in Chromium',
		measured: `16 secrets imported: longest task ${longest} ms; 17 refused after ${refusal.median.toFixed(0)} ms of main-thread time (max ${refusal.max.toFixed(0)})`,
		target: `no task ≥ ${TARGETS.harLongTaskMs} ms; refused within ${TARGETS.harRefusalMs} ms of main thread`,
		met: yes(longest < TARGETS.harLongTaskMs && refusal.max < TARGETS.harRefusalMs)
	};
}

/** @param {HarLimits} j */
export function harLimitsDetails(j) {
	const runs = j.importLongTasks.map((t) => `[${t.join(', ') || 'none'}]`).join(' ');
	return `  (j) ${j.entries} token requests, ${j.importLongTasks.length} fresh pages each; long tasks (ms) of the 16-secret import ${runs}; main-thread ms to the 17-secret refusal ${j.refusalMainThread.median} (${j.refusalMainThread.min}–${j.refusalMainThread.max})`;
}
