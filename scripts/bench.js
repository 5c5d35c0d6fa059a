// `npm run bench`: the playground's performance figures, measured in one run against its built-in
// sandbox on loopback, side by side with direct calls to the same sandbox endpoints. Prints a table
// and writes every raw number to bench-results.json. `npm run bench -- --quick` is a smaller run.
//
// The targets live here and only here: they belong to the benchmark, not to the tests.
import http from 'node:http';
import os from 'node:os';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { gzipSync, constants as zlibConstants } from 'node:zlib';
import { parse, unflatten } from 'devalue';
import { ensureBuild } from './ensure-build.js';
import { freePort } from './free-port.js';

const QUICK = process.argv.includes('--quick');

const CONFIG = QUICK
	? {
			samples: 60,
			warmup: 10,
			loadSeconds: 3,
			loadWarmupSeconds: 1,
			sessions: 1000,
			sessionBudgetSeconds: 90,
			memWarmup: 100,
			coldRuns: 3,
			highlightRuns: 5
		}
	: {
			samples: 400,
			warmup: 40,
			loadSeconds: 10,
			loadWarmupSeconds: 2,
			sessions: 10_000,
			sessionBudgetSeconds: 480,
			memWarmup: 200,
			coldRuns: 5,
			highlightRuns: 20
		};
const PREP_CONCURRENCY = 4;
const SESSION_CONCURRENCY = 8;
const LOAD_CONCURRENCY = [16, 64];

const TARGETS = {
	exchangeOverheadMs: 2,
	userinfoOverheadMs: 2,
	stepsPerSecond: 1000,
	rssGrowthMiB: 20,
	rssGrowthSessions: 10_000,
	firstLoadJsGzipKiB: 60,
	highlightMs: 30,
	coldStartMs: 1500
};

/** The bench's server runs with these on top of a minimal environment (and a fresh session key). */
const SERVER_ENV = {
	PLAYGROUND_LOG: 'off',
	SANDBOX_ZONE1_LIMIT: '100000000',
	SANDBOX_ZONE2_LIMIT: '100000000',
	SANDBOX_CODE_TTL: '3600'
};

// The headers the playground's sender writes (src/lib/server/send.ts), so the direct requests are the same requests.
const USER_AGENT = 'feed-reader-oauth-playground/0.1 (+https://www.rfc-editor.org/rfc/rfc6749)';
const FORM = 'application/x-www-form-urlencoded';
const CLIENT_ID = 'sandbox-rw';
const CLIENT_SECRET = 'sandbox-rw-secret';
const KiB = 1024;
const MiB = 1024 * 1024;

// ───────────────────────────── small helpers ─────────────────────────────

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Linear-interpolated quantile of unsorted numbers. @param {number[]} xs @param {number} q */
function quantile(xs, q) {
	if (!xs.length) return NaN;
	const s = [...xs].sort((a, b) => a - b);
	const pos = (s.length - 1) * q;
	const lo = Math.floor(pos);
	const hi = Math.ceil(pos);
	const a = /** @type {number} */ (s[lo]);
	const b = /** @type {number} */ (s[hi]);
	return a + (b - a) * (pos - lo);
}

/** @param {number} x @param {number} [digits] */
const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** @param {number[]} xs */
function stats(xs) {
	return {
		n: xs.length,
		median: round(quantile(xs, 0.5), 3),
		p90: round(quantile(xs, 0.9), 3),
		p99: round(quantile(xs, 0.99), 3),
		min: round(Math.min(...xs), 3),
		max: round(Math.max(...xs), 3)
	};
}

/**
 * Runs fn(0…count-1) with at most `concurrency` in flight; stops starting new ones after `budgetMs`.
 * @template T
 * @param {number} count @param {number} concurrency @param {(i: number) => Promise<T>} fn @param {number} [budgetMs]
 * @returns {Promise<T[]>}
 */
async function pool(count, concurrency, fn, budgetMs = Infinity) {
	/** @type {T[]} */
	const out = [];
	const deadline = performance.now() + budgetMs;
	let next = 0;
	async function worker() {
		while (next < count && performance.now() < deadline) {
			const i = next++;
			out[i] = await fn(i);
		}
	}
	await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	return out.filter((x) => x !== undefined);
}

/**
 * @typedef {{ status: number, headers: http.IncomingHttpHeaders, buf: Buffer, body: string, ms: number }} Res
 * @param {http.Agent | false} agent
 * @param {string} method
 * @param {string} url
 * @param {Record<string, string>} [headers]
 * @param {string} [body]
 * @returns {Promise<Res>}
 */
