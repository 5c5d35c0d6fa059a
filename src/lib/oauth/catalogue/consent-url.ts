/**
 * What the consent URL says about the client's registration, fetched by "Check the consent URL"
 * without following redirects (RFC 6749 §4.1.1, §4.1.2.1): its redirect URI refused (for certain,
 * or likely, from any server's words: redirect-refusal.ts), its client unknown, another refusal, a
 * server failure, the request refused at once by a redirect back with an error, a sign-in asked for
 * first (nothing judged yet), or the registration accepted; and a state too long to send.
 * `diagnose.ts` decides which applies.
 */
import { MAX_STATE_BYTES } from '../setup-fields';
import { apiDocs } from '../docs';
import { entry, scopesOf } from './raise';

const RFC6749 = (s: string) => `RFC 6749 §${s}`;

/** The client, as the messages name it. */
const clientOf = (clientId: string | undefined) =>
	clientId ? `client_id "${clientId}"` : 'this client_id';

/** The service's own words, quoted after the message's, or nothing. */
const said = (words: string | undefined) => (words ? ` The service said: "${words}".` : '');

/** Where a refusal was read: an error page (or JSON) in place of consent, or a redirect elsewhere. */
const how = (to: string | undefined) =>
	to
		? `instead of the consent page it sends the browser to ${to}`
		: 'it shows an error page instead of the consent page';

/**
 * The consent URL's answer refuses the redirect_uri with an error code that says so
 * (redirect_uri_mismatch or another server's own): it is not a registered one.
 */
export const REDIRECT_URI_REFUSED = entry({
	code: 'redirect_uri_mismatch',
	level: 'error',
	message: (
		sent: string | undefined,
		clientId: string | undefined,
		code: string,
		to: string | undefined,
		words: string | undefined,
		_fix: string,
		_retry: string | undefined
	) =>
		`The service does not accept the redirect_uri "${sent ?? '?'}" for ${clientOf(clientId)}: ${how(to)}, with the error ${code}.${said(words)}`,
	fix: (...args) => args[5],
	ref: `RFC 6749 §3.1.2.4; ${apiDocs('§4.1')}`,
	suggest: (...args) => (args[6] ? { field: 'redirect_uri', value: args[6] } : undefined)
});

/**
 * The consent URL's error answer names the redirect URI and refuses it in words, with no error code
 * that says so (redirect-refusal.ts): likely, not certain.
 */
export const REDIRECT_URI_LIKELY_REFUSED = entry({
	code: 'redirect-uri-likely-refused',
	level: 'error',
	message: (
		sent: string | undefined,
		clientId: string | undefined,
		status: number,
		to: string | undefined,
		words: string,
		_fix: string,
		_retry: string | undefined
	) =>
		`The service's error answer (HTTP ${status}) gives no error code, but its words point to the redirect_uri "${sent ?? '?'}" for ${clientOf(clientId)}: "${words}".${to ? ` It sends the browser to ${to}.` : ''}`,
	fix: (...args) => `If the redirect URI is the cause: ${args[5]}`,
	ref: `RFC 6749 §3.1.2.4; ${apiDocs('§4.1')}`,
	suggest: (...args) => (args[6] ? { field: 'redirect_uri', value: args[6] } : undefined)
});

/**
 * The consent URL's error answer says the service does not know the client_id (invalid_client,
 * unauthorized_client, or words about the client).
 */
export const UNKNOWN_CLIENT = entry({
	code: 'unknown-client',
	level: 'error',
	message: (clientId: string | undefined, words: string | undefined) =>
		`The service does not know ${clientOf(clientId)}.${said(words)}`,
	fix: 'Copy the client id from the application’s registration; check for spaces and the right environment.',
	ref: RFC6749('4.1.2.1')
});

/**
 * The consent URL was refused with another error: the finding carries the service's error code, or
 * consent-error when it gave none.
 */
