/**
 * The host check (server/hosts.ts): which host names the server answers, so that a page under a
 * name that rebinds to this machine cannot use the playground as its own origin (DNS rebinding).
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { parseConfig } from '$lib/config.server.js';
import { hostName, refuseUnservedHost, requestHost, servedHost } from '$lib/server/hosts';

const rule = (env: Record<string, string> = {}) =>
	parseConfig({ PLAYGROUND_MODE: 'local', ...env });
const LOCAL = rule();
const WITH_ORIGIN = rule({ ORIGIN: 'https://playground.example' });
const LOOPBACK_ORIGIN = rule({ ORIGIN: 'http://127.0.0.1:5173' });
const SERVED = rule({ PLAYGROUND_SERVED_HOSTS: 'Lan-Box.home.arpa., *.dev.example' });

describe('hostName', () => {
	test.each([
		['localhost:5173', 'localhost'],
		['LOCALHOST', 'localhost'],
		['127.0.0.1:5173', '127.0.0.1'],
		['[::1]:5173', '[::1]'],
		['[0:0:0:0:0:0:0:1]', '[::1]'],
		['2130706433', '127.0.0.1'],
		['evil.example.:80', 'evil.example'],
		['Evil.Example', 'evil.example']
	])('%j is %j', (value, name) => {
		expect(hostName(value)).toBe(name);
	});

	test.each([
		null,
		undefined,
		'',
		'  ',
		'a b',
		'evil.example/x',
		'user@localhost',
		'x:99999',
		':80'
	])('%j has no host name', (value) => {
		expect(hostName(value)).toBeNull();
	});
});

describe('without ORIGIN', () => {
	test.each([
		'localhost',
		'localhost:5173',
		'localhost.:1',
		'app.localhost:5173',
		'a.b.localhost',
		'127.0.0.1:5173',
		'127.0.0.1',
		'10.1.2.3:80',
		'192.168.1.20:5173',
		'[::1]:5173',
		'[fe80::1]',
		'[2001:db8::1]:8080'
	])('answers %j', (host) => {
		expect(servedHost(host, LOCAL)).toEqual({ ok: true });
	});

	test.each([
		['evil.example:5173', 'evil.example'],
		['attacker.example', 'attacker.example'],
		['localhost.evil.example', 'localhost.evil.example'],
		['evillocalhost', 'evillocalhost'],
		['127.0.0.1.nip.io:5173', '127.0.0.1.nip.io'],
		['1.2.3.4.5', '1.2.3.4.5'],
		['rebind.test:5173', 'rebind.test']
	])('refuses %j, naming ORIGIN and PLAYGROUND_SERVED_HOSTS', (host, name) => {
		expect(servedHost(host, LOCAL)).toEqual({
			ok: false,
			host: name,
			setting: 'ORIGIN or PLAYGROUND_SERVED_HOSTS'
		});
	});

	test('refuses a missing or malformed Host', () => {
		expect(servedHost(null, LOCAL).ok).toBe(false);
		expect(servedHost('a b', LOCAL)).toEqual({
			ok: false,
			host: 'a b',
			setting: 'ORIGIN or PLAYGROUND_SERVED_HOSTS'
		});
	});
});

describe('PLAYGROUND_SERVED_HOSTS', () => {
	test('is parsed as lowercase names, wildcards allowed, no port', () => {
		expect(SERVED.servedHosts).toEqual(['lan-box.home.arpa', '*.dev.example']);
		expect(rule().servedHosts).toEqual([]);
		expect(() => rule({ PLAYGROUND_SERVED_HOSTS: 'lan-box:5173' })).toThrow(
			'PLAYGROUND_SERVED_HOSTS: "lan-box:5173" is not a host pattern.'
		);
		expect(() => rule({ PLAYGROUND_SERVED_HOSTS: 'http://lan-box' })).toThrow(
			'PLAYGROUND_SERVED_HOSTS: "http://lan-box" is not a host pattern.'
		);
	});

	test.each(['lan-box.home.arpa:5173', 'LAN-BOX.home.arpa', 'a.dev.example', 'x.y.dev.example:1'])(
		'adds %j',
		(host) => {
			expect(servedHost(host, SERVED)).toEqual({ ok: true });
		}
	);

	test.each(['dev.example', 'evil.example', 'lan-box.home.arpa.evil.example', 'xdev.example'])(
		'does not add %j',
		(host) => {
			expect(servedHost(host, SERVED).ok).toBe(false);
		}
	);

	test('keeps localhost and IP literals when ORIGIN is unset', () => {
		expect(servedHost('localhost:1', SERVED)).toEqual({ ok: true });
		expect(servedHost('127.0.0.1:1', SERVED)).toEqual({ ok: true });
	});

	test("adds to ORIGIN's host", () => {
		const both = rule({
			ORIGIN: 'https://playground.example',
			PLAYGROUND_SERVED_HOSTS: 'alias.example'
		});
		expect(servedHost('alias.example', both)).toEqual({ ok: true });
		expect(servedHost('playground.example', both)).toEqual({ ok: true });
	});
});

describe('with ORIGIN', () => {
	test.each(['playground.example', 'playground.example:443', 'PLAYGROUND.example:8080'])(
		'answers its host name: %j',
		(host) => {
			expect(servedHost(host, WITH_ORIGIN)).toEqual({ ok: true });
		}
	);

	test.each([
		['localhost:5173', 'localhost'],
		['127.0.0.1:5173', '127.0.0.1'],
		['[::1]', '[::1]'],
		['evil.example', 'evil.example'],
		['a.playground.example', 'a.playground.example']
	])('refuses anything else: %j, naming PLAYGROUND_SERVED_HOSTS', (host, name) => {
		expect(servedHost(host, WITH_ORIGIN)).toEqual({
			ok: false,
			host: name,
			setting: 'PLAYGROUND_SERVED_HOSTS'
		});
	});

	test('a loopback ORIGIN also answers its loopback twins, nothing else', () => {
		for (const host of ['127.0.0.1:5173', 'localhost:5173', '[::1]:5173'])
			expect(servedHost(host, LOOPBACK_ORIGIN)).toEqual({ ok: true });
		for (const host of ['127.0.0.2', 'app.localhost', '10.0.0.1', 'evil.example'])
			expect(servedHost(host, LOOPBACK_ORIGIN).ok).toBe(false);
	});

	test('hosted mode without ORIGIN refuses to start', () => {
		for (const env of [
			{ PLAYGROUND_MODE: 'hosted' },
			{ HOST: '0.0.0.0' },
			{ PLAYGROUND_ALLOWED_HOSTS: 'feeds.example.com' }
		])
			expect(() => parseConfig(env)).toThrow(/^ORIGIN is not set, and hosted mode needs it/);
		expect(parseConfig({ HOST: '0.0.0.0', ORIGIN: 'https://pg.example' }).policy.mode).toBe(
			'hosted'
		);
	});
});

describe('requestHost', () => {
	const url = new URL('https://playground.example/');
	const proxied = rule({ HOST_HEADER: 'X-Forwarded-Host', PLAYGROUND_TRUSTED_PROXIES: '10.0.0.2' });

	test("reads Host, or the HOST_HEADER header from the proxy, or the URL's host", () => {
		const headers = new Headers({ host: '10.0.0.5:3000', 'x-forwarded-host': 'evil.example' });
		expect(requestHost(headers, url, LOCAL, '10.0.0.2')).toBe('10.0.0.5:3000');
		expect(requestHost(headers, url, proxied, '10.0.0.2')).toBe('evil.example');
		expect(requestHost(headers, url, proxied, '::ffff:10.0.0.2')).toBe('evil.example');
		// From the proxy without the header: the URL's host (adapter-node built it from Host, or ORIGIN).
		expect(requestHost(new Headers({ host: '127.0.0.1:3000' }), url, proxied, '10.0.0.2')).toBe(
			'playground.example'
		);
		expect(requestHost(new Headers(), url, LOCAL)).toBe('playground.example');
	});

	test('rebinding with a forged X-Forwarded-Host: from any other peer, or none known, Host is read', () => {
		const headers = new Headers({ host: 'evil.example:5173', 'x-forwarded-host': 'localhost' });
		expect(requestHost(headers, url, proxied, '127.0.0.1')).toBe('evil.example:5173');
		expect(requestHost(headers, url, proxied, undefined)).toBe('evil.example:5173');
	});
});

describe('refuseUnservedHost: proxy headers believed only from the proxy', () => {
	const proxied = rule({ HOST_HEADER: 'X-Forwarded-Host', PLAYGROUND_TRUSTED_PROXIES: '10.0.0.2' });
	/** What a page under evil.example, rebound to this machine, sends (adapter-node built the URL from the forged header). */
	const rebound = () =>
		new Request('http://localhost:5173/?/check', {
			headers: {
				host: 'evil.example:5173',
				'x-forwarded-host': 'localhost:5173',
				accept: 'application/json'
			}
		});

	test('rebinding with a forged X-Forwarded-Host from a direct client: 403 naming the real host', async () => {
		const res = refuseUnservedHost(
			rebound(),
			new URL('http://localhost:5173/?/check'),
			proxied,
			'127.0.0.1'
		);
		expect(res?.status).toBe(403);
		expect(((await res!.json()) as { message: string }).message).toContain('"evil.example"');
	});

	test("rebinding through the proxy's address (a browser on the proxy's machine connects from it too): the connection's Host is checked, 403 naming the way out", async () => {
		const url = new URL('http://localhost:5173/?/check');
		const res = refuseUnservedHost(rebound(), url, proxied, '10.0.0.2');
		expect(res?.status).toBe(403);
		const { message } = (await res!.json()) as { message: string };
		expect(message).toContain('trusted proxy');
		expect(message).toContain('"evil.example"');
		expect(message).toContain('PLAYGROUND_SERVED_HOSTS');
		expect(message).toContain("pass the browser's Host");
	});

	test("the proxy's Host may be its upstream address (an IP literal) or a served name; the forwarded host must be served", () => {
		const url = new URL('http://localhost:5173/?/check');
		const from = (host: string, forwarded: string) =>
			new Request(url, { headers: { host, 'x-forwarded-host': forwarded } });
		for (const host of ['127.0.0.1:5173', '[::1]:5173', '10.0.0.9', 'localhost:5173'])
			expect(refuseUnservedHost(from(host, 'localhost:8080'), url, proxied, '10.0.0.2')).toBe(
				undefined
			);
		expect(
			refuseUnservedHost(from('127.0.0.1:5173', 'evil.example'), url, proxied, '10.0.0.2')?.status
		).toBe(403);
		expect(
			refuseUnservedHost(from('upstream.internal', 'localhost'), url, proxied, '10.0.0.2')?.status
		).toBe(403);
		const servedName = rule({
			HOST_HEADER: 'X-Forwarded-Host',
			PLAYGROUND_TRUSTED_PROXIES: '10.0.0.2',
			PLAYGROUND_SERVED_HOSTS: 'pg.example'
		});
		expect(
			refuseUnservedHost(from('pg.example', 'pg.example'), url, servedName, '10.0.0.2')
		).toBeUndefined();
	});

	test("a forged header cannot name the URL's host either: a served Host, an unserved URL, is refused", () => {
		const req = new Request('http://evil.example/', {
			headers: { host: 'localhost:5173', 'x-forwarded-host': 'evil.example' }
		});
		const url = new URL('http://evil.example/');
		expect(refuseUnservedHost(req, url, proxied, '127.0.0.1')?.status).toBe(403);
	});
});

