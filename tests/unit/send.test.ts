/**
 * The sender's steps one by one: the request as it will be written, the guard and the route to this
 * server's own sandbox, the failure words, and a round trip against a raw loopback server that keeps
 * the bytes it received.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { getEventListeners } from 'node:events';
import net from 'node:net';
import {
	USER_AGENT,
	classify,
	createSender,
	describe as describeFailure,
	notSent,
	outboundFrom,
	ownSandbox,
	pairs,
	prepare,
	resolveAndGuard,
	type Outbound,
	type SendInput
} from '$lib/server/outbound/send';
import { parseConfig } from '$lib/config.server.js';
import { listen } from '../helpers/listen';

const LOCAL: Outbound = outboundFrom(parseConfig({ PLAYGROUND_MODE: 'local' }));
const HOSTED: Outbound = outboundFrom(
	parseConfig({ PLAYGROUND_ALLOWED_HOSTS: 'reader.example.com', ORIGIN: 'https://pg.example' })
);

/** Sends one request with a sender (and pools) of its own. */
const send = (input: SendInput, outbound: Outbound) => createSender(outbound).send(input);

function prepared(input: SendInput) {
	const p = prepare(input);
	if ('failure' in p) throw new Error(p.failure.message);
	return p;
}

describe('prepare: the request as it will be written', () => {
	test('Host, User-Agent, Accept, the caller’s headers, Content-Length, Connection, in that order', () => {
		const p = prepared({
			step: 'exchange',
			method: 'POST',
			url: 'https://reader.example.com:443/oauth2/token?x=1',
			headers: [
				['Content-Type', 'application/x-www-form-urlencoded'],
				['Authorization', 'Basic YTpi']
			],
			body: 'a=é'
		});
		expect(p.request).toEqual({
			method: 'POST',
			url: 'https://reader.example.com/oauth2/token?x=1',
			httpVersion: '1.1',
			headers: [
				['Host', 'reader.example.com'],
				['User-Agent', USER_AGENT],
				['Accept', 'application/json'],
				['Content-Type', 'application/x-www-form-urlencoded'],
				['Authorization', 'Basic YTpi'],
				['Content-Length', '4'],
				['Connection', 'keep-alive']
			],
			body: 'a=é'
		});
		expect(p.bodyBytes.equals(Buffer.from('a=é'))).toBe(true);
	});

	test('Content-Length: always for POST, PUT and PATCH, else only with a body', () => {
		const length = (method: SendInput['method'], body?: string) =>
			prepared({ step: 'api', method, url: 'http://h.test:8080/', body }).request.headers.find(
				([n]) => n === 'Content-Length'
			)?.[1];
		expect(length('GET')).toBeUndefined();
		expect(length('DELETE')).toBeUndefined();
		expect(length('DELETE', 'x')).toBe('1');
		expect(length('POST')).toBe('0');
		expect(length('PUT')).toBe('0');
		expect(length('PATCH')).toBe('0');
	});

	test('the Host header keeps a port that is not the default, and Accept can be changed', () => {
		const p = prepared({
			step: 'check',
			method: 'GET',
			url: 'http://h.test:8080/a',
			accept: 'text/html'
		});
		expect(p.request.headers.slice(0, 3)).toEqual([
			['Host', 'h.test:8080'],
			['User-Agent', USER_AGENT],
			['Accept', 'text/html']
		]);
	});

	test('a URL that does not parse is refused, and recorded as given', () => {
		const p = prepare({
			step: 'api',
			method: 'GET',
			url: 'not a url',
			headers: [['X', 'y']]
		});
		expect(p).toEqual({
			request: {
				method: 'GET',
				url: 'not a url',
				httpVersion: '1.1',
				headers: [['X', 'y']],
				body: ''
			},
			failure: { kind: 'blocked', message: '"not a url" is not a valid URL.' }
		});
	});
});

