// `npm run load`: N complete flows against the playground and its sandbox over HTTP, C at a time,
// each with its own cookie jar: preset → page → consent page → authorize → callback → exchange →
// user-info → refresh → user-info → page. Reports errors, p50/p99 per step and per flow, flows/s,
// and checks that no session ever sees another's tokens. Exits non-zero on any error.
//
//   node scripts/load.js [--flows 50] [--concurrency 50] [--timeout 120] [--url http://127.0.0.1:5173]
//
// Without --url it builds when needed and starts its own server on a free loopback port, with the
// sandbox's zone-1 limit raised so the limit does not turn load into 429s. With --url, give that
// server a high SANDBOX_ZONE1_LIMIT too (each flow makes two zone-1 calls as sandbox-rw).
import { randomBytes } from 'node:crypto';
import { ensureBuild } from './ensure-build.js';
import { Client, consentUrlFrom, decisionRequest, ticketFrom, unescapeHtml } from './lib/client.js';
import { startServer } from './lib/server.js';

const STEPS = [
	'preset',
	'page',
	'consent',
	'authorize',
	'callback',
	'exchange',
	'userinfo',
	'refresh',
	'userinfo2',
	'check'
];
const LIMITS = { flows: 10_000, concurrency: 500, timeout: 1_800 };

/** @param {string[]} argv */
function options(argv) {
	/** @type {{ flows: number, concurrency: number, timeout: number, url: string | undefined }} */
	const o = { flows: 50, concurrency: 0, timeout: 120, url: undefined };
	for (let i = 0; i < argv.length; i++) {
		const [name, inline] = (argv[i] ?? '').split('=', 2);
		const value = inline ?? argv[++i];
		if (name === '--url') o.url = value?.replace(/\/+$/, '');
		else if (name === '--flows' || name === '--concurrency' || name === '--timeout') {
			const key = /** @type {'flows' | 'concurrency' | 'timeout'} */ (name.slice(2));
			const n = Number(value);
			if (!Number.isInteger(n) || n < 1 || n > LIMITS[key])
				throw new Error(`${name} must be a whole number from 1 to ${LIMITS[key]}, got ${value}`);
			o[key] = n;
		} else
			throw new Error(
				`unknown option ${argv[i]}. Usage: node scripts/load.js [--flows N] [--concurrency C] [--timeout S] [--url URL]`
			);
	}
	if (!o.concurrency) o.concurrency = Math.min(o.flows, 50);
	return o;
}

function ownServer() {
	ensureBuild();
	return startServer({
		env: {
			PLAYGROUND_LOG: 'off',
			PLAYGROUND_SESSION_KEY: randomBytes(32).toString('base64url'),
			SANDBOX_ZONE1_LIMIT: '1000000'
		}
	});
}

/** One browser's worth of state (a cookie jar), with timings per step. */
class Flow extends Client {
	/** @param {string} base @param {number} n */
	constructor(base, n) {
		super(base, { record: false, timeoutMs: 30_000 });
		this.n = n;
		/** @type {Record<string, number>} */
		this.ms = {};
		/** @type {string[]} */
		this.tokens = [];
		/** @type {string | undefined} */
		this.finalPage = undefined;
	}

	/**
	 * @template T
	 * @param {string} step @param {() => Promise<T>} fn @returns {Promise<T>}
	 */
	async time(step, fn) {
		const t0 = performance.now();
		try {
			return await fn();
		} finally {
			this.ms[step] = performance.now() - t0;
		}
	}

	/** A form action as the page calls it; returns its decoded data. @param {string} name @param {Record<string, string>} [fields] */
	async actionData(name, fields = {}) {
		const r = await this.action(name, fields);
		if (r.type !== 'success')
			throw new Error(`${name}: ${r.type} ${r.status} ${JSON.stringify(r.data).slice(0, 200)}`);
		return /** @type {{ exchanges?: { request: { headers: [string, string][], body: string }, response?: { status: number, body: string } }[] }} */ (
			r.data
		);
	}

	/** The one exchange of a step: a 200 with a JSON body. @param {string} name */
	async exchange(name) {
		const ex = (await this.actionData(name)).exchanges?.[0];
		if (!ex?.response) throw new Error(`${name}: no response recorded`);
		if (ex.response.status !== 200) {
			const hint =
				ex.response.status === 429
					? ' (the sandbox limit: start that server with a high SANDBOX_ZONE1_LIMIT)'
					: '';
			throw new Error(
				`${name}: the service answered ${ex.response.status}${hint}: ${ex.response.body.slice(0, 200)}`
			);
		}
		return { request: ex.request, json: JSON.parse(ex.response.body) };
	}

	async page() {
		const { res, body } = await this.fetch(this.pagePath, { headers: { accept: 'text/html' } });
		if (res.status !== 200) throw new Error(`page: ${res.status}`);
		return body;
	}

