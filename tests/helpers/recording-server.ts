/**
 * A loopback HTTP server that records every request it receives and answers `200 {"ok":true}`
 * (with an `X-Seen: yes` header, so a client's output can show it read the response): for tests
 * that run an exported command or snippet for real and check what arrived.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { listen } from './listen';

export interface SeenRequest {
	method: string;
	/** The request target as it arrived: the path and the query. */
	url: string;
	/** The HTTP version of the request line, as it arrived (`1.1`). */
	httpVersion: string;
	/** Header names in lower case, as Node parses them. */
	headers: Record<string, string>;
	/** Names and values as they came, alternating. */
	rawHeaders: string[];
	body: string;
}

/** Reads a request to its end and records it as it arrived (also used by scripted-service.ts). */
export function readRequest(req: IncomingMessage): Promise<SeenRequest> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('error', reject);
		req.on('end', () =>
			resolve({
				method: req.method ?? '',
				url: req.url ?? '',
				httpVersion: req.httpVersion,
				headers: req.headers as Record<string, string>,
				rawHeaders: req.rawHeaders,
				body: Buffer.concat(chunks).toString('utf8')
			})
		);
	});
}

/** Runs `fn` with the server's origin and the requests seen so far; the server closes after it. */
export async function withRecordingServer(
	fn: (origin: string, seen: SeenRequest[]) => Promise<void>
): Promise<void> {
	const seen: SeenRequest[] = [];
	const server = createServer((req, res) => {
		void readRequest(req).then((request) => {
			seen.push(request);
			res
				.writeHead(200, { 'Content-Type': 'application/json', 'X-Seen': 'yes' })
				.end('{"ok":true}');
		});
	});
	const { url } = await listen(server);
	try {
		await fn(url, seen);
	} finally {
		server.close();
	}
}
