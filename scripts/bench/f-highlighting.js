// (f) Highlighting in Chromium: a HAR holding one answer with a 100 KB JSON body is imported into
// the playground's page and opened, as a user does; the body must show as plain text at once and
// highlighted soon after, with no main-thread task over 50 ms meanwhile (Long Tasks API), timed
// from the file input's change event. Cold: a fresh page, shiki loads first. Warm: another such
// file imported in that page.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { launchChromium } from '../lib/browser.js';
import { harWithAnswer } from '../lib/har.js';
import { CONFIG, KiB, TARGETS, yes } from './config.js';
import { stats } from './stats.js';

/** A pretty-printed JSON body of at least `bytes` characters, shaped like a stream/contents answer. @param {number} bytes */
function jsonBody(bytes) {
	/** @type {object[]} */
	const items = [];
	const wrap = () =>
		JSON.stringify(
			{ direction: 'ltr', id: 'user/-/state/com.google/reading-list', updated: 1700000000, items },
			null,
			2
		);
	for (let i = 0; ; i++) {
		items.push({
			id: `tag:google.com,2005:reader/item/${i.toString(16).padStart(16, '0')}`,
			crawlTimeMsec: String(1700000000000 + i * 1000),
			published: 1700000000 + i,
			title: `Item ${i}: a headline of ordinary length`,
			canonical: [{ href: `https://example.com/posts/${i}` }],
			categories: [
				'user/-/state/com.google/reading-list',
				'user/-/label/News',
				i % 3 ? 'user/-/state/com.google/read' : 'user/-/state/com.google/fresh'
			],
			origin: {
				streamId: 'feed/https://example.com/feed.xml',
				title: 'Example feed',
				htmlUrl: 'https://example.com/'
			},
			summary: {
				direction: 'ltr',
				content: `<p>Paragraph ${i} with some "quoted" text, a number ${i * 7.25} and true/false/null.</p>`
			},
			starred: i % 5 === 0,
			score: null
		});
		if (i % 10 === 9 && wrap().length >= bytes) return wrap();
	}
}

// In the page: long tasks are recorded from the start, and one import is timed from the input's
// change event to the body's first paint as plain text and to the last highlighted line.
export const OBSERVE_LONG_TASKS = `window.__long = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push({ start: e.startTime, ms: e.duration }); }).observe({ type: 'longtask', buffered: true });`;

/** @param {import('playwright-core').Page} page @param {string} file @param {string} marker */
async function importOnce(page, file, marker) {
	await page.evaluate((m) => {
		const w = /** @type {any} */ (window);
		w.__run = { changed: 0, clicked: 0, plain: 0, done: 0 };
		const input = /** @type {HTMLInputElement} */ (
			document.querySelector('[data-testid="import-har"]')
		);
		input.addEventListener('change', (e) => (w.__run.changed = e.timeStamp), { once: true });
		// When the bench's own click on the exchange reaches the page: what comes before it is the
		// import and the bench's wait for its banner, not the opening of the body.
		const opened = (/** @type {Event} */ e) => {
			if (!(
				e.target instanceof Element && e.target.closest('.transcript details.exchange summary')
			))
				return;
			w.__run.clicked = e.timeStamp;
			document.removeEventListener('click', opened, true);
		};
		document.addEventListener('click', opened, true);
		// The body is the one whose last lines hold the marker (the last item's id, about 25 lines
		// from its end): reading its last blocks until they hold 4,000 characters, not the whole
		// body's text, keeps this check to a fraction of a millisecond per frame (the whole text of
		// every body took up to 40 ms of a frame). How many lines a block holds is the page's choice.
		const tail = (/** @type {Element} */ p) => {
			let text = '';
			for (let b = p.querySelector('code')?.lastElementChild; b && text.length < 4000;) {
				text = (b.textContent ?? '') + text;
				b = b.previousElementSibling;
			}
			return text;
		};
		const body = () =>
			[...document.querySelectorAll('pre.code[aria-label^="Response body"]')].find((p) =>
				tail(p).includes(m)
			);
		// Checked after every frame: when the body is first there, and when it is no longer busy.
		const watch = () => {
			const b = body();
			const seen = b?.checkVisibility();
			if (seen && !w.__run.plain) w.__run.plain = performance.now();
			// Highlighted: token spans inside its blocks (a block of plain text is a span of text
			// alone), and no longer busy. A block is highlighted once it is on the screen.
			if (
				seen &&
				b?.getAttribute('aria-busy') === 'false' &&
				b.querySelector('code > span > span')
			) {
				w.__run.done = performance.now();
				return;
			}
			requestAnimationFrame(watch);
		};
		requestAnimationFrame(watch);
	}, marker);
	const longBefore = await page.evaluate(() => /** @type {any} */ (window).__long.length);
	await page.getByTestId('import-har').setInputFiles(file);
	// The imported exchange is opened, as a user does to read it, once the import says it is shown:
	// the file is read off the page's thread, and a click before that would land on the exchange of
	// the import before it (the warm run's), which the new one then replaces.
	await page.getByText(`Showing 1 exchange from ${basename(file)}`).waitFor();
	await page.locator('.transcript details.exchange summary').first().click();
	await page.waitForFunction(() => /** @type {any} */ (window).__run.done > 0, null, {
		timeout: 30_000
	});
	return page.evaluate((n) => {
		const w = /** @type {any} */ (window);
		const r = w.__run;
		const tasks = w.__long.slice(n).filter((/** @type {any} */ t) => t.start >= r.changed - 1);
		return {
			clickedMs: Math.round((r.clicked - r.changed) * 10) / 10,
			plainMs: Math.round((r.plain - r.changed) * 10) / 10,
			highlightedMs: Math.round((r.done - r.changed) * 10) / 10,
			longTasks: tasks.map((/** @type {any} */ t) => Math.round(t.ms)),
			longestTaskMs: Math.round(Math.max(0, ...tasks.map((/** @type {any} */ t) => t.ms)))
		};
	}, longBefore);
}

