/**
 * The feed-reader service's own advice only for its setup (oauth/advice.ts decides, diagnose.ts
 * reads it from its context): a setup with custom endpoints gets none of the service's documented
 * paths, no userId note, no "Read only" and no "read"/"write" words, and the scopes its metadata
 * lists when known; the service's setup (its documented endpoints, or the sandbox) still gets them.
 */
import { describe, expect, test } from 'vitest';
import { diagnose, diagnoseCallback } from '$lib/oauth/diagnose';
import { adviceFor, adviceForRecording, isDocumentedSetup, type Advice } from '$lib/oauth/advice';
import { explainAuthorizationError } from '$lib/oauth/consent';
import type { Exchange, Finding } from '$lib/exchange/types';
import type { Step } from '$lib/steps/registry';

const SERVICE: Advice = { service: true };
const OTHER: Advice = { service: false };
const OTHER_WITH_SCOPES: Advice = { service: false, scopes: ['openid', 'profile', 'email'] };

/** The service's words that must not reach another server's setup. */
const SERVICE_WORDS =
	/oauth2\/auth|oauth2\/token|reader\/api\/0|userId|Read only|read-only|zone|"read"|"write"/;

const exchange = (
	step: Step,
	url: string,
	status: number,
	body: string,
	headers: [string, string][] = [['Content-Type', 'application/json']],
	method = step === 'exchange' ? 'POST' : 'GET'
): Exchange => ({
	id: 'x1',
	step,
	startedAt: '2026-12-06T10:00:00.000Z',
	request: {
		method,
		url,
		httpVersion: '1.1',
		headers: method === 'POST' ? [['Content-Type', 'application/x-www-form-urlencoded']] : [],
		body: ''
	},
	response: { status, statusText: '', httpVersion: '1.1', headers, body, truncated: false },
	timing: { total: 3 },
	findings: []
});

const text = (fs: Finding[]) => fs.map((f) => `${f.message} ${f.fix ?? ''}`).join('\n');

describe('the decision (advice.ts)', () => {
	const base = 'http://127.0.0.1:8000';
	const setup = {
		base_url: base,
		authorization_endpoint: '',
		token_endpoint: '',
		userinfo_endpoint: ''
	};

	test('documented endpoints, or custom ones equal to them, are the service’s; others are not', () => {
		expect(isDocumentedSetup(setup)).toBe(true);
		expect(isDocumentedSetup({ ...setup, token_endpoint: `${base}/oauth2/token/` })).toBe(true);
		expect(isDocumentedSetup({ ...setup, token_endpoint: `${base}/o/token/` })).toBe(false);
		expect(isDocumentedSetup({ ...setup, userinfo_endpoint: `${base}/o/userinfo/` })).toBe(false);
	});

	test('trailing slashes aside, on the base URL or the endpoint; an endpoint the docs give no path is no evidence', () => {
		for (const typed of [`${base}/`, `${base}//`])
			expect(
				isDocumentedSetup({ ...setup, base_url: typed, token_endpoint: `${base}/oauth2/token` }),
				typed
			).toBe(true);
		expect(isDocumentedSetup({ ...setup, token_endpoint: `${base}/oauth2/token//` })).toBe(true);
		expect(
			isDocumentedSetup({ ...setup, revocation_endpoint: 'https://elsewhere.test/o/revoke/' })
		).toBe(true);
	});

	test('a recording is the service’s while every documented endpoint it called was at its documented path, below any base', () => {
		const at = (step: Step, url: string) => exchange(step, url, 200, '{}');
		const service = [
			at('exchange', 'https://reader.example.test/base/oauth2/token'),
			at('userinfo', 'https://reader.example.test/base/reader/api/0/user-info//'),
			// A request to an endpoint the docs give no path, or with no URL to read, tells nothing.
			at('revoke', 'https://reader.example.test/o/revoke/'),
			at('refresh', 'not a url')
		];
		expect(adviceForRecording(service)).toEqual({ service: true });
		expect(adviceForRecording([])).toEqual({ service: true });
		expect(
			adviceForRecording([...service, at('refresh', 'https://id.example.test/oidc/token')])
		).toEqual({ service: false });
		expect(adviceForRecording([at('userinfo', 'https://reader.example.test/o/userinfo/')])).toEqual(
			{ service: false }
		);
	});

	test('the sandbox is the service’s whatever its endpoints; the metadata’s scopes go only to another server', () => {
		const custom = { ...setup, authorization_endpoint: `${base}/o/authorize/` };
		expect(adviceFor(custom, true, ['openid'])).toEqual({ service: true });
		expect(adviceFor(custom, false, ['openid'])).toEqual({ service: false, scopes: ['openid'] });
		expect(adviceFor(custom, false, [])).toEqual({ service: false });
		expect(adviceFor(setup, false, ['openid'])).toEqual({ service: true });
		expect(adviceFor(null, false)).toEqual({ service: true });
	});
});