	/** @param {{ request: { headers: [string, string][] } }} ex @param {string} token @param {string} step */
	static usedToken(ex, token, step) {
		const auth = ex.request.headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1];
		if (auth !== `Bearer ${token}`)
			throw new Error(`${step}: sent "${auth?.slice(0, 40)}…", not this flow's access token`);
	}

	async run() {
		await this.time('preset', () => this.actionData('preset', { preset: 'sandbox-rw' }));
		const html = await this.time('page', () => this.page());
		const consentUrl = consentUrlFrom(html);
		const ticket = await this.time('consent', async () => {
			const { res, body } = await this.fetch(consentUrl, { headers: { accept: 'text/html' } });
			const t = ticketFrom(body);
			if (res.status !== 200 || !t) throw new Error(`consent: ${res.status}, no ticket`);
			return t;
		});
		const callback = await this.time('authorize', async () => {
			const d = decisionRequest(consentUrl, ticket, 'authorize');
			const { res } = await this.fetch(d.url, { method: 'POST', body: d.body, headers: d.headers });
			const loc = res.headers.get('location');
			if (res.status !== 303 || !loc?.includes('code='))
				throw new Error(`authorize: ${res.status} ${loc}`);
			return loc;
		});
		await this.time('callback', async () => {
			const { res } = await this.fetch(callback);
			if (res.status !== 303 || res.headers.get('location') !== this.pagePath)
				throw new Error(`callback: ${res.status} ${res.headers.get('location')}`);
		});
		const first = await this.time('exchange', () => this.exchange('exchange'));
		const { access_token: a1, refresh_token: r1 } = first.json;
		this.tokens.push(a1, r1);
		Flow.usedToken(await this.time('userinfo', () => this.exchange('userinfo')), a1, 'userinfo');
		const refreshed = await this.time('refresh', () => this.exchange('refresh'));
		if (!refreshed.request.body.includes(`refresh_token=${encodeURIComponent(r1)}`))
			throw new Error("refresh: did not send this flow's refresh token");
		const { access_token: a2, refresh_token: r2 } = refreshed.json;
		if (a2 === a1) throw new Error('refresh: the access token did not change');
		this.tokens.push(a2, r2);
		Flow.usedToken(await this.time('userinfo2', () => this.exchange('userinfo')), a2, 'userinfo2');
		this.finalPage = await this.time('check', () => this.page());
		const shown = /data-testid="access-token"[^>]*>([^<]+)</.exec(this.finalPage)?.[1];
		if (shown === undefined || unescapeHtml(shown) !== a2)
			throw new Error("check: the page does not show this flow's current access token");
	}
}

/** @param {number[]} xs @param {number} q */
function quantile(xs, q) {
	const s = [...xs].sort((a, b) => a - b);
	return s.length ? (s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? 0) : 0;
}

async function main() {
	const o = options(process.argv.slice(2));
	const server = o.url ? undefined : await ownServer();
	const base = o.url ?? server?.url ?? '';
	console.log(
		`load: ${o.flows} flows, ${o.concurrency} at a time, against ${base}${server ? ' (own server)' : ''}`
	);
	/** @type {Flow[]} */
	const done = [];
	/** @type {string[]} */
	const errors = [];
	let started = 0;
	const deadline = Date.now() + o.timeout * 1000;
	const t0 = performance.now();
	const worker = async () => {
		while (started < o.flows && Date.now() < deadline) {
			const flow = new Flow(base, started++);
			const f0 = performance.now();
			try {
				await flow.run();
				flow.ms.total = performance.now() - f0;
				done.push(flow);
			} catch (e) {
				errors.push(`flow ${flow.n}: ${/** @type {Error} */ (e).message}`);
			}
		}
	};
	try {
		await Promise.all(Array.from({ length: o.concurrency }, worker));
	} finally {
		await server?.stop();
	}
	const wall = (performance.now() - t0) / 1000;
	if (started < o.flows)
		errors.push(`time limit: only ${started} of ${o.flows} flows started within ${o.timeout} s`);

	// Isolation: every token belongs to one flow, and each flow's last page shows none of the others'.
	const owner = new Map();
	for (const f of done)
		for (const t of f.tokens) {
			if (owner.has(t))
				errors.push(`isolation: flows ${owner.get(t)} and ${f.n} got the same token`);
			owner.set(t, f.n);
		}
	for (const f of done) {
		const seen = [
			...(f.finalPage ?? '').matchAll(/data-testid="(?:access|refresh)-token"[^>]*>([^<]+)</g)
		].map((x) => unescapeHtml(x[1] ?? ''));
		for (const t of seen)
			if (owner.has(t) && owner.get(t) !== f.n)
				errors.push(`isolation: flow ${f.n}'s page shows flow ${owner.get(t)}'s token`);
	}

	const rows = [...STEPS, 'total'].map((step) => {
		const xs = done.map((f) => f.ms[step]).filter((x) => x !== undefined);
		return `${step.padEnd(10)} ${quantile(xs, 0.5).toFixed(1).padStart(8)} ${quantile(xs, 0.99).toFixed(1).padStart(8)} ${Math.max(
			0,
			...xs
		)
			.toFixed(1)
			.padStart(8)}`;
	});
	console.log(
		`\n${'step'.padEnd(10)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}\n${rows.join('\n')}`
	);
	console.log(
		`\n${done.length} flows completed in ${wall.toFixed(2)} s: ${(done.length / wall).toFixed(1)} flows/s (${((done.length * STEPS.length) / wall).toFixed(0)} requests/s from the clients, plus 4 per flow from the playground to its sandbox)`
	);
	if (!errors.some((e) => e.startsWith('isolation')))
		console.log(
			`isolation: ${owner.size} distinct tokens over ${done.length} flows; every call used its own flow's token; every page showed only its own`
		);
	if (errors.length) {
		console.error(
			`\n${errors.length} error(s):\n${errors.slice(0, 20).join('\n')}${errors.length > 20 ? '\n…' : ''}`
		);
		process.exit(1);
	}
	console.log('errors: 0');
}

main().catch((e) => {
	console.error(`load: ${e.message}`);
	process.exit(1);
});
