// The container's health check: GET /healthz on this server's own port, exit 0 on 200, else 1,
// within 3 s. It reads HOST and PORT as the server does (a wildcard address is asked on loopback).
import http from 'node:http';

const host = process.env.HOST ?? '127.0.0.1';
const target =
	host === '0.0.0.0' || host === ''
		? '127.0.0.1'
		: host === '::'
			? '::1'
			: host.replace(/^\[|\]$/g, '');
const port = Number(process.env.PORT ?? 5173);

const req = http.get(
	{ host: target, port, path: '/healthz', timeout: 3000, headers: { accept: 'text/plain' } },
	(res) => {
		res.resume();
		process.exit(res.statusCode === 200 ? 0 : 1);
	}
);
req.on('timeout', () => req.destroy(new Error('timed out')));
req.on('error', (e) => {
	console.error(`health check: ${e.message}`);
	process.exit(1);
});
