import { describe, expect, test } from 'vitest';
import {
	checkCallback,
	consentUrl,
	explainAuthorizationError,
	makeState,
	sameString,
	scopeRetry,
	stateBytes
} from '$lib/oauth/consent';

describe('makeState', () => {
	test('is 32 random bytes in base64url: 43 URL-safe characters', () => {
		const s = makeState();
		expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(makeState()).not.toBe(s);
	});
	test('encodes the bytes it is given', () => {
		expect(makeState((n) => new Uint8Array(n).fill(255))).toBe('_'.repeat(42) + '8');
	});
});

describe('consentUrl', () => {
	const req = {
		client_id: 'app 1',
		redirect_uri: 'http://127.0.0.1:5173/callback',
		scope: 'read write',
		state: 'ä&=x'
	};
	test('carries the five seed parameters, URL-encoded', () => {
		const u = new URL(consentUrl('https://reader.test/oauth2/auth', req));
		expect([...u.searchParams.keys()]).toEqual([
			'client_id',
			'redirect_uri',
			'response_type',
			'scope',
			'state'
		]);
		expect(u.searchParams.get('response_type')).toBe('code');
		expect(u.searchParams.get('state')).toBe('ä&=x');
		expect(u.searchParams.get('redirect_uri')).toBe(req.redirect_uri);
		expect(u.toString()).toContain('scope=read+write');
	});
	test('keeps other parameters already on the endpoint and replaces a placeholder state', () => {
		const u = new URL(consentUrl('https://reader.test/oauth2/auth?hl=en&state=<STATE>', req));
		expect(u.searchParams.get('hl')).toBe('en');
		expect(u.searchParams.getAll('state')).toEqual(['ä&=x']);
	});
	test('refuses a state over 500 bytes', () => {
		expect(() => consentUrl('https://reader.test/a', { ...req, state: 'é'.repeat(251) })).toThrow(
			RangeError
		);
		expect(stateBytes('é'.repeat(250))).toBe(500);
		expect(() =>
			consentUrl('https://reader.test/a', { ...req, state: 'é'.repeat(250) })
		).not.toThrow();
	});
});

describe('checkCallback', () => {
	const p = (q: string) => new URLSearchParams(q);
	test('a matching state with a code', () => {
		expect(checkCallback(p('code=abc&state=s1'), 's1')).toEqual({ kind: 'code', code: 'abc' });
	});
	test('extra parameters such as iss are not fatal', () => {
		expect(checkCallback(p('code=abc&state=s1&iss=https%3A%2F%2Freader.test'), 's1')).toEqual({
			kind: 'code',
			code: 'abc'
		});
	});
	test('a different state is a mismatch, and the code is not handed out', () => {
		const v = checkCallback(p('code=abc&state=s2'), 's1');
		expect(v.kind).toBe('state-mismatch');
		expect(JSON.stringify(v)).not.toContain('abc');
	});
	test('a missing state is a mismatch', () => {
		expect(checkCallback(p('code=abc'), 's1').kind).toBe('state-mismatch');
	});
	test('an error must carry the state too', () => {
		expect(checkCallback(p('error=access_denied&state=s1'), 's1')).toMatchObject({
			kind: 'error',
			error: 'access_denied'
		});
		expect(checkCallback(p('error=access_denied&state=zz'), 's1').kind).toBe('state-mismatch');
	});
	test('no pending state: the redirect is not expected', () => {
		expect(checkCallback(p('code=abc&state=s1'), undefined).kind).toBe('no-pending-state');
	});
	test('repeated parameters are malformed', () => {
		expect(checkCallback(p('code=a&code=b&state=s1'), 's1').kind).toBe('malformed');
	});
	test('neither code nor error is malformed', () => {
		expect(checkCallback(p('state=s1'), 's1').kind).toBe('malformed');
	});
});

test('sameString compares exactly', () => {
	expect(sameString('abc', 'abc')).toBe(true);
	expect(sameString('abc', 'abd')).toBe(false);
	expect(sameString('abc', 'ab')).toBe(false);
});

test('authorization errors are explained in plain words', () => {
	expect(explainAuthorizationError('access_denied')).toMatch(/declined consent/);
	expect(explainAuthorizationError('invalid_scope')).toMatch(/Read only/);
	expect(explainAuthorizationError('made_up')).toMatch(/does not define/);
});

test('a denial names the sandbox’s buttons only when the sandbox is the target', () => {
	const anywhere = explainAuthorizationError('access_denied');
	const sandbox = explainAuthorizationError('access_denied', { sandbox: true });
	expect(anywhere).toMatch(/The user, or the provider, declined consent/);
	expect(anywhere).toMatch(/start the consent step again/);
	expect(anywhere).not.toMatch(/Authorize|Deny/);
	expect(sandbox).toMatch(/choose Authorize/);
	expect(sandbox).toMatch(/start the consent step again/);
	// Errors without sandbox words read the same everywhere.
	expect(explainAuthorizationError('server_error', { sandbox: true })).toBe(
		explainAuthorizationError('server_error')
	);
});

describe('the scope "Try again" asks for after invalid_scope', () => {
	const SERVICE = { service: true };
	test('write dropped, the other words kept, read added when it was not there', () => {
		expect(scopeRetry('invalid_scope', 'read write', SERVICE)).toBe('read');
		expect(scopeRetry('invalid_scope', 'write  read', SERVICE)).toBe('read');
		expect(scopeRetry('invalid_scope', 'write', SERVICE)).toBe('read');
		expect(scopeRetry('invalid_scope', 'openid read write', SERVICE)).toBe('openid read');
	});
	test('no guess without write in the scope, or for another error', () => {
		expect(scopeRetry('invalid_scope', 'read', SERVICE)).toBeUndefined();
		expect(scopeRetry('invalid_scope', 'openid profile', SERVICE)).toBeUndefined();
		expect(scopeRetry('invalid_scope', '', SERVICE)).toBeUndefined();
		expect(scopeRetry('invalid_scope', undefined, SERVICE)).toBeUndefined();
		expect(scopeRetry('access_denied', 'read write', SERVICE)).toBeUndefined();
		expect(scopeRetry(undefined, 'read write', SERVICE)).toBeUndefined();
	});
	test('no guess for a server that is not the service: its scopes are its own', () => {
		expect(scopeRetry('invalid_scope', 'read write', { service: false })).toBeUndefined();
		expect(scopeRetry('invalid_scope', 'openid read write', { service: false })).toBeUndefined();
	});
});
