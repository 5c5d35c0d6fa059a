/**
 * A Redis server of the tests' own (Debian's `redis-server`, installed by `.ci/run`), on a free
 * loopback port, with append-only persistence written on every command (`appendonly yes`,
 * `appendfsync always`) in a fresh temporary folder. `stop()` ends it by its PID and waits for its
 * exit; `start()` again reuses the port and the folder, so what was committed is back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/free-port.js';

/** Append-only persistence written on every command: compose.yaml gives Valkey the same flags. */
export const PERSISTENCE_FLAGS = ['--appendonly', 'yes', '--appendfsync', 'always'];

export interface TestRedis {
	url: string;
	port: number;
	/** Starts the server (again); resolves when it accepts connections. */
	start: () => Promise<void>;
	/** Stops it by its PID; resolves when the process has exited. */
	stop: () => Promise<void>;
	/** Stops it and removes its folder. */
	remove: () => Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'playground-redis-'));
	let proc: ChildProcess | undefined;

	const start = () =>
		new Promise<void>((ok, fail) => {
			const child = spawn(
				'redis-server',
				[
					'--port',
					String(port),
					'--bind',
					'127.0.0.1',
					'--dir',
					dir,
					...PERSISTENCE_FLAGS,
					'--save',
					'',
					'--protected-mode',
					'yes'
				],
				{ stdio: ['ignore', 'pipe', 'pipe'] }
			);
			proc = child;
			let out = '';
			const onData = (d: Buffer) => {
				out += d.toString();
				if (/Ready to accept connections/.test(out)) {
					child.stdout.off('data', onData);
					ok();
				}
			};
			child.stdout.on('data', onData);
			child.stderr.on('data', (d: Buffer) => (out += d.toString()));
			child.once('error', (e: NodeJS.ErrnoException) =>
				fail(
					e.code === 'ENOENT'
						? new Error(
								'redis-server is not installed: apt-get install -y redis-server (.ci/run does)'
							)
						: e
				)
			);
			child.once('exit', (code) => fail(new Error(`redis-server exited (${code}): ${out}`)));
		});

	const stop = () =>
		new Promise<void>((ok) => {
			const child = proc;
			proc = undefined;
			if (!child || child.exitCode !== null || child.pid === undefined) return ok();
			child.removeAllListeners('exit');
			child.once('exit', () => ok());
			process.kill(child.pid, 'SIGTERM');
		});

	await start();
	return {
		url: `redis://127.0.0.1:${port}`,
		port,
		start,
		stop,
		remove: async () => {
			await stop();
			rmSync(dir, { recursive: true, force: true });
		}
	};
}
