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

/** @param {Workers} w */
export function workersDetails(w) {
	return [
		...w.oneRedis.load.map(
			(x) =>
				`  (i) one process on Redis, concurrency ${x.concurrency}: ${x.playground.perSecond}/s, server ${x.playground.serverCpuMsPerStep} ms CPU per step; direct GET ${x.direct.perSecond}/s`
		),
		...w.twoWorkers.load.map(
			(x) =>
				`  (i) two workers on Redis, concurrency ${x.concurrency}: ${x.playground.perSecond}/s, p50 ${x.playground.latencyMedianMs} ms, server ${x.playground.serverCpuMsPerStep} ms CPU per step on ${x.playground.serverCpuCores} cores, load generator ${x.playground.clientCpuCores} cores; direct GET ${x.direct.perSecond}/s`
		),
		`  (i) redis-server: ${w.oneRedis.redisCpuMsPerRequest} ms CPU per request (one process), ${w.twoWorkers.redisCpuMsPerRequest} ms (two workers)`
	];
}
