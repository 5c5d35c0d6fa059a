/**
 * One HTTP/1.1 request written byte for byte on a fresh socket, for tests that send what fetch()
 * refuses to: any method token, raw bytes in the target and header values, repeated headers,
 * chunked bodies. The response is read to the end (Connection: close) and de-chunked.
 */
import net from 'node:net';

export interface RawRequest {
	method: string;
	/** The request target as sent, e.g. `/?/setup` or `/callback?a=%zz`. */
	target: string;
	headers: [string, string | Buffer][];
	body?: Buffer;
	/** Send the body with Transfer-Encoding: chunked instead of Content-Length. */
	chunked?: boolean;
}

export interface RawResponse {
	status: number;
	headers: Record<string, string>;
	body: string;
}

function dechunk(buf: Buffer): Buffer {
	const out: Buffer[] = [];
	let i = 0;
	for (;;) {
		const eol = buf.indexOf('\r\n', i);
		if (eol < 0) break;
		const size = parseInt(buf.subarray(i, eol).toString('latin1').split(';')[0]!, 16);
		if (!Number.isFinite(size) || size === 0) break;
		out.push(buf.subarray(eol + 2, eol + 2 + size));
		i = eol + 2 + size + 2;
	}
	return Buffer.concat(out);
}

export function rawRequest(
	port: number,
	req: RawRequest,
	timeoutMs = 10_000
): Promise<RawResponse> {
	const body = req.body ?? Buffer.alloc(0);
	const head: Buffer[] = [
		Buffer.from(
			`${req.method} ${req.target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n`,
			'latin1'
		)
	];
	for (const [name, value] of req.headers)
		head.push(
			Buffer.from(`${name}: `, 'latin1'),
			Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8'),
			Buffer.from('\r\n')
		);
	if (req.chunked) head.push(Buffer.from('Transfer-Encoding: chunked\r\n'));
	else if (body.length || !['GET', 'HEAD'].includes(req.method))
		head.push(Buffer.from(`Content-Length: ${body.length}\r\n`));
	head.push(Buffer.from('\r\n'));
	const payload = req.chunked
		? body.length
			? [Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]
			: [Buffer.from('0\r\n\r\n')]
		: [body];

	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		const sock = net.connect(port, '127.0.0.1');
		const timer = setTimeout(() => {
			sock.destroy();
			reject(
				new Error(
					`no complete answer within ${timeoutMs} ms to ${req.method} ${req.target.slice(0, 200)}`
				)
			);
		}, timeoutMs);
		sock.on('data', (d) => chunks.push(d));
		sock.on('error', () => undefined); // the server may close while we still write; the answer so far counts
		sock.on('close', () => {
			clearTimeout(timer);
			const all = Buffer.concat(chunks);
			const end = all.indexOf('\r\n\r\n');
			if (end < 0)
				return reject(
					new Error(
						`no HTTP answer to ${req.method} ${req.target.slice(0, 200)}: ${JSON.stringify(all.toString('latin1').slice(0, 200))}`
					)
				);
			const lines = all.subarray(0, end).toString('latin1').split('\r\n');
			const status = Number(lines[0]!.split(' ')[1]);
			const headers: Record<string, string> = {};
			for (const line of lines.slice(1)) {
				const i = line.indexOf(':');
				if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
			}
			const rest = all.subarray(end + 4);
			const text = (
				/chunked/i.test(headers['transfer-encoding'] ?? '') ? dechunk(rest) : rest
			).toString('utf8');
			resolve({ status, headers, body: text });
		});
		sock.write(Buffer.concat([...head, ...payload]));
	});
}
