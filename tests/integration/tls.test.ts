/**
 * Self-signed and expired certificates. Real HTTPS servers on loopback with certificates made at test
 * time (tests/helpers/certs.ts) play the service; the playground server trusts the test CA through
 * NODE_EXTRA_CA_CERTS, so its valid leaf is a control that passes without any switch.
 * Without "Accept invalid TLS certificates": failure kind `tls`, explained. With it, in local mode:
 * every step gets through. In hosted mode the switch is not offered and is ignored by the sender.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import http from 'node:http';
import https from 'node:https';
import { makeCerts, type Pair, type TestCerts } from '../helpers/certs';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';
import type { GuardPolicy } from '../../src/lib/server/outbound/guard';
import type { SendInput } from '../../src/lib/server/outbound/send';
import { parseConfig } from '../../src/lib/config.server.js';
import { listen } from '../helpers/listen';

interface Fake {
	url: string;
	close: () => Promise<void>;
}

/** Just enough of the service: the token endpoint (both grants) and user-info. */
async function fakeService(pair: Pair): Promise<Fake> {
	let n = 0;
	const server = https.createServer({ key: pair.key, cert: pair.cert }, (req, res) => {
		let body = '';
		req.on('data', (d) => (body += d));
		req.on('end', () => {
			const json = (status: number, value: unknown) => {
				res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
				res.end(JSON.stringify(value));
			};
			if (req.method === 'POST' && req.url === '/oauth2/token') {
				const grant = new URLSearchParams(body).get('grant_type');
				n++;
				return json(200, {
					access_token: `at-${grant}-${n}`,
					token_type: 'Bearer',
					expires_in: 3600,
					refresh_token: `rt-${n}`,
					scope: 'read'
				});
			}
			if (req.url === '/reader/api/0/user-info') {
				return req.headers.authorization?.startsWith('Bearer at-')
					? json(200, { userId: '1', userName: 'tls' })
					: json(401, { error: 'invalid_token' });
			}
			json(404, { error: 'not_found' });
		});
	});
	const { url } = await listen(server, 'https');
	return {
		url,
		close: () =>
			new Promise<void>((ok) => {
				server.closeAllConnections();
				server.close(() => ok());
			})
	};
}

let certs: TestCerts;
let srv: TestServer;
const fakes: Record<'selfSigned' | 'valid' | 'expired', Fake> = {} as never;

beforeAll(async () => {
	certs = makeCerts();
	for (const k of ['selfSigned', 'valid', 'expired'] as const)
		fakes[k] = await fakeService(certs[k]);
	srv = await startServer({ NODE_EXTRA_CA_CERTS: certs.caFile });
});

afterAll(async () => {
	await srv?.stop();
	for (const f of Object.values(fakes)) await f?.close();
	certs?.cleanup();
});

function first(r: { data: Record<string, unknown> }): Exchange {
	const list = r.data.exchanges as Exchange[] | undefined;
	if (!list?.[0]) throw new Error(`no exchange in ${JSON.stringify(r.data)}`);
	return list[0];
}

/** Setup against `base`, a callback with a code and the right state, then the exchange. */
async function exchangeAt(base: string, allowInvalidTls: boolean) {
	const c = new Client(srv.url);
	const setup = await c.action('setup', {
		base_url: base,
		client_id: 'tls-app',
		client_secret: 'tls-secret-0123456789',
		scope: 'read',
		redirect_uri: `${srv.url}/callback`,
		auto_exchange: 'true',
		...(allowInvalidTls ? { allow_invalid_tls: 'true' } : {})
	});
	expect(setup.type, JSON.stringify(setup.data)).toBe('success');
	const state = new URL(consentUrlFrom(await c.page())).searchParams.get('state')!;
	await c.fetch(`/callback?code=tls-code&state=${encodeURIComponent(state)}`);
	return { c, exchange: first(await c.action('exchange')) };
}