function request(agent, method, url, headers = {}, body) {
	return new Promise((ok, fail) => {
		const t0 = performance.now();
		const u = new URL(url);
		const h =
			body === undefined
				? headers
				: { ...headers, 'content-length': String(Buffer.byteLength(body)) };
		const req = http.request(
			{ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: h, agent },
			(res) => {
				/** @type {Buffer[]} */
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const ms = performance.now() - t0;
					const buf = Buffer.concat(chunks);
					ok({
						status: res.statusCode ?? 0,
						headers: res.headers,
						buf,
						body: buf.toString('utf8'),
						ms
					});
				});
				res.on('error', fail);
			}
		);
		req.setTimeout(30_000, () =>
			req.destroy(new Error(`${method} ${u.pathname}: no answer within 30 s`))
		);
		req.on('error', fail);
		req.end(body);
	});
}

/** A cookie jar for one browser session against one origin. */
class Jar {
	/** @type {Map<string, string>} */
	cookies = new Map();
	header() {
		return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
	}
	/** @param {http.IncomingHttpHeaders} headers */
	take(headers) {
		for (const c of headers['set-cookie'] ?? []) {
			const [pair = '', ...attrs] = c.split(';');
			const i = pair.indexOf('=');
			const name = pair.slice(0, i).trim();
			const value = pair.slice(i + 1).trim();
			const expired = attrs.some(
				(a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim())
			);
			if (expired || value === '') this.cookies.delete(name);
			else this.cookies.set(name, value);
		}
	}
}

/** @param {string} s */
const unescapeHtml = (s) =>
	s
		.replace(/&amp;/g, '&')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'");

/** @param {string} what @param {Res} r */
function unexpected(what, r) {
	return new Error(`${what}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
}

// ───────────────────────────── the server ─────────────────────────────

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();
process.on('exit', () => {
	for (const p of running) if (p.exitCode === null && p.pid) process.kill(p.pid, 'SIGKILL');
});

// With `gcHook`, the server is started with --expose-gc and answers SIGUSR2 with a full GC and a
// line of process.memoryUsage(), so memory can be read without changing the playground's code.
const GC_HOOK =
	'data:text/javascript,' +
	encodeURIComponent(
		"process.on('SIGUSR2',()=>{globalThis.gc();console.log('BENCH-MEM '+JSON.stringify(process.memoryUsage()))});"
	);

/**
 * Starts `node scripts/serve.js` on a free loopback port and polls `/` until it answers 200.
 * @param {{ gcHook?: boolean }} [opts]
 */
async function startServer(opts = {}) {
	const port = await freePort();
	const args = opts.gcHook
		? ['--expose-gc', '--import', GC_HOOK, 'scripts/serve.js']
		: ['scripts/serve.js'];
	const t0 = performance.now();
	const proc = spawn(process.execPath, args, {
		env: {
			PATH: process.env.PATH ?? '',
			HOME: process.env.HOME ?? '',
			HOST: '127.0.0.1',
			PORT: String(port),
			PLAYGROUND_SESSION_KEY: randomBytes(32).toString('base64url'),
			...SERVER_ENV
		},
		stdio: ['ignore', 'pipe', 'pipe']
	});
	running.add(proc);
	let out = '';
	/** @type {((line: string) => void)[]} */
	const lineWaiters = [];
	proc.stdout?.on('data', (d) => {
		out += d;
		for (const line of String(d).split('\n'))
			if (line.startsWith('BENCH-MEM ')) lineWaiters.shift()?.(line.slice(10));
	});
	proc.stderr?.on('data', (d) => (out += d));
	const base = `http://127.0.0.1:${port}`;
	const deadline = t0 + 20_000;
	let readyMs;
	for (;;) {
		if (proc.exitCode !== null)
			throw new Error(`the server exited early (${proc.exitCode}):\n${out}`);
		try {
			const r = await request(false, 'GET', base + '/', { accept: 'text/html' });
			if (r.status === 200) {
				readyMs = performance.now() - t0;
				break;
			}
		} catch {
			/* not listening yet */
		}
		if (performance.now() > deadline)
			throw new Error(`the server did not serve / within 20 s:\n${out}`);
		await sleep(5);
	}
	return {
		base,
		proc,
		pid: /** @type {number} */ (proc.pid),
		readyMs,
		logs: () => out,
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
			const st = procStatus(/** @type {number} */ (proc.pid));
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
		},
		/** @returns {Promise<void>} */
		stop: () =>
			new Promise((ok) => {
				if (proc.exitCode !== null) {
					running.delete(proc);
					return ok();
				}
				const kill = setTimeout(() => proc.kill('SIGKILL'), 3000);
				proc.once('exit', () => {
					clearTimeout(kill);
					running.delete(proc);
					ok();
				});
				proc.kill('SIGTERM');
			})
	};
}

/** VmRSS and VmHWM (peak) of a process, from /proc. @param {number} pid */
function procStatus(pid) {
	const s = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (/** @type {string} */ name) =>
		Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
	return { vmRssMiB: round(kb('VmRSS') / 1024), vmHwmMiB: round(kb('VmHWM') / 1024) };
}

