import { dropLegacy, emptySession } from '$lib/server/session/session';
import { flowParam, newFlowId } from '$lib/oauth/flow-id';
import { prefillFrom, view } from '$lib/server/flow/page';
import { SealedFlow } from '$lib/server/flow/sealed-flow';
import { flowAction, flowContext, stepAction } from '$lib/server/flow/action';
import {
	adminToken,
	apiCallInput,
	exchangeChoice,
	forkToClose,
	jwtInput,
	metadataLookup,
	pastedAddress,
	refreshChoice,
	replayConfirmed,
	wholeForm
} from '$lib/server/flow/step-forms';
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
	return {
		...view(locals.app, session, url.origin),
		/** This flow's fork (server/flow/fork.ts): one at a time. */
		fork: (await flow.liveFork()) ?? null,
		flow: param.id,
		outbox,
		prefill: prefillFrom(locals.app, url, session.setup)
	};
};

/**
 * Every action of the step registry (ACTIONS), and no other (tests/unit/step-registry.test.ts). Each
 * is one line: what it reads from its form (step-forms.ts) and the flow's verb that runs it
 * (sealed-flow.ts), through `flowAction`, or `stepAction` for a step that calls the service
 * (flow/action.ts).
 */
export const actions: Actions = {
	setup: flowAction(wholeForm, (flow, form) => flow.saveSetup(form)),
	preset: flowAction(wholeForm, (flow, form) => flow.applyPreset(form)),
	/** "Try again": a new consent request, maybe with another scope or redirect URI. */
	restart: flowAction(wholeForm, (flow, form) => flow.restart(form)),
	/** "Fill from metadata": nothing is saved; the page fills the form. */
	discover: stepAction(metadataLookup, (flow, lookup) => flow.discover(lookup)),
	check: stepAction(null, (flow) => flow.check()),
	/** Push the pending consent request (RFC 9126); the consent link then carries its request_uri. */
	par: stepAction(null, (flow) => flow.push()),
	pasteback: stepAction(pastedAddress, async (flow, pasted) => flow.pasteBack(pasted)),
	exchange: stepAction(exchangeChoice, (flow, choice) => flow.exchange(choice)),
	userinfo: stepAction(null, (flow) => flow.userInfo()),
	refresh: stepAction(refreshChoice, (flow, choice) => flow.refresh(choice)),
	api: stepAction(apiCallInput, (flow, call) => flow.callApi(call)),
	jwt: stepAction(jwtInput, (flow, jwt) => flow.checkJwt(jwt)),
	introspect: stepAction(adminToken, (flow, which) => flow.introspect(which)),
	revoke: stepAction(adminToken, (flow, which) => flow.revoke(which)),
	/** "Replay this code", confirmed: in a fork of this flow (server/steps/replay.ts). */
	replay: stepAction(replayConfirmed, (flow) => flow.replay()),
	/** "Close that fork", confirmed: drops this flow's fork, so that it may replay again. */
	closefork: flowAction(forkToClose, (flow, fork) => flow.closeFork(fork)),
	/** "Get a code for the script": the consent's code comes back shown, not exchanged. */
	forscript: flowAction(null, (flow) => flow.forScript()),
	reset: flowAction(null, (flow) => flow.reset()),
	undo: flowAction(null, (flow) => flow.undo()),
	/** A duplicated tab: a copy of this flow's setup under a new flow id. */
	fork: flowAction(null, (flow) => flow.fork())
};
