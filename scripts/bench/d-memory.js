// (d) Memory: RSS before and after many distinct sessions with tokens, on a server of its own.
// Both readings are taken the same way: a full GC, then idle until V8 has handed back the heap it
// grew under load (RSS steady), so the difference is what the server keeps, not its high-water mark.
import http from 'node:http';
import { CONFIG, SESSION_CONCURRENCY, TARGETS, yes } from './config.js';
import { action, exchangeStatus, pageData, sessionWithCode } from './http.js';
import { procStatus, startBenchServer } from './server.js';
import { pool, round } from './stats.js';

export async function measureMemory() {
	const srv = await startBenchServer({ gcHook: true });
	const base = srv.base;
	const agent = new http.Agent({ keepAlive: true, maxSockets: SESSION_CONCURRENCY });
	const fresh = procStatus(srv.pid);
	let done = 0;
	let failed = 0;
	/** @type {string[]} */
	const errors = [];
	/** @type {{ sessions: number, seconds: number, vmRssMiB: number }[]} */
	const trend = [];
	let t0 = performance.now();
	const every = Math.max(1, Math.round(CONFIG.sessions / 10));
	const flow = async () => {
		try {
			const jar = await sessionWithCode(agent, base);
			const r = await action(agent, base, jar, 'exchange');
			const st = exchangeStatus(r);
			if (st !== 200) throw new Error(`exchange: ${st}`);
			// The action said the exchange succeeded; every 100th session is also read back.
			if (done % 100 === 0 && !(await pageData(agent, base, jar))?.tokens?.access_token)
				throw new Error('no tokens in the session after the exchange');
			done++;
			if (done % every === 0)
				trend.push({
					sessions: done,
					seconds: round((performance.now() - t0) / 1000, 1),
					vmRssMiB: procStatus(srv.pid).vmRssMiB
				});
		} catch (e) {
			failed++;
			if (errors.length < 5) errors.push(String(/** @type {Error} */ (e).message));
		}
	};
	await pool(CONFIG.memWarmup, SESSION_CONCURRENCY, flow);
	const warmed = done;
	const warmFailed = failed;
	done = 0;
	trend.length = 0;
	const before = await srv.settledMemory();
	t0 = performance.now();
	await pool(CONFIG.sessions, SESSION_CONCURRENCY, flow, CONFIG.sessionBudgetSeconds * 1000);
	const seconds = round((performance.now() - t0) / 1000, 1);
	const rightAfter = procStatus(srv.pid);
	const after = await srv.settledMemory();
	agent.destroy();
	await srv.stop();
	return {
		sessionsTarget: CONFIG.sessions,
		sessions: done,
		failed: failed - warmFailed,
		errors,
		warmupSessions: warmed,
		seconds,
		sessionsPerSecond: round(done / seconds, 1),
		concurrency: SESSION_CONCURRENCY,
		freshVmRssMiB: fresh.vmRssMiB,
		before,
		trendWithoutGc: trend,
		rightAfterWithoutGc: rightAfter,
		after,
		rssGrowthMiB: round(after.vmRssMiB - before.vmRssMiB),
		heapUsedGrowthMiB: round(after.heapUsedMiB - before.heapUsedMiB)
	};
}

/** @typedef {Awaited<ReturnType<typeof measureMemory>>} Memory */

/** @param {Memory} mem @returns {import('./config.js').Row} */
export function memoryRow(mem) {
	return {
		figure: '(d) memory, RSS growth',
		measured: `${mem.rssGrowthMiB >= 0 ? '+' : ''}${mem.rssGrowthMiB.toFixed(1)} MB after ${mem.sessions} sessions with tokens${mem.failed ? ` (${mem.failed} flows failed)` : ''} (${mem.before.vmRssMiB.toFixed(1)} → ${mem.after.vmRssMiB.toFixed(1)} MB, each after a full GC and idle; the V8 heap in use ${mem.heapUsedGrowthMiB >= 0 ? '+' : ''}${mem.heapUsedGrowthMiB.toFixed(1)} MB)`,
		target: `≤ ${TARGETS.rssGrowthMiB} MB after ${TARGETS.rssGrowthSessions}`,
		met:
			mem.sessions < TARGETS.rssGrowthSessions
				? `${yes(mem.rssGrowthMiB <= TARGETS.rssGrowthMiB)} (but only ${mem.sessions} of ${TARGETS.rssGrowthSessions} sessions)`
				: yes(mem.rssGrowthMiB <= TARGETS.rssGrowthMiB)
	};
}

/** @param {Memory} mem */
export function memoryDetails(mem) {
	return `  (d) ${mem.sessions} sessions in ${mem.seconds} s (${mem.sessionsPerSecond}/s at concurrency ${mem.concurrency}, each preset → consent → authorize → callback → exchange), ${mem.failed} failed, after ${mem.warmupSessions} warm-up sessions; RSS fresh ${mem.freshVmRssMiB} MB, right after the sessions ${mem.rightAfterWithoutGc.vmRssMiB} MB (peak ${mem.rightAfterWithoutGc.vmHwmMiB} MB), settled ${mem.after.vmRssMiB} MB; V8 heap used ${mem.before.heapUsedMiB} → ${mem.after.heapUsedMiB} MB`;
}