/** CPU seconds (user + system) a process has used so far, from /proc (clock ticks of 1/100 s). @param {number} pid */
function procCpuSeconds(pid) {
	const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
	const fields = s.slice(s.lastIndexOf(')') + 2).split(' ');
	return (Number(fields[11]) + Number(fields[12])) / 100;
}

// ───────────────────────────── the flow over HTTP ─────────────────────────────

/** @param {string} base @param {Jar} jar */
const actionHeaders = (base, jar) => ({
	origin: base,
	'x-sveltekit-action': 'true',
	accept: 'application/json',
	'content-type': FORM,
	cookie: jar.header()
});

/** Calls a form action as the page's script does. @param {http.Agent} agent @param {string} base @param {Jar} jar @param {string} name @param {Record<string, string>} [fields] */
async function action(agent, base, jar, name, fields = {}) {
	const r = await request(
		agent,
		'POST',
		`${base}/?/${name}`,
		actionHeaders(base, jar),
		new URLSearchParams(fields).toString()
	);
	jar.take(r.headers);
	return r;
}

/** Decodes an action's JSON answer. @param {Res} r @returns {{ type: string, status: number, data: any }} */
function actionResult(r) {
	const json = JSON.parse(r.body);
	return {
		type: json.type,
		status: json.status ?? r.status,
		data: json.data ? parse(json.data) : undefined
	};
}

/** The status of the first exchange an action returned, or a description of what came back instead. @param {Res} r */
function exchangeStatus(r) {
	if (r.status !== 200) return `HTTP ${r.status}`;
	const a = actionResult(r);
	const ex = a.data?.exchanges?.[0];
	return a.type === 'success' && ex?.response
		? ex.response.status
		: `${a.type} ${JSON.stringify(a.data).slice(0, 200)}`;
}

/** The page's data, as the page loads it after an action or a navigation (runs the page's load). @param {http.Agent} agent @param {string} base @param {Jar} jar */
async function pageData(agent, base, jar) {
	const r = await request(agent, 'GET', `${base}/__data.json`, { cookie: jar.header() });
	jar.take(r.headers);
	if (r.status !== 200) throw unexpected('GET /__data.json', r);
	const nodes = JSON.parse(r.body).nodes ?? [];
	const page = nodes[nodes.length - 1];
	return page?.type === 'data' ? /** @type {any} */ (unflatten(page.data)) : undefined;
}

/** Opens the sandbox consent page and presses Authorize; returns the redirect's absolute Location. @param {http.Agent} agent @param {string} consentUrl */
async function authorize(agent, consentUrl) {
	const page = await request(agent, 'GET', consentUrl, { accept: 'text/html' });
	if (page.status !== 200) throw unexpected('the consent page', page);
	const ticket = /name="ticket" value="([^"]+)"/.exec(page.body)?.[1];
	if (!ticket) throw new Error('no decision ticket on the consent page');
	const u = new URL(consentUrl);
	const post = await request(
		agent,
		'POST',
		`${u.origin}${u.pathname}?/authorize`,
		{ origin: u.origin, accept: 'text/html', 'content-type': FORM },
		new URLSearchParams({ ticket: unescapeHtml(ticket) }).toString()
	);
	const loc = post.headers.location;
	if (!loc) throw unexpected('the consent decision did not redirect', post);
	return new URL(loc, u.origin).toString();
}

/**
 * A browser session that holds a fresh code, as after the consent: preset → consent page →
 * Authorize → /callback → the page loads (taking the callback's record).
 * @param {http.Agent} agent @param {string} base
 */
async function sessionWithCode(agent, base) {
	const jar = new Jar();
	const p = await action(agent, base, jar, 'preset', { preset: CLIENT_ID });
	if (p.status !== 200 || actionResult(p).type !== 'success')
		throw unexpected('the preset action', p);
	const data = await pageData(agent, base, jar);
	const consent = data?.pending?.consent_url;
	if (typeof consent !== 'string') throw new Error('no consent URL in the page data');
	const location = await authorize(agent, consent);
	const cb = await request(agent, 'GET', location, { accept: 'text/html', cookie: jar.header() });
	jar.take(cb.headers);
	if (cb.status !== 303) throw unexpected('the callback', cb);
	const after = await pageData(agent, base, jar);
	if (!after?.hasCode) throw new Error('the session holds no code after the callback');
	return jar;
}

/** A fresh code for the direct requests, from the same consent page. @param {http.Agent} agent @param {string} base */
async function directCode(agent, base) {
	const redirect_uri = `${base}/callback`;
	const q = new URLSearchParams({
		client_id: CLIENT_ID,
		redirect_uri,
		response_type: 'code',
		scope: 'read write',
		state: randomBytes(16).toString('base64url')
	});
	const location = await authorize(agent, `${base}/sandbox/oauth2/auth?${q}`);
	const code = new URL(location).searchParams.get('code');
	if (!code) throw new Error(`no code in ${location.replace(/code=[^&]+/, 'code=…')}`);
	return { code, redirect_uri };
}

