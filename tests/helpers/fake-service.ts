/**
 * A service that answers what a test tells it to: its consent page sends the browser straight
 * back with a code (like the service would after Authorize), and every other path answers with
 * the status, headers and body given for it (404 with an HTML page when none is). For the answers
 * that are not OAuth: a wrong base URL's HTML page, a gateway's JSON without `error`. Listens on a
 * loopback port; stop it with `close()`.
 */
import http from 'node:http';
import { listen } from './listen';

export interface FakeAnswer {
	status: number;
	headers?: Record<string, string>;
	body?: string;
}

export interface FakeService {
	url: string;
	/** What a path answers from now on. */
	answer: (path: string, a: FakeAnswer) => void;
	close: () => Promise<void>;
}

export const NOT_FOUND_PAGE =
	'<!DOCTYPE html><html><head><title>Page not found · Example Hosting</title></head><body><h1>Not found</h1></body></html>';

export async function startFakeService(): Promise<FakeService> {
	const answers = new Map<string, FakeAnswer>();
	const server = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			const u = new URL(req.url!, 'http://x');
			if (u.pathname === '/oauth2/auth') {
				const back = new URL(u.searchParams.get('redirect_uri')!);
				back.searchParams.set('code', 'fake-code');
				back.searchParams.set('state', u.searchParams.get('state')!);
				res.writeHead(302, { location: back.toString() }).end();
				return;
			}
			const a = answers.get(u.pathname) ?? {
				status: 404,
				headers: { 'content-type': 'text/html; charset=utf-8' },
				body: NOT_FOUND_PAGE
			};
			res.writeHead(a.status, a.headers ?? {}).end(a.body ?? '');
		});
	});
	const { url } = await listen(server);
	return {
		url,
		answer: (path, a) => answers.set(path, a),
		close: () => new Promise<void>((ok) => server.close(() => ok()))
	};
}
