/**
 * Proxy headers believed only from the proxy, over real HTTP against the built server. The test
 * client connects from 127.0.0.1: with PLAYGROUND_TRUSTED_PROXIES=10.9.9.9 (a configuration value
 * only: nothing is sent there) it is a direct client, whose HOST_HEADER and ADDRESS_HEADER are not
 * believed; with 127.0.0.1 it stands for the proxy.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { listen } from '../helpers/listen';
import { Client, newFlowId } from '../helpers/client';
import { authUrl } from './sandbox-helpers';
import { cookieHeader, takeCookies } from '../../scripts/lib/client.js';

interface Answer {
	status: number;
	setCookies: string[];
	body: string;
}

/** One request to 127.0.0.1:`port` with exactly these headers (a POST when there is a body). */
function send(
	port: number,
	path: string,
	headers: Record<string, string>,
	body?: string
): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const req = http.request(
			{
				host: '127.0.0.1',
				port,
				path,
				method: body === undefined ? 'GET' : 'POST',
				agent: false,
				headers
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (d: string) => (text += d));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						setCookies: res.headers['set-cookie'] ?? [],
						body: text
					})
				);
			}
		);
		req.on('error', reject);
		req.end(body);
	});
}

/** A loopback server standing for something private on this machine: it records what reaches it. */
async function privateServer() {
	const seen: string[] = [];
	const server = http.createServer((req, res) => {
		seen.push(`${req.method} ${req.url}`);
		res.setHeader('content-type', 'application/json');
		res.end('{"private":"data"}');
	});
	const { url } = await listen(server);
	return { url, seen, close: () => server.close() };
}

/**
 * What a page under evil.example (its name rebound to 127.0.0.1) sends with a forged
 * X-Forwarded-Host and `Referrer-Policy: no-referrer`: setup pointing at a private service, then
 * "Check the consent URL".
 */
async function rebindingAttempt(port: number, privateUrl: string) {
	const headers = {
		host: `evil.example:${port}`,
		'x-forwarded-host': `localhost:${port}`,
		origin: 'null',
		'sec-fetch-site': 'same-origin',
		'x-sveltekit-action': 'true',
		accept: 'application/json',
		'content-type': 'application/x-www-form-urlencoded'
	};
	const flow = newFlowId();
	const setup = await send(
		port,
		`/?flow=${flow}&/setup`,
		headers,
		new URLSearchParams({
			base_url: privateUrl,
			client_id: 'x',
			client_secret: 'y',
			scope: 'read',
			redirect_uri: `http://localhost:${port}/callback`
		}).toString()
	);
	const jar = new Map<string, string>();
	takeCookies(jar, setup.setCookies);
	const cookie = cookieHeader(jar);
	const check = await send(
		port,
		`/?flow=${flow}&/check`,
		{ ...headers, ...(cookie && { cookie }) },
		''
	);
	return { setup, check };
}

describe('HOST_HEADER from a client that is not the proxy', () => {
	let srv: TestServer;
	let priv: Awaited<ReturnType<typeof privateServer>>;
	beforeAll(async () => {
		[srv, priv] = await Promise.all([
			startServer({ HOST_HEADER: 'x-forwarded-host', PLAYGROUND_TRUSTED_PROXIES: '10.9.9.9' }),
			privateServer()
		]);
	});
	afterAll(async () => {
		priv?.close();
		await srv?.stop();
	});

	test('rebinding with a forged X-Forwarded-Host and Origin: null is refused (403), and nothing is fetched', async () => {
		const { setup, check } = await rebindingAttempt(srv.port, priv.url);
		expect(setup.status).toBe(403);
		expect(JSON.parse(setup.body)).toMatchObject({ error: 'host_not_served' });
		expect(JSON.parse(setup.body).message).toContain('"evil.example"');
		expect(check.status).toBe(403);
		expect(priv.seen).toEqual([]);
	});
});

/** The loopback reverse proxy of these tests. */
interface Proxy {
	port: number;
	/** The proxy's upstream: the playground's port, known once it has started. */
	upstream: number;
	close: () => Promise<void>;
}