/** (f) In Chromium, against the playground at `base`. @param {string} base */
export async function measureHighlighting(base) {
	const body = jsonBody(100 * KiB);
	const marker = JSON.parse(body).items.at(-1).id;
	// The warm import is another file, with another last item, so it is told from the first.
	const other = marker.replace(/.$/, 'z');
	const dir = mkdtempSync(join(tmpdir(), 'bench-har-'));
	const file = join(dir, 'large-body.har');
	const again = join(dir, 'large-body-again.har');
	writeFileSync(file, harWithAnswer(body));
	writeFileSync(again, harWithAnswer(body.replace(marker, other)));
	const browser = await launchChromium();
	try {
		/** @type {Awaited<ReturnType<typeof importOnce>>[]} */
		const cold = [];
		/** @type {Awaited<ReturnType<typeof importOnce>>[]} */
		const warm = [];
		for (let i = 0; i < CONFIG.highlightRuns; i++) {
			const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
			const page = await context.newPage();
			await page.addInitScript(OBSERVE_LONG_TASKS);
			await page.goto(base + '/');
			await page.locator('main[data-ready="true"]').waitFor();
			cold.push(await importOnce(page, file, marker));
			warm.push(await importOnce(page, again, other));
			await context.close();
		}
		const sum = (/** @type {typeof cold} */ runs) => ({
			clicked: stats(runs.map((r) => r.clickedMs)),
			plain: stats(runs.map((r) => r.plainMs)),
			highlighted: stats(runs.map((r) => r.highlightedMs)),
			longestTask: stats(runs.map((r) => r.longestTaskMs)),
			runs
		});
		return { bodyChars: body.length, cold: sum(cold), warm: sum(warm) };
	} finally {
		await browser.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

/** @typedef {Awaited<ReturnType<typeof measureHighlighting>>} Highlighting */

/** @param {Highlighting} hl @returns {import('./config.js').Row} */
export function highlightingRow(hl) {
	const longest = Math.max(hl.cold.longestTask.max, hl.warm.longestTask.max);
	const part = (/** @type {Highlighting['cold']} */ r, /** @type {string} */ name) =>
		`${name}: plain ${r.plain.median.toFixed(0)} ms, highlighted ${r.highlighted.median.toFixed(0)} ms (max ${r.highlighted.max.toFixed(0)})`;
	return {
		figure: '(f) 100 KB JSON body in Chromium',
		measured: `${part(hl.cold, 'cold')}; ${part(hl.warm, 'warm')}; longest task ${longest} ms`,
		target: `no task > ${TARGETS.longTaskMs} ms; highlighted ≤ ${TARGETS.highlightedMs} ms`,
		met: yes(
			longest <= TARGETS.longTaskMs &&
				hl.warm.highlighted.max <= TARGETS.highlightedMs &&
				hl.cold.highlighted.max <= TARGETS.highlightedMs
		)
	};
}

/** @param {Highlighting} hl */
export function highlightingDetails(hl) {
	const tasks = (/** @type {Highlighting['cold']} */ r) =>
		r.runs.map((x) => `[${x.longTasks.join(', ') || 'none'}]`).join(' ');
	return `  (f) ${hl.bodyChars} characters, ${hl.cold.runs.length} fresh pages; the bench's click on the exchange reached the page at ${hl.cold.clicked.median} ms cold, ${hl.warm.clicked.median} ms warm (medians, from the change event); long tasks (ms) cold ${tasks(hl.cold)}, warm ${tasks(hl.warm)}`;
}
