// The sandbox consent page over real HTTP: the service’s API docs §4.1, RFC 6749 §4.1.1 and §4.1.2.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import type { TestServer } from '../helpers/server';
import {
	authUrl,
	getCode,
	getConsent,
	jwtPayload,
	openConsent,
	postDecision,
	startSandbox
} from './sandbox-helpers';

const EXT_REDIRECT = 'http://app.example.test/cb?tenant=a%20b&x=1';
let srv: TestServer;

beforeAll(async () => {
	srv = await startSandbox({
		SANDBOX_CLIENTS: JSON.stringify([
			{
				client_id: 'ext-app',
				client_secret: 'ext-secret',
				name: 'Example <Reader> & Co',
				redirect_uris: [EXT_REDIRECT],
				default_scope: 'read write'
			}
		])
	});
});
afterAll(() => srv?.stop());

async function expectServiceError(res: Response, body: Record<string, string>) {
	expect(res.status).toBe(400);
	expect(res.headers.get('content-type')).toMatch(/^application\/json/);
	expect(res.headers.get('location')).toBeNull();
	expect(await res.json()).toMatchObject(body);
}

function errorRedirect(res: Response, redirect: string): URL {
	expect(res.status).toBe(302);
	const loc = new URL(res.headers.get('location')!);
	expect(loc.origin + loc.pathname).toBe(redirect);
	return loc;
}

describe('errors shown at the service (never redirected)', () => {
	it('redirect_uri not registered: JSON 400 redirect_uri_mismatch', async () => {
		for (const redirect_uri of [
			`${srv.url}/callback/`,
			`${srv.url}/callbackx`,
			`${srv.url}/callback?x=1`,
			'http://evil.example/callback',
			`http://127.0.0.1:1/callback`
		]) {
			const res = await getConsent(srv, { redirect_uri });
			await expectServiceError(res, {
				error: 'redirect_uri_mismatch',
				error_description: 'The redirect URI provided is missing or does not match',
				error_uri: 'https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2'
			});
		}
	});

	it('redirect_uri missing: JSON 400 redirect_uri_mismatch', async () => {
		const res = await fetch(
			authUrl(srv, { client_id: 'sandbox-rw', response_type: 'code', state: 's' }),
			{ redirect: 'manual' }
		);
		await expectServiceError(res, { error: 'redirect_uri_mismatch' });
	});

	it('unknown or missing client_id: JSON 400 invalid_client', async () => {
		await expectServiceError(await getConsent(srv, { client_id: 'no-such-app' }), {
			error: 'invalid_client',
			error_description: 'Unknown client_id "no-such-app"'
		});
		const res = await fetch(
			authUrl(srv, { redirect_uri: `${srv.url}/callback`, response_type: 'code', state: 's' }),
			{ redirect: 'manual' }
		);
		await expectServiceError(res, { error: 'invalid_client' });
	});

	it('a bad redirect_uri wins over every other problem', async () => {
		await expectServiceError(
			await getConsent(srv, {
				redirect_uri: 'http://evil.example/cb',
				response_type: 'token',
				state: undefined
			}),
			{ error: 'redirect_uri_mismatch' }
		);
	});
});

describe('errors redirected back to the application', () => {
	it('response_type other than code: unsupported_response_type with the state', async () => {
		const loc = errorRedirect(
			await getConsent(srv, { response_type: 'token', state: 'keep me' }),
			`${srv.url}/callback`
		);
		expect(loc.searchParams.get('error')).toBe('unsupported_response_type');
		expect(loc.searchParams.get('state')).toBe('keep me');
		expect(loc.searchParams.has('code')).toBe(false);
	});

	it('state missing: invalid_request with a description', async () => {
		const loc = errorRedirect(await getConsent(srv, { state: undefined }), `${srv.url}/callback`);
		expect(loc.searchParams.get('error')).toBe('invalid_request');
		expect(loc.searchParams.get('error_description')).toMatch(/state/);
	});

	it('state over 500 bytes of UTF-8: invalid_request; exactly 500 bytes is fine', async () => {
		expect((await getConsent(srv, { state: 'ü'.repeat(250) })).status).toBe(200);
		const loc = errorRedirect(
			await getConsent(srv, { state: 'ü'.repeat(250) + '!' }),
			`${srv.url}/callback`
		);
		expect(loc.searchParams.get('error')).toBe('invalid_request');
		expect(loc.searchParams.get('error_description')).toMatch(/500 bytes/);
	});

	it('write asked by the read-only registration: invalid_scope with the state', async () => {
		const loc = errorRedirect(
			await getConsent(srv, { client_id: 'sandbox-ro', scope: 'read write', state: 'ro-state' }),
			`${srv.url}/callback`
		);
		expect(loc.searchParams.get('error')).toBe('invalid_scope');
		expect(loc.searchParams.get('error_description')).toBeTruthy();
		expect(loc.searchParams.get('state')).toBe('ro-state');
	});

	it('an unknown scope value: invalid_scope', async () => {
		const loc = errorRedirect(
			await getConsent(srv, { scope: 'read admin' }),
			`${srv.url}/callback`
		);
		expect(loc.searchParams.get('error')).toBe('invalid_scope');
	});
});