/**
 * A reverse proxy on this machine, as nginx runs beside the playground: it forwards each request to
 * 127.0.0.1:`upstream` from 127.0.0.1 with the browser's Host in X-Forwarded-Host (replacing any the
 * browser sent), and with the Host `hostSent` picks: the upstream address (nginx's default,
 * `$proxy_host`), the browser's own (`proxy_set_header Host $http_host`), or any other name.
 */
async function loopbackProxy(hostSent: (browserHost: string, upstream: string) => string) {
	const proxy: Proxy = { port: 0, upstream: 0, close: async () => {} };
	const server = http.createServer((req, res) => {
		const browserHost = req.headers.host ?? '';
		const upstream = `127.0.0.1:${proxy.upstream}`;
		const forwarded = http.request(
			{
				host: '127.0.0.1',
				port: proxy.upstream,
				path: req.url,
				method: req.method,
				agent: false,
				headers: {
					...req.headers,
					host: hostSent(browserHost, upstream),
					'x-forwarded-host': browserHost
				}
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
				answer.pipe(res);
			}
		);
		forwarded.on('error', (e) => res.writeHead(502).end(`proxy: ${e.message}`));
		req.pipe(forwarded);
	});
	proxy.port = (await listen(server)).port;
	proxy.close = () =>
		new Promise<void>((ok) => {
			server.close(() => ok());
			server.closeAllConnections();
		});
	return proxy;
}

/**
 * What a browser sends under `host` (through the proxy listening on `port`): the page, then the
 * setup form's action as the page posts it, with its Origin, and again with `Origin: null` (what
 * the playground's own `Referrer-Policy: no-referrer` makes browsers send on a same-origin post).
 */
async function browserUnder(host: string, port: number, privateUrl: string) {
	const page = await send(port, '/', { host, accept: 'text/html' });
	const form = (origin: string) => ({
		host,
		origin,
		'sec-fetch-site': 'same-origin',
		'x-sveltekit-action': 'true',
		accept: 'application/json',
		'content-type': 'application/x-www-form-urlencoded'
	});
	const fields = new URLSearchParams({
		base_url: privateUrl,
		client_id: 'app',
		client_secret: 'app-secret',
		scope: 'read',
		redirect_uri: `http://${host}/callback`
	}).toString();
	const setup = await send(port, `/?flow=${newFlowId()}&/setup`, form(`http://${host}`), fields);
	const nullOrigin = await send(port, `/?flow=${newFlowId()}&/setup`, form('null'), fields);
	return { page, setup, nullOrigin };
}

/** The name the browser uses for the proxy in these tests (PLAYGROUND_SERVED_HOSTS names it). */
const PUBLIC_NAME = 'playground.test';

