// (e) First load: Chromium with an empty cache opens `/`; the JS and CSS bytes are read from the
// DevTools protocol, and the gzip size of the same files is what the server sends for
// `Accept-Encoding: gzip` (node:zlib's level 9 when it has no gzip for a file).
import { gzipSync, constants as zlibConstants } from 'node:zlib';
import { launchChromium } from '../lib/browser.js';
import { KiB, TARGETS, kib, yes } from './config.js';
import { request } from './http.js';
import { sleep } from './stats.js';

/** (e) First load in Chromium: JS and CSS bytes as transferred, and their gzip sizes. @param {string} base */
export async function measureFirstLoad(base) {
	const browser = await launchChromium();
	try {
		const context = await browser.newContext();
		const page = await context.newPage();
		const cdp = await context.newCDPSession(page);
		await cdp.send('Network.enable');
		await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
		/** @type {Map<string, { url: string, type: string, mime: string, status: number, encoding: string, contentLength: number, headerBytes: number, total?: number }>} */
		const seen = new Map();
		cdp.on('Network.responseReceived', (e) => {
			/** @type {Record<string, string>} */
			const h = {};
			for (const [k, v] of Object.entries(e.response.headers)) h[k.toLowerCase()] = String(v);
			seen.set(e.requestId, {
				url: e.response.url,
				type: e.type,
				mime: e.response.mimeType,
				status: e.response.status,
				encoding: h['content-encoding'] ?? 'identity',
				contentLength: Number(h['content-length'] ?? NaN),
				headerBytes: e.response.encodedDataLength
			});
		});
		cdp.on('Network.loadingFinished', (e) => {
			const r = seen.get(e.requestId);
			if (r) r.total = e.encodedDataLength;
		});
		await page.goto(base + '/', { waitUntil: 'networkidle' });
		await sleep(500);
		/** @type {{ path: string, kind: string, status: number, encoding: string, transferredBodyBytes: number, transferredTotalBytes: number, rawBytes: number, gzipBytes: number, gzipFrom: string }[]} */
		const files = [];
		for (const r of seen.values()) {
			const path = new URL(r.url).pathname;
			const kind =
				/\.m?js$/.test(path) || r.mime.includes('javascript')
					? 'js'
					: /\.css$/.test(path) || r.mime === 'text/css'
						? 'css'
						: r.type === 'Document'
							? 'html'
							: 'other';
			const bodyBytes = Number.isFinite(r.contentLength)
				? r.contentLength
				: (r.total ?? 0) - r.headerBytes;
			// The gzip size of the same file: what the server sends for Accept-Encoding: gzip, or
			// node:zlib's gzip (level 9) of the plain file when the server has no gzip for it.
			let gzipBytes = r.encoding === 'gzip' ? bodyBytes : NaN;
			let gzipFrom = r.encoding === 'gzip' ? 'as transferred' : '';
			let rawBytes = NaN;
			if (kind === 'js' || kind === 'css') {
				const plain = await request(false, 'GET', r.url, { 'accept-encoding': 'identity' });
				rawBytes = plain.buf.length;
				if (r.encoding !== 'gzip') {
					const gz = await request(false, 'GET', r.url, { 'accept-encoding': 'gzip' });
					if (gz.headers['content-encoding'] === 'gzip') {
						gzipBytes = gz.buf.length;
						gzipFrom = "the server's gzip";
					} else {
						gzipBytes = gzipSync(plain.buf, { level: zlibConstants.Z_BEST_COMPRESSION }).length;
						gzipFrom = 'node:zlib level 9';
					}
				}
			}
			files.push({
				path,
				kind,
				status: r.status,
				encoding: r.encoding,
				transferredBodyBytes: bodyBytes,
				transferredTotalBytes: r.total ?? NaN,
				rawBytes,
				gzipBytes,
				gzipFrom
			});
		}
		await context.close();
		/** @param {string} kind @param {'transferredBodyBytes' | 'gzipBytes' | 'rawBytes'} field */
		const sum = (kind, field) =>
			files.filter((f) => f.kind === kind).reduce((a, f) => a + f[field], 0);
		return {
			browser: browser.version(),
			encodings: [
				...new Set(files.filter((f) => f.kind === 'js' || f.kind === 'css').map((f) => f.encoding))
			],
			js: {
				files: files.filter((f) => f.kind === 'js').length,
				transferredBytes: sum('js', 'transferredBodyBytes'),
				gzipBytes: sum('js', 'gzipBytes'),
				rawBytes: sum('js', 'rawBytes')
			},
			css: {
				files: files.filter((f) => f.kind === 'css').length,
				transferredBytes: sum('css', 'transferredBodyBytes'),
				gzipBytes: sum('css', 'gzipBytes'),
				rawBytes: sum('css', 'rawBytes')
			},
			html: files
				.filter((f) => f.kind === 'html')
				.map((f) => ({
					path: f.path,
					encoding: f.encoding,
					transferredBodyBytes: f.transferredBodyBytes
				})),
			largest: files
				.filter((f) => f.kind === 'js' || f.kind === 'css')
				.sort((a, b) => b.gzipBytes - a.gzipBytes)
				.slice(0, 6)
				.map((f) => ({ path: f.path, gzipBytes: f.gzipBytes, rawBytes: f.rawBytes })),
			files
		};
	} finally {
		await browser.close();
	}
}

/** @typedef {Awaited<ReturnType<typeof measureFirstLoad>>} FirstLoad */

/** @param {FirstLoad | undefined} fl @param {string} error why it was not measured @returns {import('./config.js').Row} */
export function firstLoadRow(fl, error) {
	const js = fl?.js;
	const css = fl?.css;
	return {
		figure: '(e) first load, JS gzip',
		measured:
			js && css
				? `JS ${kib(js.gzipBytes)} gzip in ${js.files} files, CSS ${kib(css.gzipBytes)} gzip (transferred as ${fl?.encodings.join('/')}: JS ${kib(js.transferredBytes)}, CSS ${kib(css.transferredBytes)})`
				: `not measured: ${error}`,
		target: `JS ≤ ${TARGETS.firstLoadJsGzipKiB} KB gzip`,
		met: js ? yes(js.gzipBytes <= TARGETS.firstLoadJsGzipKiB * KiB) : 'NOT MEASURED'
	};
}

/** @param {FirstLoad} fl */
export function firstLoadDetails(fl) {
	return `  (e) ${fl.browser}; largest files (gzip): ${fl.largest.map((f) => `${f.path.replace(/^\/_app\/immutable\//, '')} ${kib(f.gzipBytes)}`).join(', ')}; HTML document ${fl.html.map((h) => `${kib(h.transferredBodyBytes)} ${h.encoding}`).join(', ')}`;
}
