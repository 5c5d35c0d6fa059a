// (b) User-info overhead: the playground's `userinfo` form action against the same GET sent straight
// to /sandbox/reader/api/0/user-info, interleaved, one request in flight on one kept-alive socket.
import { CONFIG, TARGETS, yes } from './config.js';
import { action, directUserinfo, exchangeStatus, unexpected } from './http.js';
import { sideBySide } from './stats.js';

/**
 * @param {{ base: string, agent: import('node:http').Agent, sessions: import('./http.js').Jar[], tokens: string[] }} s
 * the sessions after (a)'s exchange, and the tokens of (a)'s direct exchanges
 */
export function measureUserinfo({ base, agent, sessions, tokens }) {
	return sideBySide(
		CONFIG.samples,
		CONFIG.warmup,
		async (i) => {
			const r = await action(
				agent,
				base,
				/** @type {import('./http.js').Jar} */ (sessions[i]),
				'userinfo'
			);
			const st = exchangeStatus(r);
			if (st !== 200) throw new Error(`the userinfo action failed: ${st}`);
			return r.ms;
		},
		async (i) => {
			const r = await directUserinfo(agent, base, /** @type {string} */ (tokens[i]));
			if (r.status !== 200) throw unexpected('the direct user-info', r);
			return r.ms;
		}
	);
}

/** @param {Awaited<ReturnType<typeof measureUserinfo>>} u @returns {import('./config.js').Row} */
export function userinfoRow(u) {
	return {
		figure: '(b) user-info overhead',
		measured: `${u.overheadMedianMs.toFixed(2)} ms median (playground ${u.playground.median.toFixed(2)} / p99 ${u.playground.p99.toFixed(2)}; direct ${u.direct.median.toFixed(2)} / p99 ${u.direct.p99.toFixed(2)} ms)`,
		target: `≤ ${TARGETS.userinfoOverheadMs} ms median`,
		met: yes(u.overheadMedianMs <= TARGETS.userinfoOverheadMs)
	};
}
