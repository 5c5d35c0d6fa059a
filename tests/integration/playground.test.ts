/**
 * The playground's form actions over real HTTP against the built server and its sandbox:
 * the whole flow, and bad input of every kind answered with a 4xx and a reason, never a 500.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;

beforeAll(async () => {
	const port = await freePort();
	srv = await startServer(
		{
			PLAYGROUND_PRESETS: JSON.stringify([
				{
					name: 'docs-demo',
					label: 'Docs demo',
					base_url: `http://127.0.0.1:${port}/sandbox`,
					client_id: 'sandbox-ro',
					client_secret: 'sandbox-ro-secret',
					scope: 'read'
				}
			])
		},
		port
	);
});
afterAll(() => srv?.stop());

function exchanges(r: { data: Record<string, unknown> }): Exchange[] {
	return (r.data.exchanges as Exchange[]) ?? [];
}

async function setUp(c: Client, fields: Record<string, string> = {}) {
	return c.action('setup', {
		base_url: `${c.base}/sandbox`,
		client_id: 'sandbox-rw',
		client_secret: 'sandbox-rw-secret',
		scope: 'read write',
		redirect_uri: `${c.base}/callback`,
		auto_exchange: 'true',
		...fields
	});
}

describe('the whole flow over HTTP', () => {
	test('preset → consent → callback → exchange → user-info → refresh → API', async () => {
		const c = new Client(srv.url);
		const preset = await c.action('preset', { preset: 'sandbox-rw' });
		expect(preset.type).toBe('success');
		const html = await c.page();
		expect(html).toContain('A secret is set');
		const consent = consentUrlFrom(html);
		expect(consent).toContain('client_id=sandbox-rw');
		const location = await decide(c, consent);
		expect(location).toMatch(/\/callback\?code=/);
		const cb = await c.fetch(location);
		expect(cb.res.status).toBe(303);
		expect(cb.res.headers.get('location')).toBe(`/?flow=${c.flow}`);
		const page = await c.page();
		expect(page).toContain('data-verdict="code"');

		const ex = await c.action('exchange');
		expect(ex.type).toBe('success');
		const [tokenEx] = exchanges(ex);
		expect(tokenEx!.response!.status).toBe(200);
		expect(tokenEx!.request.body).toMatch(
			/^code=[^&]+&redirect_uri=[^&]+&client_id=sandbox-rw&client_secret=<redacted>&scope=&grant_type=authorization_code$/
		);
		expect(tokenEx!.request.headers.map(([n]) => n)).toEqual([
			'Host',
			'User-Agent',
			'Accept',
			'Content-Type',
			'Content-Length',
			'Connection'
		]);
		expect(tokenEx!.redactions?.[0]?.length).toBe('sandbox-rw-secret'.length);

		const again = await c.action('exchange');
		expect(again.status).toBe(409);
		expect(String(again.data.message)).toMatch(/no code/i);

		const ui = await c.action('userinfo');
		const [uiEx] = exchanges(ui);
		expect(uiEx!.response!.status).toBe(200);
		expect(JSON.parse(uiEx!.response!.body)).toHaveProperty('userId');
		expect(uiEx!.request.headers.find(([n]) => n === 'Authorization')?.[1]).toMatch(/^Bearer /);

		const rf = await c.action('refresh');
		const [rfEx] = exchanges(rf);
		expect(rfEx!.response!.status).toBe(200);
		expect(rfEx!.request.body).toContain('grant_type=refresh_token');
		expect(await c.page()).toContain('The refresh token rotated');

		const api = await c.action('api', {
			method: 'GET',
			path: 'subscription/list',
			query: 'output=json',
			body: ''
		});
		expect(exchanges(api)[0]!.response!.status).toBe(200);
		expect(exchanges(api)[0]!.request.url).toMatch(
			/\/sandbox\/reader\/api\/0\/subscription\/list\?output=json$/
		);

		for (const s of c.seen) expect(s.body + s.headers).not.toContain('sandbox-rw-secret');
	});

	test('a read-only client gets 403 on a zone-2 call, explained', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-ro' });
		await c.fetch(await decide(c, consentUrlFrom(await c.page())));
		await c.page();
		await c.action('exchange');
		const api = await c.action('api', {
			method: 'POST',
			path: 'edit-tag',
			query: '',
			body: 'i=1&a=user/-/state/com.google/starred'
		});
		const [ex] = exchanges(api);
		expect(ex!.response!.status).toBe(403);
		expect(ex!.findings.map((f) => f.code)).toContain('insufficient_scope');
	});

	test('the access token can go in the query instead of the header', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		await c.action('setup', {
			base_url: `${srv.url}/sandbox`,
			client_id: 'sandbox-rw',
			scope: 'read',
			redirect_uri: `${srv.url}/callback`,
			token_location: 'query',
			auto_exchange: 'true'
		});
		await c.fetch(await decide(c, consentUrlFrom(await c.page())));
		await c.page();
		await c.action('exchange');
		const [ex] = exchanges(await c.action('userinfo'));
		expect(ex!.request.url).toContain('access_token=');
		expect(ex!.request.headers.some(([n]) => n === 'Authorization')).toBe(false);
		expect(ex!.response!.status).toBe(200);
	});
});

describe('the state check', () => {
	test('a tampered state aborts, and the code is never used', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const consent = consentUrlFrom(await c.page());
		const loc = await decide(c, consent);
		const u = new URL(loc);
		u.searchParams.set('state', 'forged');
		const cb = await c.fetch(u.toString(), { headers: { accept: 'text/html' } });
		expect(cb.res.status).toBe(400);
		expect(cb.body).toContain('may be forged');
		const html = await c.page();
		expect(consentUrlFrom(html)).toBe(consent);
		expect(html).not.toContain('forged');
		const ex = await c.action('exchange');
		expect(ex.status).toBe(409);
	});
	test('the state is single-use: the same redirect twice is stale the second time', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const loc = await decide(c, consentUrlFrom(await c.page()));
		await c.fetch(loc);
		await c.page();
		const again = await c.fetch(loc);
		expect(again.res.headers.get('location')).toBe(`/?flow=${c.flow}`);
		const html = await c.page();
		expect(html).toContain('data-verdict="stale"');
		// Said in the user's terms: this address's code came back already, and waits for step 3.
		expect(html).toContain('already came back in step 2 and waits for its exchange in step 3');
		expect(html).toContain('data-verdict="code"');
	});
	test('Deny comes back as access_denied, explained', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		await c.fetch(await decide(c, consentUrlFrom(await c.page()), 'deny'));
		const html = await c.page();
		expect(html).toContain('access_denied');
		expect(html).toContain('declined consent');
		// The sandbox is the target: its own buttons are named.
		expect(html).toContain('choose Authorize');
	});
	test('extra parameters are shown and kept, never fatal; an iss on the service’s origin too', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const loc = new URL(await decide(c, consentUrlFrom(await c.page())));
		loc.searchParams.set('iss', `${srv.url}/sandbox`);
		loc.searchParams.set('session_state', 'extra-value-1');
		await c.fetch(loc.toString());
		const html = await c.page();
		expect(html).toContain('data-verdict="code"');
		expect(html).toContain(`${srv.url}/sandbox`);
		expect(html).toContain('extra-value-1');
		expect((await c.action('exchange')).type).toBe('success');
	});
});

describe('bad input gets a 4xx with a reason, never a 500', () => {
	test.each([
		[{ base_url: 'not a url' }, 'base_url', /not a valid URL/],
		[{ base_url: 'ftp://x.test' }, 'base_url', /http/],
		[{ client_id: '' }, 'client_id', /client id/],
		[{ scope: 'read "write"' }, 'scope', /quotes/],
		[{ custom_state: 'x'.repeat(501) }, 'custom_state', /500 bytes/],
		[{ token_location: 'cookie' }, 'token_location', /token goes/],
		[{ redirect_uri: 'http://a.test/cb#frag' }, 'redirect_uri', /fragment/],
		[{ client_secret: 'two\nlines' }, 'client_secret', /one line/],
		[{ token_endpoint: 'javascript:alert(1)' }, 'token_endpoint', /http/]
	])('setup %o → 400 naming %s', async (fields, field, message) => {
		const c = new Client(srv.url);
		const r = await setUp(c, fields as Record<string, string>);
		expect(r.status).toBe(400);
		expect((r.data.errors as Record<string, string>)[field]).toMatch(message);
	});
	test('a secret typed with an otherwise bad setup is not kept for the setup saved before', async () => {
		// The page keeps it in its field (tests/e2e/secret-binding.test.ts); the server binds a secret
		// only to a setup that is saved with it.
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-ro' });
		const r = await setUp(c, { base_url: 'nope', client_secret: 'typed-secret-abcd1234' });
		expect(r.status).toBe(400);
		const html = await c.page();
		expect(html).toContain('value="sandbox-ro"');
		expect(html.replace(/\s+/g, ' ')).toContain(
			"A secret is set: the preset's, kept on the server"
		);
		for (const s of c.seen) expect(s.body).not.toContain('typed-secret-abcd1234');
	});
	test.each([
		[{ method: 'TRACE', path: 'x' }, /GET, POST, PUT, PATCH or DELETE/],
		[{ method: 'GET', path: '//evil.test/x' }, /own origin/],
		[{ method: 'GET', path: 'x', headers: 'Host: evil.test' }, /Host can’t be set/],
		[{ method: 'POST', path: 'x', body_kind: 'json', body: '{' }, /not JSON/],
		[{ method: 'GET', path: 'http://evil.test/x' }, /below|path/],
		[{ method: 'GET', path: '' }, /path/],
		[{ method: 'GET', path: 'a b' }, /path characters/]
	])('api %o → 400', async (fields, message) => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const r = await c.action('api', fields);
		expect(r.status).toBe(400);
		expect(String(r.data.message)).toMatch(message);
	});
	test('steps out of order are 409 with what to do', async () => {
		const c = new Client(srv.url);
		for (const name of ['exchange', 'refresh', 'userinfo', 'restart']) {
			const r = await c.action(name);
			expect(r.status, name).toBe(409);
			expect(String(r.data.message)).toMatch(/first|no code|setup/i);
		}
		const api = await c.action('api', { method: 'GET', path: 'tag/list' });
		expect(api.status).toBe(409);
	});
	test('an unknown preset is a 400', async () => {
		expect((await new Client(srv.url).action('preset', { preset: 'nope' })).status).toBe(400);
	});
	test('a tampered session cookie is no session, with a clear message', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const name = `pg_flow_${c.flow}`;
		c.jar.set(name, c.jar.get(name)!.slice(0, -4) + 'AAAA');
		const { res, body } = await c.fetch(c.pagePath, { headers: { accept: 'text/html' } });
		expect(res.status).toBe(200);
		expect(body).toContain('could not be read');
		expect((await c.action('exchange')).status).toBe(409);
	});
	test('a garbage cookie and a callback with no flow are handled', async () => {
		const c = new Client(srv.url);
		c.jar.set(`pg_flow_${c.flow}`, '%%%garbage');
		const cb = await c.fetch('/callback?code=x&state=y');
		expect(cb.res.status).toBe(400);
		expect(cb.body).toContain('unsolicited');
		expect(cb.res.headers.getSetCookie()).toEqual([]);
	});
	test('a cross-site form post is refused', async () => {
		const r = await fetch(`${srv.url}/?/reset`, {
			method: 'POST',
			headers: { origin: 'https://evil.test', 'content-type': 'application/x-www-form-urlencoded' },
			body: ''
		});
		expect(r.status).toBe(403);
	});
});

describe('headers', () => {
	test('the page carries the security headers', async () => {
		const r = await fetch(srv.url + '/');
		expect(r.headers.get('x-content-type-options')).toBe('nosniff');
		expect(r.headers.get('referrer-policy')).toBe('no-referrer');
		expect(r.headers.get('cache-control')).toContain('no-store');
		expect(r.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
		expect(r.headers.get('content-security-policy')).not.toMatch(/script-src[^;]*unsafe-inline/);
	});
	test('the session cookie is HttpOnly and SameSite=Lax', async () => {
		const r = await fetch(`${srv.url}/?flow=AAAAAAAAAAAAAAAA&/preset`, {
			method: 'POST',
			headers: {
				origin: srv.url,
				'content-type': 'application/x-www-form-urlencoded',
				'x-sveltekit-action': 'true'
			},
			body: 'preset=sandbox-rw'
		});
		const cookie = r.headers.getSetCookie().find((c) => c.startsWith('pg_flow_AAAAAAAAAAAAAAAA='))!;
		expect(cookie).toMatch(/HttpOnly/i);
		expect(cookie).toMatch(/SameSite=Lax/i);
		expect(cookie).toMatch(/Path=\//);
		expect(cookie).not.toContain('sandbox-rw-secret');
	});
});

test('the server log holds no secret, code or token', () => {
	const logs = srv.logs();
	expect(logs).toContain('POST /');
	expect(logs).not.toContain('sandbox-rw-secret');
	expect(logs).not.toContain('kept-secret-abcd1234');
	expect(logs).not.toMatch(/code=|access_token|eyJ/);
});

test('an oversized request body is a 413 with a reason', async () => {
	const r = await fetch(`${srv.url}/?/setup`, {
		method: 'POST',
		headers: {
			origin: srv.url,
			'content-type': 'application/x-www-form-urlencoded',
			'x-sveltekit-action': 'true'
		},
		body: 'base_url=' + 'x'.repeat(70 * 1024)
	});
	expect(r.status).toBe(413);
	expect((await r.json()).message).toMatch(/at most/);
});

describe('registration check', () => {
	const codes = (r: { data: Record<string, unknown> }) =>
		exchanges(r)[0]!.findings.map((f) => f.code);
	test('a registered client and redirect URI: the service would show its consent page', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const r = await c.action('check');
		expect(exchanges(r)[0]!.step).toBe('check');
		expect(exchanges(r)[0]!.response!.status).toBe(200);
		expect(codes(r)).toEqual(['registration-ok']);
		// The check used nothing up: the consent URL still works.
		expect(await decide(c, consentUrlFrom(await c.page()))).toMatch(/code=/);
	});
	test('a redirect_uri that is not registered', async () => {
		const c = new Client(srv.url);
		await setUp(c, { redirect_uri: 'https://elsewhere.example/cb' });
		const r = await c.action('check');
		expect(exchanges(r)[0]!.response!.status).toBe(400);
		expect(codes(r)).toEqual(['redirect_uri_mismatch']);
	});
	test('an unknown client', async () => {
		const c = new Client(srv.url);
		await setUp(c, { client_id: 'nobody' });
		expect(codes(await c.action('check'))).toEqual(['unknown-client']);
	});
	test('a read-only registration asking for write', async () => {
		const c = new Client(srv.url);
		await setUp(c, {
			client_id: 'sandbox-ro',
			client_secret: 'sandbox-ro-secret',
			scope: 'read write'
		});
		const r = await c.action('check');
		expect(exchanges(r)[0]!.response!.status).toBe(302);
		expect(codes(r)).toEqual(['invalid_scope']);
		expect(exchanges(r)[0]!.findings[0]!.fix).toMatch(/^A registration set to "Read only"/);
	});
	test('a scope word the service does not know: named in the fix, never blamed on "Read only"', async () => {
		const c = new Client(srv.url);
		await setUp(c, { client_id: 'sandbox-rw', client_secret: 'sandbox-rw-secret', scope: 'admin' });
		const r = await c.action('check');
		expect(codes(r)).toEqual(['invalid_scope']);
		const [found] = exchanges(r)[0]!.findings;
		expect(found!.message).toContain('Unknown scope value');
		expect(found!.fix).toMatch(/^"admin" is not a scope of the service/);
		expect(found!.fix).not.toContain('Read only');
	});
	test('"Try again with scope read": the setup asks for read, and the new consent URL carries it', async () => {
		const c = new Client(srv.url);
		await setUp(c, {
			client_id: 'sandbox-ro',
			client_secret: 'sandbox-ro-secret',
			scope: 'read write'
		});
		const before = new URL(consentUrlFrom(await c.page()));
		expect(before.searchParams.get('scope')).toBe('read write');
		const r = await c.action('restart', { scope: 'read' });
		expect(r.type).toBe('success');
		expect(r.data).toMatchObject({ restarted: true, scope: 'read' });
		const after = new URL(consentUrlFrom(await c.page()));
		expect(after.searchParams.get('scope')).toBe('read');
		expect(after.searchParams.get('state')).not.toBe(before.searchParams.get('state'));
		expect(codes(await c.action('check'))).toEqual(['registration-ok']);
	});
	test('"Try again with" the registered redirect URI: warned after Save, offered, and the new consent URL carries it and is accepted', async () => {
		const c = new Client(srv.url);
		const registered = `${srv.url}/callback`;
		await setUp(c, {
			client_id: 'sandbox-rw',
			client_secret: 'sandbox-rw-secret',
			redirect_uri: `${registered}/`
		});
		const page = await c.page();
		expect(page).toContain('data-testid="retry-redirect-uri"');
		expect(page).toContain(`name="redirect_uri" value="${registered}"`);
		expect(codes(await c.action('check'))).toEqual(['redirect_uri_mismatch']);
		const r = await c.action('restart', { redirect_uri: registered });
		expect(r.type).toBe('success');
		expect(r.data).toMatchObject({ restarted: true, redirect_uri: registered });
		const after = new URL(consentUrlFrom(await c.page()));
		expect(after.searchParams.get('redirect_uri')).toBe(registered);
		expect(await c.page()).not.toContain('data-testid="retry-redirect-uri"');
		expect(codes(await c.action('check'))).toEqual(['registration-ok']);
		const bad = await c.action('restart', { redirect_uri: 'javascript:alert(1)' });
		expect(bad.status).toBe(400);
		expect(bad.data).toMatchObject({ field: 'redirect_uri' });
	});
	test('a scope the setup form would refuse is refused by "Try again" too, with the field named', async () => {
		const c = new Client(srv.url);
		await setUp(c);
		const r = await c.action('restart', { scope: 'read "write"' });
		expect(r.type).toBe('failure');
		expect(r.status).toBe(400);
		expect(r.data).toMatchObject({ field: 'scope' });
	});
});

describe('one error finding per failure, against the sandbox', () => {
	/** Setup, consent, Authorize and the callback: the code waits for its exchange. */
	async function toExchange(c: Client, fields: Record<string, string> = {}) {
		await setUp(c, { auto_exchange: 'false', ...fields });
		await c.fetch(await decide(c, consentUrlFrom(await c.page())));
	}
	const errorsOf = (r: { data: Record<string, unknown> }) =>
		exchanges(r).flatMap((e) => e.findings.filter((f) => f.level === 'error').map((f) => f.code));

	test.each([['client_secret_post'], ['client_secret_basic']])(
		'a wrong secret sent with %s: invalid_client alone, no word that the method may be wrong',
		async (method) => {
			const c = new Client(srv.url);
			await toExchange(c, {
				client_secret: 'not-the-secret',
				token_endpoint_auth_method: method
			});
			const r = await c.action('exchange');
			expect(errorsOf(r)).toEqual(['invalid_client']);
			expect(exchanges(r)[0]!.findings.map((f) => f.code)).not.toContain('client-auth-method');
		}
	);

	test('an unknown client at the registration check: unknown-client alone', async () => {
		const c = new Client(srv.url);
		await setUp(c, { client_id: 'nobody' });
		expect(errorsOf(await c.action('check'))).toEqual(['unknown-client']);
	});
});

