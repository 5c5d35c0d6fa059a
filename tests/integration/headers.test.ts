/**
 * The security headers over real HTTP, on every kind of answer: the files adapter-node serves before
 * the server hook runs (static/ and /_app/), pages, 404s, a form action's 4xx, JSON, /healthz.
 * HSTS only with an https ORIGIN; `form-action` narrowed to the page itself, and on the sandbox's
 * consent page to itself and the origin of the validated redirect URI.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';

let plain: TestServer;
let secure: TestServer;
let securePublic: string;
let assetPath: string;

beforeAll(async () => {
	const port = await freePort();
	// Behind a TLS proxy: ORIGIN is https, the server itself speaks plain HTTP on loopback. The
	// host of ORIGIN is the loopback address the test talks to, so a host check lets it through.
	securePublic = `https://127.0.0.1:${port}`;
	[plain, secure] = await Promise.all([
		startServer({
			PLAYGROUND_LOG: 'off',
			SANDBOX_CLIENTS: JSON.stringify([
				{
					client_id: 'other-port-app',
					client_secret: 'other-port-app-secret',
					redirect_uris: ['http://localhost:3999/cb'],
					default_scope: 'read'
				}
			])
		}),
		startServer({ PLAYGROUND_LOG: 'off', ORIGIN: securePublic }, port)
	]);
	const html = await (await fetch(plain.url + '/')).text();
	const asset = /\/_app\/immutable\/[^"']+\.js/.exec(html)?.[0];
	if (!asset) throw new Error('no /_app/immutable/ script on the page');
	assetPath = asset;
});
afterAll(async () => {
	await Promise.all([plain?.stop(), secure?.stop()]);
});

/** Every kind of answer: [what, path, init, expected status]. */
function answers(): [string, string, RequestInit, number][] {
	const form = (origin: string): RequestInit => ({
		method: 'POST',
		headers: { origin, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
		body: 'x=1'
	});
	return [
		['a static file', '/favicon.svg', {}, 200],
		['a build asset', assetPath, {}, 200],
		['a missing build asset', '/_app/immutable/no-such.js', {}, 404],
		['the page', '/', {}, 200],
		['a missing page', '/no-such-page', { headers: { accept: 'text/html' } }, 404],
		['a missing sandbox path', '/sandbox/no-such', { headers: { accept: 'text/html' } }, 404],
		['an unknown form action', '/?/nosuch', form('ORIGIN'), 404],
		['a cross-site form post', '/?/reset', form('https://evil.example'), 403],
		['the sandbox API without a token', '/sandbox/reader/api/0/user-info', {}, 401],
		['/healthz', '/healthz', {}, 200]
	];
}

async function get(srv: TestServer, origin: string, path: string, init: RequestInit) {
	const headers = new Headers(init.headers);
	if (headers.get('origin') === 'ORIGIN') headers.set('origin', origin);
	const res = await fetch(srv.url + path, { ...init, headers, redirect: 'manual' });
	await res.arrayBuffer();
	return res;
}

describe('sniffing and injection: every answer carries a CSP and nosniff', () => {
	test('static files, build assets, pages, 404s, a 4xx form action, JSON and /healthz', async () => {
		for (const [what, path, init, status] of answers()) {
			const res = await get(plain, plain.url, path, init);
			expect(res.status, what).toBe(status);
			expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
			expect(res.headers.get('content-security-policy'), what).toMatch(/default-src '(none|self)'/);
			expect(res.headers.get('content-security-policy'), what).toMatch(/frame-ancestors 'none'/);
			expect(res.headers.get('x-frame-options'), what).toBe('DENY');
		}
	});

	test('a static file answers with the policy that loads nothing (an SVG opened directly runs no script)', async () => {
		const res = await get(plain, plain.url, '/favicon.svg', {});
		expect(res.headers.get('content-security-policy')).toBe(
			"default-src 'none'; frame-ancestors 'none'"
		);
	});
});

describe('downgrade: HSTS when ORIGIN is https, never over plain http', () => {
	test('with an https ORIGIN, every answer carries Strict-Transport-Security', async () => {
		for (const [what, path, init, status] of answers()) {
			const res = await get(secure, securePublic, path, init);
			expect(res.status, what).toBe(status);
			expect(res.headers.get('strict-transport-security'), what).toBe('max-age=31536000');
		}
	});

	test('without ORIGIN (plain http), no answer carries it', async () => {
		for (const [what, path, init] of answers()) {
			const res = await get(plain, plain.url, path, init);
			expect(res.headers.get('strict-transport-security'), what).toBeNull();
		}
	});
});

/** The sources of one directive of a policy. */
function directive(csp: string | null, name: string): string[] {
	const d = (csp ?? '')
		.split(';')
		.map((s) => s.trim().split(/\s+/))
		.find(([n]) => n === name);
	return d ? d.slice(1) : [];
}

describe('form hijack: forms may post only where the page means them to', () => {
	test("the playground's pages allow form-action 'self' only", async () => {
		for (const path of ['/', '/link', '/api-docs', '/sandbox', '/no-such-page']) {
			const res = await get(plain, plain.url, path, { headers: { accept: 'text/html' } });
			expect(directive(res.headers.get('content-security-policy'), 'form-action'), path).toEqual([
				"'self'"
			]);
		}
	});

	test("the consent page adds the origin of this request's redirect URI, and no other", async () => {
		const consent = (client_id: string, redirect_uri: string) =>
			get(
				plain,
				plain.url,
				`/sandbox/oauth2/auth?${new URLSearchParams({ client_id, redirect_uri, response_type: 'code', state: 's' })}`,
				{ headers: { accept: 'text/html' } }
			);
		const twin = plain.url.replace('127.0.0.1', 'localhost');
		const cases: [string, string, string[]][] = [
			['sandbox-rw', `${plain.url}/callback`, ["'self'", plain.url]],
			['sandbox-rw', `${twin}/callback`, ["'self'", twin]],
			['other-port-app', 'http://localhost:3999/cb', ["'self'", 'http://localhost:3999']]
		];
		for (const [client, uri, sources] of cases) {
			const res = await consent(client, uri);
			expect(res.status, uri).toBe(200);
			expect(directive(res.headers.get('content-security-policy'), 'form-action'), uri).toEqual(
				sources
			);
		}
		// An unregistered redirect URI gets no page at all, so no form either.
		expect((await consent('sandbox-rw', 'https://evil.example/cb')).status).toBe(400);
	});
});

describe('the pages built outside SvelteKit', () => {
	test.each([
		// The host-name refusal is the same page (plainPage), checked in tests/unit/hosts.test.ts.
		['the unsolicited redirect', '/callback?state=made-up&code=x', {}, 400]
	])(
		'%s is a styled page whose style, and nothing else, its policy allows',
		async (_what, path, headers, status) => {
			const res = await fetch(plain.url + path, { headers: { accept: 'text/html', ...headers } });
			expect(res.status).toBe(status);
			const html = await res.text();
			const style = /<style>([^<]*)<\/style>/.exec(html)?.[1];
			expect(style, 'an inline style').toBeTruthy();
			const hash = createHash('sha256').update(style!).digest('base64');
			const csp = res.headers.get('content-security-policy') ?? '';
			expect(csp).toContain(`style-src 'sha256-${hash}'`);
			expect(csp).toContain("default-src 'none'");
			expect(csp).not.toMatch(/script-src|unsafe-inline/);
			expect(html).not.toMatch(/<script/i);
			expect(html).toContain('name="viewport"');
		}
	);
});
