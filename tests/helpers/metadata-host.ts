/**
 * A host that serves RFC 8414 metadata at its well-known URL and records every request it gets, the
 * metadata fetch included: for tests where another host's document claims a service's endpoints.
 * The document is `doc(origin)`; with its `issuer` set to that origin it counts as verified (RFC
 * 8414 §3.3), as any host can arrange for its own. Every other path answers 200 with a user-info
 * body. Listens on a loopback port; closes after `fn`.
 */
import { createServer } from 'node:http';
import { listen } from './listen';
import { readRequest, type SeenRequest } from './recording-server';

export async function withMetadataHost(
	doc: (origin: string) => Record<string, string>,
	fn: (origin: string, seen: SeenRequest[]) => Promise<void>
): Promise<void> {
	const seen: SeenRequest[] = [];
	let origin = '';
	const server = createServer((req, res) => {
		void readRequest(req).then((request) => {
			seen.push(request);
			if (request.url === '/.well-known/oauth-authorization-server') {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(doc(origin)));
				return;
			}
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"sub":"1"}');
		});
	});
	origin = (await listen(server)).url;
	try {
		await fn(origin, seen);
	} finally {
		server.closeAllConnections();
		await new Promise<void>((ok) => server.close(() => ok()));
	}
}

/** Everything the requests carried, as one text: each target, its headers and its body. */
export const carried = (seen: SeenRequest[]): string =>
	seen.map((r) => `${r.method} ${r.url}\n${r.rawHeaders.join('\n')}\n${r.body}`).join('\n');
