// A Redis server of our own (Debian's `redis-server`, which `.ci/run` installs), on a free
// loopback port, by default with append-only persistence written on every command, in a fresh
// temporary folder: one implementation for the tests and the bench. `stop()` ends it by its PID and waits for
// its exit; `start()` again reuses the port and the folder, so what was committed is back.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../free-port.js';

/** Append-only persistence written on every command: compose.yaml gives Valkey the same flags. */
export const PERSISTENCE_FLAGS = ['--appendonly', 'yes', '--appendfsync', 'always'];

/** No persistence at all: a restart starts empty (what the store's start-up check refuses). */
export const NO_PERSISTENCE_FLAGS = ['--appendonly', 'no'];

/** `CONFIG` renamed away, as managed servers often disable it: only `INFO` tells the settings. */
export const NO_CONFIG_FLAGS = ['--rename-command', 'CONFIG', ''];

/**
 * @typedef {object} Redis
 * @property {string} url
 * @property {number} port
 * @property {() => number | undefined} pid the running server's PID
 * @property {() => Promise<void>} start starts it (again); resolves when it accepts connections
 * @property {() => Promise<void>} stop stops it by its PID; resolves when the process has exited
 * @property {() => Promise<void>} remove stops it and removes its folder
 */

/**
 * @param {{ flags?: string[] }} [options] `flags`: the server's persistence and other settings
 *   (default `PERSISTENCE_FLAGS`); snapshots are off unless they name `--save`.
 * @returns {Promise<Redis>}
 */
export async function startRedis({ flags = PERSISTENCE_FLAGS } = {}) {
	const port = await freePort();
	const dir = mkdtempSync(join(tmpdir(), 'playground-redis-'));
	/** @type {import('node:child_process').ChildProcess | undefined} */
	let proc;

	const start = () =>
		/** @type {Promise<void>} */ (
			new Promise((ok, fail) => {
				const child = spawn(
					'redis-server',
					[
						'--port',
						String(port),
						'--bind',
						'127.0.0.1',
						'--dir',
						dir,
						'--save',
						'',
						...flags,
						'--protected-mode',
						'yes'
					],
					{ stdio: ['ignore', 'pipe', 'pipe'] }
				);
				proc = child;
				let out = '';
				/** @param {Buffer} d */
				const onData = (d) => {
					out += d.toString();
					if (/Ready to accept connections/.test(out)) {
						child.stdout.off('data', onData);
						ok();
					}
				};
				child.stdout.on('data', onData);
				child.stderr.on('data', (/** @type {Buffer} */ d) => (out += d.toString()));
				child.once('error', (/** @type {NodeJS.ErrnoException} */ e) =>
					fail(
						e.code === 'ENOENT'
							? new Error(
									'redis-server is not installed: apt-get install -y redis-server (.ci/run does)'
								)
							: e
					)
				);
				child.once('exit', (code) => fail(new Error(`redis-server exited (${code}): ${out}`)));
			})
		);

	const stop = () =>
		/** @type {Promise<void>} */ (
			new Promise((ok) => {
				const child = proc;
				proc = undefined;
				if (!child || child.exitCode !== null || child.pid === undefined) return ok();
				child.removeAllListeners('exit');
				child.once('exit', () => ok());
				process.kill(child.pid, 'SIGTERM');
			})
		);

	await start();
	return {
		url: `redis://127.0.0.1:${port}`,
		port,
		pid: () => proc?.pid,
		start,
		stop,
		remove: async () => {
			await stop();
			rmSync(dir, { recursive: true, force: true });
		}
	};
}