describe('a reverse proxy on the same machine (HOST_HEADER, PLAYGROUND_TRUSTED_PROXIES=127.0.0.1)', () => {
	let srv: TestServer;
	let priv: Awaited<ReturnType<typeof privateServer>>;
	let upstreamHost: Proxy;
	let browserHost: Proxy;
	let otherHost: Proxy;
	beforeAll(async () => {
		[srv, priv, upstreamHost, browserHost, otherHost] = await Promise.all([
			startServer({
				HOST_HEADER: 'x-forwarded-host',
				PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1',
				PLAYGROUND_SERVED_HOSTS: PUBLIC_NAME
			}),
			privateServer(),
			loopbackProxy((_browser, upstream) => upstream),
			loopbackProxy((browser) => browser),
			loopbackProxy(() => 'playground-upstream')
		]);
		for (const proxy of [upstreamHost, browserHost, otherHost]) proxy.upstream = srv.port;
	});
	afterAll(async () => {
		priv?.close();
		await Promise.all([upstreamHost?.close(), browserHost?.close(), otherHost?.close()]);
		await srv?.stop();
	});

	test("rebinding through a loopback trusted proxy: the victim's browser also connects from 127.0.0.1, and its Host names the rebound name: 403, and nothing is fetched", async () => {
		const { setup, check } = await rebindingAttempt(srv.port, priv.url);
		expect(setup.status).toBe(403);
		expect(JSON.parse(setup.body)).toMatchObject({ error: 'host_not_served' });
		expect(JSON.parse(setup.body).message).toContain('"evil.example"');
		expect(setup.setCookies).toEqual([]);
		expect(check.status).toBe(403);
		expect(priv.seen).toEqual([]);
	});

	test('behind a loopback proxy that sends the upstream address as Host: served, form actions included', async () => {
		const host = `${PUBLIC_NAME}:${upstreamHost.port}`;
		const { page, setup, nullOrigin } = await browserUnder(host, upstreamHost.port, priv.url);
		expect(page.status).toBe(200);
		expect(page.body).toContain(`http://${host}/callback`);
		expect(setup.status).toBe(200);
		expect(JSON.parse(setup.body)).toMatchObject({ type: 'success' });
		expect(nullOrigin.status).toBe(200);
		expect(JSON.parse(nullOrigin.body)).toMatchObject({ type: 'success' });
	});

	test("behind a loopback proxy that passes the browser's Host (a name in PLAYGROUND_SERVED_HOSTS): served, form actions included", async () => {
		const host = `${PUBLIC_NAME}:${browserHost.port}`;
		const { page, setup, nullOrigin } = await browserUnder(host, browserHost.port, priv.url);
		expect(page.status).toBe(200);
		expect(page.body).toContain(`http://${host}/callback`);
		expect(setup.status).toBe(200);
		expect(JSON.parse(setup.body)).toMatchObject({ type: 'success' });
		expect(nullOrigin.status).toBe(200);
		expect(JSON.parse(nullOrigin.body)).toMatchObject({ type: 'success' });
	});

	test('a proxy that sends a Host the playground does not serve gets a 403 naming the way out', async () => {
		const host = `${PUBLIC_NAME}:${otherHost.port}`;
		const { page, setup } = await browserUnder(host, otherHost.port, priv.url);
		expect(page.status).toBe(403);
		expect(setup.status).toBe(403);
		const refusal = JSON.parse(setup.body) as { error: string; message: string };
		expect(refusal.error).toBe('host_not_served');
		expect(refusal.message).toContain('"playground-upstream"');
		expect(refusal.message).toContain('PLAYGROUND_SERVED_HOSTS');
		expect(refusal.message).toContain("the browser's Host");
		expect(priv.seen).toEqual([]);
	});
});

describe('a reverse proxy on the same machine with ORIGIN (PLAYGROUND_TRUSTED_PROXIES=127.0.0.1)', () => {
	let srv: TestServer;
	let priv: Awaited<ReturnType<typeof privateServer>>;
	let proxy: Proxy;
	beforeAll(async () => {
		[priv, proxy] = await Promise.all([privateServer(), loopbackProxy((browser) => browser)]);
		srv = await startServer({
			ORIGIN: `http://${PUBLIC_NAME}:${proxy.port}`,
			PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1'
		});
		proxy.upstream = srv.port;
	});
	afterAll(async () => {
		priv?.close();
		await proxy?.close();
		await srv?.stop();
	});

	test("the proxy passes the browser's Host (ORIGIN's name): served, form actions included", async () => {
		const host = `${PUBLIC_NAME}:${proxy.port}`;
		const { page, setup, nullOrigin } = await browserUnder(host, proxy.port, priv.url);
		expect(page.status).toBe(200);
		expect(page.body).toContain(`http://${host}/callback`);
		expect(JSON.parse(setup.body)).toMatchObject({ type: 'success' });
		expect(JSON.parse(nullOrigin.body)).toMatchObject({ type: 'success' });
	});

	test("rebinding straight to the loopback port, from the proxy's own address: 403, and nothing is fetched", async () => {
		const { setup, check } = await rebindingAttempt(srv.port, priv.url);
		expect(setup.status).toBe(403);
		expect(JSON.parse(setup.body).message).toContain('"evil.example"');
		expect(check.status).toBe(403);
		expect(priv.seen).toEqual([]);
	});
});

