/**
 * Provider-controlled strings cannot run in the playground's page. A misbehaving service on loopback
 * (node:http, started here) puts script payloads everywhere it controls: the callback's parameters
 * (extra names, iss, code, error, error_description, error_uri), the token response (extra fields,
 * scope, token_type, an error), response status lines, header names and values, JSON bodies, an
 * HTML body and WWW-Authenticate. Chromium drives the real playground through setup, consent,
 * exchange, user-info, refresh and API calls.
 *
 * Every payload, if it ran, would set window.__xss and open an alert. The page records dialogs, page
 * errors, console errors, CSP violations (an injection that CSP blocked is still an injection) and,
 * through a MutationObserver installed before any page script, every element that arrives carrying
 * a payload in an attribute or a script body. All must stay empty, while each payload must be
 * visible on the page as text: rendered inert, not dropped.
 */
import { describe, expect } from 'vitest';
import http from 'node:http';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import { flowUrl } from '../helpers/e2e';
import { listen } from '../helpers/listen';
import { e2eTest } from '../helpers/fixtures';

const P = [
	'<script>alert(window.__xss=1)</script>',
	'<img src=x onerror="alert(window.__xss=2)">',
	'<svg onload="alert(window.__xss=3)">',
	'<svg><script>alert(window.__xss=4)</script></svg>',
	'javascript:alert(window.__xss=5)',
	'"><script>alert(window.__xss=6)</script>',
	"'><img src=x onerror=alert(window.__xss=7)>",
	'" autofocus onfocus="alert(window.__xss=8)',
	"{@html '<img src=x onerror=alert(window.__xss=9)>'}",
	"{{constructor.constructor('alert(window.__xss=10)')()}}",
	'${alert(window.__xss=11)}',
	'<div style="width:expression(alert(window.__xss=12))">css</div>',
	'<style>*{background:url("javascript:alert(window.__xss=13)")}</style>',
	'\\u003cimg src=x onerror=alert(window.__xss=14)\\u003e',
	'＜script＞alert(window.__xss=15)＜/script＞',
	'</pre><script>alert(window.__xss=16)</script><pre>',
	'```html\n<script>alert(window.__xss=17)</script>\n```',
	'</code></td></tr></table><img src=x onerror=alert(window.__xss=18)>',
	'<iframe src="javascript:alert(window.__xss=19)"></iframe>',
	'<a href="javascript:alert(window.__xss=20)">click me</a>',
	'<math><mtext><table><mglyph><style><img src=x onerror=alert(window.__xss=21)>',
	'<details open ontoggle="alert(window.__xss=22)">',
	'</textarea><script>alert(window.__xss=23)</script>',
	'</title><script>alert(window.__xss=24)</script>',
	'<!--<img src=x onerror=alert(window.__xss=25)>-->',
	'%3Cscript%3Ealert(window.__xss=26)%3C/script%3E',
	'<scr<script>ipt>alert(window.__xss=27)</scr</script>ipt>',
	'<object data="data:text/html,<script>alert(window.__xss=28)</script>"></object>',
	'<meta http-equiv="refresh" content="0;url=javascript:alert(window.__xss=29)">',
	'<base href="javascript:alert(window.__xss=30)//">',
	'\u2028<script>alert(window.__xss=31)</script>\u2029',
	'<x onclick=alert(window.__xss=32)>click'
];
/** What can go in an HTTP header value (Node writes Latin-1 without CR/LF). */
const HEADER_SAFE = P.filter((p) => /^[\t\x20-\x7e]*$/.test(p));
/** Header names are tokens: no < > " ( ) = ; so these are as hostile as a name gets. */
const HEADER_NAMES = [
	"X-'onfocus'-__xss-40",
	'x-`__xss`-41',
	'X-&lt__xss-42',
	'x-%3Cscript%3E__xss-43',
	"x-'-alert-__xss-44"
];
/** A raw JSON escape: JSON.parse turns it into markup, which the pretty view then shows. */
const ESCAPED_IN_JSON = '<img src=x onerror=alert(window.__xss=45)>';

const SECRET = 'xss-test-secret-Qz81';
/** The parameters the next consent redirect carries back (besides state). */
let nextRedirect: [string, string][] = [];

function payloadHeaders(res: http.ServerResponse) {
	HEADER_SAFE.forEach((p, i) => res.setHeader(`X-P${i}`, p));
	HEADER_NAMES.forEach((name, i) => res.setHeader(name, HEADER_SAFE[i]!));
	res.setHeader('X-Reader-Zone1-Usage', HEADER_SAFE[0]!);
	res.setHeader('X-Reader-Zone1-Limit', HEADER_SAFE[1]!);
	res.setHeader('X-Reader-Limits-Reset-After', HEADER_SAFE[2]!);
}