describe('without the switch', () => {
	test('a certificate from a trusted authority works (the control)', async () => {
		const { exchange } = await exchangeAt(fakes.valid.url, false);
		expect(exchange.failure).toBeUndefined();
		expect(exchange.response?.status).toBe(200);
		expect(exchange.timing.tls).toBeGreaterThanOrEqual(0);
	});

	test('a self-signed certificate fails as `tls`, explained, with the switch named', async () => {
		const { exchange } = await exchangeAt(fakes.selfSigned.url, false);
		expect(exchange.response).toBeUndefined();
		expect(exchange.failure?.kind).toBe('tls');
		expect(exchange.failure?.message).toMatch(
			/^The TLS handshake with 127\.0\.0\.1:\d+ failed: the certificate is self-signed/
		);
		const finding = exchange.findings.find((f) => f.code === 'tls-failure');
		expect(finding?.level).toBe('error');
		expect(finding?.fix).toMatch(/Accept invalid TLS certificates/);
		expect(finding?.fix).toMatch(/hosted playground always checks/);
	});

	test('an expired certificate fails as `tls`, saying it expired', async () => {
		const { exchange } = await exchangeAt(fakes.expired.url, false);
		expect(exchange.failure?.kind).toBe('tls');
		expect(exchange.failure?.message).toMatch(/the certificate has expired \(CERT_HAS_EXPIRED\)/);
	});
});

describe('with the switch, in local mode', () => {
	test('the page offers it in the Advanced settings and keeps it ticked', async () => {
		const c = new Client(srv.url);
		expect(await c.page()).toMatch(
			/<input type="checkbox" name="allow_invalid_tls" value="true"(?![^>]*checked)/
		);
		await c.action('setup', {
			base_url: fakes.selfSigned.url,
			client_id: 'tls-app',
			redirect_uri: `${srv.url}/callback`,
			allow_invalid_tls: 'true'
		});
		const html = await c.page();
		expect(html).toMatch(
			/<input type="checkbox" name="allow_invalid_tls" value="true"[^>]*checked/
		);
		expect(html).toMatch(/<details class="advanced" open/);
	});

	test('a self-signed certificate is accepted by every step: exchange, user-info, refresh, API', async () => {
		const { c, exchange } = await exchangeAt(fakes.selfSigned.url, true);
		expect(exchange.failure).toBeUndefined();
		expect(exchange.response?.status).toBe(200);
		const ui = first(await c.action('userinfo'));
		expect(ui.response?.status).toBe(200);
		expect(JSON.parse(ui.response!.body)).toEqual({ userId: '1', userName: 'tls' });
		const rf = first(await c.action('refresh'));
		expect(rf.response?.status).toBe(200);
		expect(JSON.parse(rf.response!.body).access_token).toMatch(/^at-refresh_token-/);
		const api = first(await c.action('api', { method: 'GET', path: 'tag/list' }));
		expect(api.failure).toBeUndefined();
		expect(api.response?.status).toBe(404);
	});

	test('an expired certificate is accepted', async () => {
		const { exchange } = await exchangeAt(fakes.expired.url, true);
		expect(exchange.failure).toBeUndefined();
		expect(exchange.response?.status).toBe(200);
	});

	test("the registration check too: the consent URL is fetched past the certificate, and the service's answer judged", async () => {
		const { c } = await exchangeAt(fakes.selfSigned.url, true);
		await c.action('restart');
		const check = first(await c.action('check'));
		expect(check.step).toBe('check');
		expect(check.failure).toBeUndefined();
		expect(check.response?.status).toBe(404);
	});
});