describe('the consent page', () => {
	it('is HTML naming the application, the permissions and the demo user, with real buttons', async () => {
		const res = await getConsent(srv, { scope: 'read write' });
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/html/);
		const html = await res.text();
		expect(html).toContain('Sandbox playground (read/write)');
		expect(html).toContain('Read your subscriptions, tags and unread counts');
		expect(html).toContain('Change your subscriptions and tags (add/remove tags, mark read)');
		expect(html).toContain('Demo Reader');
		expect(html).toContain('demo@example.com');
		expect(html).toMatch(/<h1[^>]*>/);
		expect(html).toMatch(/<form[^>]*method="POST"/i);
		expect(html).toMatch(
			/<button[^>]*type="submit"[^>]*formaction="\?\/authorize"[^>]*>Authorize<\/button>/
		);
		expect(html).toMatch(/<button[^>]*type="submit"[^>]*formaction="\?\/deny"[^>]*>Deny<\/button>/);
		expect(html).not.toMatch(/<script[^>]*src="https?:/);
		expect(html).not.toMatch(/<link[^>]*href="https?:\/\/(?!127\.0\.0\.1)/);
	});

	it('asks only for read when scope is read, or for the read-only registration by default', async () => {
		for (const p of [
			{ scope: 'read' },
			{ client_id: 'sandbox-ro', scope: '' },
			{ client_id: 'sandbox-ro' }
		]) {
			const { html } = await openConsent(srv, p);
			expect(html).toContain('Read your subscriptions, tags and unread counts');
			expect(html).not.toContain('Change your subscriptions and tags');
		}
	});

	it('accepts "write read" and the registration default, and normalizes to "read write"', async () => {
		for (const p of [{ scope: 'write read' }, { scope: '' }, { scope: undefined }]) {
			const { ticket } = await openConsent(srv, p);
			expect(jwtPayload(ticket).scope).toBe('read write');
		}
	});

	it('escapes the application name', async () => {
		const { html } = await openConsent(srv, { client_id: 'ext-app', redirect_uri: EXT_REDIRECT });
		expect(html).toContain('Example &lt;Reader> &amp; Co');
		expect(html).not.toContain('Example <Reader>');
	});

	it('works on the loopback twin of the origin', async () => {
		const twin = srv.url.replace('127.0.0.1', 'localhost');
		expect((await getConsent(srv, { redirect_uri: `${twin}/callback` })).status).toBe(200);
		expect((await getConsent(srv, { redirect_uri: `${twin}/sandbox/landing` })).status).toBe(200);
		expect((await getConsent(srv, { redirect_uri: `${srv.url}/sandbox/landing` })).status).toBe(
			200
		);
	});
});

describe('the decision', () => {
	it('Authorize: 303 to the redirect URI with code and the state byte for byte', async () => {
		const state = 'a b+c&d=e/ü?%20#frag;\'"<>';
		const { code, location } = await getCode(srv, { state });
		expect(location.origin + location.pathname).toBe(`${srv.url}/callback`);
		expect(location.searchParams.get('state')).toBe(state);
		expect([...location.searchParams.keys()]).toEqual(['code', 'state']);
		expect(jwtPayload(code)).toMatchObject({
			client_id: 'sandbox-rw',
			redirect_uri: `${srv.url}/callback`,
			scope: 'read write'
		});
	});

	it('keeps the registered query of the redirect URI', async () => {
		const { ticket } = await openConsent(srv, {
			client_id: 'ext-app',
			redirect_uri: EXT_REDIRECT,
			state: 's1'
		});
		const res = await postDecision(srv, 'authorize', { ticket });
		expect(res.status).toBe(303);
		const loc = res.headers.get('location')!;
		expect(loc.startsWith(`${EXT_REDIRECT}&code=`)).toBe(true);
		expect(loc.endsWith('&state=s1')).toBe(true);
	});

	it('Deny: 303 with error=access_denied, a description and the state', async () => {
		const { ticket } = await openConsent(srv, { state: 'deny-state' });
		const res = await postDecision(srv, 'deny', { ticket });
		expect(res.status).toBe(303);
		const loc = new URL(res.headers.get('location')!);
		expect(loc.origin + loc.pathname).toBe(`${srv.url}/callback`);
		expect(loc.searchParams.get('error')).toBe('access_denied');
		expect(loc.searchParams.get('error_description')).toBeTruthy();
		expect(loc.searchParams.get('state')).toBe('deny-state');
		expect(loc.searchParams.has('code')).toBe(false);
	});

	it('trusts only the ticket: other posted fields are ignored', async () => {
		const { ticket } = await openConsent(srv, { client_id: 'sandbox-ro', state: 'real' });
		const res = await postDecision(srv, 'authorize', {
			ticket,
			redirect_uri: 'http://evil.example/steal',
			client_id: 'sandbox-rw',
			scope: 'read write',
			state: 'forged'
		});
		expect(res.status).toBe(303);
		const loc = new URL(res.headers.get('location')!);
		expect(loc.origin + loc.pathname).toBe(`${srv.url}/callback`);
		expect(loc.searchParams.get('state')).toBe('real');
		expect(jwtPayload(loc.searchParams.get('code')!)).toMatchObject({
			client_id: 'sandbox-ro',
			scope: 'read'
		});
	});

	it('refuses a missing ticket with 400 and a clear message', async () => {
		const res = await postDecision(srv, 'authorize', {});
		expect(res.status).toBe(400);
		expect(res.headers.get('location')).toBeNull();
		expect(await res.text()).toContain('missing its ticket');
	});

	it('refuses a forged ticket (other key, tampered, or another kind of token)', async () => {
		const { ticket } = await openConsent(srv);
		const claims = jwtPayload(ticket);
		const otherKey = await new SignJWT({ ...claims, redirect_uri: 'http://evil.example/cb' })
			.setProtectedHeader({ alg: 'HS256', typ: 'sandbox-ticket+jwt' })
			.sign(new TextEncoder().encode('not the sandbox key at all, but long enough'));
		const [h, , s] = ticket.split('.');
		const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, redirect_uri: 'http://evil.example/cb' })).toString('base64url')}.${s}`;
		const { code } = await getCode(srv);
		for (const bad of [otherKey, tampered, code, 'x.y.z']) {
			for (const action of ['authorize', 'deny'] as const) {
				const res = await postDecision(srv, action, { ticket: bad });
				expect(res.status).toBe(400);
				expect(res.headers.get('location')).toBeNull();
				expect(await res.text()).toContain('bad ticket');
			}
		}
	});

	it('refuses a decision posted from another site', async () => {
		const { ticket } = await openConsent(srv);
		const foreign: Record<string, string>[] = [
			{ Origin: 'http://evil.example' },
			{ Origin: 'null', 'Sec-Fetch-Site': 'cross-site' }
		];
		for (const headers of foreign) {
			const res = await postDecision(srv, 'authorize', { ticket }, headers);
			expect(res.status).toBe(403);
			expect(res.headers.get('location')).toBeNull();
		}
		// The same ticket still works from the page itself.
		expect((await postDecision(srv, 'authorize', { ticket })).status).toBe(303);
	});

	it('accepts the decision as a browser sends it under Referrer-Policy: no-referrer (Origin: null, Sec-Fetch-Site: same-origin)', async () => {
		const { ticket } = await openConsent(srv);
		const res = await postDecision(
			srv,
			'authorize',
			{ ticket },
			{ Origin: 'null', 'Sec-Fetch-Site': 'same-origin' }
		);
		expect(res.status).toBe(303);
		expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy();
	});
});
