/**
 * A loopback service that answers every request with the exact bytes it received (request line,
 * headers as sent, body), as `200 text/plain`, one request per connection. The console's tests
 * compare those bytes with what the playground recorded. With `zones`, it is a look-alike of the
 * feed-reader service's budget too: every answer carries the zone headers the sandbox sends
 * (`X-Reader-Zone1-Usage` and the rest), a read counted in zone 1 and a write in zone 2.
 */
import net from 'node:net';
import { listen } from './listen';

export interface EchoApi {
	origin: string;
	/** Each request's raw bytes, as received. */
	received: Buffer[];
	stop: () => Promise<void>;
}

export async function startEchoApi({ zones = false } = {}): Promise<EchoApi> {
	const received: Buffer[] = [];
	const usage = { 1: 0, 2: 0 };
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		let buf = Buffer.alloc(0);
		socket.on('data', (chunk) => {
			buf = Buffer.concat([buf, chunk]);
			const end = buf.indexOf('\r\n\r\n');
			if (end < 0) return;
			const head = buf.subarray(0, end).toString('latin1');
			const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
			if (buf.length < end + 4 + length) return;
			const request = buf.subarray(0, end + 4 + length);
			received.push(Buffer.from(request));
			usage[/^(GET|HEAD) /.test(head) ? 1 : 2]++;
			const limits = zones
				? `X-Reader-Zone1-Usage: ${usage[1]}\r\nX-Reader-Zone1-Limit: 5000\r\nX-Reader-Zone2-Usage: ${usage[2]}\r\nX-Reader-Zone2-Limit: 100\r\nX-Reader-Limits-Reset-After: 3600\r\n`
				: '';
			socket.end(
				Buffer.concat([
					Buffer.from(
						`HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n${limits}Content-Length: ${request.length}\r\nConnection: close\r\n\r\n`,
						'latin1'
					),
					request
				])
			);
		});
	});
	const { port } = await listen(server);
	return {
		origin: `http://127.0.0.1:${port}`,
		received,
		stop: () =>
			new Promise<void>((ok) => {
				for (const s of sockets) s.destroy();
				server.close(() => ok());
			})
	};
}
