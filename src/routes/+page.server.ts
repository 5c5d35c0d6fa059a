import {
	callApi,
	checkRegistration,
	exchangeCode,
	pasteBack,
	refreshTokens
} from '$lib/server/flow';
import {
	applyPreset,
	forkFlow,
	replayAction,
	forScript,
	inFlow,
	prefillFrom,
	restart,
	save,
	saveSetup,
	takeOutbox,
	view
} from '$lib/server/page';
import { dropLegacy, emptySession, readSession } from '$lib/server/session';
import { flowParam, newFlowId } from '$lib/oauth/flow-id';
import { resetAction, undoAction, undoExpired } from '$lib/server/undo';
import { withForm } from '$lib/server/form';
import { pushConsent } from '$lib/server/push-consent';
import { checkJwt } from '$lib/server/jwt-check';
import { introspect, revoke } from '$lib/server/introspect-revoke';
import { fillFromMetadata } from '$lib/server/discovery';
import { stepAction } from '$lib/server/step-action';
import {
	adminToken,
	apiCallInput,
	exchangeChoice,
	jwtInput,
	metadataLookup,
	pastedAddress,
	refreshChoice
} from '$lib/server/step-forms';
import type { Actions, PageServerLoad } from './$types';

/** The refresh's note when the switch under the tokens sent it. */
const AUTOMATIC_REFRESH = 'Automatic refresh before expiry (the switch under the tokens).';

/** The page of one flow, `/?flow=<id>`; without a (well-formed) id, a new flow's. */
export const load: PageServerLoad = async ({ cookies, url }) => {
	dropLegacy(cookies);
	const param = flowParam(url.searchParams);
	if (!param.ok) {
		const session = emptySession();
		return {
			...view(session, url.origin),
			flow: newFlowId(),
			outbox: [],
			prefill: prefillFrom(url)
		};
	}
	const session = await readSession(cookies);
	const outbox = await takeOutbox(cookies, url, session);
	if (session.notice && !session.dropped) await save(cookies, url, { v: 1 });
	else if (undoExpired(session)) await save(cookies, url, session); // drops the old flow
	return {
		...view(session, url.origin),
		flow: param.id,
		outbox,
		prefill: prefillFrom(url, session.setup)
	};
};

/**
 * Every action of the step registry (ACTIONS), and no other (tests/unit/step-registry.test.ts). A
 * step's action is one line: what it reads from its form (step-forms.ts) and the verb that runs it,
 * through `stepAction` (step-action.ts).
 */
export const actions: Actions = inFlow({
	setup: ({ cookies, url, request }) => withForm(request, (f) => saveSetup(cookies, url, f)),
	preset: ({ cookies, url, request }) => withForm(request, (f) => applyPreset(cookies, url, f)),
	restart: ({ cookies, url, request }) => withForm(request, (f) => restart(cookies, url, f)),
	/** "Fill from metadata": nothing is saved; the page fills the form. */
	discover: stepAction(metadataLookup, fillFromMetadata),
	check: stepAction(null, (s, _, c) =>
		checkRegistration(c.sender, s, c.signal, c.origin, c.client)
	),
	/** Push the pending consent request (RFC 9126); the consent link then carries its request_uri. */
	par: stepAction(null, (s, _, c) => pushConsent(c.sender, s, c.signal)),
	pasteback: stepAction(pastedAddress, async (s, pasted) => pasteBack(s, pasted)),
	exchange: stepAction(exchangeChoice, (s, { anyway }, c) =>
		exchangeCode(c.sender, s, c.signal, { anyway })
	),
	userinfo: stepAction(null, (s, _, c) =>
		callApi(c.sender, s, 'userinfo', undefined, c.signal, c.client)
	),
	refresh: stepAction(refreshChoice, (s, { auto }, c) =>
		refreshTokens(c.sender, s, auto ? AUTOMATIC_REFRESH : undefined, c.signal)
	),
	api: stepAction(apiCallInput, (s, call, c) =>
		callApi(c.sender, s, 'api', call, c.signal, c.client)
	),
	/** Check a JWT's signature against the setup's JWKS URL: one of the flow's tokens, or a pasted one. */
	jwt: stepAction(jwtInput, (s, { which, token }, c) =>
		checkJwt(c.sender, s, which, token, c.signal)
	),
	/** Introspection of the access or the refresh token (RFC 7662). */
	introspect: stepAction(adminToken, (s, which, c) => introspect(c.sender, s, which, c.signal)),
	/** Revocation of the access or the refresh token (RFC 7009), then its proof. */
	revoke: stepAction(adminToken, (s, which, c) => revoke(c.sender, s, which, c.signal)),
	/** "Replay this code", confirmed: in a fork of this flow (server/replay.ts). */
	replay: (event) => replayAction(event),
	/** "Get a code for the script": the consent's code comes back shown, not exchanged. */
	forscript: ({ cookies, url }) => forScript(cookies, url),
	reset: ({ cookies, url }) => resetAction(cookies, url),
	undo: ({ cookies, url }) => undoAction(cookies, url),
	/** A duplicated tab: a copy of this flow's setup under a new flow id. */
	fork: ({ cookies, url }) => forkFlow(cookies, url)
});
