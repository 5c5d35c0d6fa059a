// `npm run bench`: the playground's performance figures, measured in one run against its built-in
// sandbox on loopback, side by side with direct calls to the same sandbox endpoints. Prints a table
// and adds every raw number to bench/results.json, which keeps every run (scripts/bench/runs.js),
// then sums up the last three. `npm run bench -- --quick` is a smaller run.
//
// One module per figure in scripts/bench/ (a-exchange.js … j-har-limits.js), each with its table
// row; the settings and the targets are in scripts/bench/config.js.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import os from 'node:os';
import { resolve } from 'node:path';
import { ensureBuild } from './ensure-build.js';
import { stopAll } from './lib/server.js';
import { measureExchange, exchangeRow } from './bench/a-exchange.js';
import { measureUserinfo, userinfoRow } from './bench/b-userinfo.js';
import { measureThroughput, throughputDetails, throughputRow } from './bench/c-throughput.js';
import { measureMemory, memoryDetails, memoryRow } from './bench/d-memory.js';
import { firstLoadDetails, firstLoadRow, measureFirstLoad } from './bench/e-first-load.js';
import {
	highlightingDetails,
	highlightingRow,
	measureHighlighting
} from './bench/f-highlighting.js';
import { coldStartRow, measureColdStart } from './bench/g-cold-start.js';
import { interactionDetails, interactionRow, measureInteraction } from './bench/h-interaction.js';
import { harLimitsDetails, harLimitsRow, measureHarLimits } from './bench/j-har-limits.js';
import { measureWorkers, workersCeiling, workersDetails, workersRow } from './bench/i-workers.js';
import { CONFIG, MiB, QUICK, SERVER_ENV, TARGETS } from './bench/config.js';
import { prepareSamples } from './bench/samples.js';
import { startBenchServer } from './bench/server.js';
import { keepRun, summary } from './bench/runs.js';
import { round } from './bench/stats.js';

/** (a), (b), (c) on one server, which (e) then loads in the browser. */
async function proxied() {
	const srv = await startBenchServer();
	const base = srv.base;
	const { sessions, codes, prepSeconds } = await prepareSamples(base);
	// One socket for every timed request, playground and direct alike.
	const one = new http.Agent({ keepAlive: true, maxSockets: 1 });
	const { result: exchange, tokens } = await measureExchange({ base, agent: one, sessions, codes });
	const userinfo = await measureUserinfo({ base, agent: one, sessions, tokens });
	one.destroy();
	const load = await measureThroughput({ base, pid: srv.pid, sessions, tokens });
	return { srv, base, prepSeconds, exchange, userinfo, load };
}

/** @param {import('./bench/config.js').Row[]} rows */
function markdownTable(rows) {
	const lines = ['| figure | measured | target | met? |', '|---|---|---|---|'];
	for (const r of rows) lines.push(`| ${r.figure} | ${r.measured} | ${r.target} | ${r.met} |`);
	return lines.join('\n');
}

/**
 * The commit the run measured, and `+changes` when the checkout had uncommitted changes outside
 * bench/ (the results file itself changes with every run); undefined outside a git checkout.
 */
function measuredCommit() {
	try {
		const git = (/** @type {string[]} */ ...args) =>
			execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
		const changed = git('status', '--porcelain', '--', '.', ':!bench').length > 0;
		return git('rev-parse', '--short', 'HEAD') + (changed ? '+changes' : '');
	} catch {
		return undefined;
	}
}

