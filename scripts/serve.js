// Serves the production build (build/handler.js) on HOST:PORT, default 127.0.0.1:5173.
// Without ORIGIN, the page's origin is taken from the Host header and the plain-HTTP socket, so
// both http://127.0.0.1:PORT and http://localhost:PORT work. Behind a TLS proxy, set ORIGIN.
// The configuration is parsed here first, by the same function the server uses, so a bad value
// stops the start before anything is loaded.
import http from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseConfig } from '../src/lib/config.server.js';
import { baseHeaders } from '../src/lib/server/headers.js';

/** @type {import('../src/lib/config.server.js').Config} */
let config;
try {
	config = parseConfig(process.env);
} catch (e) {
	console.error(`\nThe playground cannot start: ${/** @type {Error} */ (e).message}\n`);
	process.exit(1);
}
const { host, port, origin } = config;

// adapter-node reads its own settings from process.env when the handler loads. Bodies sent without
// a Content-Length are capped by the adapter: give it the playground's own cap.
process.env.BODY_SIZE_LIMIT = config.bodySizeLimit;
const ownProtocol = !origin && !config.proxy.protocolHeader;
if (ownProtocol) process.env.PROTOCOL_HEADER = 'x-playground-protocol';

const { handler } = await import(pathToFileURL(resolve('build/handler.js')).href);

// Security headers on every answer, the files of static/ and /_app/ included, which adapter-node
// serves before SvelteKit's hook runs; a header the handler writes (a page's CSP) wins.
const securityHeaders = baseHeaders(origin);

const server = http.createServer((req, res) => {
	for (const [name, value] of securityHeaders) res.setHeader(name, value);
	// This server speaks plain HTTP: say so, whatever the client sent in that header.
	if (ownProtocol) req.headers['x-playground-protocol'] = 'http';
	handler(req, res);
});

server.on('error', (err) => {
	console.error(`\nThe playground cannot listen on ${host}:${port}: ${err.message}\n`);
	process.exit(1);
});

server.listen(port, host, () => {
	const shown = origin ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	console.log(`OAuth playground: ${shown}/`);
	if (config.sandbox.enabled) console.log(`Sandbox service:  ${shown}/sandbox`);
});

function stop() {
	server.close(() => process.exit(0));
	server.closeIdleConnections();
	setTimeout(() => process.exit(0), 3000).unref();
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