/**
 * A page under evil.example whose name is rebound to 127.0.0.1, where the victim runs a reverse
 * proxy in front of the playground: the page talks to the proxy, which forwards its requests from
 * 127.0.0.1 (a trusted proxy address) with the upstream address as Host (nginx's default) and the
 * page's own name in X-Forwarded-Host. With ORIGIN the playground has no forwarded host to check
 * (HOST_HEADER cannot be set), so the proxy's Host is the only name it sees, and it must be ORIGIN's
 * own (not an upstream address, nor a loopback twin of ORIGIN's name). Without ORIGIN and without
 * HOST_HEADER such a proxy hides the browser's name altogether: docs/security.md says so.
 */
describe('rebinding through a loopback trusted proxy that sends the upstream address as Host, with ORIGIN', () => {
	test.each([
		[
			'ORIGIN names the public name',
			(port: number) => ({ ORIGIN: `http://${PUBLIC_NAME}:${port}` })
		],
		['ORIGIN is a loopback name', (port: number) => ({ ORIGIN: `http://localhost:${port}` })]
	])(
		"%s: the rebound page on the proxy's port gets 403, and nothing is fetched",
		async (_name, settings) => {
			const [priv, proxy] = await Promise.all([
				privateServer(),
				loopbackProxy((_browser, upstream) => upstream)
			]);
			let srv: TestServer | undefined;
			try {
				srv = await startServer({
					...settings(proxy.port),
					PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1'
				});
				proxy.upstream = srv.port;
				const { setup, check } = await rebindingAttempt(proxy.port, priv.url);
				expect(setup.status).toBe(403);
				expect(check.status).toBe(403);
				expect(priv.seen).toEqual([]);
			} finally {
				priv.close();
				await proxy.close();
				await srv?.stop();
			}
		}
	);
});

/** Why the server refused to start; a server that does start is stopped again, and this says so. */
async function refusal(env: Record<string, string>, port?: number): Promise<string> {
	let srv: TestServer;
	try {
		srv = await startServer(env, port);
	} catch (e) {
		return (e as Error).message;
	}
	await srv.stop();
	return 'it started';
}

describe('refused at start', () => {
	test("rebinding under ORIGIN's host: ORIGIN with HOST_HEADER (which adapter-node then ignores) does not start, saying why", async () => {
		const port = await freePort();
		const env = {
			ORIGIN: `http://localhost:${port}`,
			HOST_HEADER: 'x-forwarded-host',
			PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1'
		};
		expect(await refusal(env, port)).toMatch(
			/The playground cannot start: HOST_HEADER is set together with ORIGIN/
		);
	});

	test('a proxy header without PLAYGROUND_TRUSTED_PROXIES does not start, saying why', async () => {
		expect(await refusal({ HOST_HEADER: 'x-forwarded-host' })).toMatch(
			/The playground cannot start: HOST_HEADER is set, but PLAYGROUND_TRUSTED_PROXIES is not/
		);
	});
});

describe('a catch-all PLAYGROUND_TRUSTED_PROXIES', () => {
	test.each(['0.0.0.0/0', '::/0', '::ffff:0:0/96'])(
		'%s, which makes every client a proxy whose X-Forwarded-Host is believed, does not start, saying why',
		async (list) => {
			const reason = await refusal({
				HOST_HEADER: 'x-forwarded-host',
				PLAYGROUND_TRUSTED_PROXIES: `10.0.0.2, ${list}`
			});
			expect(reason).toContain(
				`The playground cannot start: PLAYGROUND_TRUSTED_PROXIES: ${JSON.stringify(list)} trusts every`
			);
			expect(reason).toContain('PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL=accept');
		}
	);

	test('accepted on purpose (PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL=accept), it starts with a warning', async () => {
		const srv = await startServer({
			PLAYGROUND_TRUSTED_PROXIES: '0.0.0.0/0',
			PLAYGROUND_TRUSTED_PROXIES_CATCH_ALL: 'accept'
		});
		try {
			await expect
				.poll(() => srv.logs())
				.toMatch(/^Warning: PLAYGROUND_TRUSTED_PROXIES: "0\.0\.0\.0\/0" trusts every /m);
			expect((await send(srv.port, '/link', { host: `localhost:${srv.port}` })).status).toBe(200);
		} finally {
			await srv.stop();
		}
	});
});