describe('refuseUnservedHost: a proxy with ORIGIN', () => {
	const proxied = rule({
		ORIGIN: 'https://playground.example',
		PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1'
	});
	const url = new URL('https://playground.example/?/check');
	const at = (host: string) => new Request(url, { headers: { host, accept: 'text/html' } });

	test("rebinding through the proxy's port: an upstream address as the proxy's Host is refused, naming the way out", async () => {
		// With ORIGIN no forwarded host is read: the proxy's Host is the only name the server sees.
		for (const host of ['127.0.0.1:5173', '[::1]:5173', '172.30.80.2:5173'])
			expect(refuseUnservedHost(at(host), url, proxied, '127.0.0.1')?.status, host).toBe(403);
		const html = await refuseUnservedHost(at('127.0.0.1:5173'), url, proxied, '127.0.0.1')!.text();
		expect(html).toContain('proxy_set_header Host $http_host');
		expect(refuseUnservedHost(at('playground.example'), url, proxied, '127.0.0.1')).toBe(undefined);
	});

	test("with a loopback ORIGIN, the proxy's Host must be ORIGIN's own name, not a loopback twin", () => {
		const local = rule({
			ORIGIN: 'http://localhost:8080',
			PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1'
		});
		const at8080 = (host: string) => new Request('http://localhost:8080/', { headers: { host } });
		const home = new URL('http://localhost:8080/');
		expect(refuseUnservedHost(at8080('127.0.0.1:5173'), home, local, '127.0.0.1')?.status).toBe(
			403
		);
		expect(refuseUnservedHost(at8080('localhost:8080'), home, local, '127.0.0.1')).toBeUndefined();
		// Not from the proxy: the twins are served, as before.
		expect(refuseUnservedHost(at8080('127.0.0.1:8080'), home, local, '10.0.0.7')).toBeUndefined();
	});

	test('any other client is still held to ORIGIN: an IP literal Host from it is refused', () => {
		expect(refuseUnservedHost(at('127.0.0.1:5173'), url, proxied, '10.0.0.7')?.status).toBe(403);
	});

	test("rebinding to the proxy's machine: a rebound name from the proxy's address is refused, naming PLAYGROUND_SERVED_HOSTS", async () => {
		const res = refuseUnservedHost(at('evil.example:5173'), url, proxied, '127.0.0.1');
		expect(res?.status).toBe(403);
		const html = await res!.text();
		expect(html).toContain('&quot;evil.example&quot;');
		expect(html).toContain('Setting: PLAYGROUND_SERVED_HOSTS');
	});
});

