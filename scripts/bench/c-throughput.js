// (c) Throughput of the `userinfo` action (every step: unseal the session, call the sandbox over
// loopback, redact, diagnose, seal), closed loop at each of LOAD_CONCURRENCY, across the sessions
// prepared for (a) and (b); the direct GET alongside.
import http from 'node:http';
import { actionHeaders } from '../lib/client.js';
import { CONFIG, LOAD_CONCURRENCY, TARGETS, yes } from './config.js';
import { directUserinfo, exchangeStatus, request } from './http.js';
import { procCpuSeconds } from './server.js';
import { round, stats } from './stats.js';

/**
 * Closed-loop load: `concurrency` workers, each sending the next request as soon as the last one
 * answered, for `seconds`. @param {number} concurrency @param {number} seconds
 * @param {(agent: http.Agent, i: number) => Promise<boolean>} step
 * @param {number} serverPid
 */
async function closedLoop(concurrency, seconds, step, serverPid) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	let ok = 0;
	let errors = 0;
	/** @type {number[]} */
	const lat = [];
	const end = performance.now() + seconds * 1000;
	const cpu0 = procCpuSeconds(serverPid);
	const own0 = process.cpuUsage();
	const t0 = performance.now();
	await Promise.all(
		Array.from({ length: concurrency }, async (_, w) => {
			for (let i = w; performance.now() < end; i += concurrency) {
				const s = performance.now();
				const good = await step(agent, i).catch(() => false);
				if (good) {
					ok++;
					lat.push(performance.now() - s);
				} else errors++;
			}
		})
	);
	const elapsed = (performance.now() - t0) / 1000;
	const serverCpu = procCpuSeconds(serverPid) - cpu0;
	const own = process.cpuUsage(own0);
	agent.destroy();
	const l = stats(lat);
	return {
		concurrency,
		seconds: round(elapsed, 2),
		steps: ok,
		errors,
		perSecond: round(ok / elapsed, 1),
		latencyMedianMs: l.median,
		latencyP99Ms: l.p99,
		serverCpuCores: round(serverCpu / elapsed, 2),
		serverCpuMsPerStep: round((serverCpu * 1000) / Math.max(ok, 1), 3),
		clientCpuCores: round((own.user + own.system) / 1e6 / elapsed, 2)
	};
}

/** @typedef {Awaited<ReturnType<typeof closedLoop>>} Loop */
/** @typedef {{ concurrency: number, playground: Loop, direct: Loop }[]} Throughput */

/**
 * @param {{ base: string, pid: number, sessions: import('./http.js').Jar[], tokens: string[] }} s
 * @returns {Promise<Throughput>}
 */
export async function measureThroughput({ base, pid, sessions, tokens }) {
	const cookies = sessions.map((j) => j.header());
	const flows = sessions.map((j) => j.flow);
	/** @type {Throughput} */
	const load = [];
	for (const c of LOAD_CONCURRENCY) {
		let n = 0;
		/** @param {http.Agent} agent @param {number} i */
		const playStep = async (agent, i) => {
			const r = await request(
				agent,
				'POST',
				`${base}/?flow=${flows[i % flows.length]}&/userinfo`,
				{ ...actionHeaders(base), cookie: /** @type {string} */ (cookies[i % cookies.length]) },
				''
			);
			// Every answer is checked cheaply; every 50th is decoded in full.
			if (r.status !== 200 || !r.body.startsWith('{"type":"success"')) return false;
			return n++ % 50 !== 0 || exchangeStatus(r) === 200;
		};
		/** @param {http.Agent} agent @param {number} i */
		const directStep = async (agent, i) =>
			(await directUserinfo(agent, base, /** @type {string} */ (tokens[i % tokens.length])))
				.status === 200;
		await closedLoop(c, CONFIG.loadWarmupSeconds, playStep, pid);
		const play = await closedLoop(c, CONFIG.loadSeconds, playStep, pid);
		await closedLoop(c, CONFIG.loadWarmupSeconds, directStep, pid);
		const direct = await closedLoop(c, CONFIG.loadSeconds, directStep, pid);
		load.push({ concurrency: c, playground: play, direct });
	}
	return load;
}

/**
 * The playground's own CPU per proxied step, at each concurrency: the server's CPU per step minus
 * its CPU per direct request (the sandbox's share of the step). @param {Throughput} load
 */
export const ownCpuMs = (load) =>
	load.map((l) => round(l.playground.serverCpuMsPerStep - l.direct.serverCpuMsPerStep, 3));

/** @param {Throughput} load @returns {import('./config.js').Row} */
export function throughputRow(load) {
	const rates = (/** @type {'playground' | 'direct'} */ side) => load.map((l) => l[side].perSecond);
	const minRate = Math.min(...rates('playground'));
	const own = ownCpuMs(load);
	const loadErrors = load.reduce((a, l) => a + l.playground.errors + l.direct.errors, 0);
	return {
		figure: '(c) throughput, userinfo action',
		measured:
			load
				.map((l) => `${l.playground.perSecond.toFixed(0)} steps/s at ${l.concurrency}`)
				.join(', ') +
			` (direct GET: ${rates('direct')
				.map((x) => x.toFixed(0))
				.join(
					', '
				)}/s); own CPU ${own.map((x) => x.toFixed(2)).join(', ')} ms per step${loadErrors ? `, ${loadErrors} errors` : ''}`,
		target: `≥ ${TARGETS.stepsPerSecond} steps/s; own CPU ≤ ${TARGETS.ownCpuMsPerStep} ms per step`,
		met: yes(minRate >= TARGETS.stepsPerSecond && Math.max(...own) <= TARGETS.ownCpuMsPerStep)
	};
}

/** @param {Throughput} load */
export function throughputDetails(load) {
	return load.map(
		(x) =>
			`  (c) concurrency ${x.concurrency}: userinfo action ${x.playground.perSecond}/s, p50 ${x.playground.latencyMedianMs} ms, p99 ${x.playground.latencyP99Ms} ms, server ${x.playground.serverCpuMsPerStep} ms CPU per step on ${x.playground.serverCpuCores} cores, load generator ${x.playground.clientCpuCores} cores, ${x.playground.errors} errors; direct GET ${x.direct.perSecond}/s, server ${x.direct.serverCpuMsPerStep} ms CPU per request`
	);
}