function send(
	res: http.ServerResponse,
	status: number,
	reason: string,
	type: string,
	body: string
) {
	payloadHeaders(res);
	res.setHeader('Content-Type', type);
	res.writeHead(status, reason);
	res.end(body);
}

/** Just enough of the seed, misbehaving in every string it controls. */
function handle(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
	const u = new URL(req.url!, 'http://127.0.0.1');
	if (u.pathname === '/oauth2/auth') {
		const back = new URL(u.searchParams.get('redirect_uri')!);
		for (const [k, v] of nextRedirect) back.searchParams.append(k, v);
		back.searchParams.append('state', u.searchParams.get('state')!);
		res.writeHead(302, { Location: back.toString() });
		return res.end();
	}
	if (u.pathname === '/oauth2/token') {
		if (new URLSearchParams(body).get('grant_type') === 'refresh_token') {
			res.setHeader('WWW-Authenticate', `Basic realm="${HEADER_SAFE[5]}"`);
			return send(
				res,
				400,
				`Bad ${HEADER_SAFE[6]}`,
				'application/json',
				JSON.stringify({ error: P[7], error_description: P[8], error_uri: P[4] })
			);
		}
		const extra = Object.fromEntries(P.map((p, i) => [`x${i}_${p}`, p]));
		const token = {
			access_token: `at-${HEADER_SAFE[0]}`,
			token_type: P[5],
			expires_in: 3600,
			refresh_token: `rt-${HEADER_SAFE[1]}`,
			scope: P[2],
			...extra,
			nested: { list: P.slice(0, 5), deep: { x: P[16] } }
		};
		return send(res, 200, `OK ${HEADER_SAFE[3]}`, 'application/json', JSON.stringify(token));
	}
	if (u.pathname === '/reader/api/0/user-info') {
		const info = {
			userId: P[0],
			userName: P[1],
			userEmail: P[19],
			...Object.fromEntries(P.map((p, i) => [p, `v${i}`]))
		};
		const json =
			JSON.stringify(info).slice(0, -1) +
			`,"escaped":"${ESCAPED_IN_JSON.replace(/</g, '\\u003c').replace(/>/g, '\\u003e')}"}`;
		return send(res, 200, `OK ${HEADER_SAFE[4]}`, 'application/json', json);
	}
	if (u.pathname === '/reader/api/0/html')
		return send(
			res,
			200,
			'OK',
			'text/html; charset=utf-8',
			`<!doctype html><html><head><title>${P[23]}</title></head><body>\n${P.join('\n')}\n</body></html>`
		);
	if (u.pathname === '/reader/api/0/denied') {
		res.setHeader(
			'WWW-Authenticate',
			`Bearer error="invalid_token", error_description="${HEADER_SAFE[9]!.replace(/"/g, "'")}"`
		);
		return send(
			res,
			401,
			'Unauthorized',
			'application/json',
			JSON.stringify({ error: 'invalid_token', error_description: P[10] })
		);
	}
	send(
		res,
		404,
		'Not Found',
		'application/json',
		JSON.stringify({ error: 'not_found', error_description: P[11] })
	);
}

/** Consent rounds: the payloads spread over redirects that each stay under the callback's 2048-character limit. */
function rounds(): { kind: 'code' | 'error'; params: [string, string][] }[] {
	const out: { kind: 'code' | 'error'; params: [string, string][] }[] = [];
	let current: [string, string][] = [];
	const size = (ps: [string, string][]) => new URLSearchParams(ps).toString().length;
	P.forEach((p, i) => {
		const pair: [string, string] = i % 4 === 3 ? [p, `name-${i}`] : [`p${i}`, p]; // some payloads as parameter names
		if (size([...current, pair]) > 1500) {
			out.push({ kind: 'code', params: current });
			current = [];
		}
		current.push(pair);
	});
	out.push({ kind: 'code', params: current });
	out.forEach((round, k) => round.params.unshift(['code', k === 0 ? P[2]! : `c${k}-${P[k + 2]}`]));
	out[0]!.params.push(['iss', P[4]!]);
	out.push({
		kind: 'error',
		params: [
			['error', P[5]!],
			['error_description', P[0]!],
			['error_uri', P[4]!],
			['iss', P[19]!],
			['p-extra', P[15]!]
		]
	});
	return out;
}

