/**
 * An OpenID Connect user-info endpoint (named by the metadata) that refuses a token granted no
 * `openid` (diagnose.ts): one finding naming the missing scope, certain when the server says so,
 * likely for a bare 401, and never a guess that the endpoint is the wrong URL.
 */
import { expect, test } from 'vitest';
import { diagnose } from '$lib/oauth/diagnose';
import type { Exchange } from '$lib/exchange/types';

const userinfo = (status: number, www?: string, body = ''): Exchange => ({
	id: 'u1',
	step: 'userinfo',
	startedAt: '2026-12-06T10:00:00.000Z',
	request: {
		method: 'GET',
		url: 'https://id.example.test/o/userinfo/',
		httpVersion: '1.1',
		headers: [['Authorization', 'Bearer abc']],
		body: ''
	},
	response: {
		status,
		statusText: '',
		httpVersion: '1.1',
		headers: www ? [['WWW-Authenticate', www]] : [],
		body,
		truncated: false
	},
	timing: { total: 3 },
	findings: []
});
const errors = (ex: Exchange, scope?: string) =>
	diagnose(ex, scope === undefined ? {} : { openidUserinfo: { scope } }).filter(
		(f) => f.level === 'error'
	);

test("django-oauth-toolkit's bare 401 on a token without openid: most likely the missing scope, no wrong-URL guess", () => {
	const ex = userinfo(401, 'Bearer realm="oauth", error="invalid_token"');
	const [found, ...more] = errors(ex, 'read write');
	expect(more).toEqual([]);
	expect(found!.code).toBe('openid-scope-missing');
	expect(found!.message).toMatch(/^Most likely, the user-info endpoint is OpenID Connect's/);
	expect(found!.fix).toContain('"openid read write"');
	// Without the metadata's word for it, the 401 is the token's, as before.
	expect(errors(ex).map((f) => f.code)).toEqual(['invalid_token']);
});

test('a 403 that says insufficient_scope is certain; a token granted openid is refused for another reason', () => {
	const said = userinfo(403, 'Bearer error="insufficient_scope", scope="openid"');
	expect(errors(said, 'read')[0]!.message).toMatch(/^The user-info endpoint is OpenID Connect's/);
	expect(errors(userinfo(401), 'openid read').map((f) => f.code)).toEqual(['invalid_token']);
	// A 403 that says nothing of a scope is not laid on openid.
	expect(errors(userinfo(403), 'read').map((f) => f.code)).not.toContain('openid-scope-missing');
});

test('an HTML 404 from the metadata’s endpoint gets no wrong-endpoint guess either', () => {
	const page = userinfo(404, undefined, '<html><body>Not Found</body></html>');
	expect(errors(page, 'openid read').map((f) => f.code)).not.toContain('wrong-endpoint');
	expect(errors(page).map((f) => f.code)).toContain('wrong-endpoint');
});
