/**
 * The one sender against a misbehaving server on loopback: the request recorded is the request that
 * arrived byte for byte, and every fault becomes an Exchange with a failure or a finding — never a throw.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import net from 'node:net';
import type http from 'node:http';
import diagnostics from 'node:diagnostics_channel';
import { createSender, outboundFrom, type SendInput } from '$lib/server/outbound/send';
import { parseConfig } from '$lib/config.server.js';
import { diagnose } from '$lib/oauth/diagnose';
import { listen } from '../helpers/listen';

const sender = createSender(
	outboundFrom(
		parseConfig({
			PLAYGROUND_TOTAL_TIMEOUT_MS: '1500',
			PLAYGROUND_CONNECT_TIMEOUT_MS: '1000',
			PLAYGROUND_MAX_RESPONSE_BYTES: '4096',
			PLAYGROUND_MODE: 'local'
		})
	)
);
const send = (input: SendInput) => sender.send(input);

let server: net.Server;
let base: string;
const received: string[] = [];
const sockets = new Set<net.Socket>();

function reply(status: string, headers: string[], body: string) {
	return `HTTP/1.1 ${status}\r\n${[...headers, `Content-Length: ${Buffer.byteLength(body)}`].join('\r\n')}\r\n\r\n${body}`;
}

beforeAll(async () => {
	server = net.createServer((sock) => {
		sockets.add(sock);
		sock.on('close', () => sockets.delete(sock));
		let buf = '';
		sock.on('error', () => undefined);
		sock.on('data', (d) => {
			buf += d.toString('latin1');
			const end = buf.indexOf('\r\n\r\n');
			if (end < 0) return;
			const len = Number(/content-length: (\d+)/i.exec(buf)?.[1] ?? 0);
			if (buf.length < end + 4 + len) return;
			const raw = buf.slice(0, end + 4 + len);
			buf = buf.slice(end + 4 + len);
			received.push(raw);
			const path = raw.split(' ')[1]!;
			switch (path) {
				case '/ok':
					sock.write(
						reply(
							'200 OK',
							['Content-Type: application/json', 'X-Custom: One', 'x-custom: two'],
							'{"access_token":"a","token_type":"Bearer","expires_in":60,"refresh_token":"r","scope":"read"}'
						)
					);
					break;
				case '/html500':
					sock.write(
						reply(
							'502 Bad Gateway',
							['Content-Type: text/html'],
							'<html><h1>Bad gateway</h1></html>'
						)
					);
					break;
				case '/notjson':
					sock.write(reply('200 OK', ['Content-Type: application/json'], 'hello'));
					break;
				case '/truncated':
					sock.write(
						reply('200 OK', ['Content-Type: application/json'], '{"access_token":"a","tok')
					);
					break;
				case '/big':
					sock.write(
						reply(
							'200 OK',
							['Content-Type: application/json'],
							JSON.stringify({ pad: 'x'.repeat(10_000) })
						)
					);
					break;
				case '/redirect':
					sock.write(
						reply('302 Found', ['Location: http://169.254.169.254/latest/meta-data/'], '')
					);
					break;
				case '/hang':
					break; // never answers
				case '/drip': {
					sock.write(
						'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":'
					);
					const t = setInterval(() => (sock.writable ? sock.write(' ') : clearInterval(t)), 200);
					sock.on('close', () => clearInterval(t));
					break;
				}
				case '/reset':
					sock.write('HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n{"a"');
					setTimeout(() => sock.destroy(), 20);
					break;
				default:
					sock.write(reply('404 Not Found', [], ''));
			}
		});
	});
	base = (await listen(server)).url;
});

afterAll(async () => {
	for (const s of sockets) s.destroy();
	await new Promise<void>((ok) => server.close(() => ok()));
});

describe('what went on the wire', () => {
	test('the recorded request is exactly the bytes the server received', async () => {
		const before = received.length;
		const ex = await send({
			step: 'exchange',
			method: 'POST',
			url: `${base}/ok`,
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: 'code=a%2Fb&scope='
		});
		const raw = received[before]!;
		const head = [`POST /ok HTTP/1.1`, ...ex.request.headers.map(([n, v]) => `${n}: ${v}`)].join(
			'\r\n'
		);
		expect(raw).toBe(`${head}\r\n\r\n${ex.request.body}`);
		expect(ex.request.headers.map(([n]) => n)).toEqual([
			'Host',
			'User-Agent',
			'Accept',
			'Content-Type',
			'Content-Length',
			'Connection'
		]);
	});
	test('response headers keep their order, case and repeats', async () => {
		const ex = await send({ step: 'exchange', method: 'GET', url: `${base}/ok` });
		expect(ex.response!.headers.slice(0, 3)).toEqual([
			['Content-Type', 'application/json'],
			['X-Custom', 'One'],
			['x-custom', 'two']
		]);
		expect(ex.response!.status).toBe(200);
		expect(ex.response!.statusText).toBe('OK');
		expect(ex.timing.total).toBeGreaterThan(0);
		expect(ex.timing.firstByte).toBeDefined();
	});
});

describe('provider faults', () => {
	test('connection refused', async () => {
		const s = net.createServer();
		const { port } = await listen(s);
		await new Promise<void>((ok) => s.close(() => ok()));
		const ex = await send({
			step: 'exchange',
			method: 'POST',
			url: `http://127.0.0.1:${port}/`,
			body: 'a=1'
		});
		expect(ex.failure?.kind).toBe('refused');
		expect(diagnose(ex)[0]!.code).toBe('connection-refused');
	});
	test('DNS failure', async () => {
		const ex = await send({
			step: 'exchange',
			method: 'POST',
			url: 'http://no-such-host.invalid/',
			body: 'a=1'
		});
		expect(['dns', 'timeout']).toContain(ex.failure?.kind);
	});
	test('a hang ends at the total timeout', async () => {
		const ex = await send({ step: 'userinfo', method: 'GET', url: `${base}/hang` });
		expect(ex.failure?.kind).toBe('timeout');
		expect(ex.failure?.message).toMatch(/did not answer/);
	});
	test('a body that drips slowly ends at the total timeout, with what arrived', async () => {
		const ex = await send({ step: 'userinfo', method: 'GET', url: `${base}/drip` });
		expect(ex.failure?.kind).toBe('timeout');
		expect(ex.response?.truncated).toBe(true);
		expect(ex.response?.body.startsWith('{"a":')).toBe(true);
	});
	test('5xx with an HTML body', async () => {
		const ex = await send({
			step: 'exchange',
			method: 'POST',
			url: `${base}/html500`,
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: 'a=1'
		});
		expect(ex.response?.status).toBe(502);
		expect(diagnose(ex).map((f) => f.code)).toEqual(
			expect.arrayContaining(['server-error', 'not-json'])
		);
	});
	test('200 with a body that is not JSON', async () => {
		const ex = await send({ step: 'userinfo', method: 'GET', url: `${base}/notjson` });
		expect(diagnose(ex).map((f) => f.code)).toContain('not-json');
	});
	test('truncated JSON', async () => {
		const ex = await send({
			step: 'exchange',
			method: 'POST',
			url: `${base}/truncated`,
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: 'a=1'
		});
		expect(diagnose(ex).map((f) => f.code)).toContain('not-json');
	});
	test('an oversized body is cut at the cap and marked truncated', async () => {
		const ex = await send({ step: 'userinfo', method: 'GET', url: `${base}/big` });
		expect(ex.failure?.kind).toBe('too-large');
		expect(ex.response?.truncated).toBe(true);
		expect(Buffer.byteLength(ex.response!.body)).toBe(4096);
	});
	test('a redirect is the result, never followed', async () => {
		const before = received.length;
		const ex = await send({
			step: 'exchange',
			method: 'POST',
			url: `${base}/redirect`,
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: 'a=1'
		});
		expect(ex.response?.status).toBe(302);
		expect(received.length).toBe(before + 1);
		// On the token endpoint, a redirect says the URL is probably not that endpoint.
		expect(diagnose(ex)[0]!.code).toBe('wrong-endpoint');
		expect(diagnose(ex)[0]!.message).toContain(
			'a redirect to http://169.254.169.254/latest/meta-data/'
		);
		expect(diagnose({ ...ex, step: 'api' })[0]!.code).toBe('redirect');
	});
	test('a connection closed mid-body', async () => {
		const ex = await send({ step: 'userinfo', method: 'GET', url: `${base}/reset` });
		expect(['reset', 'network']).toContain(ex.failure?.kind);
	});
	test('a cloud metadata address is never contacted', async () => {
		const ex = await send({
			step: 'userinfo',
			method: 'GET',
			url: 'http://169.254.169.254/latest/meta-data/'
		});
		expect(ex.failure?.kind).toBe('blocked');
		expect(diagnose(ex)[0]!.code).toBe('blocked');
	});
	test('a non-http scheme is refused before any network', async () => {
		const ex = await send({ step: 'userinfo', method: 'GET', url: 'file:///etc/passwd' });
		expect(ex.failure?.kind).toBe('blocked');
	});
	test.each([
		['a CR LF (header injection)', 'Bearer abc\r\nX-Injected: 1'],
		['a character outside Latin-1', 'Bearer tok\u2028en😀']
	])('a token holding %s is not sent, and nothing reaches the wire', async (_what, value) => {
		const before = received.length;
		// Every request the process starts, from the refused one until a request after it has come back.
		const started: string[] = [];
		const onStart = (m: unknown) =>
			started.push((m as { request: http.ClientRequest }).request.path);
		diagnostics.subscribe('http.client.request.start', onStart);
		let ex: Awaited<ReturnType<typeof send>>;
		try {
			ex = await send({
				step: 'userinfo',
				method: 'GET',
				url: `${base}/ok`,
				headers: [['Authorization', value]]
			});
			const after = await send({ step: 'userinfo', method: 'GET', url: `${base}/after` });
			expect(after.response?.status).toBe(404);
		} finally {
			diagnostics.unsubscribe('http.client.request.start', onStart);
		}
		expect(ex.response).toBeUndefined();
		expect(ex.failure?.kind).toBe('network');
		expect(ex.failure?.message).toMatch(
			/^The request was not sent: a header holds a character that HTTP does not allow \(in \["Authorization"\]\)/
		);
		// Only the request after it was started, and only it arrived.
		expect(started).toEqual(['/after']);
		expect(received.slice(before).map((r) => r.split('\r\n')[0])).toEqual(['GET /after HTTP/1.1']);
	});
	test('the server stays usable after all of this', async () => {
		const ex = await send({ step: 'exchange', method: 'GET', url: `${base}/ok` });
		expect(ex.response?.status).toBe(200);
	});
});
