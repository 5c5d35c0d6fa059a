/**
 * The requests on the wire, byte for byte. Three flows run from consent to revocation through the
 * page's own entry points (the form actions of +page.server.ts, its `load`, and /callback), with an
 * app's real sender, against the scripted service (tests/helpers/scripted-service.ts), which
 * records each request as it arrived. Every request the playground sends is written out (its
 * request line, its headers in the order and spelling they arrived, and its body), with the consent
 * URLs the flows build, and the whole text is compared with tests/fixtures/wire-bytes.txt. A change
 * of a header's name, value or place, of a body field's order or encoding, of an endpoint or of the
 * order of the requests fails this test with the lines that differ.
 *
 * Time is the app's clock, standing still until the test moves it; randomness (the state, the PKCE
 * verifier, a fork's flow id) comes from a seeded generator in place of `crypto.getRandomValues`.
 * The one thing the code does not choose, the port the scripted service listens on, is written as
 * `<port>`: only the exact string `127.0.0.1:<its port>`, nothing broader. In the fixture a line
 * ends in LF where the wire has CRLF; the body is as it arrived.
 *
 * A change that is meant to change the wire records the fixture again, on purpose:
 *
 *   UPDATE_WIRE_FIXTURE=1 npx vitest run --project unit-isolated tests/unit/wire-bytes.test.ts
 *
 * and the fixture's diff goes with the change. Without that variable the test only compares.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import type { App } from '$lib/app.server';
import { testApp, testClock } from './test-app';
import { FakeCookies } from './fake-cookies';
import {
	startScriptedService,
	type ScriptedAnswer,
	type ScriptedService,
	type SeenRequest
} from '../helpers/scripted-service';

const { current } = vi.hoisted(() => ({
	/** The request being handled, as `$app/server` hands it to the modules. */
	current: {} as { event?: unknown }
}));
vi.mock('$app/server', () => ({
	getRequestEvent: () => {
		if (!current.event) throw new Error('outside a request');
		return current.event;
	}
}));

const FIXTURE = fileURLToPath(new URL('../fixtures/wire-bytes.txt', import.meta.url));
const UPDATE = process.env.UPDATE_WIRE_FIXTURE === '1';

/** The playground's own origin, as the browser reaches it. */
const ORIGIN = 'http://127.0.0.1:5173';
const T0 = Date.UTC(2030, 0, 2, 3, 4, 5);
const clock = testClock(T0);
const app: App = testApp(11, {}, clock);

const { actions, load } = await import('../../src/routes/+page.server');
const { GET: callbackRoute } = await import('../../src/routes/callback/+server');

/** mulberry32: the same bytes, in the same order, on every run. */
function seeded(seed: number) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) & 0xff;
	};
}

let service: ScriptedService;
let BASE = '';
beforeAll(async () => {
	service = await startScriptedService();
	BASE = service.url;
	const next = seeded(48);
	vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(
		<T extends ArrayBufferView | null>(array: T): T => {
			if (array) {
				const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
				for (let i = 0; i < bytes.length; i++) bytes[i] = next();
			}
			return array;
		}
	);
});
afterAll(async () => {
	vi.restoreAllMocks();
	await service.close();
});

/** One browser: its cookie jar, and the requests it makes to the playground for one flow. */
class Browser {
	readonly jar = new FakeCookies();
	constructor(readonly flow: string) {}

