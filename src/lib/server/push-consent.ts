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
import { withStrictVerdict } from '$lib/oauth/strict-client';
import { clientAuth } from './client-auth';
import { present, type StepResult } from './flow';
import { codeChallenge } from './pkce';
import type { StepContext } from './flow-context';
import type { Session } from './session';
import { NO_CONSENT_TO_PUSH, NO_SETUP, PAR_NOT_ON, refuse } from './refusals';

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
	const { send, clock: now } = c.app.sender;
	const setup = session.setup;
	if (!setup) return refuse(NO_SETUP);
	if (!setup.use_par) return refuse(PAR_NOT_ON);
	const params = pendingParams(session);
	if (!params) return refuse(NO_CONSENT_TO_PUSH);
	const auth = clientAuth(session, 'pushed_authorization_request_endpoint');
	if (!auth.ok) return auth;
	const raw = await send({
		step: 'par',
		method: 'POST',
		url: auth.url,
		headers: [['Content-Type', FORM_CONTENT_TYPE], ...auth.headers],
		body: pushedBody(params, auth.body),
		note: 'The pushed authorization request (RFC 9126 §2.1), from the playground server: the consent parameters and the client’s authentication.',
		signal: c.signal,
		allowInvalidTls: setup.allow_invalid_tls,
		client: c.client
	});
	const shown = present(c, raw, session);
	const verdict = judgePush(raw);
	const exchange = await withStrictVerdict(
		verdict.finding ? { ...shown, findings: [...shown.findings, verdict.finding] } : shown,
		setup
	);
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
				request_uri_expires_at: now() + verdict.expires_in * 1000
			}
		},
		exchanges: [exchange]
	};
}
