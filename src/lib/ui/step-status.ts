/**
 * Where the flow stands, worked out in one place from the page data and the transcript: the step
 * cards, the progress (the current step) and the sequence diagram all read these statuses.
 *
 * A step is done only when its latest attempt brought back an exchange that succeeded and that
 * belongs to the current setup (`Exchange.setup`, the page data's `setupId`). A failure, a time-out
 * or a cancelled request shows as such, and the last good result stays in view, marked as earlier.
 * An exchange of another setup is never a step's result.
 */
import type { Exchange } from '$lib/exchange/types';
import { judgedOk } from '$lib/exchange/judged-ok';
import { EXCHANGE_STEPS, specOf, type ExchangeStep } from '$lib/steps/registry';

export type StepState = 'todo' | 'current' | 'done' | 'failed' | 'cancelled' | 'denied' | 'busy';

/** One exchange's outcome: the diagram's arrows and the exchange views read it. */
export type ExchangeStatus = 'ok' | 'failed' | 'denied' | 'redirect' | 'pending';

export type StepName = 'setup' | 'consent' | 'callback' | ExchangeStep;

/**
 * An attempt of a step that brought back no exchange of that step: Cancel, no answer from the
 * playground server, a server error or a refusal before anything was sent. `after` is how many
 * transcript entries there were when it ended: an exchange of the step at that index or later is
 * newer than the attempt.
 */
export interface Attempt {
	outcome: 'cancelled' | 'failed';
	setup: string | null;
	after: number;
}

export interface FlowFacts {
	setupDone: boolean;
	pending: boolean;
	callbackVerdict: string | null;
	/** The callback's `error` parameter, when it brought one (`access_denied`: consent declined). */
	callbackError?: string | null;
	/** The issuer check (RFC 9207) failed on the callback: the flow stopped there. */
	issuerStop?: boolean;
	hasCode: boolean;
	/** The code is held back by the issuer check, waiting for "Exchange anyway". */
	codeHeld?: boolean;
	hasTokens: boolean;
	/** The current setup's id (page data); null before any setup was saved. */
	setupId?: string | null;
	/** The tab's transcript, oldest first. */
	exchanges: readonly Exchange[];
	/** The last attempt of each step that brought back no exchange of it. */
	attempts?: Partial<Record<ExchangeStep, Attempt>>;
	busy: string | null;
}

/** What a step card shows: its state, its newest result, and the last good one when that is earlier. */
export interface StepView {
	state: StepState;
	/** The step's newest exchange in this setup, the result of its latest attempt. */
	latest?: Exchange;
	/** Shown below, marked as earlier: the result before a failed or cancelled attempt. */
	earlier?: Exchange;
	/** The latest attempt brought back no exchange of the step (cancelled, no answer, refused). */
	interrupted?: boolean;
}

/**
 * The redirect back (the callback) brought `error=access_denied`: the user (or the provider)
 * declined consent.
 */
function isDenial(ex: Exchange): boolean {
	if (specOf(ex.step).travels !== 'redirect-back') return false;
	try {
		return new URL(ex.request.url).searchParams.get('error') === 'access_denied';
	} catch {
		return false;
	}
}

/**
 * failed: no answer, an HTTP error, or an answer the diagnostics found wrong; denied: a callback
 * with `access_denied`; pending: a request with no answer recorded (the browser navigating to the
 * consent page); redirect: 3xx; else ok.
 */
export function exchangeStatus(ex: Exchange): ExchangeStatus {
	if (isDenial(ex)) return 'denied';
	// Judged a success whatever its status (a client secret check's credentials accepted).
	if (judgedOk(ex)) return 'ok';
	if (ex.failure) return 'failed';
	if (ex.response && ex.response.status >= 400) return 'failed';
	if (ex.findings.some((f) => f.level === 'error')) return 'failed';
	if (!ex.response) return 'pending';
	if (ex.response.status >= 300) return 'redirect';
	return 'ok';
}

function failed(ex: Exchange | undefined): boolean {
	return !!ex && exchangeStatus(ex) !== 'ok';
}

