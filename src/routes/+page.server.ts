import { dropLegacy, emptySession } from '$lib/server/session/session';
import { flowParam, newFlowId } from '$lib/oauth/flow-id';
import { prefillFrom, view } from '$lib/server/flow/page';
import { refreshHold, revokedByFork } from '$lib/server/flow/fork';
import { SealedFlow } from '$lib/server/flow/sealed-flow';
import { flowAction, flowContext, stepAction, stepActions } from '$lib/server/flow/action';
import {
	forkToClose,
	replayConfirmed,
	raceConfirmed,
	replayRefreshConfirmed,
	wholeForm
} from '$lib/server/flow/step-forms';
import { STEP_RUNS } from '$lib/server/steps/runs';
import type { Actions, PageServerLoad } from './$types';

/** The page of one flow, `/?flow=<id>`; without a (well-formed) id, a new flow's. */
export const load: PageServerLoad = async (event) => {
	const { url, locals } = event;
	const context = flowContext(event);
	dropLegacy(event.cookies, context.source);
	const param = flowParam(url.searchParams);
	if (!param.ok) {
		const session = emptySession();
		return {
			...view(locals.app, session, url.origin),
			flow: newFlowId(),
			outbox: [],
			prefill: prefillFrom(locals.app, url)
		};
	}
	const flow = await SealedFlow.open(context);
	const session = flow.opened;
	const outbox = flow.takeOutbox();
	flow.tidy();
	await flow.seal();
	const fork = await flow.liveForkOf();
	return {
		...view(locals.app, session, url.origin),
		/** This flow's fork (server/flow/fork.ts): one at a time, and what made it. */
		fork: fork?.id ?? null,
		forkBy: fork?.by ?? null,
		/**
		 * This flow's refresh token is superseded by its fork's: refreshes are held (fork.ts). With
		 * `fork` null, the fork that holds the newer tokens was dropped to make room.
		 */
		refreshHeld: !!refreshHold(session, fork),
		/**
		 * The fork's check found the tokens this flow holds revoked (replay.ts): by a replay of their
		 * code, or a superseded refresh token. The verdict says so (exchange/verdict.ts).
		 */
		revokedByFork: revokedByFork(session, fork),
		flow: param.id,
		outbox,
		prefill: prefillFrom(locals.app, url, session.setup)
	};
};

/**
 * Every action of the step registry (ACTIONS), and no other (tests/unit/step-registry.test.ts): the
 * steps' actions, each made from its run (server/steps/runs.ts: what it reads from its form and the
 * step it runs) through `stepAction`, and the page's own, one line each: what it reads from its
 * form (step-forms.ts) and the flow's verb that runs it (sealed-flow.ts), through `flowAction`, or
 * `stepAction` for the replay, which calls the service (flow/action.ts).
 */
export const actions: Actions = {
	...stepActions(STEP_RUNS),
	setup: flowAction(wholeForm, (flow, form) => flow.saveSetup(form)),
	preset: flowAction(wholeForm, (flow, form) => flow.applyPreset(form)),
	/** "Try again": a new consent request, maybe with another scope or redirect URI. */
	restart: flowAction(wholeForm, (flow, form) => flow.restart(form)),
	/** "Replay this code", confirmed: in a fork of this flow (server/steps/replay.ts). */
	replay: stepAction(replayConfirmed, (flow) => flow.replay()),
	/** "Replay the previous refresh token", confirmed: in a fork of this flow (replay.ts). */
	replayrefresh: stepAction(replayRefreshConfirmed, (flow) => flow.replayRefresh()),
	/** "Two refreshes at once", confirmed: in a fork of this flow (replay.ts). */
	tworefreshes: stepAction(raceConfirmed, (flow) => flow.raceRefresh()),
	/** "Take the fork's newest tokens": after a try that superseded this flow's refresh token. */
	takefork: flowAction(null, (flow) => flow.takeForkTokens()),
	/** "Close that fork", confirmed: drops this flow's fork, so that it may replay again. */
	closefork: flowAction(forkToClose, (flow, fork) => flow.closeFork(fork)),
	/** "Get a code for the script": the consent's code comes back shown, not exchanged. */
	forscript: flowAction(null, (flow) => flow.forScript()),
	reset: flowAction(null, (flow) => flow.reset()),
	undo: flowAction(null, (flow) => flow.undo()),
	/** A duplicated tab: a copy of this flow's setup under a new flow id. */
	fork: flowAction(null, (flow) => flow.fork(), { inFork: true })
};
