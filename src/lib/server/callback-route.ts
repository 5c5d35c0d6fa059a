/**
 * The redirect target (`/callback`). A browser runs several flows, so the redirect is matched to its
 * flow by the state it returns (oauth/callback.ts `routeCallback`), with three outcomes:
 * 1. a flow's pending state: that flow goes on (`handleCallback`), and the answer is 303 to its page;
 * 2. a state a flow used or replaced lately: nothing is exchanged, the flow's code and tokens stay,
 *    and its page says to start again from the consent step (303 to its page);
 * 3. no flow's state, or none: a neutral page (400) says it was unsolicited, possibly forged; no
 *    flow changes and nothing of the request is kept.
 * The code goes only to the flow whose consent request carried the state, so a redirect cannot make
 * one flow exchange a code with another flow's setup.
 */
import { flowPage } from '$lib/oauth/flow-id';
import { routeCallback, UNSOLICITED_CALLBACK } from '$lib/oauth/callback';
import { handleCallback, MAX_CALLBACK_QUERY } from './flow';
import { readAllFlows, someFlowDropped, writeSession } from './session';
import type { Cookies } from '@sveltejs/kit';
import { escapeHtml, plainPage } from './plain-page';

export async function answerCallback(
	url: URL,
	cookies: Cookies,
	headers: Headers
): Promise<{ redirect: string } | { response: Response }> {
	const flows = url.search.length > MAX_CALLBACK_QUERY ? [] : await readAllFlows(cookies);
	const route = routeCallback(
		url.searchParams,
		flows.map(({ id, session }) => ({
			id,
			pending: session.pending?.state,
			recent: session.recent_states
		}))
	);
	if (route.kind === 'none')
		return { response: unsolicitedPage(someFlowDropped(cookies), !!flows.length) };
	const flow = flows.find((f) => f.id === route.id)!;
	const { session } = handleCallback(flow.session, url, headers, Date.now(), flowPage(route.id));
	const https = url.protocol === 'https:';
	await writeSession(cookies, session, https, {
		header: headers.get('cookie') ?? '',
		https,
		flow: route.id
	});
	return { redirect: flowPage(route.id) };
}

/** Outcome 3: a page in the house style (plain, like the host-name page), with nothing of the request in it. */
function unsolicitedPage(someDropped: boolean, anyFlow: boolean): Response {
	const dropped = someDropped
		? ' This browser dropped a flow lately to make room for newer ones: if this redirect was for that flow, start it again.'
		: '';
	const flows = anyFlow
		? 'Your flows are as they were.'
		: 'This browser has no flow in the playground.';
	return plainPage(
		400,
		'Unsolicited redirect',
		`<p data-testid="unsolicited">${escapeHtml(UNSOLICITED_CALLBACK)}${escapeHtml(dropped)}</p>` +
			`<p>${escapeHtml(flows)} <a href="/">Open the playground</a></p>`
	);
}
