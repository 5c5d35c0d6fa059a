// Serves the production build (build/handler.js) on HOST:PORT, default 127.0.0.1:5173.
// Without ORIGIN, the page's origin is taken from the Host header and the plain-HTTP socket, so
// both http://127.0.0.1:PORT and http://localhost:PORT work. Behind a TLS proxy, set ORIGIN.
import http from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const host = (process.env.HOST ??= '127.0.0.1');
const port = Number((process.env.PORT ??= '5173'));
// Bodies sent without a Content-Length are capped by the adapter; give it the playground's own cap.
process.env.BODY_SIZE_LIMIT ??= process.env.PLAYGROUND_MAX_REQUEST_BYTES || String(64 * 1024);
const ownProtocol = !process.env.ORIGIN && !process.env.PROTOCOL_HEADER;
if (ownProtocol) process.env.PROTOCOL_HEADER = 'x-playground-protocol';

const { handler } = await import(pathToFileURL(resolve('build/handler.js')).href);

const server = http.createServer((req, res) => {
	// This server speaks plain HTTP: say so, whatever the client sent in that header.
	if (ownProtocol) req.headers['x-playground-protocol'] = 'http';
	handler(req, res);
});

server.on('error', (err) => {
	console.error(`\nThe playground cannot listen on ${host}:${port}: ${err.message}\n`);
	process.exit(1);
});

server.listen(port, host, () => {
	const shown = process.env.ORIGIN ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	console.log(`OAuth playground: ${shown}/`);
	if ((process.env.SANDBOX ?? 'on').toLowerCase() !== 'off')
		console.log(`Sandbox service:  ${shown}/sandbox`);
});

function stop() {
	server.close(() => process.exit(0));
	server.closeIdleConnections();
	setTimeout(() => process.exit(0), 3000).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
