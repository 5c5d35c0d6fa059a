/**
 * What a strict client library (oauth4webapi) makes of an answer, a redirect back or a PKCE pair,
 * when it rejects them (strict-client.ts runs its checks): one entry per function of the library
 * that judges, each citing that function's documentation, which says what it enforces. An info
 * finding beside ours, never instead of them.
 */
import { entry } from './raise';

const DOCS = 'https://github.com/panva/oauth4webapi/blob/main/docs/functions';

/** The library's objection to `what` (an answer, a redirect), in its own words, from `fn`. */
const rejectedBy = (fn: string, what: 'answer' | 'redirect') =>
	entry({
		code: 'strict-client-rejects',
		level: 'info',
		message: (objection: string) =>
			`A strict client library (oauth4webapi) would reject this ${what}: ${objection}.`,
		fix: 'An application built on such a library stops here, where the playground goes on. Read the findings above for what the service sent.',
		ref: `${DOCS}/${fn}.md`
	});

/**
 * oauth4webapi's processAuthorizationCodeResponse rejects the code exchange's answer, in its own
 * words.
 */
export const CODE_ANSWER_REJECTED = rejectedBy('processAuthorizationCodeResponse', 'answer');

/** oauth4webapi's processRefreshTokenResponse rejects the refresh's answer, in its own words. */
export const REFRESH_ANSWER_REJECTED = rejectedBy('processRefreshTokenResponse', 'answer');

/**
 * oauth4webapi's processPushedAuthorizationResponse rejects the pushed request's answer, in its own
 * words.
 */
export const PUSHED_ANSWER_REJECTED = rejectedBy('processPushedAuthorizationResponse', 'answer');

/** oauth4webapi's processRevocationResponse rejects the revocation's answer, in its own words. */
export const REVOCATION_ANSWER_REJECTED = rejectedBy('processRevocationResponse', 'answer');

/**
 * oauth4webapi's processIntrospectionResponse rejects the introspection's answer, in its own words.
 */
export const INTROSPECTION_ANSWER_REJECTED = rejectedBy('processIntrospectionResponse', 'answer');

/** oauth4webapi's validateAuthResponse rejects the redirect back, in its own words. */
export const REDIRECT_REJECTED = rejectedBy('validateAuthResponse', 'redirect');

/**
 * oauth4webapi's calculatePKCECodeChallenge makes another code_challenge of the code_verifier the
 * exchange sends than the one the consent request carried.
 */
export const PKCE_CHALLENGE_DIFFERS = entry({
	code: 'strict-client-rejects',
	level: 'info',
	message:
		'A strict client library (oauth4webapi) computes another code_challenge for the code_verifier this exchange sends than the one the consent request carried, so the service will refuse the code (RFC 7636 §4.6).',
	ref: `${DOCS}/calculatePKCECodeChallenge.md`
});
