// The bench's server: the built server started by scripts/lib/server.js with the bench's
// environment, ready when `/` answers 200; optionally with a hook to read its memory after a full GC.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { childrenOf, startServer } from '../lib/server.js';
import { MiB, SERVER_ENV } from './config.js';
import { round, sleep } from './stats.js';

// With `gcHook`, the server is started with --expose-gc and answers SIGUSR2 with a full GC and a
// line of process.memoryUsage(), so memory can be read without changing the playground's code.
const GC_HOOK =
	'data:text/javascript,' +
	encodeURIComponent(
		"process.on('SIGUSR2',()=>{globalThis.gc();console.log('BENCH-MEM '+JSON.stringify(process.memoryUsage()))});"
	);

/** VmRSS and VmHWM (peak) of a process, from /proc. @param {number} pid */
export function procStatus(pid) {
	const s = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (/** @type {string} */ name) =>
		Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
	return { vmRssMiB: round(kb('VmRSS') / 1024), vmHwmMiB: round(kb('VmHWM') / 1024) };
}

/** The fields of /proc/<pid>/stat after the command name. @param {number} pid */
function statFields(pid) {
	const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
	return s.slice(s.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU seconds (user + system) a process and its live children (a cluster's workers) have used so
 * far, from /proc (clock ticks of 1/100 s). @param {number} pid
 */
export function procCpuSeconds(pid) {
	let total = 0;
	for (const p of [pid, ...childrenOf(pid)]) {
		try {
			const f = statFields(p);
			total += (Number(f[11]) + Number(f[12])) / 100;
		} catch {
			// ended meanwhile
		}
	}
	return total;
}

/**
 * Starts `node scripts/serve.js` on a free loopback port and polls `/` until it answers 200.
 * @param {{ gcHook?: boolean, env?: Record<string, string> }} [opts] `env` on top of the bench's
 */
export async function startBenchServer(opts = {}) {
	const srv = await startServer({
		env: {
			PLAYGROUND_SESSION_KEY: randomBytes(32).toString('base64url'),
			...SERVER_ENV,
			...opts.env
		},
		nodeArgs: opts.gcHook ? ['--expose-gc', '--import', GC_HOOK] : [],
		readyPath: '/',
		pollMs: 5
	});
	const { proc, pid } = srv;
	/** @type {((line: string) => void)[]} */
	const lineWaiters = [];
	proc.stdout?.on('data', (d) => {
		for (const line of String(d).split('\n'))
			if (line.startsWith('BENCH-MEM ')) lineWaiters.shift()?.(line.slice(10));
	});
	return {
		base: srv.url,
		proc,
		pid,
		readyMs: srv.readyMs,
		logs: srv.logs,
		stop: srv.stop,
		/** Full GC in the server, then its memory figures. @returns {Promise<{ rssMiB: number, heapUsedMiB: number, heapTotalMiB: number, externalMiB: number, vmRssMiB: number, vmHwmMiB: number }>} */
		async gcAndMemory() {
			const line = await Promise.race([
				new Promise((ok) => {
					lineWaiters.push(ok);
					proc.kill('SIGUSR2');
				}),
				sleep(10_000).then(() => {
					throw new Error('the server did not answer the GC signal');
				})
			]);
			const m = JSON.parse(String(line));
			await sleep(1000);
			const st = procStatus(pid);
			return {
				rssMiB: round(m.rss / MiB),
				heapUsedMiB: round(m.heapUsed / MiB),
				heapTotalMiB: round(m.heapTotal / MiB),
				externalMiB: round(m.external / MiB),
				vmRssMiB: st.vmRssMiB,
				vmHwmMiB: st.vmHwmMiB
			};
		},
		/** GC and idle until RSS holds steady (at least 10 s, at most 40 s); the last reading and the series. */
		async settledMemory() {
			const t = performance.now();
			let last = await this.gcAndMemory();
			const series = [last.vmRssMiB];
			while (performance.now() - t < 40_000) {
				await sleep(2000);
				const m = await this.gcAndMemory();
				series.push(m.vmRssMiB);
				const steady = Math.abs(m.vmRssMiB - last.vmRssMiB) < 1;
				last = m;
				if (steady && performance.now() - t > 10_000) break;
			}
			return {
				...last,
				settleSeconds: round((performance.now() - t) / 1000, 1),
				vmRssSeriesMiB: series
			};
		}
	};
}