/** The code exchange exactly as the playground's sender writes it. @param {http.Agent} agent @param {string} base @param {{ code: string, redirect_uri: string }} c */
function directExchange(agent, base, c) {
	const body = new URLSearchParams([
		['code', c.code],
		['redirect_uri', c.redirect_uri],
		['client_id', CLIENT_ID],
		['client_secret', CLIENT_SECRET],
		['scope', ''],
		['grant_type', 'authorization_code']
	]).toString();
	return request(
		agent,
		'POST',
		`${base}/sandbox/oauth2/token`,
		{ 'user-agent': USER_AGENT, accept: 'application/json', 'content-type': FORM },
		body
	);
}

/** GET user-info with the Bearer token, as the playground's sender writes it. @param {http.Agent} agent @param {string} base @param {string} token */
function directUserinfo(agent, base, token) {
	return request(agent, 'GET', `${base}/sandbox/reader/api/0/user-info`, {
		'user-agent': USER_AGENT,
		accept: 'application/json',
		authorization: `Bearer ${token}`
	});
}

/**
 * Interleaved samples, one request in flight: playground, direct; then direct, playground; and so on,
 * so drift and order effects hit both sides alike. The first `warmup` pairs are not kept.
 * @param {number} count @param {number} warmup
 * @param {(i: number) => Promise<number>} playground @param {(i: number) => Promise<number>} direct
 */
async function sideBySide(count, warmup, playground, direct) {
	/** @type {number[]} */ const play = [];
	/** @type {number[]} */ const dir = [];
	for (let i = 0; i < warmup + count; i++) {
		const first = i % 2 === 0;
		const a = first ? await playground(i) : await direct(i);
		const b = first ? await direct(i) : await playground(i);
		if (i < warmup) continue;
		play.push(first ? a : b);
		dir.push(first ? b : a);
	}
	const p = stats(play);
	const d = stats(dir);
	return {
		playground: p,
		direct: d,
		overheadMedianMs: round(p.median - d.median, 3),
		overheadP99Ms: round(p.p99 - d.p99, 3),
		samples: { playground: play.map((x) => round(x, 3)), direct: dir.map((x) => round(x, 3)) }
	};
}

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

// ───────────────────────────── the figures ─────────────────────────────

/** (g) Cold start: spawn the built server, poll / until 200. */
async function coldStart() {
	/** @type {number[]} */
	const runs = [];
	for (let i = 0; i < CONFIG.coldRuns; i++) {
		const s = await startServer();
		runs.push(round(s.readyMs, 1));
		await s.stop();
		await sleep(300);
	}
	return { runsMs: runs, medianMs: round(quantile(runs, 0.5), 1), maxMs: Math.max(...runs) };
}

