// (i) Many processes on a shared store: the user-info action's throughput (as in (c), at each of
// LOAD_CONCURRENCY) from one process on Redis and from PLAYGROUND_WORKERS=2 on Redis, with the
// direct GET on the two workers alongside, and the store's cost per step: the server's extra CPU
// on Redis over memory, plus redis-server's own CPU, per step. The redis-server is the bench's own
// (scripts/lib/redis.js), stopped by its PID.
import http from 'node:http';
import { startRedis } from '../lib/redis.js';
import { measureExchange } from './a-exchange.js';
import { measureThroughput } from './c-throughput.js';
import { TARGETS, yes } from './config.js';
import { prepareSamples } from './samples.js';
import { procCpuSeconds, startBenchServer } from './server.js';
import { round } from './stats.js';

/** @typedef {import('./c-throughput.js').Throughput} Throughput */

/** (c) on a server started with `env`, and redis-server's CPU meanwhile. @param {Record<string, string>} env @param {number} redisPid */
async function loadOn(env, redisPid) {
	const srv = await startBenchServer({ env });
	try {
		const { sessions, codes } = await prepareSamples(srv.base);
		const one = new http.Agent({ keepAlive: true, maxSockets: 1 });
		const { tokens } = await measureExchange({ base: srv.base, agent: one, sessions, codes });
		one.destroy();
		const redis0 = procCpuSeconds(redisPid);
		const load = await measureThroughput({ base: srv.base, pid: srv.pid, sessions, tokens });
		const redisCpu = procCpuSeconds(redisPid) - redis0;
		const steps = load.reduce((a, l) => a + l.playground.steps + l.direct.steps, 0);
		return { load, redisCpuMsPerRequest: round((redisCpu * 1000) / Math.max(steps, 1), 3) };
	} finally {
		await srv.stop();
	}
}

export async function measureWorkers() {
	const redis = await startRedis();
	try {
		const pid = /** @type {number} */ (redis.pid());
		const oneRedis = await loadOn({ REDIS_URL: redis.url }, pid);
		const twoWorkers = await loadOn({ REDIS_URL: redis.url, PLAYGROUND_WORKERS: '2' }, pid);
		return { oneRedis, twoWorkers };
	} finally {
		await redis.remove();
	}
}

/** @typedef {Awaited<ReturnType<typeof measureWorkers>>} Workers */

/** @param {Workers} w @param {Throughput} memory the one-process, memory-store (c) of the same run */
export function workersRow(w, memory) {
	const ratios = w.twoWorkers.load.map((l, i) =>
		round(l.playground.perSecond / (memory[i]?.playground.perSecond ?? Infinity), 2)
	);
	return {
		figure: '(i) two workers on Redis, userinfo action',
		measured:
			w.twoWorkers.load
				.map(
					(l, i) =>
						`${l.playground.perSecond.toFixed(0)} steps/s at ${l.concurrency} (×${ratios[i]})`
				)
				.join(', ') +
			`; one process on Redis ${w.oneRedis.load.map((l) => l.playground.perSecond.toFixed(0)).join(', ')}/s` +
			`; store cost ${storeCostMs(w, memory)} ms CPU per step`,
		target: `≥ ${TARGETS.workersSpeedup}× one process`,
		met: yes(ratios.every((r) => r >= TARGETS.workersSpeedup))
	};
}

/** The server's extra CPU per step on Redis over memory (one process each), plus redis-server's. @param {Workers} w @param {Throughput} memory */
function storeCostMs(w, memory) {
	const per = (/** @type {Throughput} */ t) =>
		t.reduce((a, l) => a + l.playground.serverCpuMsPerStep, 0) / t.length;
	return round(per(w.oneRedis.load) - per(memory) + w.oneRedis.redisCpuMsPerRequest, 3);
}

/**
 * What limits (i) on this machine, at each concurrency, from the same run:
 * - `ceiling`: the speedup two workers could reach at the one process's CPU per step, given the
 *   cores left once the load generator and redis-server have theirs: (cores − load generator −
 *   redis-server) ÷ the one process's cores;
 * - `cpuPerStep`: the two workers' server CPU per step against the one process's (≥ 1: more per step);
 * - their quotient is the speedup those two allow, next to the measured one.
 * @param {Workers} w @param {Throughput} memory @param {number} cores
 */
export function workersCeiling(w, memory, cores) {
	return w.twoWorkers.load.map((two, i) => {
		const one = memory[i];
		if (!one) return undefined;
		const redisCores = (w.twoWorkers.redisCpuMsPerRequest * two.playground.perSecond) / 1000;
		const ceiling =
			(cores - two.playground.clientCpuCores - redisCores) / one.playground.serverCpuCores;
		const cpuPerStep = two.playground.serverCpuMsPerStep / one.playground.serverCpuMsPerStep;
		return {
			concurrency: two.concurrency,
			oneProcessCores: one.playground.serverCpuCores,
			loadGeneratorCores: two.playground.clientCpuCores,
			redisCores: round(redisCores, 2),
			ceiling: round(ceiling, 2),
			cpuPerStep: round(cpuPerStep, 2),
			allowed: round(ceiling / cpuPerStep, 2),
			measured: round(two.playground.perSecond / one.playground.perSecond, 2)
		};
	});
}

/** @param {Workers} w @param {Throughput} memory @param {number} cores */
export function workersDetails(w, memory, cores) {
	const limits = workersCeiling(w, memory, cores).flatMap((c) =>
		c
			? [
					`  (i) at ${c.concurrency}: one process uses ${c.oneProcessCores} cores; with the load generator at ${c.loadGeneratorCores} and redis-server at ${c.redisCores}, ${cores} cores allow ×${c.ceiling} at its CPU per step; the workers spend ×${c.cpuPerStep} its CPU per step, which allows ×${c.allowed}; measured ×${c.measured}`
				]
			: []
	);
	return [
		...w.oneRedis.load.map(
			(x) =>
				`  (i) one process on Redis, concurrency ${x.concurrency}: ${x.playground.perSecond}/s, server ${x.playground.serverCpuMsPerStep} ms CPU per step; direct GET ${x.direct.perSecond}/s`
		),
		...w.twoWorkers.load.map(
			(x) =>
				`  (i) two workers on Redis, concurrency ${x.concurrency}: ${x.playground.perSecond}/s, p50 ${x.playground.latencyMedianMs} ms, server ${x.playground.serverCpuMsPerStep} ms CPU per step on ${x.playground.serverCpuCores} cores, load generator ${x.playground.clientCpuCores} cores; direct GET ${x.direct.perSecond}/s`
		),
		`  (i) redis-server: ${w.oneRedis.redisCpuMsPerRequest} ms CPU per request (one process), ${w.twoWorkers.redisCpuMsPerRequest} ms (two workers)`,
		...limits
	];
}
