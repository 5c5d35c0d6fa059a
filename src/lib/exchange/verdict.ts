/**
 * The flow's outcome in one line, from the transcript: whether the newest token request (the code
 * exchange, or a refresh after it) brought tokens, and if not, which step failed and why. The page
 * shows it at the top, in the document's title and to screen readers; the Markdown report opens
 * with it. One function, so the page and the exports never say two different things.
 */
import { specOf, STEPS } from '$lib/steps/registry';
import { jsonObject } from './text';
import type { Exchange } from './types';

export interface Verdict {
	ok: boolean;
	/** "✓ Tokens received: read write, expires in 59 min", "✕ Step 3, code exchange, failed: …". */
	text: string;
	/** The id of what it names on the page: the tokens, or the failed step's card. */
	target: string;
}

/** "45 s", "59 min", "2 h 5 min", "3 days": a duration in whole units, rounded down. */
export function durationText(ms: number): string {
	const s = Math.floor(ms / 1000);
	if (s < 60) return `${s} s`;
	if (s < 3600) return `${Math.floor(s / 60)} min`;
	if (s < 48 * 3600) {
		const h = Math.floor(s / 3600);
		const m = Math.floor((s % 3600) / 60);
		return m ? `${h} h ${m} min` : `${h} h`;
	}
	return `${Math.floor(s / 86400)} days`;
}

/** A finding's first sentence, as a clause: "the service did not accept the client credentials". */
function clause(message: string): string {
	const first = /^.*?[.!?](?=\s|$)/.exec(message)?.[0] ?? message;
	const words = first.replace(/[.!?]$/, '');
	return words.charAt(0).toLowerCase() + words.slice(1);
}

/** Why a token request failed: the OAuth error (or the failure's kind, or the status) and its first finding. */
function why(ex: Exchange): string {
	const body = ex.response ? jsonObject(ex.response.body) : undefined;
	const code =
		typeof body?.error === 'string'
			? body.error
			: (ex.failure?.kind ?? (ex.response ? `HTTP ${ex.response.status}` : 'no answer'));
	const finding = ex.findings.find((f) => f.level === 'error');
	return finding ? `${code}, ${clause(finding.message)}` : code;
}

/**
 * The verdict on the newest token request of `exchanges` (at `now`, for the time left), or none
 * before the first one.
 */
export function verdictOf(exchanges: readonly Exchange[], now: number): Verdict | undefined {
	// A replay sent on purpose (server/steps/replay.ts) is no attempt of the flow's own.
	// The steps whose verdict is on a token answer: it gives (or refuses) the tokens.
	const ex = exchanges.findLast((e) => specOf(e.step).verdict === 'tokens' && !e.replay);
	if (!ex) return undefined;
	const step = STEPS[ex.step];
	const res = ex.response;
	const body = res && res.status >= 200 && res.status < 300 ? jsonObject(res.body) : undefined;
	if (!body || typeof body.access_token !== 'string')
		return {
			ok: false,
			text: `✕ Step ${step.n}, ${step.name}, failed: ${why(ex)}`,
			target: ex.step
		};
	// A replay's check of revocation after it (server/steps/replay.ts): the tokens no longer work.
	const revoked = exchanges
		.slice(exchanges.indexOf(ex) + 1)
		.some((e) => e.replay && specOf(e.step).endpoint === 'userinfo' && e.response?.status === 401);
	if (revoked)
		return {
			ok: false,
			text: '✕ Tokens revoked: the service revoked them when their code was replayed',
			target: 'tokens'
		};
	const scope = typeof body.scope === 'string' && body.scope.trim() ? body.scope.trim() : '';
	const granted = scope ? `: ${scope}` : '';
	const lifetime = typeof body.expires_in === 'number' ? body.expires_in * 1000 : undefined;
	const left = lifetime === undefined ? undefined : Date.parse(ex.startedAt) + lifetime - now;
	const time =
		left === undefined
			? ''
			: left > 0
				? `, expires in ${durationText(left)}`
				: ', the access token has expired';
	return { ok: true, text: `✓ Tokens received${granted}${time}`, target: 'tokens' };
}
