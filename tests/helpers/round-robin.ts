/**
 * A reverse proxy of the tests' own, as a load balancer uses several instances: each new request
 * goes to the next backend in turn, with the client's address in `X-Forwarded-For` (the test may
 * name one per request with `X-Test-Client`, standing for two visitors behind the proxy). It
 * records which backend answered each request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobin {
	url: string;
	port: number;
	/** The backend index of each request, in order. */
	served: number[];
	stop: () => Promise<void>;
}

export async function startRoundRobin(port: number, backends: () => string[]): Promise<RoundRobin> {
	let next = 0;
	const served: number[] = [];
	const server = http.createServer((req, res) => {
		const list = backends();
		const i = next++ % list.length;
		served.push(i);
		const target = new URL(req.url ?? '/', list[i]);
		const headers = { ...req.headers };
		const client = String(headers['x-test-client'] ?? req.socket.remoteAddress ?? '');
		delete headers['x-test-client'];
		headers['x-forwarded-for'] = client;
		const upstream = http.request(
			target,
			{ method: req.method, headers, agent: false },
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
				answer.pipe(res);
			}
		);
		upstream.on('error', (e) => {
			res.writeHead(502, { 'content-type': 'text/plain' }).end(`proxy: ${e.message}`);
		});
		req.pipe(upstream);
	});
	await new Promise<void>((ok, fail) => {
		server.once('error', fail);
		server.listen(port, '127.0.0.1', () => ok());
	});
	const bound = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${bound}`,
		port: bound,
		served,
		stop: () =>
			new Promise<void>((ok) => {
				server.close(() => ok());
				server.closeAllConnections();
			})
	};
}
