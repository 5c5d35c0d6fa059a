// (a) Exchange overhead: the playground's `exchange` form action against the same code exchange sent
// straight to /sandbox/oauth2/token, interleaved, one request in flight on one kept-alive socket.
import { CONFIG, TARGETS, yes } from './config.js';
import { action, directExchange, exchangeStatus, unexpected } from './http.js';
import { sideBySide } from './stats.js';

/**
 * @param {{ base: string, agent: import('node:http').Agent, sessions: import('./http.js').Jar[], codes: { code: string, redirect_uri: string }[] }} s
 * @returns the timings, and the access tokens the direct exchanges got (for (b) and (c))
 */
export async function measureExchange({ base, agent, sessions, codes }) {
	/** @type {string[]} */
	const tokens = [];
	const result = await sideBySide(
		CONFIG.samples,
		CONFIG.warmup,
		async (i) => {
			const jar = /** @type {import('./http.js').Jar} */ (sessions[i]);
			const r = await action(agent, base, jar, 'exchange');
			const st = exchangeStatus(r);
			if (st !== 200) throw new Error(`the exchange action failed: ${st}`);
			return r.ms;
		},
		async (i) => {
			const r = await directExchange(
				agent,
				base,
				/** @type {{ code: string, redirect_uri: string }} */ (codes[i])
			);
			const token = r.status === 200 ? JSON.parse(r.body).access_token : undefined;
			if (typeof token !== 'string') throw unexpected('the direct exchange', r);
			tokens[i] = token;
			return r.ms;
		}
	);
	return { result, tokens };
}

/** @param {Awaited<ReturnType<typeof measureExchange>>['result']} e @returns {import('./config.js').Row} */
export function exchangeRow(e) {
	return {
		figure: '(a) exchange overhead',
		measured: `${e.overheadMedianMs.toFixed(2)} ms median (playground ${e.playground.median.toFixed(2)} / p99 ${e.playground.p99.toFixed(2)}; direct ${e.direct.median.toFixed(2)} / p99 ${e.direct.p99.toFixed(2)} ms)`,
		target: `≤ ${TARGETS.exchangeOverheadMs} ms median`,
		met: yes(e.overheadMedianMs <= TARGETS.exchangeOverheadMs)
	};
}
