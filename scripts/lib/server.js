// Starts the built server (`node scripts/serve.js`, which needs `npm run build`) on a free loopback
// port and waits until it answers: one implementation for the tests, the bench and the load script.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { resolve } from 'node:path';
import { freePort } from '../free-port.js';

/**
 * @typedef {object} StartOptions
 * @property {Record<string, string>} [env] on top of PATH, HOME, HOST=127.0.0.1 and PORT
 * @property {number} [port] default: a free one
 * @property {string[]} [nodeArgs] options for node before the script, e.g. `--expose-gc`
 * @property {string} [readyPath] the path polled until it answers 200; default `/healthz`
 * @property {number} [pollMs] between two polls; default 50
 * @property {number} [timeoutMs] to wait for the first 200; default 20,000
 */

/**
 * @typedef {object} Server
 * @property {string} url `http://127.0.0.1:<port>`
 * @property {number} port
 * @property {number} pid
 * @property {import('node:child_process').ChildProcess} proc
 * @property {number} readyMs from the spawn to the first 200 on `readyPath`
 * @property {() => string} logs everything the server printed on stdout and stderr
 * @property {() => Promise<void>} stop SIGTERM, and SIGKILL after 5 s (the server's own way out,
 *   scripts/serve.js, exits by itself 3 s after SIGTERM: the kill must not race it)
 */

/** Servers started here and not stopped yet: killed when this process exits. */
/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
process.on('exit', () => {
	for (const p of running) if (p.exitCode === null && p.pid) process.kill(p.pid, 'SIGKILL');
});

/**
 * The live child processes of `pid` (a cluster's workers), from /proc: "pid (comm) state ppid …",
 * read after the command name's closing parenthesis, since it may hold spaces.
 * @param {number} pid @returns {number[]}
 */
export function childrenOf(pid) {
	/** @type {number[]} */
	const out = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(ppid) === pid && state !== 'Z') out.push(Number(entry));
		} catch {
			// the process ended while the list was read
		}
	}
	return out;
}

/** Sends SIGTERM to every server started here that is still running (after a failure, say). */
export function stopAll() {
	for (const p of running) if (p.exitCode === null) p.kill('SIGTERM');
}

/** The status of one GET, with a fresh connection. @param {string} url @returns {Promise<number>} */
function probe(url) {
	return new Promise((ok, fail) => {
		const req = http.get(url, { agent: false, headers: { accept: 'text/html' } }, (res) => {
			res.resume();
			res.on('end', () => ok(res.statusCode ?? 0));
			res.on('error', fail);
		});
		req.on('error', fail);
	});
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @param {StartOptions} [opts] @returns {Promise<Server>} */
export async function startServer(opts = {}) {
	if (!existsSync(resolve('build/handler.js')))
		throw new Error('build/handler.js is missing: run `npm run build` first');
	// A free port is free when it is picked, not when the server listens: another file's server may
	// take it in between. This one then cannot listen and exits, and another port is tried.
	for (let attempt = 1; ; attempt++) {
		try {
			return await startOn(opts.port ?? (await freePort()), opts);
		} catch (e) {
			const taken = /cannot listen on .*EADDRINUSE/.test(String(/** @type {Error} */ (e).message));
			if (opts.port !== undefined || !taken || attempt === 3) throw e;
		}
	}
}

/** What serve.js prints once it listens (every worker, with several): the server is this one. */
const LISTENING = 'OAuth playground: ';

/**
 * @param {number} port
 * @param {StartOptions} opts
 * @returns {Promise<Server>}
 */
async function startOn(port, opts) {
	const readyPath = opts.readyPath ?? '/healthz';
	const pollMs = opts.pollMs ?? 50;
	const t0 = performance.now();
	const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), resolve('scripts/serve.js')], {
		env: {
			PATH: process.env.PATH ?? '',
			HOME: process.env.HOME ?? '',
			HOST: '127.0.0.1',
			PORT: String(port),
			...opts.env
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	running.add(proc);
	proc.once('exit', () => running.delete(proc));
	let out = '';
	proc.stdout?.on('data', (d) => (out += d));
	proc.stderr?.on('data', (d) => (out += d));
	const url = `http://127.0.0.1:${port}`;
	const deadline = t0 + (opts.timeoutMs ?? 20_000);
	let readyMs;
	for (;;) {
		if (proc.exitCode !== null)
			throw new Error(`the server exited early (${proc.exitCode}):\n${out}`);
		try {
			// Only once this process says it listens: until then an answer on the port is another's.
			if (out.includes(LISTENING) && (await probe(url + readyPath)) === 200) {
				readyMs = performance.now() - t0;
				break;
			}
		} catch {
			/* not listening yet */
		}
		if (performance.now() > deadline) {
			proc.kill('SIGKILL');
			throw new Error(
				`the server did not answer ${readyPath} within ${opts.timeoutMs ?? 20_000} ms:\n${out}`
			);
		}
		await sleep(pollMs);
	}
	return {
		url,
		port,
		pid: /** @type {number} */ (proc.pid),
		proc,
		readyMs,
		logs: () => out,
		stop: () =>
			new Promise((ok) => {
				if (proc.exitCode !== null) return ok();
				const kill = setTimeout(() => proc.kill('SIGKILL'), 5000);
				kill.unref();
				proc.once('exit', () => {
					clearTimeout(kill);
					ok();
				});
				proc.kill('SIGTERM');
			})
	};
}
