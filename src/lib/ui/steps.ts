/** Where the flow stands, worked out in one place from the page data and the transcript. */
import type { Exchange } from '$lib/exchange/types';

export type StepState = 'todo' | 'current' | 'done' | 'failed' | 'busy';

export interface FlowFacts {
	setupDone: boolean;
	pending: boolean;
	callbackVerdict: string | null;
	/** The issuer check (RFC 9207) failed on the callback: the flow stopped there. */
	issuerStop?: boolean;
	hasCode: boolean;
	/** The code is held back by the issuer check, waiting for "Exchange anyway". */
	codeHeld?: boolean;
	hasTokens: boolean;
	latest: (step: Exchange['step']) => Exchange | undefined;
	busy: string | null;
}

export function failed(ex: Exchange | undefined): boolean {
	if (!ex) return false;
	return (
		!!ex.failure ||
		(ex.response?.status ?? 0) >= 400 ||
		ex.findings.some((f) => f.level === 'error')
	);
}

export function stepStates(
	f: FlowFacts
): Record<
	'setup' | 'consent' | 'callback' | 'exchange' | 'refresh' | 'userinfo' | 'api',
	StepState
> {
	const s = (busyName: string, done: boolean, current: boolean, bad = false): StepState =>
		f.busy === busyName ? 'busy' : bad ? 'failed' : done ? 'done' : current ? 'current' : 'todo';
	const cb = f.callbackVerdict;
	const exch = f.latest('exchange');
	return {
		setup: s('setup', f.setupDone, !f.setupDone),
		consent: s('consent', !!cb, f.setupDone && f.pending && !cb),
		callback: s('callback', cb === 'code', false, (!!cb && cb !== 'code') || !!f.issuerStop),
		exchange: s(
			'exchange',
			f.hasTokens && !f.hasCode,
			f.hasCode && !f.codeHeld,
			!f.hasCode && !f.hasTokens && failed(exch)
		),
		refresh: s(
			'refresh',
			!!f.latest('refresh') && !failed(f.latest('refresh')),
			false,
			failed(f.latest('refresh'))
		),
		userinfo: s(
			'userinfo',
			!!f.latest('userinfo') && !failed(f.latest('userinfo')),
			f.hasTokens && !f.latest('userinfo'),
			failed(f.latest('userinfo'))
		),
		api: s('api', !!f.latest('api') && !failed(f.latest('api')), false, failed(f.latest('api')))
	};
}
