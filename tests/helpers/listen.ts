/**
 * Starts a server of a test's own on a port the kernel picks, on loopback only, so that test files
 * running side by side never ask for the same port.
 */
import type { AddressInfo, Server } from 'node:net';

export interface Listening {
	port: number;
	/** `http://127.0.0.1:<port>` (or `https://` for a TLS server). */
	url: string;
}

/** Listens on 127.0.0.1 and a free port; rejects when the server cannot listen. */
export async function listen(
	server: Server,
	scheme: 'http' | 'https' = 'http'
): Promise<Listening> {
	await new Promise<void>((ok, fail) => {
		server.once('error', fail);
		server.listen(0, '127.0.0.1', () => {
			server.off('error', fail);
			ok();
		});
	});
	const { port } = server.address() as AddressInfo;
	return { port, url: `${scheme}://127.0.0.1:${port}` };
}