describe('resolveAndGuard and the own sandbox', () => {
	test('the guard refuses what the policy refuses', () => {
		expect(resolveAndGuard(new URL('http://127.0.0.1:9/x'), {}, HOSTED)).toEqual({
			failure: {
				kind: 'blocked',
				message: expect.stringContaining('a loopback address') as string
			}
		});
		expect(resolveAndGuard(new URL('http://127.0.0.1:9/x'), {}, LOCAL)).toEqual({
			own: undefined,
			insecure: false
		});
	});

	test('invalid certificates are accepted in local mode only', () => {
		const url = new URL('https://reader.example.com/');
		const ask = { allowInvalidTls: true };
		expect(resolveAndGuard(url, ask, LOCAL)).toMatchObject({ insecure: true });
		expect(resolveAndGuard(url, ask, HOSTED)).toMatchObject({ insecure: false });
	});

	test('ORIGIN/sandbox/… goes to this server’s own listener, and nothing else does', () => {
		expect(HOSTED.self).toEqual({
			origin: 'https://pg.example',
			hostname: '127.0.0.1',
			port: 5173
		});
		const own = new URL('https://pg.example/sandbox/oauth2/token');
		expect(resolveAndGuard(own, {}, HOSTED)).toEqual({
			own: { hostname: '127.0.0.1', port: 5173 },
			insecure: false
		});
		expect(ownSandbox(new URL('https://pg.example/callback'), HOSTED.self)).toBeUndefined();
		expect(
			ownSandbox(
				new URL('https://pg.example/.well-known/oauth-authorization-server/sandbox'),
				HOSTED.self
			)
		).toEqual({ hostname: '127.0.0.1', port: 5173 });
		expect(
			ownSandbox(new URL('https://pg.example/.well-known/oauth-authorization-server'), HOSTED.self)
		).toBeUndefined();
		expect(ownSandbox(new URL('http://pg.example/sandbox/x'), HOSTED.self)).toBeUndefined();
		expect(ownSandbox(own, undefined)).toBeUndefined();
	});

	test('the own listener follows HOST and PORT; none without ORIGIN or with the sandbox off', () => {
		const self = (env: Record<string, string>) => outboundFrom(parseConfig(env)).self;
		const origin = { ORIGIN: 'https://pg.example' };
		expect(self({ ...origin, HOST: '0.0.0.0', PORT: '8080' })).toMatchObject({
			hostname: '127.0.0.1',
			port: 8080
		});
		expect(self({ ...origin, HOST: '::' })).toMatchObject({ hostname: '127.0.0.1' });
		expect(self({ ...origin, HOST: '[::1]' })).toMatchObject({ hostname: '::1' });
		expect(self({ ...origin, HOST: '10.0.0.5' })).toMatchObject({ hostname: '10.0.0.5' });
		expect(self({})).toBeUndefined();
		expect(self({ ...origin, SANDBOX: 'off' })).toBeUndefined();
	});
});

describe('failures in plain words', () => {
	test('error codes become kinds', () => {
		const kind = (code: string) => classify(Object.assign(new Error(code), { code }));
		expect(kind('EGUARD')).toBe('blocked');
		expect(kind('ECONNREFUSED')).toBe('refused');
		expect(kind('ENOTFOUND')).toBe('dns');
		expect(kind('EAI_AGAIN')).toBe('dns');
		expect(kind('ECONNRESET')).toBe('reset');
		expect(kind('EPIPE')).toBe('reset');
		expect(kind('DEPTH_ZERO_SELF_SIGNED_CERT')).toBe('tls');
		expect(kind('CERT_HAS_EXPIRED')).toBe('tls');
		expect(kind('ERR_TLS_CERT_ALTNAME_INVALID')).toBe('tls');
		expect(kind('EHOSTUNREACH')).toBe('network');
		// A plain-HTTP answer read as a TLS record: OpenSSL's words, on Node 20's EPROTO.
		const proto = (message: string) =>
			classify(Object.assign(new Error(message), { code: 'EPROTO' }));
		expect(
			proto(
				'write EPROTO 80EC6458B87F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:'
			)
		).toBe('plain-http');
		expect(proto('error:0A0000C6:SSL routines::packet length too long')).toBe('plain-http');
		expect(proto('error:0A000139:SSL routines::record layer failure')).toBe('plain-http');
		expect(proto('error:0A000410:SSL routines::sslv3 alert handshake failure')).toBe('tls');
	});

	test('the words name the host and, for TLS, the reason with OpenSSL’s code', () => {
		const u = new URL('https://reader.example.com:8443/x');
		const err = (code: string) => Object.assign(new Error(`boom ${code}`), { code });
		expect(describeFailure('refused', err('ECONNREFUSED'), u)).toBe(
			'Nothing is listening at reader.example.com:8443: the connection was refused.'
		);
		expect(describeFailure('dns', err('ENOTFOUND'), u)).toBe(
			'The host name reader.example.com could not be resolved (DNS).'
		);
		expect(describeFailure('tls', err('CERT_HAS_EXPIRED'), u)).toBe(
			'The TLS handshake with reader.example.com:8443 failed: the certificate has expired (CERT_HAS_EXPIRED).'
		);
		expect(describeFailure('tls', err('EPROTO'), u)).toBe(
			'The TLS handshake with reader.example.com:8443 failed: boom EPROTO'
		);
		expect(describeFailure('plain-http', err('EPROTO'), u)).toBe(
			'reader.example.com:8443 answered the TLS handshake with something that is not TLS: this port speaks plain HTTP, so https:// cannot work on it.'
		);
		expect(describeFailure('network', err('EHOSTUNREACH'), u)).toBe(
			'The request to reader.example.com:8443 failed: boom EHOSTUNREACH'
		);
	});

	test('a header Node cannot write: the request was not sent', () => {
		const e = Object.assign(new Error('Invalid character in header content ["Authorization"]'), {
			code: 'ERR_INVALID_CHAR'
		});
		expect(notSent(e)).toEqual({
			kind: 'network',
			message:
				'The request was not sent: a header holds a character that HTTP does not allow (in ["Authorization"]). Values that came from the service, such as the access token, go into headers; check them.'
		});
	});

	test('raw header pairs keep their names and order', () => {
		expect(pairs(['X-A', '1', 'x-a', '2', 'Set-Cookie', 'c'])).toEqual([
			['X-A', '1'],
			['x-a', '2'],
			['Set-Cookie', 'c']
		]);
	});
});