export const CONSENT_REFUSED = entry({
	code: (_status: number, error: string | undefined, _words: string | undefined) =>
		error ?? 'consent-error',
	level: 'error',
	message: (status: number, error: string | undefined, words: string | undefined) =>
		`The consent URL was refused with HTTP ${status}${error ? ` (${error})` : ''}.${said(words)}`,
	ref: RFC6749('4.1.2.1')
});

/**
 * The consent URL answered with a redirect to the service's own error page, its `error=` in the
 * query (Auth0's /error?error=…): refused, with that error code.
 */
export const REFUSED_TO_ERROR_PAGE = entry({
	code: (error: string, _to: string, _words: string | undefined) => error,
	level: 'error',
	message: (error: string, to: string, words: string | undefined) =>
		`The service refused the consent URL: it sends the browser to ${to}, its own error page, with error "${error}".${said(words)}`,
	ref: RFC6749('4.1.2.1')
});

/** The service failed with a 5xx on the consent URL. */
export const CONSENT_SERVER_ERROR = entry({
	code: 'server-error',
	level: 'error',
	message: (status: number) => `The service failed with HTTP ${status} on the consent URL.`,
	// The service's own failure, not a rule of the protocol broken.
	ref: undefined
});

/** The browser sent straight back with an error, as the messages say it. */
const straightBack = (error: string, description: string | null) =>
	`The service sends the browser straight back with error "${error}"${description ? `: "${description}"` : ''}. The client and redirect_uri are registered, but the request is refused.`;

/**
 * The consent URL refused at once with an error the playground has a fix for: the entry of that
 * error, its fix what to change in the request, since no user was asked.
 */
const refusedAtOnce = /* @__NO_SIDE_EFFECTS__ */ <const C extends string>(
	error: C,
	fix: string,
	ref = RFC6749('4.1.2.1')
) =>
	entry<C, [description: string | null]>({
		code: error,
		oauthError: true,
		level: 'error',
		message: (description) => straightBack(error, description),
		fix,
		ref
	});

/** access_denied at once: the service refused without asking the user. */
export const ACCESS_DENIED_AT_ONCE = refusedAtOnce(
	'access_denied',
	'The service refused without asking the user. Check that the application is allowed to use this flow.'
);

/** The service's scopes (the service's API docs §4.1). */
const SERVICE_SCOPES: readonly string[] = ['read', 'write'];

/**
 * invalid_scope at once: the requested scope is refused before any user is asked. Words the
 * service does not know are named; without any, the one other cause the service has: write asked
 * by a registration set to "Read only".
 */
export const INVALID_SCOPE_AT_ONCE = entry({
	code: 'invalid_scope',
	oauthError: true,
	level: 'error',
	message: (description: string | null, _requested?: string) =>
		straightBack('invalid_scope', description),
	fix: (_description: string | null, requested?: string) => {
		const unknown = [
			...new Set((requested ?? '').split(/\s+/).filter((w) => w && !SERVICE_SCOPES.includes(w)))
		];
		return unknown.length
			? `${unknown.map((w) => `"${w}"`).join(', ')} ${unknown.length === 1 ? 'is not a scope' : 'are not scopes'} of the service, whose scopes are "read" and "write": ask for "read", or "read write" with a registration that may write, or leave the scope empty to get the registration’s default.`
			: 'A registration set to "Read only" cannot ask for write: ask for "read" only, or leave the scope empty to get the registration’s default. "read" and "write" are the service’s scopes.';
	},
	ref: RFC6749('4.1.2.1')
});

/**
 * invalid_scope at once from a server other than the feed-reader service: the fix names the scopes
 * its metadata lists, when the flow has its metadata, never the service's "Read only" and its two.
 */
export const INVALID_SCOPE_AT_ONCE_ELSEWHERE = entry({
	code: 'invalid_scope',
	level: 'error',
	message: (description: string | null, _scopes?: readonly string[]) =>
		straightBack('invalid_scope', description),
	fix: (_description: string | null, scopes?: readonly string[]) =>
		`Ask only for scopes this client is registered for: ${scopesOf(scopes)}. Or leave the scope empty for the registration’s default.`,
	ref: RFC6749('4.1.2.1')
});

