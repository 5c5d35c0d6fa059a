// (g) Cold start: spawn the built server (`node scripts/serve.js`), poll `/` until it answers 200.
import { CONFIG, TARGETS, yes } from './config.js';
import { startBenchServer } from './server.js';
import { quantile, round, sleep } from './stats.js';

export async function measureColdStart() {
	/** @type {number[]} */
	const runs = [];
	for (let i = 0; i < CONFIG.coldRuns; i++) {
		const s = await startBenchServer();
		runs.push(round(s.readyMs, 1));
		await s.stop();
		await sleep(300);
	}
	return { runsMs: runs, medianMs: round(quantile(runs, 0.5), 1), maxMs: Math.max(...runs) };
}

/** @param {Awaited<ReturnType<typeof measureColdStart>>} cold @returns {import('./config.js').Row} */
export function coldStartRow(cold) {
	return {
		figure: '(g) cold start',
		measured: `${cold.medianMs.toFixed(0)} ms median (runs: ${cold.runsMs.map((x) => x.toFixed(0)).join(', ')} ms)`,
		target: `≤ ${TARGETS.coldStartMs} ms`,
		met: yes(cold.medianMs <= TARGETS.coldStartMs)
	};
}