describe('paste-back mode', () => {
	test('the sandbox landing page URL, pasted back, runs the state check and the exchange', async () => {
		const c = new Client(srv.url);
		await setUp(c, { redirect_uri: `${srv.url}/sandbox/landing` });
		const landing = await decide(c, consentUrlFrom(await c.page()));
		expect(landing).toMatch(/\/sandbox\/landing\?code=/);
		const shown = await c.fetch(landing, { headers: { accept: 'text/html' } });
		expect(shown.res.status).toBe(200);
		const r = await c.action('pasteback', { pasted: `  ${landing}\n` });
		expect(r.type).toBe('success');
		expect(exchanges(r)[0]).toMatchObject({ step: 'callback' });
		expect(await c.page()).toContain('data-verdict="code"');
		const ex = await c.action('exchange');
		expect(exchanges(ex)[0]!.response!.status).toBe(200);
		expect(exchanges(ex)[0]!.request.body).toContain(
			encodeURIComponent(`${srv.url}/sandbox/landing`)
		);
	});
	test('only the query works too, and a wrong state still aborts', async () => {
		const c = new Client(srv.url);
		await setUp(c, { redirect_uri: `${srv.url}/sandbox/landing` });
		const landing = new URL(await decide(c, consentUrlFrom(await c.page())));
		landing.searchParams.set('state', 'other');
		const consent = consentUrlFrom(await c.page());
		const r = await c.action('pasteback', { pasted: landing.search });
		expect(exchanges(r)[0]!.findings.map((f) => f.code)).toEqual(['callback-ignored']);
		expect(exchanges(r)[0]!.findings[0]!.message).toMatch(/unsolicited.*forged/);
		// Ignored: the consent request is still pending, and no code was kept.
		expect(consentUrlFrom(await c.page())).toBe(consent);
		expect((await c.action('exchange')).status).toBe(409);
	});
	test.each([[''], ['hello there'], ['https://[broken'], ['x'.repeat(9000)]])(
		'nonsense is a 400 with a reason: %#',
		async (pasted) => {
			const c = new Client(srv.url);
			await c.action('preset', { preset: 'sandbox-rw' });
			const r = await c.action('pasteback', { pasted });
			expect(r.status).toBe(400);
			expect(String(r.data.message)).toMatch(/paste|URL|long|code/i);
		}
	);
});