const INIT = `
	window.__found = [];
	window.__csp = [];
	document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '') + ' at ' + e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber));
	const bad = (el) => {
		for (const a of el.attributes || []) {
			if (/^on/i.test(a.name)) return true;
			if (/^(href|src|action|formaction|data|content|xlink:href|srcdoc|style)$/i.test(a.name) && /javascript:|__xss/i.test(a.value)) return true;
		}
		// SvelteKit's own start-up script carries the page data, payloads included, as escaped strings.
		if (/^(SCRIPT|STYLE)$/.test(el.tagName)) return /__xss/.test(el.textContent || '') && !/__sveltekit_/.test(el.textContent || '');
		// An element of these kinds counts when a payload is in its markup, not when the app shows a
		// payload as text inside it (the sequence diagram is an SVG that labels arrows with status text).
		return /^(IFRAME|OBJECT|EMBED|BASE|META|IMG|SVG|MATH|X)$/i.test(el.tagName) && [...el.attributes].some((a) => /__xss/.test(a.value) && !/^(aria-|data-)|^title$/i.test(a.name));
	};
	window.__bad = bad;
	const scan = (node) => {
		if (node.nodeType !== 1) return;
		if (bad(node)) window.__found.push(node.outerHTML.slice(0, 200));
		for (const child of node.querySelectorAll('*')) if (bad(child)) window.__found.push(child.outerHTML.slice(0, 200));
	};
	new MutationObserver((records) => {
		for (const r of records) {
			if (r.type === 'attributes') scan(r.target);
			for (const n of r.addedNodes) scan(n);
		}
	}).observe(document, { childList: true, subtree: true, attributes: true });
`;

const test = e2eTest()
	// The misbehaving service, on a loopback port of its own.
	// eslint-disable-next-line no-empty-pattern
	.extend('fake', { scope: 'file' }, async ({}, { onCleanup }) => {
		const fake = http.createServer((req, res) => {
			let body = '';
			req.on('data', (d) => (body += d));
			req.on('end', () => handle(req, res, body));
		});
		const { url } = await listen(fake);
		onCleanup(async () => {
			fake.closeAllConnections();
			await new Promise<void>((ok) => fake.close(() => ok()));
		});
		return url;
	});

/** What the test asks of the page: that nothing ran, and the text of a part of it. */
function inPage(page: Page, problems: string[]) {
	/** Nothing ran and nothing was injected, in the document now showing. */
	async function assertInert(where: string) {
		// Let whatever a payload could set off happen first: every image has loaded or failed (its load
		// or error event is due), then two frames are drawn (autofocus, queued toggle and error events).
		await expect
			.poll(() => page.evaluate(() => [...document.images].every((i) => i.complete)))
			.toBe(true);
		await page.evaluate(
			() =>
				new Promise<void>((done) =>
					requestAnimationFrame(() => requestAnimationFrame(() => done()))
				)
		);
		const state = await page.evaluate(() => {
			const w = window as unknown as {
				__xss?: unknown;
				__found?: string[];
				__csp?: string[];
				__bad?: (el: Element) => boolean;
			};
			const sweep = w.__bad
				? [...document.querySelectorAll('*')]
						.filter((el) => w.__bad!(el))
						.map((el) => el.outerHTML.slice(0, 200))
				: ['init script missing'];
			return {
				xss: w.__xss ?? null,
				found: w.__found ?? ['init script missing'],
				csp: w.__csp ?? [],
				sweep
			};
		});
		expect(state, where).toEqual({ xss: null, found: [], csp: [], sweep: [] });
		expect(problems, where).toEqual([]);
	}

	/** The text of a part of the page (closed <details> included). */
	const text = (selector: string) =>
		page
			.locator(selector)
			.first()
			.evaluate((el) => el.textContent ?? '');
	return { assertInert, text };
}

const asJson = (s: string) => JSON.stringify(s).slice(1, -1);

function expectShown(haystack: string, needles: string[], where: string) {
	const missing = needles.filter((n) => !haystack.includes(n));
	expect(missing, `${where}: payloads not shown as text`).toEqual([]);
}

