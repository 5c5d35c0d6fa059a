/**
 * The host check over real HTTP (server/hosts.ts): a request under a host name the server does not
 * answer (what a page whose name rebinds to 127.0.0.1 sends) is refused before any action or the
 * sandbox runs; /healthz answers any name; PLAYGROUND_SERVED_HOSTS adds a name; hosted mode without
 * ORIGIN does not start. And the in-flight cap: one address cannot hold more than its share of
 * outbound requests, against a service that never answers.
 */
import http from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { listen } from '../helpers/listen';
import { Client } from '../helpers/client';

interface Answer {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: string;
}

/** One request to the server on 127.0.0.1 with the Host header a browser under `host` sends. */
function under(
	host: string,
	port: number,
	path: string,
	init: { method?: string; headers?: Record<string, string>; body?: string } = {}
): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const req = http.request(
			{
				host: '127.0.0.1',
				port,
				path,
				method: init.method ?? 'GET',
				agent: false,
				headers: { host, ...init.headers }
			},
			(res) => {
				let body = '';
				res.setEncoding('utf8');
				res.on('data', (d: string) => (body += d));
				res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
			}
		);
		req.on('error', reject);
		req.end(init.body);
	});
}

/** A form action as a page's script under `origin` calls it. */
const action = (origin: string, fields: Record<string, string> = {}) => ({
	method: 'POST',
	headers: {
		origin,
		'x-sveltekit-action': 'true',
		accept: 'application/json',
		'content-type': 'application/x-www-form-urlencoded'
	},
	body: new URLSearchParams(fields).toString()
});

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

describe('without ORIGIN', () => {
	let srv: TestServer;
	let priv: Awaited<ReturnType<typeof privateServer>>;
	beforeAll(async () => {
		[srv, priv] = await Promise.all([startServer(), privateServer()]);
	});
	afterAll(async () => {
		priv?.close();
		await srv?.stop();
	});

	test('rebinding: a page under another host name cannot drive the local server', async () => {
		const evil = `evil.example:${srv.port}`;
		const origin = `http://${evil}`;
		const setup = await under(
			evil,
			srv.port,
			'/?/setup',
			action(origin, {
				base_url: priv.url,
				client_id: 'x',
				client_secret: 'y',
				scope: 'read',
				redirect_uri: `${origin}/callback`
			})
		);
		expect(setup.status).toBe(403);
		expect(setup.headers['content-type']).toBe('application/json');
		const refusal = JSON.parse(setup.body) as { error: string; message: string };
		expect(refusal.error).toBe('host_not_served');
		expect(refusal.message).toContain('"evil.example"');
		expect(refusal.message).toContain('PLAYGROUND_SERVED_HOSTS');
		expect(setup.headers['set-cookie']).toBeUndefined();

		const check = await under(evil, srv.port, '/?/check', action(origin));
		expect(check.status).toBe(403);
		// The page itself (what the attacker's script would read the answer from) is refused too.
		const page = await under(evil, srv.port, '/', { headers: { accept: 'text/html' } });
		expect(page.status).toBe(403);
		expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
		expect(page.body).toContain('PLAYGROUND_SERVED_HOSTS');
		expect(priv.seen).toEqual([]);
	});

	test('rebinding: the sandbox issues no code to a redirect URI on another host name', async () => {
		const evil = `evil.example:${srv.port}`;
		const q = new URLSearchParams({
			client_id: 'sandbox-rw',
			redirect_uri: `http://${evil}/callback`,
			response_type: 'code',
			state: 's'
		});
		const consent = await under(evil, srv.port, `/sandbox/oauth2/auth?${q}`, {
			headers: { accept: 'text/html' }
		});
		expect(consent.status).toBe(403);
		expect(consent.body).not.toContain('name="ticket"');
		const decision = await under(evil, srv.port, `/sandbox/oauth2/auth?${q}&/authorize`, {
			method: 'POST',
			headers: {
				origin: `http://${evil}`,
				'content-type': 'application/x-www-form-urlencoded'
			},
			body: 'ticket=x'
		});
		expect(decision.status).toBe(403);
		expect(decision.headers.location).toBeUndefined();
		// The same consent page under a served name registers only that name's URIs.
		const local = await under(`localhost:${srv.port}`, srv.port, `/sandbox/oauth2/auth?${q}`, {
			headers: { accept: 'text/html' }
		});
		expect(local.status).toBe(400);
	});

	test('localhost, *.localhost and IP addresses are served; /healthz answers any name', async () => {
		for (const host of [
			`localhost:${srv.port}`,
			`app.localhost:${srv.port}`,
			`127.0.0.1:${srv.port}`,
			`[::1]:${srv.port}`
		])
			expect((await under(host, srv.port, '/link')).status, host).toBe(200);
		const health = await under('evil.example', srv.port, '/healthz');
		expect(health.status).toBe(200);
	});
});