describe('a round trip against a raw loopback server', () => {
	let server: net.Server;
	let base: string;
	const received: Buffer[] = [];
	const sockets = new Set<net.Socket>();

	beforeAll(async () => {
		server = net.createServer((sock) => {
			sockets.add(sock);
			let buf = Buffer.alloc(0);
			sock.on('error', () => undefined);
			sock.on('data', (d) => {
				buf = Buffer.concat([buf, d]);
				const end = buf.indexOf('\r\n\r\n');
				if (end < 0) return;
				const len = Number(/content-length: (\d+)/i.exec(buf.toString('latin1'))?.[1] ?? 0);
				if (buf.length < end + 4 + len) return;
				received.push(buf.subarray(0, end + 4 + len));
				const path = buf.toString('latin1').split(' ')[1];
				buf = Buffer.alloc(0);
				if (path === '/cut') {
					sock.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"partial":');
					return;
				}
				const body = path === '/big' ? 'x'.repeat(50) : '{"ok":true}';
				sock.write(
					`HTTP/1.1 201 Made\r\nX-Twice: 1\r\nx-twice: 2\r\nContent-Length: ${body.length}\r\n\r\n${body}`
				);
			});
		});
		base = (await listen(server)).url;
	});
	afterAll(() => {
		server.close();
		for (const sock of sockets) sock.destroy();
	});

	test('the recorded request is the bytes that arrived, and the response is as received', async () => {
		const ex = await send(
			{
				step: 'exchange',
				method: 'POST',
				url: `${base}/token`,
				headers: [['Content-Type', 'application/x-www-form-urlencoded']],
				body: 'code=é&x=1',
				note: 'n'
			},
			LOCAL
		);
		const { request } = ex;
		const head = request.headers.map(([n, v]) => `${n}: ${v}\r\n`).join('');
		expect(received.at(-1)!.toString('utf8')).toBe(
			`POST /token HTTP/1.1\r\n${head}\r\n${request.body}`
		);
		expect(ex).toMatchObject({
			step: 'exchange',
			note: 'n',
			findings: [],
			response: {
				status: 201,
				statusText: 'Made',
				httpVersion: '1.1',
				headers: [
					['X-Twice', '1'],
					['x-twice', '2'],
					['Content-Length', '11']
				],
				body: '{"ok":true}',
				truncated: false
			}
		});
		expect(ex.failure).toBeUndefined();
		expect(ex.timing.firstByte).toBeGreaterThanOrEqual(0);
		expect(ex.timing.total).toBeGreaterThanOrEqual(ex.timing.firstByte!);
	});

	test('a body over the cap fails as too-large, with the first bytes', async () => {
		const ex = await send(
			{ step: 'api', method: 'GET', url: `${base}/big` },
			{ ...LOCAL, limits: { ...LOCAL.limits, maxResponseBytes: 20 } }
		);
		expect(ex.failure).toEqual({
			kind: 'too-large',
			message: 'The response body is larger than the 20-byte cap; the first 20 bytes are shown.'
		});
		expect(ex.response).toMatchObject({ status: 201, body: 'x'.repeat(20), truncated: true });
	});

	test('a connection closed in the middle of the body fails as reset, with what arrived', async () => {
		const ex = await send({ step: 'api', method: 'GET', url: `${base}/cut` }, LOCAL);
		expect(ex.failure?.kind).toBe('reset');
		expect(ex.failure?.message).toBe(
			`${new URL(base).host} closed the connection in the middle of the body.`
		);
		expect(ex.response).toMatchObject({ status: 200, body: '{"partial":', truncated: true });
	});

	test('a request leaves no listener on the visitor’s abort signal once it is done', async () => {
		// One request's signal serves every send of a step (a retry, the refresh before a call), and a
		// hosted server answers many: a listener per send that stays would pile up on it.
		const visitor = new AbortController();
		const sender = createSender(LOCAL);
		for (let i = 0; i < 3; i++) {
			const ex = await sender.send({
				step: 'api',
				method: 'GET',
				url: `${base}/x`,
				signal: visitor.signal
			});
			expect(ex.response?.status).toBe(201);
		}
		expect(getEventListeners(visitor.signal, 'abort')).toEqual([]);
	});

	test('a request the guard refuses is never sent', async () => {
		const before = received.length;
		const ex = await send({ step: 'api', method: 'GET', url: `${base}/x` }, HOSTED);
		expect(ex.failure?.kind).toBe('blocked');
		expect(ex.timing).toEqual({ total: 0 });
		expect(ex.response).toBeUndefined();
		expect(received.length).toBe(before);
	});
});
