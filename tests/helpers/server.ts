/**
 * Starts the built production server (build/index.js) on a free loopback port, for integration and
 * e2e tests. The implementation is shared with the bench and the load script: scripts/lib/server.js.
 */
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../../scripts/free-port.js';
import { startServer as start } from '../../scripts/lib/server.js';

export interface TestServer {
	url: string;
	port: number;
	/** Everything the server printed on stdout and stderr. */
	logs: () => string;
	stop: () => Promise<void>;
	proc: ChildProcess;
}

/** A session key of 32 bytes (base64url), as PLAYGROUND_SESSION_KEY requires. */
export const sessionKey = (label: string) => Buffer.alloc(32, label).toString('base64url');

export const TEST_SESSION_KEY = sessionKey('integration-test-session-key');

export { freePort };

export async function startServer(
	env: Record<string, string> = {},
	port?: number
): Promise<TestServer> {
	return start({ env: { PLAYGROUND_SESSION_KEY: TEST_SESSION_KEY, ...env }, port });
}
