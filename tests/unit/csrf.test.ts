import { expect, test } from 'vitest';
import { crossSiteForm } from '$lib/server/session/csrf';

const u = (p: string) => new URL(`http://127.0.0.1:5173${p}`);
const h = (o: Record<string, string>) => new Headers(o);
const form = { 'content-type': 'application/x-www-form-urlencoded' };

test.each([
	['POST', '/?/setup', { ...form, origin: 'http://127.0.0.1:5173' }, false],
	['POST', '/?/setup', { ...form, origin: 'https://evil.test' }, true],
	['POST', '/?/setup', form, true],
	[
		'POST',
		'/?/setup',
		{ 'content-type': 'multipart/form-data; boundary=x', origin: 'http://localhost:5173' },
		true
	],
	['POST', '/?/setup', { 'content-type': 'text/plain' }, true],
	['POST', '/?/setup', {}, true],
	['POST', '/?/setup', { ...form, origin: 'null', 'sec-fetch-site': 'same-origin' }, false],
	['POST', '/?/setup', { ...form, origin: 'null', 'sec-fetch-site': 'cross-site' }, true],
	['POST', '/?/setup', { ...form, origin: 'null' }, true],
	[
		'POST',
		'/?/setup',
		{ ...form, origin: 'https://evil.test', 'sec-fetch-site': 'same-origin' },
		true
	],
	[
		'POST',
		'/?/setup',
		{ ...form, origin: 'http://127.0.0.1:5173', 'sec-fetch-site': 'same-site' },
		true
	],
	['POST', '/api/thing', { 'content-type': 'application/json' }, false],
	['GET', '/', { origin: 'https://evil.test' }, false],
	['POST', '/sandbox/oauth2/token', form, false],
	['POST', '/sandbox/reader/api/0/edit-tag', form, false],
	['POST', '/sandbox/oauth2/token/../../?/reset', form, true],
	['POST', '/sandbox/oauth2/auth?/authorize', { ...form, origin: 'https://evil.test' }, true],
	// Every unsafe method is checked, not only POST.
	['PUT', '/?/setup', { ...form, origin: 'https://evil.test' }, true],
	['PATCH', '/?/setup', { ...form, origin: 'https://evil.test' }, true],
	['DELETE', '/?/setup', { ...form, origin: 'https://evil.test' }, true],
	// A media type with white space before its parameters is still a form.
	['POST', '/?/setup', { 'content-type': 'text/plain ; charset=utf-8' }, true],
	// Only the machine endpoints themselves are exempt, not a path that starts like one.
	['POST', '/sandbox/oauth2/tokens', form, true],
	// No Origin at all, but the browser says same-origin: a same-origin form post.
	['POST', '/?/setup', { ...form, 'sec-fetch-site': 'same-origin' }, false]
])('%s %s %o → cross-site: %s', (method, path, headers, expected) => {
	expect(crossSiteForm(method, u(path), h(headers))).toBe(expected);
});