describe('refuseUnservedHost: the 403', () => {
	const at = (host: string, path = '/', headers: Record<string, string> = {}) =>
		new Request(`http://${host}${path}`, { headers: { host, ...headers } });

	test('lets a served host through', () => {
		const url = new URL('http://localhost:5173/?/setup');
		expect(refuseUnservedHost(at('localhost:5173', '/?/setup'), url, LOCAL)).toBeUndefined();
	});

	test('rebinding: a JSON 403 naming the setting for a request under another name', async () => {
		const url = new URL('http://evil.example:5173/?/check');
		const res = refuseUnservedHost(
			at('evil.example:5173', '/?/check', { accept: 'application/json' }),
			url,
			LOCAL
		)!;
		expect(res.status).toBe(403);
		expect(res.headers.get('content-type')).toBe('application/json');
		const body = (await res.json()) as { error: string; message: string };
		expect(body.error).toBe('host_not_served');
		expect(body.message).toContain('"evil.example"');
		expect(body.message).toContain('PLAYGROUND_SERVED_HOSTS');
		expect(body.message).toContain('ORIGIN');
	});

	test('an HTML page for a browser, its text escaped', async () => {
		const url = new URL('http://x/');
		const req = new Request('http://x/', {
			headers: { host: 'a"b<i>.example', accept: 'text/html,*/*' }
		});
		const res = refuseUnservedHost(req, url, WITH_ORIGIN)!;
		expect(res.status).toBe(403);
		expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
		const html = await res.text();
		expect(html).toContain('<h1>Host name not served</h1>');
		expect(html).toContain('Setting: PLAYGROUND_SERVED_HOSTS');
		expect(html).toContain('https://playground.example');
		expect(html).not.toContain('<i>');
		expect(html).toContain('&quot;a\\&quot;b&lt;i&gt;.example&quot;');
	});

	test('the page has a style of its own, which its policy allows by hash, and no script', async () => {
		const req = new Request('http://x/', {
			headers: { host: 'evil.example', accept: 'text/html' }
		});
		const res = refuseUnservedHost(req, new URL('http://x/'), WITH_ORIGIN)!;
		const html = await res.text();
		const style = /<style>([^<]*)<\/style>/.exec(html)?.[1];
		expect(style, 'an inline style').toBeTruthy();
		const hash = createHash('sha256').update(style!).digest('base64');
		const csp = res.headers.get('content-security-policy') ?? '';
		expect(csp).toContain(`style-src 'sha256-${hash}'`);
		expect(csp).toContain("default-src 'none'");
		expect(csp).not.toMatch(/script-src|unsafe-inline/);
		expect(html).not.toMatch(/<script/i);
	});

	test('the page is readable on a phone: it sets the viewport', async () => {
		const req = new Request('http://x/', {
			headers: { host: 'evil.example', accept: 'text/html' }
		});
		const html = await refuseUnservedHost(req, new URL('http://x/'), WITH_ORIGIN)!.text();
		expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
	});

	test('/healthz answers any host name', () => {
		const url = new URL('http://evil.example/healthz');
		expect(refuseUnservedHost(at('evil.example', '/healthz'), url, WITH_ORIGIN)).toBeUndefined();
		expect(
			refuseUnservedHost(
				at('evil.example', '/healthz/x'),
				new URL('http://evil.example/healthz/x'),
				LOCAL
			)?.status
		).toBe(403);
	});
});
