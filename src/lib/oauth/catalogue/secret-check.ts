/**
 * What the client secret check found (its step: steps/secret-step.ts): whether the service accepted
 * the client's credentials, and how surely, from a pushed authorization request (RFC 9126 §2.1: the
 * client is authenticated as at the token endpoint) or from a code exchange with a made-up code. A
 * server that refuses the credentials says `invalid_client` (RFC 6749 §5.2), or answers 401; one
 * that accepted them refuses only the code (`invalid_grant`), but RFC 6749 §4.1.3 does not fix the
 * order of the checks, so that is "likely" except where the order is known (the sandbox's).
 * `judge-secret.ts` decides which applies.
 */
import { STEPS } from '$lib/steps/registry';
import { entry } from './raise';

const RFC6749 = (s: string) => `RFC 6749 §${s}`;

/** How the check sent the credentials, in the words of the setup's "Client authentication". */
const sentAs = (basic: boolean) =>
	basic ? 'in an HTTP Basic header (client_secret_basic)' : 'in the form body (client_secret_post)';

/** The service's own words, quoted after the message's, or nothing. */
const said = (words: string | undefined) => (words ? ` The service said: "${words}".` : '');

/** What to check when the credentials are refused, with the other way to send them. */
const refusedFix = (basic: boolean) =>
	`Check the client id and the secret as the service registered them (a secret pasted with a space or a line break at its end is a different secret), and the client authentication: this check sent them ${sentAs(basic)}; the setup's "Client authentication" has the other way.`;

/** The service said `invalid_client`, in JSON or on its error page: the credentials are refused. */
export const SECRET_REFUSED = entry({
	code: 'secret-refused',
	level: 'error',
	message: (error: string, inPage: boolean, words: string | undefined, _basic: boolean) =>
		`The service refused the client credentials: it answered ${error}${inPage ? ' on its error page' : ''}, so the secret, the client id or the authentication method (body or Basic) is wrong.${said(words)}`,
	fix: (...args) => refusedFix(args[3]),
	ref: RFC6749('5.2')
});

/** Another 401: how servers refuse client credentials, with their own error or none. */
export const SECRET_LIKELY_REFUSED = entry({
	code: 'secret-likely-refused',
	level: 'error',
	message: (error: string | undefined, words: string | undefined, _basic: boolean) =>
		`The service most likely refused the client credentials: it answered 401${error ? ` ${error}` : ''}, and a 401 from a token endpoint is how servers refuse client credentials.${said(words)}`,
	fix: (...args) => refusedFix(args[2]),
	ref: RFC6749('5.2')
});

/**
 * Accepted for certain: the pushed request was taken (201), or the sandbox, which checks the client
 * before the code, refused only the made-up code.
 */
export const SECRET_ACCEPTED = entry({
	code: 'secret-accepted',
	level: 'info',
	message: (how: 'pushed' | 'sandbox') =>
		how === 'pushed'
			? 'The service accepted the client credentials: it took the pushed authorization request (201 Created), which it does only for a client it has authenticated. Its request_uri is never used, so nothing is authorized.'
			: 'The service accepted the client credentials: it refused only the made-up code (invalid_grant), and the sandbox checks the client before the code.',
	ref: 'RFC 9126 §2.1; RFC 6749 §4.1.3'
});

/**
 * The client most likely passed: the service refused only the made-up code, or the pushed request
 * for its own parameters. But the order of the checks is the server's.
 */
export const SECRET_LIKELY_ACCEPTED = entry({
	code: 'secret-likely-accepted',
	level: 'info',
	message: (refused: 'code' | 'pushed', error: string, words: string | undefined) =>
		refused === 'code'
			? `The service most likely accepted the client credentials: it refused only the made-up code (${error}). Servers usually check the client first, but the standard does not fix the order: a real code exchange is the proof.${said(words)}`
			: `The service most likely accepted the client credentials: it refused the pushed request for its parameters (${error}), which it judges after it has authenticated the client. A server may order its checks its own way: a real code exchange is the proof.${said(words)}`,
	fix: (...args) =>
		args[0] === 'pushed'
			? 'The pushed parameters are the setup’s (the redirect URI, the scope, PKCE): the consent would be refused the same way, so fix what the error names first.'
			: undefined,
	ref: 'RFC 6749 §4.1.3; RFC 9126 §2.1'
});

/** A 400 `unauthorized_client` about the grant: the credentials passed, the grant is not allowed. */
export const SECRET_GRANT_REFUSED = entry({
	code: 'secret-grant-refused',
	level: 'warning',
	message: (via: 'par' | 'token', words: string | undefined) =>
		`The service most likely accepted the client credentials, but this client may not use ${via === 'par' ? 'pushed authorization requests or this response type' : 'the authorization-code grant'} (unauthorized_client).${said(words)}`,
	fix: `Allow it in the client’s registration at the service (for the flow: the authorization-code grant, and the refresh token grant for step ${STEPS.refresh.n}).`,
	ref: RFC6749('5.2')
});

/** Any other answer: it does not say whether the secret is right. */
export const SECRET_NOT_TOLD = entry({
	code: 'secret-not-told',
	level: 'warning',
	message: (status: number, error: string | undefined, words: string | undefined) =>
		`Not told: the service answered ${status}${error ? ` ${error}` : ''}, which does not say whether the secret is right.${said(words)}`,
	fix: 'A real code exchange (steps 1 to 3) is the proof.',
	ref: RFC6749('5.2')
});
