/**
 * The security headers (src/lib/server/headers.js): the ones serve.js sets before any handler, HSTS
 * only for an https ORIGIN, and the consent page's `form-action` widened to its redirect URI's origin.
 */
import { describe, expect, test } from 'vitest';
import {
	baseHeaders,
	NON_PAGE_CSP,
	originSource,
	secureHeaders,
	wantsHsts,
	withFormAction,
	WORKER_CSP
} from '../../src/lib/server/headers.js';

const PAGE_CSP = "default-src 'self'; script-src 'self' 'sha256-x'; form-action 'self'";

describe('HSTS', () => {
	test('only for an https ORIGIN', () => {
		expect(wantsHsts('https://playground.example')).toBe(true);
		expect(wantsHsts('http://playground.example')).toBe(false);
		expect(wantsHsts(undefined)).toBe(false);
		expect(wantsHsts('not a url')).toBe(false);
	});

	test('the headers serve.js sets: nosniff and the non-page CSP always, HSTS with https', () => {
		const plain = Object.fromEntries(baseHeaders(undefined));
		expect(plain).toEqual({
			'X-Content-Type-Options': 'nosniff',
			'Referrer-Policy': 'no-referrer',
			'X-Frame-Options': 'DENY',
			'Cross-Origin-Opener-Policy': 'same-origin',
			'Content-Security-Policy': NON_PAGE_CSP
		});
		expect(Object.fromEntries(baseHeaders('https://p.example'))).toEqual({
			...plain,
			'Strict-Transport-Security': 'max-age=31536000'
		});
	});

	test("a worker's script may load the build's scripts and nothing else; every other file, nothing", () => {
		const csp = (path: string) =>
			Object.fromEntries(baseHeaders(undefined, path))['Content-Security-Policy'];
		expect(csp('/_app/immutable/workers/highlight.worker-x.js')).toBe(
			"default-src 'none'; script-src 'self'; frame-ancestors 'none'"
		);
		expect(csp('/_app/immutable/workers/chunks/x.js')).toBe(WORKER_CSP);
		expect(csp('/_app/immutable/chunks/x.js')).toBe(NON_PAGE_CSP);
		expect(csp('/x/_app/immutable/workers/y.js')).toBe(NON_PAGE_CSP);
		const hooked = new Headers();
		secureHeaders(hooked, { path: '/_app/immutable/workers/w.js', origin: undefined });
		expect(hooked.get('Content-Security-Policy')).toBe(WORKER_CSP);
		const other = new Headers();
		secureHeaders(other, { path: '/healthz', origin: undefined });
		expect(other.get('Content-Security-Policy')).toBe(NON_PAGE_CSP);
	});
});

describe('form-action', () => {
	test('a source per origin; a custom scheme or an IPv6 literal gives the scheme alone', () => {
		expect(originSource('http://127.0.0.1:3000/cb?x=1')).toBe('http://127.0.0.1:3000');
		expect(originSource('https://app.example/cb')).toBe('https://app.example');
		expect(originSource('com.example.app:/cb')).toBe('com.example.app:');
		expect(originSource('http://[::1]:3000/cb')).toBe('http:');
		expect(originSource('not a url')).toBeUndefined();
	});

	test('sources are added to the directive once, and the directive is added when missing', () => {
		expect(withFormAction(PAGE_CSP, ['http://localhost:3000'])).toBe(
			"default-src 'self'; script-src 'self' 'sha256-x'; form-action 'self' http://localhost:3000"
		);
		expect(withFormAction(PAGE_CSP, ["'self'"])).toBe(PAGE_CSP);
		expect(withFormAction("default-src 'self'", ['https://a.example'])).toBe(
			"default-src 'self'; form-action 'self' https://a.example"
		);
		expect(withFormAction(PAGE_CSP, [])).toBe(PAGE_CSP);
	});
});

describe('secureHeaders', () => {
	test('a response without a CSP gets the non-page one, no-store, and HSTS with https', () => {
		const h = new Headers();
		secureHeaders(h, { path: '/healthz', origin: 'https://p.example' });
		expect(Object.fromEntries(h)).toEqual({
			'x-content-type-options': 'nosniff',
			'referrer-policy': 'no-referrer',
			'x-frame-options': 'DENY',
			'cross-origin-opener-policy': 'same-origin',
			'content-security-policy': NON_PAGE_CSP,
			'strict-transport-security': 'max-age=31536000',
			'cache-control': 'no-store'
		});
	});

	test("a page's CSP is kept, widened by the form targets' origins", () => {
		const h = new Headers({ 'content-security-policy': PAGE_CSP });
		secureHeaders(h, {
			path: '/sandbox/oauth2/auth',
			origin: undefined,
			formTargets: ['http://localhost:3000/callback']
		});
		expect(h.get('content-security-policy')).toBe(`${PAGE_CSP} http://localhost:3000`);
		expect(h.get('strict-transport-security')).toBeNull();
	});

	test('immutable build assets keep their caching', () => {
		const h = new Headers({ 'cache-control': 'public,max-age=31536000,immutable' });
		secureHeaders(h, { path: '/_app/immutable/a.js', origin: undefined });
		expect(h.get('cache-control')).toBe('public,max-age=31536000,immutable');
	});
});
