/**
 * "Push the request" (RFC 9126): the pending consent request's parameters (`consentParams`, PKCE's
 * challenge included) are POSTed to the pushed authorization request endpoint with the client's
 * authentication (client-auth.ts, the one place that attaches the secret). On a 201 with a
 * `request_uri`, the consent link becomes the authorization endpoint with only `client_id` and
 * `request_uri`, and its expiry is kept for the page's countdown. The state and the verifier stay
 * as they were: the callback checks the same state.
 */
import { consentParams } from '$lib/oauth/consent';
import { endpoints } from '$lib/oauth/setup';
import { FORM_CONTENT_TYPE } from '$lib/oauth/token-endpoint';
import { judgePush, pushedBody, pushedConsentUrl } from '$lib/oauth/par';
import { clientAuth } from '../flow/client-auth';
import type { StepResult } from './flow-steps';
import { sendStep } from './send-step';
import { codeChallenge } from '../flow/pkce';
import type { StepContext } from '../flow/context';
import type { Session } from '../session/session';
import { NO_CONSENT_TO_PUSH, NO_SETUP, PAR_NOT_ON, refuse } from '../flow/refusals';

/** The authorization request of the pending consent, as its URL carried it. */
export function pendingParams(session: Session): [string, string][] | undefined {
	const { setup, pending } = session;
	if (!setup || !pending) return undefined;
	const method = pending.code_challenge_method;
	return consentParams({
		client_id: setup.client_id,
		redirect_uri: pending.redirect_uri,
		scope: pending.scope,
		state: pending.state,
		...(method && pending.code_verifier
			? {
					code_challenge: codeChallenge(pending.code_verifier, method),
					code_challenge_method: method
				}
			: {})
	});
}

export async function pushConsent(c: StepContext, session: Session): Promise<StepResult> {
	const setup = session.setup;
	if (!setup) return refuse(NO_SETUP);
	if (!setup.use_par) return refuse(PAR_NOT_ON);
	const params = pendingParams(session);
	if (!params) return refuse(NO_CONSENT_TO_PUSH);
	const auth = clientAuth(session, 'pushed_authorization_request_endpoint');
	if (!auth.ok) return auth;
	const { shown: exchange, judged } = await sendStep(
		c,
		session,
		{
			step: 'par',
			method: 'POST',
			url: auth.url,
			headers: [['Content-Type', FORM_CONTENT_TYPE], ...auth.headers],
			body: pushedBody(params, auth.body),
			note: 'The pushed authorization request (RFC 9126 §2.1), from the playground server: the consent parameters and the client’s authentication.'
		},
		{
			judge: (answer) => {
				const verdict = judgePush(answer);
				return { verdict, findings: verdict.finding ? [verdict.finding] : [] };
			}
		}
	);
	const verdict = judged!.verdict;
	if (!verdict.ok || !session.pending) return { ok: true, session, exchanges: [exchange] };
	return {
		ok: true,
		session: {
			...session,
			pending: {
				...session.pending,
				consent_url: pushedConsentUrl(
					endpoints(setup).authorization,
					setup.client_id,
					verdict.request_uri
				),
				request_uri: verdict.request_uri,
				request_uri_expires_at: c.app.sender.clock() + verdict.expires_in * 1000
			}
		},
		exchanges: [exchange]
	};
}
