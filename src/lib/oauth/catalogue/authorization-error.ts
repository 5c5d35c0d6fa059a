/**
 * The errors the service sends back on the redirect to the callback instead of a code (RFC 6749
 * §4.1.2.1, and RFC 9126 §4's invalid_request_uri for a pushed request): one entry for each error
 * the playground has words for, whose fix says what the error means and what to do next, and one
 * for any other error. `diagnoseCallback` in `diagnose.ts` raises them by the error sent back
 * (`explaining`); `explainAuthorizationError` (consent.ts) gives the fix alone, which the callback
 * step shows, in the sandbox's own words where it has them and the consent page was the sandbox's.
 */
import { STEPS } from '$lib/steps/registry';
import { entry, scopesOf } from './raise';

const ERROR_RESPONSE = 'RFC 6749 §4.1.2.1';

/** The service's error and its description, as the message quotes them. */
const sentBack = (error: string | undefined, description: string | undefined) =>
	`The service sent back error "${error}"${description ? `: "${description}"` : ''}.`;

/**
 * The entry of one error sent back: the message quotes it and the service's description; the fix
 * is what it means, in the sandbox's words (`sandbox`) when those are given and the consent page
 * was the built-in sandbox's.
 */
const explained = /* @__NO_SIDE_EFFECTS__ */ <const C extends string>(
	error: C,
	words: {
		level?: 'error' | 'warning';
		meaning: string;
		sandbox?: string;
		ref?: string;
	}
) =>
	entry<C, [description: string | undefined, onSandbox?: boolean]>({
		code: error,
		oauthError: true,
		level: words.level ?? 'error',
		message: (description) => sentBack(error, description),
		fix: (_description, onSandbox = false) => (onSandbox && words.sandbox) || words.meaning,
		ref: words.ref ?? ERROR_RESPONSE
	});

/**
 * access_denied: the user, or the provider, declined consent. A warning, since nothing is wrong
 * with the client.
 */
export const ACCESS_DENIED = explained('access_denied', {
	level: 'warning',
	meaning:
		'The user, or the provider, declined consent: nothing was granted, and nothing is wrong with the setup. To try again, start the consent step again (Try again, then Open the consent page) and grant access this time.',
	sandbox:
		'The user declined consent on the sandbox’s consent page (Deny): nothing was granted, and nothing is wrong with the setup. To try again, start the consent step again (Try again, then Open the consent page) and choose Authorize.'
});

/** invalid_scope: the service refused the requested scope. */
export const INVALID_SCOPE = explained('invalid_scope', {
	meaning:
		'The service refused the requested scope. A registration set to "Read only" cannot ask for write: ask for "read" only, or leave the scope empty to get the registration’s default. A word the service does not know ("read" and "write" are its scopes) is refused too.'
});

/**
 * invalid_scope from a server other than the feed-reader service: the fix names the scopes its
 * metadata lists, when the flow has its metadata, never the service's "Read only" and its two.
 */
export const INVALID_SCOPE_ELSEWHERE = entry({
	code: 'invalid_scope',
	level: 'error',
	message: (description: string | undefined, _scopes?: readonly string[]) =>
		sentBack('invalid_scope', description),
	fix: (_description: string | undefined, scopes?: readonly string[]) =>
		`The server refused the requested scope: ask only for scopes this client is registered for (${scopesOf(scopes)}), or leave the scope empty for the registration’s default.`,
	ref: ERROR_RESPONSE
});

/** invalid_request: the consent request was malformed. */
export const INVALID_REQUEST = explained('invalid_request', {
	meaning:
		'The consent request was malformed: a parameter is missing, repeated or invalid (for example a state over 500 bytes). The error description says which.'
});

/** unauthorized_client: the client may not use the authorization-code flow. */
export const UNAUTHORIZED_CLIENT = explained('unauthorized_client', {
	meaning: 'This client is not allowed to use the authorization-code flow. Check the registration.'
});

/** unsupported_response_type: the service does not support this response_type. */
export const UNSUPPORTED_RESPONSE_TYPE = explained('unsupported_response_type', {
	meaning: 'The service does not support this response_type. The flow needs response_type=code.'
});

/** server_error: the service failed while it handled the consent. */
export const SERVER_ERROR = explained('server_error', {
	meaning: 'The service hit an unexpected error while handling the consent. Try again later.'
});

/** temporarily_unavailable: the service is overloaded or down for maintenance. */
export const TEMPORARILY_UNAVAILABLE = explained('temporarily_unavailable', {
	meaning: 'The service is overloaded or down for maintenance. Try again later.'
});

/**
 * invalid_request_uri: the request_uri of a pushed request is expired or was used already, which
 * RFC 9126 §4 has the server refuse (the error itself is RFC 9101 §6.2's).
 */
export const INVALID_REQUEST_URI = explained('invalid_request_uri', {
	meaning: `The request_uri of the pushed request (RFC 9126) is expired or was already used: it lives a short time (the countdown in step ${STEPS.consent.n} shows it) and can be used once. Push the request again, then open the new link right away.`,
	ref: 'RFC 9126 §4'
});

/**
 * Another error on the redirect back: the finding carries the service's error code, or error when
 * it gave none.
 */
export const OTHER_ERROR = entry({
	code: (error: string | undefined, _description: string | undefined) => error ?? 'error',
	level: 'error',
	message: sentBack,
	fix: 'The service returned an error code that RFC 6749 §4.1.2.1 does not define. Its description may say more.',
	ref: ERROR_RESPONSE
});