describe('HOST_HEADER and PORT_HEADER from a client that is not the proxy, without PROTOCOL_HEADER', () => {
	let srv: TestServer;
	beforeAll(async () => {
		srv = await startServer({
			HOST_HEADER: 'x-forwarded-host',
			PORT_HEADER: 'x-forwarded-port',
			PLAYGROUND_TRUSTED_PROXIES: '10.9.9.9'
		});
	});
	afterAll(() => srv?.stop());

	test('a forged X-Forwarded-Host naming another loopback address does not become the callback URL the page offers', async () => {
		const page = await send(srv.port, '/', {
			host: `127.0.0.1:${srv.port}`,
			'x-forwarded-host': `127.0.0.2:${srv.port}`,
			accept: 'text/html'
		});
		expect(page.status).toBe(200);
		expect(page.body).toContain(`http://127.0.0.1:${srv.port}/callback`);
		expect(page.body).not.toContain('127.0.0.2');
	});

	test('a forged X-Forwarded-Port is dropped, not read (no 400, no other port in the callback URL)', async () => {
		for (const port of ['not-a-port', '1']) {
			const page = await send(srv.port, '/', {
				host: `127.0.0.1:${srv.port}`,
				'x-forwarded-port': port,
				accept: 'text/html'
			});
			expect(page.status, port).toBe(200);
			expect(page.body).toContain(`http://127.0.0.1:${srv.port}/callback`);
		}
	});
});

describe('ADDRESS_HEADER from a client that is not the proxy', () => {
	const LIMIT = 2;
	let srv: TestServer;
	beforeAll(async () => {
		const port = await freePort();
		srv = await startServer(
			{
				PLAYGROUND_RATE_LIMIT: String(LIMIT),
				PLAYGROUND_RATE_WINDOW: '120',
				ADDRESS_HEADER: 'x-forwarded-for',
				XFF_DEPTH: '1',
				PLAYGROUND_TRUSTED_PROXIES: '10.9.9.9'
			},
			port
		);
	});
	afterAll(() => srv?.stop());

	test('escaping the per-address cap with a new X-Forwarded-For on every step: still counted by its socket', async () => {
		const c = new Client(srv.url);
		const inner = c.fetch.bind(c);
		let n = 0;
		c.fetch = (path, init = {}) => {
			const headers = new Headers(init.headers);
			headers.set('x-forwarded-for', `198.51.100.${++n}`);
			return inner(path, { ...init, headers });
		};
		// A step that calls out is counted even when it cannot go on (no token yet: 409).
		for (let i = 0; i < LIMIT; i++) expect((await c.action('userinfo')).status).toBe(409);
		const over = await c.action('userinfo');
		expect(over.status).toBe(429);
		expect(String(over.data.message)).toMatch(/^Too many requests from your address/);
	});
});

describe('PROTOCOL_HEADER from a client that is not the proxy', () => {
	let srv: TestServer;
	beforeAll(async () => {
		srv = await startServer({
			PROTOCOL_HEADER: 'x-forwarded-proto',
			PLAYGROUND_TRUSTED_PROXIES: '10.9.9.9'
		});
	});
	afterAll(() => srv?.stop());

	/** The sandbox's consent page for `redirect_uri`, asked with a forged X-Forwarded-Proto. */
	const consent = (redirect_uri: string) =>
		fetch(
			authUrl(srv, { client_id: 'sandbox-ro', redirect_uri, response_type: 'code', state: 's' }),
			{ redirect: 'manual', headers: { 'x-forwarded-proto': 'https' } }
		);

	test('a forged X-Forwarded-Proto: https does not make a plain-HTTP request https (the redirect URIs it registers stay http)', async () => {
		expect((await consent(`https://localhost:${srv.port}/callback`)).status).toBe(400);
		expect((await consent(`http://localhost:${srv.port}/callback`)).status).toBe(200);
	});
});
