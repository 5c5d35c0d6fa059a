// (f) Highlighting: a 100 KB pretty-printed JSON body (and a token response) through
// src/lib/highlight.ts, loaded in Node through Vite's module loader.
import { CONFIG, KiB, TARGETS } from './config.js';
import { round, stats } from './stats.js';

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

/** (f) Highlighting a 100 KB JSON body with src/lib/highlight.ts, loaded through Vite's SSR loader. */
export async function measureHighlighting() {
	const { createServer: createVite } = await import('vite');
	const vite = await createVite({
		root: process.cwd(),
		configFile: false,
		logLevel: 'silent',
		appType: 'custom',
		server: { middlewareMode: true, hmr: false, ws: false },
		ssr: { noExternal: ['tm-grammars'] },
		optimizeDeps: { noDiscovery: true, include: [] }
	});
	try {
		const mod = await vite.ssrLoadModule('/src/lib/highlight.ts');
		const body = jsonBody(100 * KiB);
		let t = performance.now();
		const first = await mod.highlight(body, 'json');
		const firstMs = performance.now() - t;
		if (!Array.isArray(first) || first.length < 100)
			throw new Error('highlight() returned no lines');
		/** @type {number[]} */
		const runs = [];
		for (let i = 0; i < CONFIG.highlightRuns; i++) {
			t = performance.now();
			await mod.highlight(body, 'json');
			runs.push(performance.now() - t);
		}
		const small = JSON.stringify(
			{
				access_token: 'x'.repeat(200),
				token_type: 'Bearer',
				expires_in: 3600,
				refresh_token: 'y'.repeat(200),
				scope: 'read write'
			},
			null,
			2
		);
		/** @type {number[]} */
		const smallRuns = [];
		for (let i = 0; i < CONFIG.highlightRuns; i++) {
			t = performance.now();
			await mod.highlight(small, 'json');
			smallRuns.push(performance.now() - t);
		}
		return {
			bodyChars: body.length,
			lines: first.length,
			firstCallMs: round(firstMs, 1),
			runs: stats(runs),
			tokenResponse: { bodyChars: small.length, ...stats(smallRuns) }
		};
	} finally {
		await vite.close();
	}
}

/** @typedef {Awaited<ReturnType<typeof measureHighlighting>>} Highlighting */

/** @param {Highlighting} hl @returns {import('./config.js').Row} */
export function highlightingRow(hl) {
	return {
		figure: '(f) highlighting 100 KB JSON',
		measured: `${hl.runs.median.toFixed(1)} ms median (p90 ${hl.runs.p90.toFixed(1)} ms; first call ${hl.firstCallMs.toFixed(0)} ms with loading shiki)`,
		target: `≤ ${TARGETS.highlightMs} ms, or off the request path`,
		met:
			hl.runs.median <= TARGETS.highlightMs
				? 'yes'
				: 'NO on time; yes off the request path (lazy, in the browser)'
	};
}

/** @param {Highlighting} hl */
export function highlightingDetails(hl) {
	return `  (f) in Node, src/lib/highlight.ts loaded through Vite; ${hl.bodyChars} characters, ${hl.lines} lines, ${hl.runs.n} runs (min ${hl.runs.min} ms); a token response (${hl.tokenResponse.bodyChars} characters) takes ${hl.tokenResponse.median} ms`;
}