describe('in hosted mode', () => {
	test('the page does not offer the switch', async () => {
		const port = await freePort();
		const hosted = await startServer(
			{ PLAYGROUND_MODE: 'hosted', ORIGIN: `http://127.0.0.1:${port}` },
			port
		);
		try {
			const html = await new Client(hosted.url).page();
			expect(html).toContain('Advanced settings');
			expect(html).toContain('guardMode:"hosted"');
			expect(html).not.toContain('name="allow_invalid_tls"');
			expect(html).not.toContain('Accept invalid TLS certificates');
		} finally {
			await hosted.stop();
		}
	});

	/**
	 * Hosted mode refuses loopback addresses, so to reach the loopback test server at all the guard is
	 * replaced by one that says "hosted" but lets 127.0.0.1 through. The sender must still check the
	 * certificate. The same code with a local policy is the control.
	 */
	async function senderWith(mode: 'local' | 'hosted') {
		vi.resetModules();
		vi.doMock('$lib/server/outbound/guard', async (importOriginal) => {
			const real = await importOriginal<typeof import('../../src/lib/server/outbound/guard')>();
			const open: GuardPolicy = { mode: 'local', allowedHosts: [] };
			return {
				...real,
				checkUrl: (u: URL) => real.checkUrl(u, open),
				guardedLookup: () => real.guardedLookup(open)
			};
		});
		try {
			const { createSender, outboundFrom } = await import('$lib/server/outbound/send');
			const outbound = outboundFrom(parseConfig({}));
			const policy: GuardPolicy = { mode, allowedHosts: ['127.0.0.1'] };
			const sender = createSender({ ...outbound, policy });
			return (input: SendInput) => sender.send(input);
		} finally {
			vi.doUnmock('$lib/server/guard');
		}
	}

	test('the sender ignores the switch', async () => {
		const request = {
			step: 'userinfo' as const,
			method: 'GET' as const,
			url: `${fakes.selfSigned.url}/reader/api/0/user-info`,
			headers: [['Authorization', 'Bearer at-x']] as [string, string][],
			allowInvalidTls: true
		};
		const local = await (await senderWith('local'))(request);
		expect(local.failure).toBeUndefined();
		expect(local.response?.status).toBe(200);
		const hosted = await (await senderWith('hosted'))(request);
		expect(hosted.response).toBeUndefined();
		expect(hosted.failure?.kind).toBe('tls');
		expect(hosted.failure?.message).toMatch(/self-signed/);
	});
});

describe("a port's protocol mixed up", () => {
	/** A plain-HTTP server answering as nginx does a plain request on its TLS port, or any 404. */
	async function plainServer(): Promise<{ port: number; close: () => Promise<void> }> {
		const server = http.createServer((req, res) => {
			if (req.url === '/nginx-tls-port/oauth2/token') {
				res.writeHead(400, { 'Content-Type': 'text/html' });
				res.end(
					'<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was sent to HTTPS port</center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'
				);
			} else res.writeHead(404).end();
		});
		const { port } = await listen(server);
		return { port, close: () => new Promise<void>((ok) => server.close(() => ok())) };
	}

	test('https:// on a plain-HTTP port: the port speaks plain HTTP, use http://; no certificate box', async () => {
		const plain = await plainServer();
		try {
			const { exchange } = await exchangeAt(`https://127.0.0.1:${plain.port}`, false);
			expect(exchange.failure?.kind).toBe('plain-http');
			expect(exchange.failure?.message).toBe(
				`127.0.0.1:${plain.port} answered the TLS handshake with something that is not TLS: this port speaks plain HTTP, so https:// cannot work on it.`
			);
			// OpenSSL's own words, once, apart from the message.
			expect(exchange.failure?.detail).toMatch(/wrong version number/);
			expect(exchange.failure?.message).not.toMatch(/wrong version number|certificate/);
			expect(exchange.findings.map((f) => f.code)).toEqual(['plain-http-port']);
			expect(exchange.findings[0]!.fix).toMatch(/^Use http:\/\/ for this port/);
			expect(exchange.findings[0]!.fix).not.toMatch(/Accept invalid TLS certificates/);
		} finally {
			await plain.close();
		}
	});

	test('http:// on a TLS port: a silent close gets the hint to try https://', async () => {
		const port = new URL(fakes.valid.url).port;
		const { exchange } = await exchangeAt(`http://127.0.0.1:${port}`, false);
		expect(exchange.failure?.kind).toBe('reset');
		expect(exchange.failure?.silent).toBe(true);
		const hint = exchange.findings.find((f) => f.code === 'tls-port-hint');
		expect(hint).toMatchObject({ level: 'warning', fix: expect.stringMatching(/^Try https:\/\//) });
	});

	test("http:// on nginx's TLS port: its 400 is quoted, with the hint to try https://", async () => {
		const plain = await plainServer();
		try {
			const { exchange } = await exchangeAt(`http://127.0.0.1:${plain.port}/nginx-tls-port`, false);
			expect(exchange.response?.status).toBe(400);
			const hint = exchange.findings.find((f) => f.code === 'tls-port-hint');
			expect(hint?.message).toBe(
				'The server says this port speaks TLS, in its words: "400 The plain HTTP request was sent to HTTPS port"'
			);
		} finally {
			await plain.close();
		}
	});
});
