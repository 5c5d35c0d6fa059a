/**
 * The redirect target (`/callback`). A browser runs several flows, so the redirect is matched to its
 * flow by the state it returns (oauth/callback.ts `routeCallback`), with three outcomes:
 * 1. a flow's pending state: that flow goes on (`receiveCallback`, sealed-flow.ts), and the answer is 303 to its page;
 * 2. a state a flow used or replaced lately: nothing is exchanged, the flow's code and tokens stay,
 *    and its page says to start again from the consent step (303 to its page);
 * 3. no flow's state, or none: a neutral page (400) says it was unsolicited, possibly forged; no
 *    flow changes and nothing of the request is kept.
 * The code goes only to the flow whose consent request carried the state, so a redirect cannot make
 * one flow exchange a code with another flow's setup.
 */
import { flowPage } from '$lib/oauth/flow-id';
import { routeCallback, type FlowStates } from '$lib/oauth/callback';
import { raise } from '$lib/oauth/catalogue/raise';
import { UNSOLICITED_CALLBACK } from '$lib/oauth/catalogue/state-check';
import { MAX_CALLBACK_QUERY } from './redirect-back';
import { readAllFlows, someFlowDropped, type Session } from '../session/session';
import { SealedFlow } from '../flow/sealed-flow';
import type { FlowContext } from '../flow/context';
import { escapeHtml, plainPage } from '../plain-page';

/** The redirect back to `url`, in the request `context` (flow/action.ts `flowContext`). */
export async function answerCallback(
	context: FlowContext,
	url: URL,
	headers: Headers
): Promise<{ redirect: string } | { response: Response }> {
	const { cookies, source } = context;
	const flows = url.search.length > MAX_CALLBACK_QUERY ? [] : await readAllFlows(cookies, source);
	const route = routeCallback(url.searchParams, callbackTargets(flows));
	if (route.kind === 'none')
		return {
			response: unsolicitedPage(
				someFlowDropped(cookies, source),
				!!flows.length,
				pushedRequestLost(url.searchParams)
			)
		};
	const found = flows.find((f) => f.id === route.id)!;
	const flow = new SealedFlow({ ...context, source: { ...source, flow: route.id } }, found.session);
	flow.receiveCallback(url, headers, context.app.clock(), flowPage(route.id));
	await flow.seal();
	return { redirect: flowPage(route.id) };
}

/**
 * The flows a redirect may go to, by the states they wait for or used lately. A fork is the record
 * of a try (flow/action.ts, FORK_IS_RECORD): it waits for no redirect, so its consent request's
 * state finds no flow (outcome 3) and the record stays as it was.
 */
export function callbackTargets(flows: readonly { id: string; session: Session }[]): FlowStates[] {
	return flows.map(({ id, session }) =>
		session.fork_of
			? { id }
			: { id, pending: session.pending?.state, recent: session.recent_states }
	);
}

/** Outcome 3: a page in the house style (plain, like the host-name page), with nothing of the request in it. */
function unsolicitedPage(someDropped: boolean, anyFlow: boolean, parLost = false): Response {
	const par = parLost ? ` ${PAR_LOST}` : '';
	const dropped = someDropped
		? ' This browser dropped a flow lately to make room for newer ones: if this redirect was for that flow, start it again.'
		: '';
	const flows = anyFlow
		? 'Your flows are as they were.'
		: 'This browser has no flow in the playground.';
	return plainPage(
		400,
		'Unsolicited redirect',
		`<p data-testid="unsolicited">${escapeHtml(raise(UNSOLICITED_CALLBACK).message)}${escapeHtml(dropped)}</p>` +
			(par ? `<p data-testid="par-lost">${escapeHtml(par.trim())}</p>` : '') +
			`<p>${escapeHtml(flows)} <a href="/">Open the playground</a></p>`
	);
}

/**
 * A redirect with `error=invalid_request_uri` and no state: what a server sends when a pushed
 * request's `request_uri` (RFC 9126) expired or was used, since the state was inside the pushed
 * request and the server could not read it back. Said on the neutral page; nothing else changes.
 */
function pushedRequestLost(params: URLSearchParams): boolean {
	return params.get('error') === 'invalid_request_uri' && !params.has('state');
}

const PAR_LOST =
	'It carries error=invalid_request_uri and no state: this is what a server answers when the request_uri of a pushed authorization request (RFC 9126 §4) has expired or was already used. The state was inside the pushed request, so the server could not send it back. Push the request again in step 1 of your flow, then open the new link right away.';