/** invalid_request at once: a parameter of the consent URL is missing, repeated or malformed. */
export const INVALID_REQUEST_AT_ONCE = refusedAtOnce(
	'invalid_request',
	'A parameter is missing, repeated or malformed (for example a state over 500 bytes).'
);

/** unauthorized_client at once: the client may not use the authorization-code flow. */
export const UNAUTHORIZED_CLIENT_AT_ONCE = refusedAtOnce(
	'unauthorized_client',
	'This client may not use the authorization-code flow. Check the registration.'
);

/** unsupported_response_type at once: the service does not take response_type=code. */
export const UNSUPPORTED_RESPONSE_TYPE_AT_ONCE = refusedAtOnce(
	'unsupported_response_type',
	'The flow needs response_type=code.'
);

/** invalid_request_uri at once: the pushed request's request_uri is expired or used already. */
export const INVALID_REQUEST_URI_AT_ONCE = refusedAtOnce(
	'invalid_request_uri',
	'The request_uri is expired or was already used (RFC 9126 §4): push the request again.',
	'RFC 9126 §4'
);

/**
 * The consent URL sends the browser straight back to the redirect_uri with another error: the
 * registration is accepted, the request refused. The finding carries the service's error code.
 */
export const REFUSED_STRAIGHT_BACK = entry({
	code: (error: string, _description: string | null) => error,
	level: 'error',
	message: straightBack,
	ref: RFC6749('4.1.2.1')
});

// The registration accepted, as each answer shows it: what the service would do next is its own
// (RFC 6749 leaves the login and consent pages to it), so these rest on no section.

/**
 * The consent URL redirects straight back to the redirect_uri: client and redirect_uri are
 * registered.
 */
export const ACCEPTED_STRAIGHT_BACK = entry({
	code: 'registration-ok',
	level: 'info',
	message:
		'The service redirects straight back to the redirect_uri: the registration is accepted (the user may have approved this application before). It checks no client secret: for a client with one, "Check the client secret" does.',
	ref: undefined
});

/**
 * The consent URL redirects elsewhere (typically a login page): client and redirect_uri are
 * registered.
 */
export const ACCEPTED_REDIRECT = entry({
	code: 'registration-ok',
	level: 'info',
	message: (to: string | undefined, clientId: string | undefined) =>
		`The service redirects to ${to ?? 'another page'} (typically its login page): ${clientOf(clientId)} and the redirect_uri are accepted. It checks no client secret: for a client with one, "Check the client secret" does.`,
	ref: undefined
});

/**
 * The consent URL shows a page that is not a sign-in (its consent page): client and redirect_uri
 * are accepted, as far as the service shows before a person decides.
 */
export const ACCEPTED_PAGE = entry({
	code: 'registration-ok',
	level: 'info',
	message: (clientId: string | undefined) =>
		`The service shows its consent page: ${clientOf(clientId)} and the redirect_uri are accepted, as far as it shows before a person decides. It checks no client secret: for a client with one, "Check the client secret" does.`,
	ref: undefined
});

/**
 * The consent URL asks the user to sign in first (a redirect to a sign-in address, or a sign-in
 * page): the service has not judged the request, and some servers check the client, the redirect
 * URI and the scope only after the sign-in (sign-in-first.ts).
 */
export const SIGN_IN_FIRST = entry({
	code: 'sign-in-first',
	level: 'warning',
	message: (host: string) =>
		`Not judged yet: ${host} asks the user to sign in first, so this check cannot tell whether it accepts the client_id, the redirect_uri and the scope (some servers check them before the sign-in, others only after it).`,
	fix: 'For a real answer: open the consent page and sign in (a refusal then comes back to step 2, or shows on the service’s page); or record the browser’s network log as a HAR and import it here.',
	ref: RFC6749('4.1.1')
});

/** The state is over 500 bytes, which the service refuses. */
export const STATE_TOO_LONG = entry({
	code: 'state-too-long',
	level: 'error',
	message: `The state is over ${MAX_STATE_BYTES} bytes; the service will refuse it.`,
	ref: apiDocs('§4.1')
});
