/**
 * Which redirects back may touch a flow (RFC 6749 §10.12). A browser runs several flows, and the
 * redirect is found its flow by the state it returns, with three outcomes:
 * 1. the state is a flow's pending one: that flow uses it up and goes on;
 * 2. it is one a flow used or replaced lately (its recent states): stale, not forged; nothing is
 *    exchanged, and that flow's tab says to start again from the consent step;
 * 3. it is no flow's (or there is none): unsolicited, possibly forged; no flow changes.
 * Pure functions: no I/O.
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';
import { sameString } from './consent';
import { hasCode, raise } from './catalogue/raise';
import * as stateCheck from './catalogue/state-check';

/** What a flow offers the callback: its pending state and the states it used or replaced lately. */
export interface FlowStates {
	id: string;
	pending?: string;
	recent?: string[];
}

export type CallbackRoute =
	{ kind: 'pending'; id: string } | { kind: 'recent'; id: string } | { kind: 'none' };

/**
 * Which flow a redirect back belongs to, by the one state it carries (compared in constant time).
 * A state pending in two flows (which saving a custom state refuses) matches neither.
 */
export function routeCallback(params: URLSearchParams, flows: FlowStates[]): CallbackRoute {
	const returned = params.getAll('state');
	if (returned.length !== 1) return { kind: 'none' };
	const state = returned[0]!;
	const pending = flows.filter((f) => f.pending !== undefined && sameString(f.pending, state));
	if (pending.length === 1) return { kind: 'pending', id: pending[0]!.id };
	// Pending in several flows (one match returned above).
	if (pending.length) return { kind: 'none' };
	const recent = flows.find((f) => f.recent?.some((s) => sameString(s, state)));
	return recent ? { kind: 'recent', id: recent.id } : { kind: 'none' };
}

/**
 * Outcome 2, in the user's terms: what became of the consent request this address answers. Its
 * code already came back (and was exchanged in step 3, or still waits for it), its answer came
 * back already as an error (declined, or refused: Deny, then Back and Authorize), or the flow has
 * since replaced the request (restarted, or the setup saved again). The words of each, and of
 * outcome 3, are entries of `catalogue/state-check.ts`.
 */
export type StaleWhy = 'exchanged' | 'received' | 'answered' | 'replaced';

export type IgnoredKind = 'stale' | 'unsolicited';

/** The finding on a redirect that was ignored: stale (outcome 2) or unsolicited (outcome 3). */
export function ignoredFinding(kind: IgnoredKind, why: StaleWhy = 'replaced'): Finding {
	return kind === 'stale'
		? raise(stateCheck.STALE_CALLBACK, why)
		: raise(stateCheck.UNSOLICITED_CALLBACK);
}

/** Whether an Exchange is the record of an ignored redirect. */
export function isIgnoredCallback(ex: Exchange): boolean {
	return (
		specOf(ex.step).travels === 'redirect-back' &&
		ex.findings.some((f) => hasCode(f, 'callback-ignored'))
	);
}

/** The finding of a code kept for the exported script ("Get a code for the script"). */
export function codeForScript(): Finding {
	return raise(stateCheck.CODE_FOR_SCRIPT);
}

/** Which kind of ignored redirect an Exchange records. */
export function ignoredKind(ex: Exchange): IgnoredKind {
	return ex.findings.some((f) => hasCode(f, 'callback-ignored') && f.level === 'warning')
		? 'stale'
		: 'unsolicited';
}
