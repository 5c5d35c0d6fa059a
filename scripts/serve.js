// Serves the production build (build/handler.js) on HOST:PORT, default 127.0.0.1:5173, in
// PLAYGROUND_WORKERS processes (node:cluster: the primary forks them, they share the port, and one
// that dies is replaced; SIGTERM to the primary stops them all).
// Without ORIGIN, the page's origin is taken from the Host header and the plain-HTTP socket, so
// both http://127.0.0.1:PORT and http://localhost:PORT work. Behind a TLS proxy, set ORIGIN.
// The configuration is parsed here first, by the same function the server uses, so a bad value
// stops the start before anything is loaded.
import cluster from 'node:cluster';
import http from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OWN_PROTOCOL_HEADER, isTrustedProxy, parseConfig } from '../src/lib/config.server.js';
import { WORKERS_PATH, baseHeaders } from '../src/lib/server/headers.js';

/** @type {import('../src/lib/config.server.js').Config} */
let config;
try {
	config = parseConfig(process.env);
} catch (e) {
	console.error(`\nThe playground cannot start: ${/** @type {Error} */ (e).message}\n`);
	process.exit(1);
}
// Settings accepted on purpose that weaken a check: said at every start, once (not by each worker).
if (!cluster.isWorker) for (const warning of config.warnings) console.warn(`Warning: ${warning}`);
const { host, port, origin } = config;
const shown = origin ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
/** How long, and how many bytes, an over-cap body is read before its 413 closes the connection. */
const LINGER_MS = 5_000;
const LINGER_MAX_BYTES = 8 * 1024 * 1024;

if (config.workers > 1 && cluster.isPrimary) {
	let stopping = false;
	let listening = 0;
	// The workers run this file, also when `npm start` (scripts/start.js) started the primary.
	cluster.setupPrimary({ exec: fileURLToPath(import.meta.url) });
	for (let i = 0; i < config.workers; i++) cluster.fork();
	cluster.on('exit', (worker, code, signal) => {
		if (stopping) {
			if (Object.keys(cluster.workers ?? {}).length === 0) process.exit();
			return;
		}
		// A worker that ends before all are listening could not start (the port is taken, say; it
		// said why): starting it again would fail the same way, so the start fails.
		if (listening < config.workers) {
			stopping = true;
			for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
			process.exitCode = 1;
			return;
		}
		console.error(`Worker ${worker.process.pid} ended (${signal ?? code}); starting another.`);
		cluster.fork();
	});
	cluster.on('listening', () => {
		if (++listening !== config.workers) return;
		console.log(`OAuth playground: ${shown}/ (${config.workers} workers)`);
		if (config.sandbox.enabled) console.log(`Sandbox service:  ${shown}/sandbox`);
	});
	const stopAll = () => {
		stopping = true;
		for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
		setTimeout(() => process.exit(0), 4000).unref();
	};
	process.on('SIGTERM', stopAll);
	process.on('SIGINT', stopAll);
} else await serve();

async function serve() {
	// adapter-node reads its own settings from process.env when the handler loads. Bodies sent without
	// a Content-Length are capped by the adapter: give it the playground's own cap.
	process.env.BODY_SIZE_LIMIT = config.bodySizeLimit;
	const protocolHeader = config.proxy.protocolHeader?.trim().toLowerCase();
	const ownProtocol = !origin && (!protocolHeader || protocolHeader === OWN_PROTOCOL_HEADER);
	if (ownProtocol) process.env.PROTOCOL_HEADER = OWN_PROTOCOL_HEADER;
	// The proxy's host and port headers, from which adapter-node builds the request's URL.
	const urlHeaders = [config.proxy.hostHeader, config.proxy.portHeader].flatMap((name) =>
		name?.trim() ? [name.trim().toLowerCase()] : []
	);

	const { handler } = await import(pathToFileURL(resolve('build/handler.js')).href);

	// Security headers on every answer, the files of static/ and /_app/ included, which adapter-node
	// serves before SvelteKit's hook runs; a header the handler writes (a page's CSP) wins.
	const securityHeaders = baseHeaders(origin);
	const workerHeaders = baseHeaders(origin, WORKERS_PATH);

	const server = http.createServer((req, res) => {
		const own = req.url?.startsWith(WORKERS_PATH) ? workerHeaders : securityHeaders;
		for (const [name, value] of own) res.setHeader(name, value);
		// This server speaks plain HTTP: say so, whatever the client sent in that header.
		if (ownProtocol) req.headers[OWN_PROTOCOL_HEADER] = 'http';
		// The proxy's headers are believed only from the proxy (PLAYGROUND_TRUSTED_PROXIES): on any
		// other connection the URL is built from what that connection is, plain HTTP to its Host,
		// whether or not the protocol is this server's own header.
		// (The server hook checks the same rule; the client address is read there, from the socket.)
		if (!isTrustedProxy(req.socket.remoteAddress, config.proxy.trusted)) {
			for (const name of urlHeaders) delete req.headers[name];
			if (protocolHeader) req.headers[protocolHeader] = 'http';
		}
		const declared = Number(req.headers['content-length'] ?? 0);
		if (declared > config.limits.maxRequestBytes) lingerUntilRead(req, res, declared);
		handler(req, res);
	});

	// A request the HTTP parser refuses (headers over 16 KB: 431; anything else malformed: 400) is
	// answered as Node does, but the connection is ended, not destroyed, and what the client still
	// sends is read and dropped: destroying it with unread bytes would reset the connection, and the
	// reset could swallow the answer.
	server.on('clientError', (err, socket) => {
		const code = /** @type {NodeJS.ErrnoException} */ (err).code;
		if (!socket.writable || code === 'ECONNRESET') return socket.destroy();
		const status =
			code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
		socket.end(
			`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`
		);
		socket.resume();
		setTimeout(() => socket.destroy(), LINGER_MS).unref();
	});

	server.on('error', (err) => {
		console.error(`\nThe playground cannot listen on ${host}:${port}: ${err.message}\n`);
		process.exit(1);
	});

	server.listen(port, host, () => {
		if (cluster.isWorker) return;
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
}

/**
 * A body over the cap is answered 413 without being read. Closing the connection while the client
 * still sends it would make the kernel reset it, and a reset can throw away the 413 before the
 * client reads it: the user would see "connection reset" instead of the reason. So the body is
 * read and dropped, and the answer's end (and with it the close) waits until it has arrived, for
 * at most LINGER_MS and up to LINGER_MAX_BYTES (beyond that the connection closes as before).
 * @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {number} declared
 */
function lingerUntilRead(req, res, declared) {
	if (declared > LINGER_MAX_BYTES) return;
	/** @type {Promise<void>} */
	const arrived = new Promise((ok) => {
		const timer = setTimeout(ok, LINGER_MS);
		timer.unref();
		const done = () => {
			clearTimeout(timer);
			ok();
		};
		req.once('end', done);
		req.once('close', done);
		req.once('error', done);
	});
	req.resume();
	const end = res.end.bind(res);
	res.end = /** @type {typeof res.end} */ (
		(/** @type {unknown[]} */ ...args) => {
			void arrived.then(() => end(.../** @type {[]} */ (args)));
			return res;
		}
	);
}
