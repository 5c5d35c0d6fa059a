/**
 * The pooled sockets' idle timeout, against a loopback server: Node 20's agent keeps an idle socket
 * with no timeout unless it is given one, and then ignores the server's `Keep-Alive: timeout=N`
 * hint. With the agent's 4 s, a socket is closed before a server's 5 s run out; a shorter hint
 * shortens it (Node's own rule: N − 1 s). The sender's sockets are seen as Node announces them
 * (`node:diagnostics_channel`: each answer to a request of this process, with the request and its
 * socket), once the pool has taken the socket back.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import diagnostics from 'node:diagnostics_channel';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { createSender, IDLE_TIMEOUT_MS, outboundFrom } from '$lib/server/outbound/send';
import { parseConfig } from '$lib/config.server.js';
import { listen } from '../helpers/listen';

const sender = createSender(outboundFrom(parseConfig({ PLAYGROUND_MODE: 'local' })));
let server: http.Server;
let base: string;
let port: number;

/** The socket of the latest answer from `server`, once the pool has taken it back ('free'). */
let freed: Promise<Socket> | undefined;
const onAnswer = (message: unknown) => {
	const socket = (message as { request: http.ClientRequest }).request.socket;
	if (socket?.remotePort === port) freed = once(socket, 'free').then(() => socket);
};

beforeAll(async () => {
	server = http.createServer((req, res) => {
		const hint = new URL(req.url!, 'http://x').searchParams.get('hint')!;
		res
			.writeHead(200, { 'content-type': 'application/json', 'keep-alive': `timeout=${hint}` })
			.end('{}');
	});
	({ url: base, port } = await listen(server));
	diagnostics.subscribe('http.client.response.finish', onAnswer);
});
afterAll(async () => {
	diagnostics.unsubscribe('http.client.response.finish', onAnswer);
	server.closeAllConnections();
	await new Promise<void>((ok) => server.close(() => ok()));
});

/** Sends a GET whose answer carries `Keep-Alive: timeout=<hint>`; the pooled socket it leaves. */
async function pooledAfter(hint: number): Promise<Socket> {
	freed = undefined;
	const ex = await sender.send({ step: 'userinfo', method: 'GET', url: `${base}/?hint=${hint}` });
	expect(ex.response?.status).toBe(200);
	expect(freed).toBeDefined();
	return freed!;
}

describe('idle pooled sockets', () => {
	test('a server that closes idle connections after 5 s (Keep-Alive: timeout=5) never sees a socket reused past 4 s: the pooled socket times out at 4 s', async () => {
		expect(IDLE_TIMEOUT_MS).toBe(4000);
		const socket = await pooledAfter(5);
		expect(socket.timeout).toBe(4000);
		// It is kept: the next request goes on it.
		expect(await pooledAfter(5)).toBe(socket);
	});

	test('a shorter hint shortens it: Keep-Alive: timeout=2 gives 1 s', async () => {
		const socket = await pooledAfter(2);
		expect(socket.timeout).toBe(1000);
	});
});