describe('prefilled links', () => {
	test('a link parameter named like a built-in property (toString) is listed as unknown, not a 500', async () => {
		const c = new Client(srv.url);
		const { res, body } = await c.fetch('/?toString=1&client_id=docs-app', {
			headers: { accept: 'text/html' }
		});
		expect(res.status).toBe(200);
		expect(body.replace(/\s+/g, ' ')).toContain('Ignored, unknown: toString.');
	});
	test('fill the form, name the host, refuse a secret and list unknown parameters', async () => {
		const c = new Client(srv.url);
		const { body } = await c.fetch(
			'/?base_url=https%3A%2F%2Freader.example%2F&client_id=docs-app&scope=read&client_secret=leaky-secret-123&utm_source=docs&token_location=cookie',
			{ headers: { accept: 'text/html' } }
		);
		// Markup text wraps over lines; a browser shows any run of white space as one space.
		expect(body.replace(/\s+/g, ' ')).toContain('check that you trust reader.example');
		expect(body).toContain('value="docs-app"');
		expect(body).toContain('Refused: client_secret');
		expect(body).toContain('Ignored, unknown: utm_source');
		expect(body).toMatch(/token_location<\/code>: /);
		expect(body).not.toContain('leaky-secret-123');
		expect(srv.logs()).not.toContain('leaky-secret-123');
	});
	test('a configured preset opens with ?preset=NAME and brings its secret only on save', async () => {
		const c = new Client(srv.url);
		const { body } = await c.fetch('/?preset=docs-demo', { headers: { accept: 'text/html' } });
		expect(body).toContain('preset Docs demo');
		expect(body).toContain('value="sandbox-ro"');
		expect(body).not.toContain('sandbox-ro-secret');
		const saved = await setUp(c, {
			client_id: 'sandbox-ro',
			scope: 'read',
			client_secret: '',
			preset: 'docs-demo'
		});
		expect(saved.type).toBe('success');
		expect(await c.page()).toContain('A secret is set');
	});
	test('a docs link with an issuer fills the Issuer field, and the share link carries it back exactly', async () => {
		const c = new Client(srv.url);
		const issuer = 'https://id.reader.example/';
		const html = unescapeHtml(
			(
				await c.fetch(
					`/?base_url=${encodeURIComponent(`${srv.url}/sandbox`)}&client_id=sandbox-rw&issuer=${encodeURIComponent(issuer)}`,
					{ headers: { accept: 'text/html' } }
				)
			).body
		);
		expect(html).toMatch(/id="issuer"[^>]*value="https:\/\/id\.reader\.example\/"/);
		await c.action('setup', {
			base_url: `${srv.url}/sandbox`,
			client_id: 'sandbox-rw',
			client_secret: 'sandbox-rw-secret',
			redirect_uri: `${srv.url}/callback`,
			issuer
		});
		expect(unescapeHtml(await c.page())).toContain(`issuer=${encodeURIComponent(issuer)}`);
	});
	test('the share link of a saved setup carries no secret', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const html = await c.page();
		expect(html).toContain('Copy a link to this setup');
		expect(html).not.toContain('sandbox-rw-secret');
	});
	test('the link builder page documents every parameter', async () => {
		const { body } = await new Client(srv.url).fetch('/link', { headers: { accept: 'text/html' } });
		for (const p of [
			'base_url',
			'client_id',
			'scope',
			'redirect_uri',
			'authorization_endpoint',
			'token_endpoint',
			'userinfo_endpoint',
			'issuer',
			'token_location',
			'preset'
		])
			expect(body).toContain(`<code>${p}</code>`);
		expect(body).toContain('docs-demo');
	});
});