/** (a), (b), (c) on one server. */
async function proxied() {
	const srv = await startServer();
	const base = srv.base;
	const prep = new http.Agent({ keepAlive: true, maxSockets: PREP_CONCURRENCY });
	const total = CONFIG.warmup + CONFIG.samples;

	const t = performance.now();
	const sessions = await pool(total, PREP_CONCURRENCY, () => sessionWithCode(prep, base));
	const codes = await pool(total, PREP_CONCURRENCY, () => directCode(prep, base));
	const prepSeconds = round((performance.now() - t) / 1000, 1);
	prep.destroy();

	// One socket for every timed request, playground and direct alike.
	const one = new http.Agent({ keepAlive: true, maxSockets: 1 });
	/** @type {string[]} */
	const tokens = [];
	const exchange = await sideBySide(
		CONFIG.samples,
		CONFIG.warmup,
		async (i) => {
			const jar = /** @type {Jar} */ (sessions[i]);
			const r = await action(one, base, jar, 'exchange');
			const st = exchangeStatus(r);
			if (st !== 200) throw new Error(`the exchange action failed: ${st}`);
			return r.ms;
		},
		async (i) => {
			const r = await directExchange(
				one,
				base,
				/** @type {{ code: string, redirect_uri: string }} */ (codes[i])
			);
			const token = r.status === 200 ? JSON.parse(r.body).access_token : undefined;
			if (typeof token !== 'string') throw unexpected('the direct exchange', r);
			tokens[i] = token;
			return r.ms;
		}
	);

	const userinfo = await sideBySide(
		CONFIG.samples,
		CONFIG.warmup,
		async (i) => {
			const r = await action(one, base, /** @type {Jar} */ (sessions[i]), 'userinfo');
			const st = exchangeStatus(r);
			if (st !== 200) throw new Error(`the userinfo action failed: ${st}`);
			return r.ms;
		},
		async (i) => {
			const r = await directUserinfo(one, base, /** @type {string} */ (tokens[i]));
			if (r.status !== 200) throw unexpected('the direct user-info', r);
			return r.ms;
		}
	);
	one.destroy();

	// (c) Throughput of the userinfo action (every step: unseal the session, call the sandbox over
	// loopback, redact, diagnose, seal), across the sessions prepared above; the direct GET alongside.
	const cookies = sessions.map((j) => j.header());
	/** @typedef {Awaited<ReturnType<typeof closedLoop>>} Loop */
	/** @type {{ concurrency: number, playground: Loop, direct: Loop }[]} */
	const load = [];
	for (const c of LOAD_CONCURRENCY) {
		let n = 0;
		/** @param {http.Agent} agent @param {number} i */
		const playStep = async (agent, i) => {
			const r = await request(
				agent,
				'POST',
				`${base}/?/userinfo`,
				{
					origin: base,
					'x-sveltekit-action': 'true',
					accept: 'application/json',
					'content-type': FORM,
					cookie: /** @type {string} */ (cookies[i % cookies.length])
				},
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
		await closedLoop(c, CONFIG.loadWarmupSeconds, playStep, srv.pid);
		const play = await closedLoop(c, CONFIG.loadSeconds, playStep, srv.pid);
		await closedLoop(c, CONFIG.loadWarmupSeconds, directStep, srv.pid);
		const direct = await closedLoop(c, CONFIG.loadSeconds, directStep, srv.pid);
		load.push({ concurrency: c, playground: play, direct });
	}

	return { srv, base, prepSeconds, exchange, userinfo, load };
}

/**
 * (d) Memory: RSS before and after many distinct sessions with tokens, on a server of its own.
 * Both readings are taken the same way: a full GC, then idle until V8 has handed back the heap it
 * grew under load (RSS steady), so the difference is what the server keeps, not its high-water mark.
 */
async function memory() {
	const srv = await startServer({ gcHook: true });
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

/** (e) First load in Chromium: JS and CSS bytes as transferred, and their gzip sizes. @param {string} base */
async function firstLoad(base) {
	const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
	if (!existsSync(executablePath))
		throw new Error(
			`no browser at ${executablePath} (apt-get install -y chromium, or set CHROMIUM_PATH)`
		);
	const { chromium } = await import('playwright-core');
	const browser = await chromium.launch({
		executablePath,
		headless: true,
		args: [
			'--headless',
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync'
		]
	});
	try {
		const context = await browser.newContext();
		const page = await context.newPage();
		const cdp = await context.newCDPSession(page);
		await cdp.send('Network.enable');
		await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
		/** @type {Map<string, { url: string, type: string, mime: string, status: number, encoding: string, contentLength: number, headerBytes: number, total?: number }>} */
		const seen = new Map();
		cdp.on('Network.responseReceived', (e) => {
			/** @type {Record<string, string>} */
			const h = {};
			for (const [k, v] of Object.entries(e.response.headers)) h[k.toLowerCase()] = String(v);
			seen.set(e.requestId, {
				url: e.response.url,
				type: e.type,
				mime: e.response.mimeType,
				status: e.response.status,
				encoding: h['content-encoding'] ?? 'identity',
				contentLength: Number(h['content-length'] ?? NaN),
				headerBytes: e.response.encodedDataLength
			});
		});
		cdp.on('Network.loadingFinished', (e) => {
			const r = seen.get(e.requestId);
			if (r) r.total = e.encodedDataLength;
		});
		await page.goto(base + '/', { waitUntil: 'networkidle' });
		await sleep(500);
		/** @type {{ path: string, kind: string, status: number, encoding: string, transferredBodyBytes: number, transferredTotalBytes: number, rawBytes: number, gzipBytes: number, gzipFrom: string }[]} */
		const files = [];
		for (const r of seen.values()) {
			const path = new URL(r.url).pathname;
			const kind =
				/\.m?js$/.test(path) || r.mime.includes('javascript')
					? 'js'
					: /\.css$/.test(path) || r.mime === 'text/css'
						? 'css'
						: r.type === 'Document'
							? 'html'
							: 'other';
			const bodyBytes = Number.isFinite(r.contentLength)
				? r.contentLength
				: (r.total ?? 0) - r.headerBytes;
			// The gzip size of the same file: what the server sends for Accept-Encoding: gzip, or
			// node:zlib's gzip (level 9) of the plain file when the server has no gzip for it.
			let gzipBytes = r.encoding === 'gzip' ? bodyBytes : NaN;
			let gzipFrom = r.encoding === 'gzip' ? 'as transferred' : '';
			let rawBytes = NaN;
			if (kind === 'js' || kind === 'css') {
				const plain = await request(false, 'GET', r.url, { 'accept-encoding': 'identity' });
				rawBytes = plain.buf.length;
				if (r.encoding !== 'gzip') {
					const gz = await request(false, 'GET', r.url, { 'accept-encoding': 'gzip' });
					if (gz.headers['content-encoding'] === 'gzip') {
						gzipBytes = gz.buf.length;
						gzipFrom = "the server's gzip";
					} else {
						gzipBytes = gzipSync(plain.buf, { level: zlibConstants.Z_BEST_COMPRESSION }).length;
						gzipFrom = 'node:zlib level 9';
					}
				}
			}
			files.push({
				path,
				kind,
				status: r.status,
				encoding: r.encoding,
				transferredBodyBytes: bodyBytes,
				transferredTotalBytes: r.total ?? NaN,
				rawBytes,
				gzipBytes,
				gzipFrom
			});
		}
		await context.close();
		/** @param {string} kind @param {'transferredBodyBytes' | 'gzipBytes' | 'rawBytes'} field */
		const sum = (kind, field) =>
			files.filter((f) => f.kind === kind).reduce((a, f) => a + f[field], 0);
		return {
			browser: browser.version(),
			encodings: [
				...new Set(files.filter((f) => f.kind === 'js' || f.kind === 'css').map((f) => f.encoding))
			],
			js: {
				files: files.filter((f) => f.kind === 'js').length,
				transferredBytes: sum('js', 'transferredBodyBytes'),
				gzipBytes: sum('js', 'gzipBytes'),
				rawBytes: sum('js', 'rawBytes')
			},
			css: {
				files: files.filter((f) => f.kind === 'css').length,
				transferredBytes: sum('css', 'transferredBodyBytes'),
				gzipBytes: sum('css', 'gzipBytes'),
				rawBytes: sum('css', 'rawBytes')
			},
			html: files
				.filter((f) => f.kind === 'html')
				.map((f) => ({
					path: f.path,
					encoding: f.encoding,
					transferredBodyBytes: f.transferredBodyBytes
				})),
			largest: files
				.filter((f) => f.kind === 'js' || f.kind === 'css')
				.sort((a, b) => b.gzipBytes - a.gzipBytes)
				.slice(0, 6)
				.map((f) => ({ path: f.path, gzipBytes: f.gzipBytes, rawBytes: f.rawBytes })),
			files
		};
	} finally {
		await browser.close();
	}
}

/** A pretty-printed JSON body of at least `bytes` characters, shaped like a stream/contents answer. @param {number} bytes */
function jsonBody(bytes) {
	/** @type {object[]} */
	const items = [];
	const wrap = () =>
		JSON.stringify(
			{ direction: 'ltr', id: 'user/-/state/com.google/reading-list', updated: 1700000000, items },
			null,
			2
		);
	for (let i = 0; ; i++) {
		items.push({
			id: `tag:google.com,2005:reader/item/${i.toString(16).padStart(16, '0')}`,
			crawlTimeMsec: String(1700000000000 + i * 1000),
			published: 1700000000 + i,
			title: `Item ${i}: a headline of ordinary length`,
			canonical: [{ href: `https://example.com/posts/${i}` }],
			categories: [
				'user/-/state/com.google/reading-list',
				'user/-/label/News',
				i % 3 ? 'user/-/state/com.google/read' : 'user/-/state/com.google/fresh'
			],
			origin: {
				streamId: 'feed/https://example.com/feed.xml',
				title: 'Example feed',
				htmlUrl: 'https://example.com/'
			},
			summary: {
				direction: 'ltr',
				content: `<p>Paragraph ${i} with some "quoted" text, a number ${i * 7.25} and true/false/null.</p>`
			},
			starred: i % 5 === 0,
			score: null
		});
		if (i % 10 === 9 && wrap().length >= bytes) return wrap();
	}
}

/** (f) Highlighting a 100 KB JSON body with src/lib/highlight.ts, loaded through Vite's SSR loader. */
async function highlighting() {
	const { createServer: createVite } = await import('vite');
	const vite = await createVite({
		root: process.cwd(),
		configFile: false,
		logLevel: 'silent',
		appType: 'custom',
		server: { middlewareMode: true, hmr: false, ws: false },
		ssr: { noExternal: ['tm-grammars'] },
		optimizeDeps: { noDiscovery: true, include: [] }
	});
	try {
		const mod = await vite.ssrLoadModule('/src/lib/highlight.ts');
		const body = jsonBody(100 * KiB);
		let t = performance.now();
		const first = await mod.highlight(body, 'json');
		const firstMs = performance.now() - t;
		if (!Array.isArray(first) || first.length < 100)
			throw new Error('highlight() returned no lines');
		/** @type {number[]} */
		const runs = [];
		for (let i = 0; i < CONFIG.highlightRuns; i++) {
			t = performance.now();
			await mod.highlight(body, 'json');
			runs.push(performance.now() - t);
		}
		const small = JSON.stringify(
			{
				access_token: 'x'.repeat(200),
				token_type: 'Bearer',
				expires_in: 3600,
				refresh_token: 'y'.repeat(200),
				scope: 'read write'
			},
			null,
			2
		);
		/** @type {number[]} */
		const smallRuns = [];
		for (let i = 0; i < CONFIG.highlightRuns; i++) {
			t = performance.now();
			await mod.highlight(small, 'json');
			smallRuns.push(performance.now() - t);
		}
		return {
			bodyChars: body.length,
			lines: first.length,
			firstCallMs: round(firstMs, 1),
			runs: stats(runs),
			tokenResponse: { bodyChars: small.length, ...stats(smallRuns) }
		};
	} finally {
		await vite.close();
	}
}

// ───────────────────────────── the run ─────────────────────────────

/** @param {number} b */
const kib = (b) => `${(b / KiB).toFixed(1)} KB`;
/** @param {boolean} ok */
const yes = (ok) => (ok ? 'yes' : 'NO');

async function main() {
	const started = new Date();
	ensureBuild();
	const env = {
		date: started.toISOString(),
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
		`Benchmark${QUICK ? ' (--quick)' : ''}: ${env.date}, Node ${env.node}, ${env.cpus} CPUs (${env.cpuModel}), load average ${env.loadAverageAtStart.join(' ')}`
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
	const cold = await coldStart();

	console.log(
		`(a)(b)(c) preparing ${CONFIG.warmup + CONFIG.samples} sessions with a code and as many codes for direct requests…`
	);
	const p = await proxied();
	console.log(`          prepared in ${p.prepSeconds} s; exchange, user-info and load measured`);

	console.log('(e) first load in Chromium…');
	/** @type {Awaited<ReturnType<typeof firstLoad>> | undefined} */
	let fl;
	let flError = '';
	try {
		fl = await firstLoad(p.base);
	} catch (e) {
		flError = String(/** @type {Error} */ (e)?.message ?? e);
	}
	await p.srv.stop();

	console.log(
		`(d) memory: up to ${CONFIG.sessions} sessions with tokens, at most ${CONFIG.sessionBudgetSeconds} s…`
	);
	const mem = await memory();

	console.log('(f) highlighting a 100 KB JSON body…');
	const hl = await highlighting();

	const rates = (/** @type {'playground' | 'direct'} */ side) =>
		p.load.map((l) => l[side].perSecond);
	const minRate = Math.min(...rates('playground'));
	const loadErrors = p.load.reduce((a, l) => a + l.playground.errors + l.direct.errors, 0);
	const js = fl?.js;
	const css = fl?.css;

	/** @type {{ figure: string, measured: string, target: string, met: string }[]} */
	const rows = [
		{
			figure: '(a) exchange overhead',
			measured: `${p.exchange.overheadMedianMs.toFixed(2)} ms median (playground ${p.exchange.playground.median.toFixed(2)} / p99 ${p.exchange.playground.p99.toFixed(2)}; direct ${p.exchange.direct.median.toFixed(2)} / p99 ${p.exchange.direct.p99.toFixed(2)} ms)`,
			target: `≤ ${TARGETS.exchangeOverheadMs} ms median`,
			met: yes(p.exchange.overheadMedianMs <= TARGETS.exchangeOverheadMs)
		},
		{
			figure: '(b) user-info overhead',
			measured: `${p.userinfo.overheadMedianMs.toFixed(2)} ms median (playground ${p.userinfo.playground.median.toFixed(2)} / p99 ${p.userinfo.playground.p99.toFixed(2)}; direct ${p.userinfo.direct.median.toFixed(2)} / p99 ${p.userinfo.direct.p99.toFixed(2)} ms)`,
			target: `≤ ${TARGETS.userinfoOverheadMs} ms median`,
			met: yes(p.userinfo.overheadMedianMs <= TARGETS.userinfoOverheadMs)
		},
		{
			figure: '(c) throughput, userinfo action',
			measured:
				p.load
					.map((l) => `${l.playground.perSecond.toFixed(0)} steps/s at ${l.concurrency}`)
					.join(', ') +
				` (direct GET: ${rates('direct')
					.map((x) => x.toFixed(0))
					.join(', ')}/s)${loadErrors ? `, ${loadErrors} errors` : ''}`,
			target: `≥ ${TARGETS.stepsPerSecond} steps/s`,
			met: yes(minRate >= TARGETS.stepsPerSecond)
		},
		{
			figure: '(d) memory, RSS growth',
			measured: `${mem.rssGrowthMiB >= 0 ? '+' : ''}${mem.rssGrowthMiB.toFixed(1)} MB after ${mem.sessions} sessions with tokens${mem.failed ? ` (${mem.failed} flows failed)` : ''} (${mem.before.vmRssMiB.toFixed(1)} → ${mem.after.vmRssMiB.toFixed(1)} MB, each after a full GC and idle)`,
			target: `≤ ${TARGETS.rssGrowthMiB} MB after ${TARGETS.rssGrowthSessions}`,
			met:
				mem.sessions < TARGETS.rssGrowthSessions
					? `${yes(mem.rssGrowthMiB <= TARGETS.rssGrowthMiB)} (but only ${mem.sessions} of ${TARGETS.rssGrowthSessions} sessions)`
					: yes(mem.rssGrowthMiB <= TARGETS.rssGrowthMiB)
		},
		{
			figure: '(e) first load, JS gzip',
			measured:
				js && css
					? `JS ${kib(js.gzipBytes)} gzip in ${js.files} files, CSS ${kib(css.gzipBytes)} gzip (transferred as ${fl?.encodings.join('/')}: JS ${kib(js.transferredBytes)}, CSS ${kib(css.transferredBytes)})`
					: `not measured: ${flError}`,
			target: `JS ≤ ${TARGETS.firstLoadJsGzipKiB} KB gzip`,
			met: js ? yes(js.gzipBytes <= TARGETS.firstLoadJsGzipKiB * KiB) : 'NOT MEASURED'
		},
		{
			figure: '(f) highlighting 100 KB JSON',
			measured: `${hl.runs.median.toFixed(1)} ms median (p90 ${hl.runs.p90.toFixed(1)} ms; first call ${hl.firstCallMs.toFixed(0)} ms with loading shiki)`,
			target: `≤ ${TARGETS.highlightMs} ms, or off the request path`,
			met:
				hl.runs.median <= TARGETS.highlightMs
					? 'yes'
					: 'NO on time; yes off the request path (lazy, in the browser)'
		},
		{
			figure: '(g) cold start',
			measured: `${cold.medianMs.toFixed(0)} ms median (runs: ${cold.runsMs.map((x) => x.toFixed(0)).join(', ')} ms)`,
			target: `≤ ${TARGETS.coldStartMs} ms`,
			met: yes(cold.medianMs <= TARGETS.coldStartMs)
		}
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
		finished: new Date().toISOString(),
		loadAverageAtEnd: os.loadavg().map((x) => round(x))
	};
	writeFileSync(resolve('bench-results.json'), JSON.stringify(results, null, 2) + '\n');

	console.log('\n' + markdownTable(rows));
	console.log(`\nDetails:`);
	for (const x of p.load) {
		console.log(
			`  (c) concurrency ${x.concurrency}: userinfo action ${x.playground.perSecond}/s, p50 ${x.playground.latencyMedianMs} ms, p99 ${x.playground.latencyP99Ms} ms, server ${x.playground.serverCpuMsPerStep} ms CPU per step on ${x.playground.serverCpuCores} cores, load generator ${x.playground.clientCpuCores} cores, ${x.playground.errors} errors; direct GET ${x.direct.perSecond}/s, server ${x.direct.serverCpuMsPerStep} ms CPU per request`
		);
	}
	console.log(
		`  (d) ${mem.sessions} sessions in ${mem.seconds} s (${mem.sessionsPerSecond}/s at concurrency ${mem.concurrency}, each preset → consent → authorize → callback → exchange), ${mem.failed} failed, after ${mem.warmupSessions} warm-up sessions; RSS fresh ${mem.freshVmRssMiB} MB, right after the sessions ${mem.rightAfterWithoutGc.vmRssMiB} MB (peak ${mem.rightAfterWithoutGc.vmHwmMiB} MB), settled ${mem.after.vmRssMiB} MB; V8 heap used ${mem.before.heapUsedMiB} → ${mem.after.heapUsedMiB} MB`
	);
	if (fl)
		console.log(
			`  (e) ${fl.browser}; largest files (gzip): ${fl.largest.map((f) => `${f.path.replace(/^\/_app\/immutable\//, '')} ${kib(f.gzipBytes)}`).join(', ')}; HTML document ${fl.html.map((h) => `${kib(h.transferredBodyBytes)} ${h.encoding}`).join(', ')}`
		);
	console.log(
		`  (f) in Node, src/lib/highlight.ts loaded through Vite; ${hl.bodyChars} characters, ${hl.lines} lines, ${hl.runs.n} runs (min ${hl.runs.min} ms); a token response (${hl.tokenResponse.bodyChars} characters) takes ${hl.tokenResponse.median} ms`
	);
	console.log(`  load average at the end: ${results.loadAverageAtEnd.join(' ')}`);
	console.log(`\nAll numbers: bench-results.json`);
}

/** @param {{ figure: string, measured: string, target: string, met: string }[]} rows */
function markdownTable(rows) {
	const lines = ['| figure | measured | target | met? |', '|---|---|---|---|'];
	for (const r of rows) lines.push(`| ${r.figure} | ${r.measured} | ${r.target} | ${r.met} |`);
	return lines.join('\n');
}

try {
	await main();
} catch (e) {
	console.error(`\nThe benchmark failed: ${/** @type {Error} */ (e)?.stack ?? e}`);
	process.exitCode = 1;
} finally {
	for (const p of running) if (p.exitCode === null) p.kill('SIGTERM');
}