	/** The request as the browser sends it, with its cookies; the modules see it as the current one. */
	#event(url: URL, form?: Record<string, string>) {
		const cookie = this.jar
			.getAll()
			.map(({ name, value }) => `${name}=${value}`)
			.join('; ');
		const request = form
			? new Request(url, {
					method: 'POST',
					body: new URLSearchParams(form).toString(),
					headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }
				})
			: new Request(url, { headers: { cookie } });
		const event = {
			cookies: this.jar,
			url,
			request,
			params: {},
			route: { id: url.pathname === '/' ? '/' : url.pathname },
			getClientAddress: () => '127.0.0.1',
			setHeaders: () => {},
			locals: { app }
		};
		current.event = event;
		return event;
	}

	#page() {
		return new URL(`${ORIGIN}/?flow=${this.flow}`);
	}

	/** A form action of the page, posted with `form`; a failure fails the test, with its message. */
	async post(action: keyof typeof actions, form: Record<string, string> = {}) {
		const url = new URL(`${this.#page()}&/${action}`);
		const r = (await actions[action]!(this.#event(url, form) as never)) as Record<string, unknown>;
		if (r && typeof r === 'object' && 'status' in r && 'data' in r)
			throw new Error(`${action} failed (${String(r.status)}): ${JSON.stringify(r.data)}`);
		return r;
	}

	/** The page's data, as its `load` gives it. */
	async page() {
		return (await load(this.#event(this.#page()) as never)) as {
			pending: { consent_url: string; state: string } | null;
		};
	}

	/** The service's redirect back to /callback, as the browser follows it. */
	async callback(query: Record<string, string>) {
		const url = new URL(`${ORIGIN}/callback?${new URLSearchParams(query)}`);
		try {
			await callbackRoute(this.#event(url) as never);
		} catch (e) {
			// SvelteKit's redirect() throws the 303 back to the flow's page.
			if ((e as { status?: number }).status === 303) return;
			throw e;
		}
		throw new Error('/callback did not redirect back to the flow');
	}
}

/** What the fixture holds, block by block. */
const out: string[] = [];

/** The port of the scripted service, and nothing else, written as `<port>`. */
function portless(text: string): string {
	const { host } = new URL(BASE);
	return text.replace(new RegExp(`${host.replace(/\./g, '\\.')}(?!\\d)`, 'g'), '127.0.0.1:<port>');
}

/** A request as it arrived: the request line, the headers as they came, a blank line, the body. */
function asHttp(seen: SeenRequest): string {
	const lines = [`${seen.method} ${seen.url} HTTP/${seen.httpVersion}`];
	for (let i = 0; i + 1 < seen.rawHeaders.length; i += 2)
		lines.push(`${seen.rawHeaders[i]}: ${seen.rawHeaders[i + 1]}`);
	return `${lines.join('\n')}\n\n${seen.body}`;
}

/**
 * Runs one step of the page with `answers` queued: every answer must be taken, and every request
 * must find one. The requests it sent go into the fixture under `label`.
 */
async function step(label: string, answers: ScriptedAnswer[], run: () => Promise<unknown>) {
	const from = service.received.length;
	service.answer(...answers);
	await run();
	expect(service.unscripted, `${label}: every request found a scripted answer`).toEqual([]);
	expect(service.queued(), `${label}: every scripted answer was used`).toBe(0);
	const sent = service.received.slice(from);
	if (!sent.length) out.push(`=== ${label}: nothing sent ===`);
	sent.forEach((seen, i) => {
		const n = sent.length > 1 ? ` (${i + 1} of ${sent.length})` : '';
		out.push(`=== ${label}${n} ===\n${portless(asHttp(seen))}`);
	});
}

/** The consent URL the flow's page shows: built by the playground, opened by the browser. */
async function consent(label: string, browser: Browser): Promise<string> {
	const data = await browser.page();
	const url = data.pending!.consent_url;
	out.push(`=== ${label}: consent URL (built, not sent) ===\n${portless(url)}`);
	return data.pending!.state;
}

const json = (body: unknown, status = 200): ScriptedAnswer => ({
	status,
	headers: [['Content-Type', 'application/json']],
	body: JSON.stringify(body)
});
const tokens = (access: string, refresh: string, scope: string) =>
	json({
		access_token: access,
		token_type: 'Bearer',
		expires_in: 3600,
		refresh_token: refresh,
		scope
	});
const invalidGrant = json({ error: 'invalid_grant' }, 400);
const userInfo = json({ userId: '1001', userName: 'reader', userEmail: 'reader@example.test' });
const unauthorized: ScriptedAnswer = {
	status: 401,
	headers: [['WWW-Authenticate', 'Bearer error="invalid_token"']],
	body: ''
};

/** A JWT to check: three base64url parts (its signature is no one's). */
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const JWT = `${b64({ alg: 'RS256', typ: 'JWT', kid: 'k1' })}.${b64({ iss: 'https://issuer.test', sub: 'u1' })}.c2lnbmF0dXJl`;

test('the requests the whole flow puts on the wire are the recorded ones, byte for byte', async () => {
	// Flow A: client_secret_post, PKCE S256, a pushed request, every endpoint; consent to revocation.
	const a = new Browser('AAAAAAAAAAAAAAAA');
	await step(
		'A1 Fill from metadata (discover)',
		[
			json({ error: 'not_found' }, 404),
			json({
				issuer: BASE,
				authorization_endpoint: `${BASE}/oauth2/auth`,
				token_endpoint: `${BASE}/oauth2/token`,
				response_types_supported: ['code'],
				token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic']
			})
		],
		() =>
			a.post('discover', {
				base_url: BASE,
				issuer: '',
				token_endpoint_auth_method: 'client_secret_post',
				pkce: 'S256'
			})
	);
	await a.post('setup', {
		base_url: BASE,
		client_id: 'app-1',
		client_secret: 'the-client-secret-42',
		redirect_uri: `${ORIGIN}/callback`,
		scope: 'read write',
		token_endpoint_auth_method: 'client_secret_post',
		pkce: 'S256',
		auto_exchange: 'on',
		use_par: 'on',
		pushed_authorization_request_endpoint: `${BASE}/oauth2/par`,
		introspection_endpoint: `${BASE}/oauth2/introspect`,
		revocation_endpoint: `${BASE}/oauth2/revoke`,
		jwks_uri: `${BASE}/oauth2/jwks`
	});
	const stateA = await consent('A2 Save the setup', a);
	await step(
		'A3 Check the consent URL (check)',
		[{ status: 200, headers: [['Content-Type', 'text/html']], body: '<p>Allow app-1?</p>' }],
		() => a.post('check')
	);
	await step(
		'A4 Push the request (par)',
		[json({ request_uri: 'urn:ietf:params:oauth:request_uri:pushed-1', expires_in: 60 }, 201)],
		() => a.post('par')
	);
	await consent('A4 after the push', a);
	await step('A5 the redirect back to /callback', [], () =>
		a.callback({ code: 'code-A', state: stateA })
	);
	await step('A6 Exchange the code (exchange)', [tokens('at-A1', 'rt-A1', 'read write')], () =>
		a.post('exchange')
	);
	await step('A7 User info (userinfo)', [userInfo], () => a.post('userinfo'));
	await step('A8 API GET (api)', [json({ subscriptions: [] })], () =>
		a.post('api', {
			method: 'GET',
			path: 'subscription/list',
			query: 'output=json',
			headers: '',
			body_kind: 'none'
		})
	);
	await step('A9 API POST, a write (api)', [{ status: 200, body: 'OK' }], () =>
		a.post('api', {
			method: 'POST',
			path: 'edit-tag',
			query: '',
			headers: 'X-Trace: wire-1\nAccept-Language: en',
			body_kind: 'form',
			body: 'i=item-1&a=user/-/state/com.google/read'
		})
	);
	await step('A10 Refresh (refresh)', [tokens('at-A2', 'rt-A2', 'read write')], () =>
		a.post('refresh', { auto: '' })
	);
	await step(
		'A11 Introspect the access token (introspect)',
		[json({ active: true, scope: 'read write' })],
		() => a.post('introspect', { which: 'access_token' })
	);
	await step('A12 Check a JWT’s signature (jwt)', [json({ keys: [] })], () =>
		a.post('jwt', { which: 'pasted', token: JWT })
	);
	await step('A13 Replay this code (replay)', [invalidGrant, unauthorized], () =>
		a.post('replay', { confirm: 'replay' })
	);
	// The access token expires: user info refreshes it first.
	clock.set(T0 + 3_601_000);
	await step(
		'A14 User info after expiry (userinfo)',
		[tokens('at-A3', 'rt-A3', 'read write'), userInfo],
		() => a.post('userinfo')
	);
	await step(
		'A15 Revoke the access token (revoke)',
		[{ status: 200, body: '' }, unauthorized],
		() => a.post('revoke', { which: 'access_token' })
	);
	await step(
		'A16 Revoke the refresh token (revoke)',
		[{ status: 200, body: '' }, invalidGrant],
		() => a.post('revoke', { which: 'refresh_token' })
	);

	// Flow B: client_secret_basic, no PKCE, paste-back, the access token in the query.
	const b = new Browser('BBBBBBBBBBBBBBBB');
	await b.post('setup', {
		base_url: BASE,
		client_id: 'app 2',
		client_secret: 'b:a%s+i c/=~?é',
		redirect_uri: 'http://127.0.0.1:8080/cb',
		scope: 'read',
		token_endpoint_auth_method: 'client_secret_basic',
		pkce: 'off',
		token_location: 'query',
		auto_exchange: 'on',
		introspection_endpoint: `${BASE}/oauth2/introspect`,
		revocation_endpoint: `${BASE}/oauth2/revoke`
	});
	const stateB = await consent('B1 Save the setup', b);
	await step('B2 Paste back the address (pasteback)', [], () =>
		b.post('pasteback', { pasted: `http://127.0.0.1:8080/cb?code=code-B&state=${stateB}` })
	);
	await step('B3 Exchange the code (exchange)', [tokens('at-B1', 'rt-B1', 'read')], () =>
		b.post('exchange')
	);
	await step('B4 User info, token in the query (userinfo)', [userInfo], () => b.post('userinfo'));
	await step('B5 Refresh, automatic (refresh)', [tokens('at-B2', 'rt-B2', 'read')], () =>
		b.post('refresh', { auto: '1' })
	);
	await step('B6 Introspect the refresh token (introspect)', [json({ active: true })], () =>
		b.post('introspect', { which: 'refresh_token' })
	);
	await step(
		'B7 Revoke the refresh token (revoke)',
		[{ status: 200, body: '' }, invalidGrant],
		() => b.post('revoke', { which: 'refresh_token' })
	);

	// Flow C: a public client (none), PKCE plain.
	const c = new Browser('CCCCCCCCCCCCCCCC');
	await c.post('setup', {
		base_url: BASE,
		client_id: 'public-app',
		client_secret: '',
		redirect_uri: `${ORIGIN}/callback`,
		scope: '',
		token_endpoint_auth_method: 'none',
		pkce: 'plain',
		auto_exchange: 'on'
	});
	const stateC = await consent('C1 Save the setup', c);
	await step(
		'C2 Check the consent URL (check)',
		[
			{
				status: 302,
				headers: [['Location', `${ORIGIN}/callback?error=access_denied&state=${stateC}`]]
			}
		],
		() => c.post('check')
	);
	// An `iss` from elsewhere, with no issuer in the setup: the code is held back (RFC 9207).
	await step('C3 the redirect back to /callback, from another issuer', [], () =>
		c.callback({ code: 'code-C', state: stateC, iss: 'https://other-issuer.test' })
	);
	await step('C4 Exchange anyway (exchange)', [tokens('at-C1', 'rt-C1', 'read')], () =>
		c.post('exchange', { anyway: '1' })
	);
	await step('C5 Refresh (refresh)', [tokens('at-C2', 'rt-C2', 'read')], () =>
		c.post('refresh', { auto: '' })
	);

	const text =
		'# The requests on the wire, as the scripted service received them (tests/unit/wire-bytes.test.ts).\n' +
		'# Recorded with UPDATE_WIRE_FIXTURE=1; lines end in LF here, CRLF on the wire.\n\n' +
		out.join('\n\n') +
		'\n';
	if (UPDATE) {
		writeFileSync(FIXTURE, text);
		return;
	}
	expect(
		existsSync(FIXTURE),
		'tests/fixtures/wire-bytes.txt is missing: record it with UPDATE_WIRE_FIXTURE=1 (see the header of tests/unit/wire-bytes.test.ts)'
	).toBe(true);
	expect(text, 'the requests on the wire differ from tests/fixtures/wire-bytes.txt').toBe(
		readFileSync(FIXTURE, 'utf8')
	);
});
