/**
 * A large body is highlighted off the page's main thread, when it is shown: a HAR holding an
 * answer with a 100 KB JSON body is imported, its exchange folded, with the body's text in the page
 * and no highlighter started; opened, the body shows as its plain text, the highlighter's Web
 * Worker does the tokenizing, and the body ends highlighted with exactly the same text; the page's
 * layout is then checked at desktop and phone widths, and its colours with axe.
 */
import { expect } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { shot } from '../helpers/browser';
import { axeAt } from '../helpers/axe';
import { overflowProblems } from '../helpers/layout';
import { e2eTest } from '../helpers/fixtures';
import { harWithAnswer } from '../../scripts/lib/har.js';

const test = e2eTest();

/** A stream/contents answer of about `chars` characters, pretty-printed, with markup in its text. */
function largeBody(chars: number): string {
	const items: object[] = [];
	for (let i = 0; JSON.stringify({ items }, null, 2).length < chars; i++)
		items.push({
			id: `tag:google.com,2005:reader/item/${i.toString(16).padStart(16, '0')}`,
			title: `Item ${i} <script>alert(${i})</script> & "quoted"`,
			published: 1700000000 + i,
			starred: i % 5 === 0,
			score: null
		});
	return JSON.stringify({ items }, null, 2);
}

// One import, checked at desktop width and then at phone width on the same page: the worker's
// tokenizing does not depend on the width, so a second import at 390 px (about 14 s of the two
// cores) would check the same thing again; what the width changes, the layout, is checked at both
// widths (nothing runs off the right edge), and shown by the screenshots.
test('a 100 KB body shows as text at once and is highlighted by a worker, text unchanged, at 1280 and 390 px', async ({
	srv,
	newPage,
	problems
}) => {
	const body = largeBody(100 * 1024);
	mkdirSync('test-output', { recursive: true });
	const file = 'test-output/large-body.har';
	writeFileSync(file, harWithAnswer(body, 'https://reader.example/reader/api/0/stream/contents'));
	const p = await newPage({ width: 1280, height: 800 });
	const workers: string[] = [];
	p.on('worker', (w) => workers.push(new URL(w.url()).pathname));
	await p.goto(srv.url + '/');
	await p.locator('main[data-ready="true"]').waitFor();
	await p.getByTestId('import-har').setInputFiles(file);
	const pre = p.getByLabel('Response body, pretty-printed');
	await pre.waitFor({ state: 'attached' });
	// Folded, the exchange's text is in the page, and nothing is highlighted: no worker starts for
	// what cannot be seen.
	expect(await pre.textContent()).toBe(body);
	expect(await pre.isVisible()).toBe(false);
	await p.locator('main[data-ready="true"]').waitFor();
	await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
	const highlighters = () => workers.filter((w) => w.includes('/workers/highlight.worker'));
	expect(highlighters()).toEqual([]);
	await p.locator('.transcript details.exchange > summary').first().click();
	await pre.waitFor();
	// The whole text is there from the start, whatever the highlighting has done so far.
	expect(await pre.textContent()).toBe(body);
	await expect
		.poll(() => pre.locator('.chunk > span').count(), { timeout: 30_000 })
		.toBeGreaterThan(0);
	await expect.poll(() => pre.getAttribute('aria-busy'), { timeout: 30_000 }).toBe('false');
	expect(highlighters()).toHaveLength(1);
	// Highlighted: one span per token, the text exactly the body's, and none of it markup.
	expect(await pre.locator('.chunk > span').count()).toBeGreaterThan(5_000);
	expect(await pre.textContent()).toBe(body);
	expect(await pre.locator('script, img').count()).toBe(0);
	// What a copy of the whole block gives: the body, line for line (the blocks of lines add none).
	const copied = await pre.evaluate((el) => {
		const range = document.createRange();
		range.selectNodeContents(el);
		const sel = getSelection()!;
		sel.removeAllRanges();
		sel.addRange(range);
		return sel.toString();
	});
	expect(copied).toBe(body);
	const styled = await pre
		.locator('.chunk > span[style]')
		.first()
		.evaluate((s) => getComputedStyle(s).color);
	expect(styled).not.toBe(
		await pre.evaluate((e) => getComputedStyle(e.querySelector('code')!).color)
	);
	for (const size of [
		{ width: 1280, height: 800, name: 'wide' },
		{ width: 390, height: 844, name: 'phone' }
	] as const) {
		await p.setViewportSize(size);
		await p.evaluate(() => window.scrollTo(0, 0));
		// What the highlighted body adds to the page is colours: its tokens', measured on the phone,
		// light and dark (the colours are the same at any width, tests/unit/width-rules.test.ts).
		// Every other rule about a highlighted block is checked where the phone flow opens every
		// disclosure (phone.test.ts). axe samples text against what is on the screen: with the block
		// scrolled into view, the headings above it sit under the sticky bars, "partially obscured",
		// which it cannot decide. So it checks the page as the import left it, and the block is
		// scrolled to for the picture. The body's first two blocks of lines hold every kind of token
		// of the rest (the items repeat): its later blocks are left out, which spares axe some 5,000
		// spans of the same colours.
		expect(await overflowProblems(p), `${size.name}: elements past the right edge`).toEqual([]);
		if (size.name === 'phone')
			expect(
				await axeAt(p, 'colours', { skip: ['pre.code .chunk:nth-child(n+3)'] }),
				'axe, the colours of the large body highlighted, light and dark'
			).toEqual([]);
		expect(await pre.textContent()).toBe(body);
		await pre.scrollIntoViewIfNeeded();
		await shot(p, `large-body-highlighted-${size.name}`);
	}
	expect(problems, 'no console errors, page errors or CSP violations').toEqual([]);
});
