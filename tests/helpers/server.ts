/**
 * Starts the built production server (build/index.js) on a free loopback port, for integration and e2e tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export interface TestServer {
	url: string;
	port: number;
	/** Everything the server printed on stdout and stderr. */
	logs: () => string;
	stop: () => Promise<void>;
	proc: ChildProcess;
}

export const TEST_SESSION_KEY = 'integration-test-session-key-0123456789';

import { freePort } from '../../scripts/free-port.js';

export { freePort };

export async function startServer(
	env: Record<string, string> = {},
	port?: number
): Promise<TestServer> {
	const entry = resolve('scripts/serve.js');
	if (!existsSync(resolve('build/handler.js')))
		throw new Error('build/handler.js is missing: run `npm run build` first');
	const p = port ?? (await freePort());
	let out = '';
	const proc = spawn(process.execPath, [entry], {
		env: {
			PATH: process.env.PATH ?? '',
			HOME: process.env.HOME ?? '',
			HOST: '127.0.0.1',
			PORT: String(p),
			PLAYGROUND_SESSION_KEY: TEST_SESSION_KEY,
			...env
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	proc.stdout!.on('data', (d) => (out += d));
	proc.stderr!.on('data', (d) => (out += d));
	const url = `http://127.0.0.1:${p}`;
	const deadline = Date.now() + 20_000;
	for (;;) {
		if (proc.exitCode !== null) throw new Error(`server exited early (${proc.exitCode}):\n${out}`);
		try {
			const r = await fetch(url + '/healthz');
			if (r.ok) break;
		} catch {
			/* not up yet */
		}
		if (Date.now() > deadline) {
			proc.kill('SIGKILL');
			throw new Error(`server did not start:\n${out}`);
		}
		await new Promise((r) => setTimeout(r, 50));
	}
	return {
		url,
		port: p,
		proc,
		logs: () => out,
		stop: () =>
			new Promise<void>((ok) => {
				if (proc.exitCode !== null) return ok();
				proc.once('exit', () => ok());
				proc.kill('SIGTERM');
				setTimeout(() => proc.kill('SIGKILL'), 3000).unref();
			})
	};
}