describe('wrong endpoint', () => {
	// The API console on a server with custom endpoints: an HTML 404 under the base URL.
	const notFound = exchange(
		'api',
		'http://127.0.0.1:8000/reader/api/0/subscription/list',
		404,
		'<html><title>Not Found</title></html>',
		[['Content-Type', 'text/html']]
	);
	test('another server’s setup: the fix names its own endpoints, none of the service’s paths', () => {
		const [f] = diagnose(notFound, { advice: OTHER }).filter((x) => x.code === 'wrong-endpoint');
		expect(f!.fix).toContain('Advanced settings');
		expect(f!.fix).not.toMatch(SERVICE_WORDS);
	});
	test('the service’s setup: its documented endpoints, as before', () => {
		const [f] = diagnose(notFound, { advice: SERVICE }).filter((x) => x.code === 'wrong-endpoint');
		expect(f!.fix).toContain('http://127.0.0.1:8000/oauth2/token');
	});
});

describe('user-info', () => {
	const ok = exchange('userinfo', 'http://127.0.0.1:8000/o/userinfo/', 200, '{"sub":"1"}');
	test('no userId note for another server; the service’s setup keeps it', () => {
		expect(diagnose(ok, { advice: OTHER }).map((f) => f.code)).not.toContain('userinfo-fields');
		expect(diagnose(ok, { advice: SERVICE }).map((f) => f.code)).toContain('userinfo-fields');
	});
});

describe('scope refusals', () => {
	const tokenRefusal = exchange(
		'exchange',
		'http://127.0.0.1:8000/o/token/',
		400,
		'{"error":"invalid_scope"}',
		[
			['Content-Type', 'application/json'],
			['Cache-Control', 'no-store']
		]
	);
	test('the token endpoint’s invalid_scope: the metadata’s scopes for another server, "Read only" for the service', () => {
		const other = text(diagnose(tokenRefusal, { advice: OTHER_WITH_SCOPES }));
		expect(other).toContain('"openid", "profile", "email"');
		expect(other).not.toMatch(SERVICE_WORDS);
		expect(text(diagnose(tokenRefusal, { advice: OTHER }))).not.toMatch(SERVICE_WORDS);
		expect(text(diagnose(tokenRefusal, { advice: SERVICE }))).toMatch(/read-only registration/);
	});

	test('invalid_scope sent back to the callback, and its fix on the page', () => {
		const other = text(diagnoseCallback('error', 'invalid_scope', undefined, OTHER_WITH_SCOPES));
		expect(other).toContain('"openid", "profile", "email"');
		expect(other).not.toMatch(SERVICE_WORDS);
		const fix = explainAuthorizationError('invalid_scope', { advice: OTHER });
		expect(fix).not.toMatch(SERVICE_WORDS);
		expect(explainAuthorizationError('invalid_scope', { advice: SERVICE })).toContain('Read only');
		expect(text(diagnoseCallback('error', 'invalid_scope', undefined, SERVICE))).toContain(
			'Read only'
		);
	});

	test('invalid_scope at once on "Check the consent URL"', () => {
		const redirect = 'http://127.0.0.1:5173/callback';
		const check = exchange(
			'check',
			'http://127.0.0.1:8000/o/authorize/?client_id=c&scope=write',
			302,
			'',
			[['Location', `${redirect}?error=invalid_scope`]]
		);
		const other = diagnose(check, { advice: OTHER_WITH_SCOPES, redirectUri: redirect });
		expect(other.map((f) => f.code)).toEqual(['invalid_scope']);
		expect(text(other)).toContain('"openid", "profile", "email"');
		expect(text(other)).not.toMatch(SERVICE_WORDS);
		expect(text(diagnose(check, { advice: SERVICE, redirectUri: redirect }))).toContain(
			'Read only'
		);
	});

	test('a granted scope without write: no zone-2 or "Read only" fix for another server', () => {
		const granted = exchange(
			'exchange',
			'http://127.0.0.1:8000/o/token/',
			200,
			JSON.stringify({
				access_token: 'a',
				token_type: 'Bearer',
				expires_in: 60,
				refresh_token: 'r',
				scope: 'read'
			}),
			[
				['Content-Type', 'application/json'],
				['Cache-Control', 'no-store']
			]
		);
		const differs = (advice: Advice) =>
			diagnose(granted, { advice, requestedScope: 'read write' }).find(
				(f) => f.code === 'scope-differs'
			)!;
		expect(differs(OTHER).fix).toBeUndefined();
		expect(differs(SERVICE).fix).toContain('Read only');
	});

	test('a 403 from the API: the scope the server asks for, no zone 2, for another server', () => {
		const forbidden = exchange('api', 'http://127.0.0.1:8000/api/items', 403, '{}', [
			['Content-Type', 'application/json'],
			['WWW-Authenticate', 'Bearer error="insufficient_scope", scope="items:write"']
		]);
		const other = diagnose(forbidden, { advice: OTHER_WITH_SCOPES });
		expect(other.map((f) => f.code)).toEqual(['insufficient_scope']);
		expect(text(other)).toContain('"items:write"');
		expect(text(other)).not.toMatch(SERVICE_WORDS);
		const plain = exchange('api', 'http://127.0.0.1:8000/api/items', 403, '{}');
		expect(text(diagnose(plain, { advice: OTHER }))).not.toMatch(SERVICE_WORDS);
		expect(text(diagnose(forbidden, { advice: SERVICE }))).toContain('zone-2');
	});
});
