/**
 * "Check the client secret": whether the service accepts the client's credentials, without a user
 * and without anything lasting. Where the setup has a pushed authorization request endpoint, the
 * setup's consent request is pushed (RFC 9126 §2.1 authenticates the client as the token endpoint
 * does) with a made-up state, and its request_uri is never used. Otherwise the code exchange's own
 * request is sent (the same client authentication, body or Basic, by client-auth.ts, the one place
 * that attaches the secret, to the token endpoint the secret was entered for) with a made-up code,
 * which no server issued: it spends and revokes nothing. The verdict is judged from the answer
 * (oauth/judge-secret.ts); the flow's state does not change.
 */
import { randomInt } from 'node:crypto';
import { consentParams } from '$lib/oauth/consent';
import { endpoints } from '$lib/oauth/setup';
import { exchangeBody, FORM_CONTENT_TYPE } from '$lib/oauth/token-endpoint';
import { pushedBody } from '$lib/oauth/par';
import { judgeSecretCheck } from '$lib/oauth/judge-secret';
import { MADE_UP_PREFIX } from '$lib/steps/secret-step';
import { clientAuth } from '../flow/client-auth';
import { codeChallenge, newVerifier } from '../flow/pkce';
import type { StepContext } from '../flow/context';
import type { Session } from '../session/session';
import { NO_SECRET_TO_CHECK, NO_SETUP, refuse } from '../flow/refusals';
import type { StepResult } from './flow-steps';
import { sendStep } from './send-step';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A value no server issued: the check's prefix and 32 random letters and digits. */
export function madeUp(): string {
	let tail = '';
	for (let i = 0; i < 32; i++) tail += ALPHABET[randomInt(ALPHABET.length)];
	return MADE_UP_PREFIX + tail;
}

/** What each way of checking does not check, and what it may leave at the service. */
const LIMITS = {
	token:
		'Not checked here: the redirect URI against the registration, and the scope (only a real code carries them). The service may log this check as a failed code exchange and count it in a rate limit.',
	par: 'The service judges the pushed redirect URI and scope too, after the client: a refusal of them names them. The service may log the pushed request and count it in a rate limit.'
};

export async function checkSecret(c: StepContext, session: Session): Promise<StepResult> {
	const setup = session.setup;
	if (!setup) return refuse(NO_SETUP);
	if (setup.token_endpoint_auth_method === 'none') return refuse(NO_SECRET_TO_CHECK);
	const via = endpoints(setup).par ? 'par' : 'token';
	const auth = clientAuth(
		session,
		via === 'par' ? 'pushed_authorization_request_endpoint' : 'token_endpoint'
	);
	if (!auth.ok) return auth;
	// With PKCE on, a made-up verifier. A pushed request always carries a made-up S256 challenge: a
	// server that requires PKCE would otherwise refuse it before it says anything of the client, and
	// its request_uri is never used.
	const pkce = setup.pkce === 'off' ? undefined : setup.pkce;
	const verifier = (pkce || via === 'par') && newVerifier();
	const method = pkce ?? 'S256';
	const body =
		via === 'par'
			? pushedBody(
					consentParams({
						client_id: setup.client_id,
						redirect_uri: setup.redirect_uri,
						scope: setup.scope,
						state: madeUp(),
						...(verifier
							? { code_challenge: codeChallenge(verifier, method), code_challenge_method: method }
							: {})
					}),
					auth.body
				)
			: exchangeBody({
					code: madeUp(),
					redirect_uri: setup.redirect_uri,
					...auth.body,
					code_verifier: pkce && verifier ? verifier : undefined
				});
	// The sandbox checks the client before the code: known only when the check went to its token
	// endpoint on this playground.
	const sandbox =
		via === 'token' &&
		c.app.presets.isSandboxTarget(setup, c.origin) &&
		URL.canParse(auth.url) &&
		new URL(auth.url).href === new URL('/sandbox/oauth2/token', c.origin).href;
	const { exchanges } = await sendStep(
		c,
		session,
		{
			step: 'secret',
			method: 'POST',
			url: auth.url,
			headers: [['Content-Type', FORM_CONTENT_TYPE], ...auth.headers],
			body,
			note:
				via === 'par'
					? `Client secret check, from the playground server: a pushed authorization request (RFC 9126 §2.1) with a made-up state and PKCE challenge, whose request_uri is never used. ${LIMITS.par}`
					: `Client secret check, from the playground server: a code exchange with a made-up code, which no server issued, so nothing is issued or revoked. ${LIMITS.token}`
		},
		{
			judge: (answer) => ({
				findings: judgeSecretCheck(answer, {
					sandbox,
					playground: { origin: c.origin, sandbox: c.app.presets.sandboxEnabled }
				})
			})
		}
	);
	// Which credentials it judged: a check of others is no verdict on these (flow/setup-id.ts).
	const credentials = session.credentials_id;
	return {
		ok: true,
		session,
		exchanges: credentials ? exchanges.map((ex) => ({ ...ex, credentials })) : exchanges
	};
}
