import { describe, expect, it } from 'vitest';
import type { RequestEvent } from '@sveltejs/kit';
import { decodeJwt } from 'jose';
import {
	checkAuthorizationRequest,
	consentView,
	decideConsent,
	decisionIsSameOrigin,
	redirectWith,
	type ConsentRequest
} from '$lib/sandbox/authorize.server';
import { sandboxPreflight } from '$lib/sandbox/preflight.server';
import { signCode, signTicket, TICKET_TTL } from '$lib/sandbox/signing.server';
import { testClock, testSandbox } from './test-app';

const env = {
	PLAYGROUND_SESSION_KEY: Buffer.alloc(32, 'unit-test-sandbox-authorize-key').toString('base64url')
};
const clock = testClock(Date.UTC(2030, 0, 1));
const sb = testSandbox(env, clock);

const ORIGIN = 'http://127.0.0.1:5173';
const CB = `${ORIGIN}/callback`;

function check(params: Record<string, string>) {
	return checkAuthorizationRequest(sb.settings, new URLSearchParams(params), ORIGIN);
}
const base = { client_id: 'sandbox-rw', redirect_uri: CB, response_type: 'code', state: 'st' };

function location(r: ReturnType<typeof check>): URL {
	if (r.kind !== 'redirect') throw new Error(`expected a redirect, got ${r.kind}`);
	return new URL(r.location);
}

describe('sandbox consent request checks (RFC 6749 §4.1.1, §4.1.2.1)', () => {
	it('ends at the service for an unknown or missing client', () => {
		expect(check({ ...base, client_id: 'nope' })).toMatchObject({
			kind: 'fatal',
			error: 'invalid_client',
			error_description: 'Unknown client_id "nope"'
		});
		expect(check({ redirect_uri: CB, response_type: 'code', state: 's' })).toMatchObject({
			kind: 'fatal',
			error: 'invalid_client'
		});
	});

	it('ends at the service for a missing or unregistered redirect_uri', () => {
		const expected = {
			kind: 'fatal',
			error: 'redirect_uri_mismatch',
			error_description: 'The redirect URI provided is missing or does not match',
			error_uri: 'https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2'
		};
		expect(check({ ...base, redirect_uri: 'http://evil.example/callback' })).toEqual(expected);
		const { redirect_uri: _omit, ...noRedirect } = base;
		void _omit;
		expect(check(noRedirect)).toEqual(expected);
		// Even the other checks' failures must not redirect to an unregistered URI.
		expect(
			check({ ...base, redirect_uri: 'http://evil.example/callback', response_type: 'token' }).kind
		).toBe('fatal');
	});

	it('refuses repeated client_id or redirect_uri at the service, other repeats by redirect', () => {
		const p = new URLSearchParams(base);
		p.append('redirect_uri', CB);
		expect(checkAuthorizationRequest(sb.settings, p, ORIGIN)).toMatchObject({
			kind: 'fatal',
			error: 'invalid_request'
		});
		const q = new URLSearchParams(base);
		q.append('state', 'again');
		expect(
			location(checkAuthorizationRequest(sb.settings, q, ORIGIN)).searchParams.get('error')
		).toBe('invalid_request');
	});

	it('redirects unsupported_response_type with the state', () => {
		const url = location(check({ ...base, response_type: 'token' }));
		expect(url.origin + url.pathname).toBe(CB);
		expect(url.searchParams.get('error')).toBe('unsupported_response_type');
		expect(url.searchParams.get('state')).toBe('st');
		expect(location(check({ ...base, response_type: '' })).searchParams.get('error')).toBe(
			'invalid_request'
		);
	});

	it('requires state and caps it at 500 bytes of UTF-8', () => {
		const { state: _s, ...noState } = base;
		void _s;
		const missing = location(check(noState));
		expect(missing.searchParams.get('error')).toBe('invalid_request');
		expect(missing.searchParams.get('error_description')).toMatch(/state/);
		expect(missing.searchParams.has('state')).toBe(false);
		expect(check({ ...base, state: 'é'.repeat(250) }).kind).toBe('consent');
		const long = location(check({ ...base, state: 'é'.repeat(250) + 'x' }));
		expect(long.searchParams.get('error')).toBe('invalid_request');
		expect(long.searchParams.get('error_description')).toMatch(/501 bytes/);
		expect(check({ ...base, state: 'a'.repeat(500) }).kind).toBe('consent');
	});

	it('redirects invalid_scope for write on a read-only registration, and for unknown values', () => {
		const ro = location(check({ ...base, client_id: 'sandbox-ro', scope: 'read write' }));
		expect(ro.searchParams.get('error')).toBe('invalid_scope');
		expect(ro.searchParams.get('state')).toBe('st');
		expect(ro.searchParams.get('error_description')).toBeTruthy();
		expect(location(check({ ...base, scope: 'admin' })).searchParams.get('error')).toBe(
			'invalid_scope'
		);
	});

	it('normalizes the scope and falls back to the registration', () => {
		expect(check({ ...base, scope: 'write read' })).toMatchObject({
			kind: 'consent',
			scope: 'read write',
			scopeWasDefault: false
		});
		expect(check({ ...base, client_id: 'sandbox-ro', scope: '' })).toMatchObject({
			kind: 'consent',
			scope: 'read',
			scopeWasDefault: true
		});
		expect(check(base)).toMatchObject({
			kind: 'consent',
			scope: 'read write',
			scopeWasDefault: true
		});
	});

	it('keeps the registered query of the redirect URI byte for byte', () => {
		expect(
			redirectWith('https://a.example/cb?tenant=a%20b&x=1', { code: 'c', state: 'a b&c' })
		).toBe('https://a.example/cb?tenant=a%20b&x=1&code=c&state=a+b%26c');
		expect(redirectWith('https://a.example/cb', { code: 'c', state: undefined })).toBe(
			'https://a.example/cb?code=c'
		);
		expect(redirectWith('https://a.example/cb?', { code: 'c' })).toBe(
			'https://a.example/cb?code=c'
		);
	});
});

