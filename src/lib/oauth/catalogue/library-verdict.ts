/**
 * What a strict client library (oauth4webapi) makes of an answer, a redirect back or a PKCE pair,
 * when it rejects them (strict-client.ts runs its checks): one entry per function of the library
 * that judges, each citing that function's documentation, which says what it enforces. An info
 * finding beside ours, never instead of them.
 */
import * as F from '../findings';
import { entry } from './raise';

const DOCS = 'https://github.com/panva/oauth4webapi/blob/main/docs/functions';

/** The library's objection to `what` (an answer, a redirect), in its own words, from `fn`. */
const rejectedBy = (fn: string, what: 'answer' | 'redirect') =>
	entry({
		code: F.STRICT_CLIENT_REJECTS,
		level: 'info',
		message: (objection: string) =>
			`A strict client library (oauth4webapi) would reject this ${what}: ${objection}.`,
		fix: 'An application built on such a library stops here, where the playground goes on. Read the findings above for what the service sent.',
		ref: `${DOCS}/${fn}.md`
	});

export const CODE_ANSWER_REJECTED = rejectedBy('processAuthorizationCodeResponse', 'answer');
export const REFRESH_ANSWER_REJECTED = rejectedBy('processRefreshTokenResponse', 'answer');
export const PUSHED_ANSWER_REJECTED = rejectedBy('processPushedAuthorizationResponse', 'answer');
export const REVOCATION_ANSWER_REJECTED = rejectedBy('processRevocationResponse', 'answer');
export const INTROSPECTION_ANSWER_REJECTED = rejectedBy('processIntrospectionResponse', 'answer');
export const REDIRECT_REJECTED = rejectedBy('validateAuthResponse', 'redirect');

export const PKCE_CHALLENGE_DIFFERS = entry({
	code: F.STRICT_CLIENT_REJECTS,
	level: 'info',
	message:
		'A strict client library (oauth4webapi) computes another code_challenge for the code_verifier this exchange sends than the one the consent request carried, so the service will refuse the code (RFC 7636 §4.6).',
	ref: `${DOCS}/calculatePKCECodeChallenge.md`
});
