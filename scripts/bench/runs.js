// Every run of `npm run bench` is kept in bench/results.json (`runs`, oldest first), and the last
// three are summed up: the median and the spread (min–max) of each headline figure, with each
// run's load average, which is how docs/performance.md's table reports them. A target counts as met only
// when it is met in all three.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { ownCpuMs } from './c-throughput.js';
import { quantile, round } from './stats.js';

/** @param {string} file @returns {any[]} the runs kept so far (a file of one earlier run is that run) */
export function readRuns(file) {
	if (!existsSync(file)) return [];
	try {
		const data = JSON.parse(readFileSync(file, 'utf8'));
		if (Array.isArray(data?.runs)) return data.runs;
		return data && typeof data === 'object' && data.environment ? [data] : [];
	} catch {
		return [];
	}
}

/** Appends `run` to the file's runs. @param {string} file @param {object} run @returns {any[]} */
export function keepRun(file, run) {
	const runs = [...readRuns(file), run];
	writeFileSync(file, JSON.stringify({ runs }, null, 2) + '\n');
	return runs;
}

/** The headline figures of one run, by name; undefined where the run has none. @param {any} r */
export function headline(r) {
	const own = r.throughput ? ownCpuMs(r.throughput) : [];
	/** @param {number} i */
	const ratio = (i) =>
		r.workers?.twoWorkers?.load?.[i] && r.throughput?.[i]
			? round(
					r.workers.twoWorkers.load[i].playground.perSecond / r.throughput[i].playground.perSecond,
					2
				)
			: undefined;
	return {
		'(a) exchange overhead, ms': r.exchange?.overheadMedianMs,
		'(b) user-info overhead, ms': r.userinfo?.overheadMedianMs,
		'(c) steps/s at 16': r.throughput?.[0]?.playground.perSecond,
		'(c) steps/s at 64': r.throughput?.[1]?.playground.perSecond,
		'(c) direct GET/s at 16': r.throughput?.[0]?.direct.perSecond,
		'(c) direct GET/s at 64': r.throughput?.[1]?.direct.perSecond,
		'(c) own CPU per step at 16, ms': own[0],
		'(c) own CPU per step at 64, ms': own[1],
		'(d) RSS growth, MB': r.memory?.rssGrowthMiB,
		// What the sessions keep, without the spread of V8's reserve and the allocator's around it.
		'(d) V8 heap in use growth, MB': r.memory?.heapUsedGrowthMiB,
		'(e) first-load JS gzip, KB': r.firstLoad?.js
			? round(r.firstLoad.js.gzipBytes / 1024, 1)
			: undefined,
		'(f) longest task, ms': r.highlighting?.cold
			? Math.max(r.highlighting.cold.longestTask.max, r.highlighting.warm.longestTask.max)
			: undefined,
		'(f) highlighted cold, ms': r.highlighting?.cold?.highlighted.median,
		'(f) highlighted warm, ms': r.highlighting?.warm?.highlighted.median,
		'(g) cold start, ms': r.coldStart?.medianMs,
		'(h) click to drawn minus request, ms': r.interaction?.page.median,
		'(i) two workers ÷ one process at 16': ratio(0),
		'(i) two workers ÷ one process at 64': ratio(1),
		'(j) 16-secret HAR, longest task, ms': r.harLimits?.importLongestTask.max,
		'(j) 17-secret HAR, main thread to the refusal, ms': r.harLimits?.refusalMainThread.median
	};
}

/**
 * Median and spread of each headline figure over the last three runs of the same kind as the last
 * one (full, or `--quick`). @param {any[]} runs
 */
export function summary(runs) {
	const quick = Boolean(runs.at(-1)?.environment?.quick);
	const last = runs.filter((r) => Boolean(r.environment?.quick) === quick).slice(-3);
	const figures = last.map(headline);
	/** @type {string[]} */
	const lines = [
		`Last ${last.length} runs: ${last.map((r) => `${r.environment?.date}${r.environment?.commit ? ` at ${r.environment.commit}` : ''} (load average ${r.environment?.loadAverageAtStart?.join(' ')})`).join('; ')}`
	];
	for (const name of Object.keys(figures[0] ?? {})) {
		const xs = /** @type {number[]} */ (
			figures
				.map((f) => /** @type {Record<string, number | undefined>} */ (f)[name])
				.filter((x) => typeof x === 'number' && Number.isFinite(x))
		);
		if (!xs.length) continue;
		lines.push(
			`  ${name}: ${round(quantile(xs, 0.5), 2)} median (${round(Math.min(...xs), 2)}–${round(Math.max(...xs), 2)}; ${xs.join(', ')})`
		);
	}
	return lines;
}