describe('sandbox consent decision', () => {
	async function request(params: Record<string, string> = {}): Promise<ConsentRequest> {
		const r = check({ ...base, ...params });
		if (r.kind !== 'consent') throw new Error(r.kind);
		return r;
	}

	it('shows the application, the permissions and the demo user, with a signed ticket', async () => {
		const view = await consentView(sb, await request({ scope: 'read' }));
		expect(view.appName).toBe('Sandbox playground (read/write)');
		expect(view.permissions).toEqual(['Read your subscriptions, tags and unread counts']);
		expect(view.user).toEqual({ name: 'Demo Reader', email: 'demo@example.com', userId: '1001' });
		expect(decodeJwt(view.ticket)).toMatchObject({
			client_id: 'sandbox-rw',
			redirect_uri: CB,
			scope: 'read',
			state: 'st'
		});
	});

	it('authorizes with a code and the unchanged state', async () => {
		const state = 'a b+c&d=e/é?%20#x';
		const view = await consentView(sb, await request({ state }));
		const r = await decideConsent(sb, view.ticket, 'authorize');
		if (!r.ok) throw new Error(r.message);
		const url = new URL(r.location);
		expect(url.origin + url.pathname).toBe(CB);
		expect(url.searchParams.get('state')).toBe(state);
		expect(decodeJwt(url.searchParams.get('code')!)).toMatchObject({
			client_id: 'sandbox-rw',
			redirect_uri: CB,
			scope: 'read write'
		});
	});

	it('gives the code the SANDBOX_CODE_TTL lifetime', async () => {
		const short = testSandbox({ ...env, SANDBOX_CODE_TTL: '7' }, clock);
		const view = await consentView(short, await request());
		const r = await decideConsent(short, view.ticket, 'authorize');
		if (!r.ok) throw new Error(r.message);
		const claims = decodeJwt(new URL(r.location).searchParams.get('code')!);
		expect(claims.exp! - claims.iat!).toBe(7);
	});

	it('denies with access_denied and the state', async () => {
		const view = await consentView(sb, await request());
		const r = await decideConsent(sb, view.ticket, 'deny');
		if (!r.ok) throw new Error(r.message);
		const url = new URL(r.location);
		expect(url.searchParams.get('error')).toBe('access_denied');
		expect(url.searchParams.get('error_description')).toBeTruthy();
		expect(url.searchParams.get('state')).toBe('st');
		expect(url.searchParams.has('code')).toBe(false);
	});

	it('replayed ticket: one issued under another store generation is refused, and mints no code', async () => {
		const before = await signTicket(sb, {
			client_id: 'sandbox-rw',
			redirect_uri: CB,
			scope: 'read',
			state: 's',
			gen: 'before'
		});
		for (const decision of ['authorize', 'deny'] as const)
			expect(await decideConsent(sb, before.token, decision)).toEqual({
				ok: false,
				status: 400,
				message: expect.stringMatching(
					/issued before the sandbox's store was emptied .* Start again from the application/
				)
			});
	});

	it('refuses a missing, forged, foreign-kind or expired ticket', async () => {
		expect(await decideConsent(sb, undefined, 'authorize')).toMatchObject({
			ok: false,
			status: 400,
			message: expect.stringMatching(/missing its ticket/)
		});
		expect(await decideConsent(sb, 'forged.ticket.value', 'authorize')).toMatchObject({
			ok: false,
			status: 400,
			message: expect.stringMatching(/bad ticket/)
		});
		const code = await signCode(
			sb,
			{ client_id: 'sandbox-rw', redirect_uri: CB, scope: 'read', fam: 'f', gen: 'g' },
			60
		);
		expect(await decideConsent(sb, code.token, 'authorize')).toMatchObject({
			ok: false,
			status: 400
		});
		const now = clock();
		clock.set(now - (TICKET_TTL + 1) * 1000);
		const old = await signTicket(sb, {
			client_id: 'sandbox-rw',
			redirect_uri: CB,
			scope: 'read',
			state: 's',
			gen: 'g'
		});
		clock.set(now);
		expect(await decideConsent(sb, old.token, 'authorize')).toMatchObject({
			ok: false,
			status: 400,
			message: expect.stringMatching(/expired/)
		});
	});
});