describe('PLAYGROUND_SERVED_HOSTS', () => {
	let srv: TestServer;
	beforeAll(async () => {
		srv = await startServer({ PLAYGROUND_SERVED_HOSTS: 'lan-box.test' });
	});
	afterAll(() => srv?.stop());

	test('serves the listed name, and the sandbox registers its URIs there', async () => {
		const name = `lan-box.test:${srv.port}`;
		const q = new URLSearchParams({
			client_id: 'sandbox-rw',
			redirect_uri: `http://${name}/callback`,
			response_type: 'code',
			state: 's'
		});
		const consent = await under(name, srv.port, `/sandbox/oauth2/auth?${q}`, {
			headers: { accept: 'text/html' }
		});
		expect(consent.status).toBe(200);
		expect(consent.body).toContain('name="ticket"');
		expect((await under(`evil.example:${srv.port}`, srv.port, '/link')).status).toBe(403);
	});
});

describe('hosted mode', () => {
	test('without ORIGIN it refuses to start, saying why', async () => {
		await expect(startServer({ PLAYGROUND_MODE: 'hosted' })).rejects.toThrow(
			/The playground cannot start: ORIGIN is not set, and hosted mode needs it/
		);
	});
});

describe('the in-flight cap', () => {
	const CAP = 2;
	let srv: TestServer;
	/** A service that takes every request and never answers, until told to drop them. */
	const hanging = http.createServer();
	const held: http.ServerResponse[] = [];
	let hangUrl: string;

	beforeAll(async () => {
		hanging.on('request', (_req, res: http.ServerResponse) => held.push(res));
		hangUrl = (await listen(hanging)).url;
		// Loopback is reachable in local mode; setting the cap turns it on there (hosted: 4 by default).
		const port = await freePort();
		srv = await startServer(
			{
				PLAYGROUND_MAX_IN_FLIGHT: String(CAP),
				ADDRESS_HEADER: 'x-forwarded-for',
				XFF_DEPTH: '1',
				// The test client stands for the proxy, whose address header is believed.
				PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1'
			},
			port
		);
	});
	afterAll(async () => {
		for (const res of held) res.destroy();
		hanging.close();
		await srv?.stop();
	});

	/** A client from `ip` whose setup points at the hanging service. */
	async function clientFrom(ip: string): Promise<Client> {
		const c = new Client(srv.url);
		const inner = c.fetch.bind(c);
		c.fetch = (path, init = {}) => {
			const headers = new Headers(init.headers);
			headers.set('x-forwarded-for', ip);
			return inner(path, { ...init, headers });
		};
		const saved = await c.action('setup', {
			base_url: hangUrl,
			client_id: 'app',
			client_secret: 'app-secret',
			scope: 'read',
			redirect_uri: `${srv.url}/callback`
		});
		expect(saved.type).toBe('success');
		return c;
	}

	/** Resolves when the hanging service holds `n` requests. */
	async function holding(n: number) {
		while (held.length < n) await once(hanging, 'request');
	}

	test('one address cannot hold more than its share of outbound requests', async () => {
		const me = await clientFrom('198.51.100.7');
		const pending = [me.action('check'), me.action('check')];
		await holding(CAP);

		const over = await me.action('check');
		expect(over.status).toBe(429);
		expect(String(over.data.message)).toMatch(
			/^Your address already has 2 requests to services in progress/
		);
		expect(over.data.exchanges).toEqual([]);
		expect(held).toHaveLength(CAP); // the refused one never left the server

		// Another address has its own share.
		const other = await clientFrom('203.0.113.20');
		const theirs = other.action('check');
		await holding(CAP + 1);

		// The service drops the connections: the steps end (as failures), and the slots come back.
		for (const res of held.splice(0)) res.destroy();
		const ended = await Promise.all([...pending, theirs]);
		for (const r of ended) expect(r.type).toBe('success');
		const again = me.action('check');
		await holding(1);
		held.splice(0).forEach((res) => res.destroy());
		expect((await again).type).toBe('success');
	});
});