async function main() {
	const started = new Date();
	ensureBuild();
	const env = {
		date: started.toISOString(),
		commit: measuredCommit(),
		node: process.version,
		platform: `${os.type()} ${os.release()} ${os.arch()}`,
		cpus: os.cpus().length,
		cpuModel: os.cpus()[0]?.model ?? 'unknown',
		totalMemMiB: Math.round(os.totalmem() / MiB),
		loadAverageAtStart: os.loadavg().map((x) => round(x)),
		quick: QUICK,
		config: CONFIG,
		serverEnv: SERVER_ENV
	};
	console.log(
		`Benchmark${QUICK ? ' (--quick)' : ''}: ${env.date}${env.commit ? ` at ${env.commit}` : ''}, Node ${env.node}, ${env.cpus} CPUs (${env.cpuModel}), load average ${env.loadAverageAtStart.join(' ')}`
	);
	console.log(
		`The bench's servers run with ${Object.entries(SERVER_ENV)
			.map(([k, v]) => `${k}=${v}`)
			.join(
				' '
			)}: the sandbox's rate limits and code lifetime are raised so they do not cut the run short, and the request log is off.`
	);
	console.log('The load generator runs on the same machine and takes CPU from the server.\n');

	console.log(`(g) cold start: ${CONFIG.coldRuns} starts of node scripts/serve.js…`);
	const cold = await measureColdStart();

	console.log(
		`(a)(b)(c) preparing ${CONFIG.warmup + CONFIG.samples} sessions with a code and as many codes for direct requests…`
	);
	const p = await proxied();
	console.log(`          prepared in ${p.prepSeconds} s; exchange, user-info and load measured`);

	console.log('(e) first load in Chromium…');
	/** @type {import('./bench/e-first-load.js').FirstLoad | undefined} */
	let fl;
	let flError = '';
	try {
		fl = await measureFirstLoad(p.base);
	} catch (e) {
		flError = String(/** @type {Error} */ (e)?.message ?? e);
	}
	console.log('(f) a 100 KB JSON body imported and highlighted in Chromium…');
	const hl = await measureHighlighting(p.base);
	console.log('(h) click to drawn on the userinfo step in Chromium…');
	const interaction = await measureInteraction(p.base);
	console.log('(j) a 5 MB HAR at the import’s limits in Chromium…');
	const harLimits = await measureHarLimits(p.base);
	await p.srv.stop();

	console.log(
		`(d) memory: up to ${CONFIG.sessions} sessions with tokens, at most ${CONFIG.sessionBudgetSeconds} s…`
	);
	const mem = await measureMemory();

	console.log('(i) one process and two workers on a redis-server of the bench’s own…');
	const workers = await measureWorkers();

	const rows = [
		exchangeRow(p.exchange),
		userinfoRow(p.userinfo),
		throughputRow(p.load),
		memoryRow(mem),
		firstLoadRow(fl, flError),
		highlightingRow(hl),
		coldStartRow(cold),
		interactionRow(interaction),
		workersRow(workers, p.load),
		harLimitsRow(harLimits)
	];

	const results = {
		environment: env,
		targets: TARGETS,
		units: 'times in ms; KB = 1,024 bytes; MB = 1,048,576 bytes',
		table: rows,
		exchange: p.exchange,
		userinfo: p.userinfo,
		throughput: p.load,
		memory: mem,
		firstLoad: fl ?? { error: flError },
		highlighting: hl,
		coldStart: cold,
		interaction,
		harLimits,
		workers: { ...workers, limits: workersCeiling(workers, p.load, env.cpus) },
		finished: new Date().toISOString(),
		loadAverageAtEnd: os.loadavg().map((x) => round(x))
	};
	const runs = keepRun(resolve('bench/results.json'), results);

	console.log('\n' + markdownTable(rows));
	console.log(`\nDetails:`);
	for (const line of throughputDetails(p.load)) console.log(line);
	console.log(memoryDetails(mem));
	if (fl) console.log(firstLoadDetails(fl));
	console.log(highlightingDetails(hl));
	console.log(interactionDetails(interaction));
	console.log(harLimitsDetails(harLimits));
	for (const line of workersDetails(workers, p.load, env.cpus)) console.log(line);
	console.log(`  load average at the end: ${results.loadAverageAtEnd.join(' ')}`);
	console.log(`\n${summary(runs).join('\n')}`);
	console.log(`\nAll numbers, every run: bench/results.json (${runs.length} runs)`);
}

try {
	await main();
} catch (e) {
	console.error(`\nThe benchmark failed: ${/** @type {Error} */ (e)?.stack ?? e}`);
	process.exitCode = 1;
} finally {
	stopAll();
}