describe('sandbox decision origin check', () => {
	const h = (init: Record<string, string>) => new Headers(init);
	it('accepts the same origin, refuses other sites', () => {
		expect(decisionIsSameOrigin(h({ origin: ORIGIN }), ORIGIN)).toBe(true);
		expect(
			decisionIsSameOrigin(h({ origin: 'null', 'sec-fetch-site': 'same-origin' }), ORIGIN)
		).toBe(true);
		expect(decisionIsSameOrigin(h({ origin: 'http://evil.example' }), ORIGIN)).toBe(false);
		expect(
			decisionIsSameOrigin(
				h({ origin: 'http://evil.example', 'sec-fetch-site': 'same-origin' }),
				ORIGIN
			)
		).toBe(false);
		expect(
			decisionIsSameOrigin(h({ origin: 'null', 'sec-fetch-site': 'cross-site' }), ORIGIN)
		).toBe(false);
		expect(decisionIsSameOrigin(h({ origin: 'null' }), ORIGIN)).toBe(false);
		expect(decisionIsSameOrigin(h({ 'sec-fetch-site': 'same-site' }), ORIGIN)).toBe(false);
		expect(decisionIsSameOrigin(h({}), ORIGIN)).toBe(false);
	});
});

describe('sandboxPreflight', () => {
	function event(path: string, method = 'GET'): RequestEvent {
		const url = new URL(path, ORIGIN);
		return { url, request: new Request(url, { method }) } as unknown as RequestEvent;
	}

	it('answers JSON 400 for a bad client or redirect URI on GET /sandbox/oauth2/auth', async () => {
		const res = sandboxPreflight(
			sb,
			event(
				`/sandbox/oauth2/auth?client_id=sandbox-rw&redirect_uri=${encodeURIComponent('http://evil.example/cb')}`
			)
		)!;
		expect(res.status).toBe(400);
		expect(res.headers.get('content-type')).toBe('application/json');
		expect(res.headers.get('location')).toBeNull();
		expect(await res.json()).toEqual({
			error: 'redirect_uri_mismatch',
			error_description: 'The redirect URI provided is missing or does not match',
			error_uri: 'https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2'
		});
		const unknown = sandboxPreflight(sb, event('/sandbox/oauth2/auth?client_id=zzz'))!;
		expect(unknown.status).toBe(400);
		expect((await unknown.json()).error).toBe('invalid_client');
	});

	it('lets everything else through', () => {
		expect(
			sandboxPreflight(
				sb,
				event(`/sandbox/oauth2/auth?client_id=sandbox-rw&redirect_uri=${encodeURIComponent(CB)}`)
			)
		).toBeUndefined();
		expect(sandboxPreflight(sb, event('/sandbox/oauth2/auth?/authorize', 'POST'))).toBeUndefined();
		expect(sandboxPreflight(sb, event('/sandbox/oauth2/token?client_id=zzz'))).toBeUndefined();
		expect(sandboxPreflight(sb, event('/sandbox'))).toBeUndefined();
	});
});