describe('provider-controlled strings stay text', () => {
	test(`${P.length} payloads through consent, callback, exchange, user-info, refresh and API`, async ({
		srv,
		fake: fakeUrl,
		newPage,
		problems
	}) => {
		const page = await newPage({ width: 1280, height: 900 });
		await page.addInitScript(INIT);
		page.on('dialog', async (d) => {
			problems.push(`dialog: ${d.message()}`);
			await d.dismiss();
		});
		const { assertInert, text } = inPage(page, problems);
		await page.goto(srv.url + '/');
		await page.locator('main[data-ready="true"]').waitFor();
		await page.getByLabel('Base URL of the service').fill(fakeUrl);
		await page.getByLabel('Client id').fill('xss-client');
		await page.getByLabel('Client secret').fill(SECRET);
		await page.getByLabel('Scope', { exact: true }).fill('read');
		await page.getByRole('button', { name: 'Save setup' }).click();
		await page.getByTestId('consent-url').waitFor();

		const all = rounds();
		const transcriptCount = () => page.locator('.transcript details.exchange').count();
		let expected = 0;
		for (const [i, round] of all.entries()) {
			if (i > 0)
				await page.locator('#consent').getByRole('button', { name: 'Prepare a new one' }).click();
			nextRedirect = round.params;
			await page.getByRole('link', { name: 'Open the consent page' }).click();
			await page.waitForURL(flowUrl(srv.url));
			await page.locator('main[data-ready="true"]').waitFor();
			expected += round.kind === 'code' ? 3 : 2; // consent, callback (and the automatic exchange)
			// An iss that is no URL on the service's origin holds the code back (RFC 9207): the
			// warning shows the payload too, and "Exchange anyway" goes on.
			if (round.kind === 'code' && round.params.some(([k]) => k === 'iss')) {
				await page.getByTestId('issuer-alert').waitFor();
				await page.getByRole('button', { name: 'Exchange anyway' }).click();
			}
			await expect.poll(transcriptCount, { timeout: 15_000 }).toBe(expected);
			if (round.kind === 'code') {
				expect(await text('#exchange')).toMatch(/HTTP\/1\.1 200 OK/);
				await page.getByTestId('access-token').waitFor();
			} else {
				const alert = await text('[data-testid="auth-error"]');
				expectShown(alert, [P[5]!, P[0]!], 'the authorization error');
			}
			const callback = await text('#callback');
			expectShown(callback, round.params.flat(), `callback round ${i + 1}`);
			await assertInert(`after consent round ${i + 1} (${round.kind})`);
		}

		// The token response: status line, header names and values, body, and the token panel.
		const exchange = await text('#exchange');
		expectShown(
			exchange,
			[
				...HEADER_SAFE.map((p, n) => `X-P${n}: ${p}`),
				...HEADER_NAMES,
				`OK ${HEADER_SAFE[3]}`,
				...P.map(asJson)
			],
			'the exchange'
		);
		const tokens = await text('#tokens');
		expectShown(
			tokens,
			[P[5]!, P[2]!, `at-${HEADER_SAFE[0]}`, ...P, ...P.map((p, n) => `x${n}_${p}`)],
			'the token panel'
		);

		await page.getByRole('button', { name: 'Read the user info' }).click();
		await expect.poll(transcriptCount).toBe((expected += 1));
		await expect.poll(() => text('#userinfo')).toContain(`OK ${HEADER_SAFE[4]}`);
		// The bearer token, shortened on the page, shown whole: as text too.
		await page.locator('#userinfo').getByRole('button', { name: 'Show all' }).click();
		const userinfo = await text('#userinfo');
		expectShown(
			userinfo,
			[
				...P.map(asJson),
				ESCAPED_IN_JSON,
				`Authorization: Bearer at-${HEADER_SAFE[0]}`,
				...HEADER_SAFE
			],
			'user-info'
		);
		await assertInert('after user-info');

		await page.getByRole('button', { name: 'Refresh the access token' }).click();
		await expect.poll(transcriptCount).toBe((expected += 1));
		await expect.poll(() => text('#refresh')).toContain(`Bad ${HEADER_SAFE[6]}`);
		expectShown(await text('#refresh'), [P[7]!, P[8]!, HEADER_SAFE[5]!], 'the refresh error');
		await assertInert('after the refresh error');

		await page.getByLabel(/Path below/).fill('html');
		await page.getByRole('button', { name: 'Send' }).click();
		await expect.poll(transcriptCount).toBe((expected += 1));
		await expect.poll(() => text('#api')).toContain('text/html');
		expectShown(await text('#api'), P, 'the HTML body');
		await assertInert('after an HTML body');

		await page.getByLabel(/Path below/).fill('denied');
		await page.getByRole('button', { name: 'Send' }).click();
		await expect.poll(transcriptCount).toBe((expected += 1));
		await expect.poll(() => text('#api')).toContain('401 Unauthorized');
		expectShown(
			await text('#api'),
			[HEADER_SAFE[9]!.replace(/"/g, "'"), asJson(P[10]!)],
			'the 401'
		);
		await assertInert('after a 401');

		// The whole transcript, re-rendered from sessionStorage after a reload.
		await page.reload();
		await page.locator('main[data-ready="true"]').waitFor();
		await expect.poll(transcriptCount).toBe(expected);
		expectShown(await text('.transcript'), [...P, ...HEADER_NAMES], 'the transcript');
		await assertInert('after a reload');
		await shot(page, 'xss');
	});
});