/** The exchange belongs to the current setup (an exchange recorded before setups had ids, to none). */
export function ofSetup(ex: Exchange, setupId: string | null | undefined): boolean {
	return (ex.setup ?? null) === (setupId ?? null);
}

/**
 * Whether `ex` is a client secret check of other credentials than the current ones (another secret,
 * or another way of sending it): no verdict on these.
 */
export function otherCredentials(ex: Exchange, credentialsId: string | null | undefined): boolean {
	return ex.credentials !== undefined && ex.credentials !== (credentialsId ?? undefined);
}

/** Where the step's newest exchange of the current setup is in `exchanges`, or -1. */
function latestIndex(
	exchanges: readonly Exchange[],
	step: Exchange['step'],
	setupId: string | null | undefined
): number {
	for (let i = exchanges.length - 1; i >= 0; i--) {
		const ex = exchanges[i]!;
		// A replay (server/steps/replay.ts) is a check sent on purpose, not the step's own attempt.
		if (ex.step === step && !ex.replay && ofSetup(ex, setupId)) return i;
	}
	return -1;
}

/** The step's newest exchange of the current setup: never another setup's. */
export function latestOf(
	exchanges: readonly Exchange[],
	step: Exchange['step'],
	setupId: string | null | undefined
): Exchange | undefined {
	return exchanges[latestIndex(exchanges, step, setupId)];
}

/** The view of a step whose status comes from its exchanges; `idle` is its state with none. */
function exchangeStepView(f: FlowFacts, step: ExchangeStep, idle: StepState): StepView {
	const index = latestIndex(f.exchanges, step, f.setupId);
	const latest = index >= 0 ? f.exchanges[index] : undefined;
	const attempt = f.attempts?.[step];
	const busy = f.busy === step;
	// An attempt that brought nothing back, newer than the newest exchange: that exchange is earlier.
	if (attempt && (attempt.setup ?? null) === (f.setupId ?? null) && attempt.after > index)
		return { state: busy ? 'busy' : attempt.outcome, earlier: latest, interrupted: true };
	if (latest && failed(latest)) {
		let earlier: Exchange | undefined;
		for (let i = index - 1; i >= 0 && !earlier; i--) {
			const ex = f.exchanges[i]!;
			if (ex.step === step && ofSetup(ex, f.setupId) && !failed(ex)) earlier = ex;
		}
		return { state: busy ? 'busy' : 'failed', latest, earlier };
	}
	return { state: busy ? 'busy' : latest ? 'done' : idle, latest };
}

export function stepViews(f: FlowFacts): Record<StepName, StepView> {
	const s = (busyName: string, state: StepState): StepView => ({
		state: f.busy === busyName ? 'busy' : state
	});
	const cb = f.callbackVerdict;
	const denied = cb === 'error' && f.callbackError === 'access_denied';
	const exchange = exchangeStepView(f, 'exchange', 'todo');
	// A code is waiting: exchanging it is next, unless the issuer check held it back.
	if (f.hasCode && !exchange.interrupted)
		exchange.state = f.busy === 'exchange' ? 'busy' : f.codeHeld ? 'todo' : 'current';
	// Tokens with no exchange in the transcript (the transcript was cleared): they came from this setup.
	if (exchange.state === 'todo' && !exchange.latest && f.hasTokens && !f.hasCode)
		exchange.state = 'done';
	const userinfo = exchangeStepView(f, 'userinfo', f.hasTokens ? 'current' : 'todo');
	const views: Partial<Record<StepName, StepView>> = {
		setup: s('setup', f.setupDone ? 'done' : 'current'),
		consent: s('consent', cb ? 'done' : f.setupDone && f.pending ? 'current' : 'todo'),
		callback: s(
			'callback',
			f.issuerStop ? 'failed' : cb === 'code' ? 'done' : denied ? 'denied' : cb ? 'failed' : 'todo'
		),
		exchange,
		// Before the user-info call: the first step that is current or busy is the page's current one.
		refresh: exchangeStepView(f, 'refresh', 'todo'),
		userinfo
	};
	// Every other step whose status comes from its exchanges (its spec says so): the plain rule.
	for (const step of EXCHANGE_STEPS) views[step] ??= exchangeStepView(f, step, 'todo');
	return views as Record<StepName, StepView>;
}
