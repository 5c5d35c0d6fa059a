/**
 * A loopback service that answers every request with the exact bytes it received (request line,
 * headers as sent, body), as `200 text/plain`, one request per connection. The console's tests
 * compare those bytes with what the playground recorded.
 */
import net from 'node:net';
import { listen } from './listen';

export interface EchoApi {
	origin: string;
	/** Each request's raw bytes, as received. */
	received: Buffer[];
	stop: () => Promise<void>;
}

export async function startEchoApi(): Promise<EchoApi> {
	const received: Buffer[] = [];
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
			socket.end(
				Buffer.concat([
					Buffer.from(
						`HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${request.length}\r\nConnection: close\r\n\r\n`,
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
