// A free TCP port on loopback, for the servers that the tests, the bench and the load script start.
import { createServer } from 'node:net';

/** @returns {Promise<number>} */
export function freePort() {
	return new Promise((ok, fail) => {
		const srv = createServer();
		srv.once('error', fail);
		srv.listen(0, '127.0.0.1', () => {
			const addr = srv.address();
			const port = typeof addr === 'object' && addr ? addr.port : 0;
			srv.close(() => ok(port));
		});
	});
}
