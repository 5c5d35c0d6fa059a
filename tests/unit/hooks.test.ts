/**
 * The server hook (hooks.server.ts), called as SvelteKit calls it: security headers on every answer,
 * the request-size and cross-site-form refusals before any route runs, the sandbox switch, the
 * theme, the request log that never prints a query string, and the start-up check of the
 * configuration. Each test loads the module afresh with its own environment.
 */
import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Handle, RequestEvent, ResolveOptions } from '@sveltejs/kit';

type Hooks = typeof import('../../src/hooks.server');

/** The environment the hook's `init` builds its app from. */
let testEnv: Record<string, string> = {};
vi.mock('$env/dynamic/private', () => ({
	get env() {
		return testEnv;
	}
}));

/** The hook module afresh, its app built by its own `init` from `env` (unless `init` is the test). */
async function load(env: Record<string, string> = {}, start = true): Promise<Hooks> {
	vi.resetModules();
	testEnv = { PLAYGROUND_LOG: 'off', PLAYGROUND_MODE: 'local', ...env };
	const hooks = await import('../../src/hooks.server');
	if (start) await hooks.init();
	return hooks;
}

// The first load transforms the whole server graph; the tests' own loads then take milliseconds.
beforeAll(() => load({}, false), 60_000);
afterEach(() => {
	vi.restoreAllMocks();
});

const ORIGIN = 'http://127.0.0.1:5173';

function event(path: string, init: RequestInit = {}, cookies: Record<string, string> = {}) {
	const url = new URL(path, ORIGIN);
	return {
		url,
		request: new Request(url, init),
		locals: {},
		cookies: { get: (name: string) => cookies[name] }
	} as unknown as RequestEvent;
}

/** A stand-in for SvelteKit's resolve: a page whose HTML carries the theme placeholder. */
function resolver(make: () => Response = () => new Response('ok')) {
	return vi.fn(async (_e: RequestEvent, opts?: ResolveOptions) => {
		const res = make();
		if (!opts?.transformPageChunk || res.headers.get('content-type') !== 'text/html') return res;
		const html = await opts.transformPageChunk({
			html: '<html data-theme="%pg.theme%">',
			done: true
		});
		return new Response(html, { status: res.status, headers: res.headers });
	});
}

async function run(
	handle: Handle,
	e: RequestEvent,
	resolve = resolver()
): Promise<{ res: Response; resolve: typeof resolve }> {
	const res = await handle({ event: e, resolve } as Parameters<Handle>[0]);
	return { res, resolve };
}

const SECURITY = {
	'x-content-type-options': 'nosniff',
	'referrer-policy': 'no-referrer',
	'x-frame-options': 'DENY',
	'cross-origin-opener-policy': 'same-origin'
};

describe('security headers', () => {
	test('every answer gets them, a CSP when the route set none, and no-store', async () => {
		const { handle } = await load();
		const { res } = await run(handle, event('/link'));
		expect(Object.fromEntries(res.headers)).toMatchObject({
			...SECURITY,
			'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
			'cache-control': 'no-store'
		});
	});

	test('a CSP the route set is kept', async () => {
		const { handle } = await load();
		const csp = "default-src 'self'";
		const { res } = await run(
			handle,
			event('/'),
			resolver(() => new Response('ok', { headers: { 'content-security-policy': csp } }))
		);
		expect(res.headers.get('content-security-policy')).toBe(csp);
	});

	test('immutable build assets keep their own caching', async () => {
		const { handle } = await load();
		const { res } = await run(
			handle,
			event('/_app/immutable/chunks/a.js'),
			resolver(
				() =>
					new Response('x', { headers: { 'cache-control': 'public,max-age=31536000,immutable' } })
			)
		);
		expect(res.headers.get('cache-control')).toBe('public,max-age=31536000,immutable');
		expect(res.headers.get('x-frame-options')).toBe('DENY');
	});

	test('an answer with immutable headers is passed on as it is, not thrown over', async () => {
		const { handle } = await load();
		const redirect = Response.redirect(`${ORIGIN}/`, 302);
		const { res } = await run(
			handle,
			event('/somewhere'),
			resolver(() => redirect)
		);
		expect(res).toBe(redirect);
		expect(res.headers.get('x-frame-options')).toBeNull();
	});
});

describe('refusals before any route runs', () => {
	test('rebinding: a same-"origin" form post under another host name never reaches the action', async () => {
		const { handle } = await load();
		const evil = 'http://evil.example:5173';
		const url = new URL('/?/check', evil);
		const e = {
			url,
			request: new Request(url, {
				method: 'POST',
				headers: {
					host: 'evil.example:5173',
					origin: evil,
					'content-type': 'application/x-www-form-urlencoded',
					accept: 'application/json'
				},
				body: 'a=1'
			}),
			locals: {},
			cookies: { get: () => undefined }
		} as unknown as RequestEvent;
		const { res, resolve } = await run(handle, e);
		expect(res.status).toBe(403);
		expect(((await res.json()) as { error: string }).error).toBe('host_not_served');
		expect(resolve).not.toHaveBeenCalled();
		expect(Object.fromEntries(res.headers)).toMatchObject(SECURITY);
	});

	test('a declared body over PLAYGROUND_MAX_REQUEST_BYTES: 413, naming the limit', async () => {
		const { handle } = await load({ PLAYGROUND_MAX_REQUEST_BYTES: '100' });
		const e = event('/?/setup', {
			method: 'POST',
			headers: { 'content-length': '101', origin: ORIGIN, 'content-type': 'text/plain' },
			body: 'x'.repeat(101)
		});
		const { res, resolve } = await run(handle, e);
		expect(res.status).toBe(413);
		expect(await res.json()).toEqual({
			error: 'request_too_large',
			message:
				'The request body is 101 bytes; the playground accepts at most 100 (PLAYGROUND_MAX_REQUEST_BYTES).'
		});
		expect(resolve).not.toHaveBeenCalled();
		expect(Object.fromEntries(res.headers)).toMatchObject(SECURITY);
	});

	test('a body at the limit goes through', async () => {
		const { handle } = await load({ PLAYGROUND_MAX_REQUEST_BYTES: '100' });
		const e = event('/?/setup', {
			method: 'POST',
			headers: { 'content-length': '100', origin: ORIGIN, 'content-type': 'text/plain' },
			body: 'x'.repeat(100)
		});
		const { res, resolve } = await run(handle, e);
		expect(res.status).toBe(200);
		expect(resolve).toHaveBeenCalledOnce();
	});

	const form = { 'content-type': 'application/x-www-form-urlencoded' };

	test('a cross-site form post: 403, in plain text for a browser', async () => {
		const { handle } = await load();
		const e = event('/?/exchange', {
			method: 'POST',
			headers: { ...form, origin: 'https://evil.test', accept: 'text/html,*/*' },
			body: 'a=1'
		});
		const { res, resolve } = await run(handle, e);
		expect(res.status).toBe(403);
		expect(res.headers.get('content-type')).toBe('text/plain');
		expect(await res.text()).toBe('Cross-site POST form submissions are forbidden');
		expect(resolve).not.toHaveBeenCalled();
	});

	test('a cross-site form post: 403 as JSON for anything else', async () => {
		const { handle } = await load();
		const e = event('/?/exchange', {
			method: 'POST',
			headers: { ...form, origin: 'https://evil.test' },
			body: 'a=1'
		});
		const { res } = await run(handle, e);
		expect(res.status).toBe(403);
		expect(await res.json()).toEqual({ message: 'Cross-site POST form submissions are forbidden' });
	});

	test('a same-origin form post, and a server calling the token endpoint, go through', async () => {
		const { handle } = await load();
		const same = await run(
			handle,
			event('/?/exchange', { method: 'POST', headers: { ...form, origin: ORIGIN }, body: 'a=1' })
		);
		expect(same.resolve).toHaveBeenCalledOnce();
		const machine = await run(
			handle,
			event('/sandbox/oauth2/token', { method: 'POST', headers: form, body: 'grant_type=x' })
		);
		expect(machine.resolve).toHaveBeenCalledOnce();
	});

	test('SANDBOX=off: the sandbox answers 404 and no route runs', async () => {
		const { handle } = await load({ SANDBOX: 'off' });
		const { res, resolve } = await run(handle, event('/sandbox/reader/api/0/user-info'));
		expect(res.status).toBe(404);
		expect(await res.json()).toEqual({
			error: 'not_found',
			error_description: 'The built-in sandbox is turned off (SANDBOX=off).'
		});
		expect(resolve).not.toHaveBeenCalled();
		expect((await run(handle, event('/link'))).resolve).toHaveBeenCalledOnce();
	});

	test('the sandbox consent page with an unknown client answers its JSON error page itself', async () => {
		const { handle } = await load();
		const { res, resolve } = await run(
			handle,
			event(
				'/sandbox/oauth2/auth?client_id=nobody&redirect_uri=http%3A%2F%2Fx.test%2F&response_type=code'
			)
		);
		expect(res.status).toBe(400);
		expect(resolve).not.toHaveBeenCalled();
		expect(res.headers.get('x-frame-options')).toBe('DENY');
	});
});

describe('the theme', () => {
	const page = () => new Response('', { headers: { 'content-type': 'text/html' } });

	test.each([
		[{ pg_theme: 'dark' }, 'dark'],
		[{ pg_theme: 'light' }, 'light'],
		[{ pg_theme: 'purple' }, 'system'],
		[{}, 'system']
	])('cookie %o gives %s', async (cookies, theme) => {
		const { handle } = await load();
		const { res } = await run(handle, event('/', {}, cookies), resolver(page));
		expect(await res.text()).toBe(`<html data-theme="${theme}">`);
	});
});

describe('the request log', () => {
	test('method, path, status and time: never the query string or a cookie', async () => {
		const { handle } = await load({ PLAYGROUND_LOG: 'on' });
		const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
		await run(
			handle,
			event('/callback?code=the-code&state=the-state', {
				headers: { cookie: 'pg_session=sealed' }
			}),
			resolver(() => new Response(null, { status: 303, headers: { location: '/' } }))
		);
		expect(log).toHaveBeenCalledOnce();
		const line = String(log.mock.calls[0]![0]);
		expect(line).toMatch(/^GET \/callback 303 \d+\.\dms$/);
	});

	test('refusals are logged with their status too', async () => {
		const { handle } = await load({ PLAYGROUND_LOG: 'on' });
		const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
		await run(
			handle,
			event('/?/exchange&secret=x', {
				method: 'POST',
				headers: { 'content-type': 'text/plain', origin: 'https://evil.test' },
				body: 'client_secret=x'
			})
		);
		expect(String(log.mock.calls[0]![0])).toMatch(/^POST \/ 403 \d+\.\dms$/);
	});

	test('health checks are not logged', async () => {
		const { handle } = await load({ PLAYGROUND_LOG: 'on' });
		const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
		await run(handle, event('/healthz'));
		expect(log).not.toHaveBeenCalled();
		await run(handle, event('/healthz/more'));
		expect(log).toHaveBeenCalledOnce();
	});

	test('PLAYGROUND_LOG=off silences it', async () => {
		const { handle } = await load({ PLAYGROUND_LOG: 'off' });
		const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
		await run(handle, event('/link'));
		expect(log).not.toHaveBeenCalled();
	});
});

describe('start-up', () => {
	test('a bad setting stops the start with a message naming it', async () => {
		const { init } = await load({ PLAYGROUND_MAX_REQUEST_BYTES: 'lots' }, false);
		const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
		const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
		await init();
		expect(exit).toHaveBeenCalledWith(1);
		expect(String(error.mock.calls[0]![0])).toMatch(
			/The playground cannot start: .*PLAYGROUND_MAX_REQUEST_BYTES/
		);
	});

	test('a good configuration starts', async () => {
		const { init } = await load(
			{
				PLAYGROUND_SESSION_KEY: Buffer.alloc(32, 'a key for the hook tests').toString('base64url')
			},
			false
		);
		const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
		await init();
		expect(exit).not.toHaveBeenCalled();
	});
});
