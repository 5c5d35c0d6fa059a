/**
 * The token endpoint's findings (the code exchange and the refresh, RFC 6749 §4.1.3, §5, §6): its
 * OAuth errors, the fields of its token response, and the request and response headers it is
 * judged by. `diagnose.ts` decides which of them apply.
 *
 * Some codes have two entries on purpose: the same code said differently where the case differs
 * (invalid_grant for a code or a refresh token, expires_in too small or too large, a Content-Type
 * the service complained about or one the request lacked). `tests/unit/catalogue.test.ts` names them.
 */
import { API_DOCS, apiDocs } from '../docs';
import { entry, scopesOf } from './raise';

const RFC6749 = (s: string) => `RFC 6749 §${s}`;
/** The service's API docs on the token response, which most of its findings rest on. */
const RESPONSE = apiDocs('§2.3');

/** The service's error_description, quoted after the message's own words, or nothing. */
const said = (desc: string | undefined) => (desc ? ` The service said: "${desc}".` : '');

// The token endpoint's OAuth errors (RFC 6749 §5.2), each with the service's error_description. An
// entry whose code is the error explains it (`oauthError`): diagnose.ts finds it by the error.

/** What to check when the client's credentials were refused. */
const CHECK_CREDENTIALS =
	'Check client_id and client_secret against the registration; a secret that was regenerated invalidates the old one. If both are right, check how the client is registered to authenticate (its token_endpoint_auth_method, and whether it is a public client).';

/**
 * invalid_client: the service did not accept the client's authentication (its id, its secret, or
 * the way it was sent).
 */
export const INVALID_CLIENT = entry({
	code: 'invalid_client',
	oauthError: true,
	level: 'error',
	message: (desc: string | undefined) =>
		`The service did not accept the client credentials.${said(desc)}`,
	fix: CHECK_CREDENTIALS,
	ref: RFC6749('5.2')
});

/**
 * The client's authentication refused under another error code: its words say so (Keycloak's 401
 * unauthorized_client "Invalid client secret"), or, less surely, HTTP 401, the status RFC 6749 §5.2
 * keeps for invalid_client (Auth0's 401 access_denied "Unauthorized").
 */
export const CLIENT_REFUSED_AS = entry({
	code: 'invalid_client',
	level: 'error',
	message: (error: string, status: number, desc: string | undefined, certain: boolean) =>
		`The service ${certain ? 'refused' : 'most likely refused'} the client credentials. It answered ${error} with HTTP ${status}${certain ? ', in words about the client’s credentials' : ', the status RFC 6749 §5.2 keeps for invalid_client'}, where the standard error is invalid_client.${said(desc)}`,
	fix: CHECK_CREDENTIALS,
	ref: RFC6749('5.2')
});

/** invalid_grant on a refresh: the refresh token is invalid, expired, used already or revoked. */
export const REFRESH_TOKEN_REFUSED = entry({
	code: 'invalid_grant',
	oauthError: true,
	grantType: 'refresh_token',
	level: 'error',
	message: (desc: string | undefined) => `The refresh token was refused.${said(desc)}`,
	fix: 'It may have been used already (refresh tokens rotate: each refresh returns a new one), revoked, or expired. Run the flow again from the consent step.',
	ref: RFC6749('6')
});

/**
 * invalid_grant on the code exchange whose words say the code expired: certain, and the fix is to
 * exchange at once (the code's lifetime is the server's; RFC 6749 §4.1.2 recommends 10 minutes at
 * most).
 */
export const CODE_EXPIRED = entry({
	code: 'invalid_grant',
	level: 'error',
	message: (desc: string) => `The authorization code had expired.${said(desc)}`,
	fix: 'Exchange a code at once: leave "Exchange the code on return" on, or exchange it by hand as soon as it is back. Start the flow again for a new code.',
	ref: RFC6749('4.1.2')
});

/**
 * invalid_grant on the code exchange of a code the page knows came back longer ago than the
 * server's known code lifetime (the sandbox's configured one; the service's API docs give none),
 * and never sent before: expired, certain.
 */
export const CODE_EXPIRED_BY_AGE = entry({
	code: 'invalid_grant',
	level: 'error',
	message: (age: number, lifetime: number, desc: string | undefined) =>
		`The authorization code had expired: it came back ${age} s before this exchange, and the server’s codes live ${lifetime} s. It was never sent before.${said(desc)}`,
	fix: 'Exchange a code at once: leave "Exchange the code on return" on, or exchange it by hand as soon as it is back. Start the flow again for a new code.',
	ref: RFC6749('4.1.2')
});

/**
 * invalid_grant on the code exchange of a code this flow had sent already (an exchange whose
 * connection closed before any answer, shown in the transcript): used twice.
 */
export const CODE_SENT_BEFORE = entry({
	code: 'invalid_grant',
	level: 'error',
	message: (desc: string | undefined) =>
		`The authorization code was sent before, by the exchange above whose connection closed before any answer: the service most likely received it then and spent it, and a code is exchanged once.${said(desc)}`,
	fix: 'Start the flow again for a new code. The first exchange may have given tokens that never arrived; a compliant service revokes them now (RFC 6749 §4.1.2).',
	ref: RFC6749('4.1.2')
});

/** invalid_grant on the code exchange whose words say the code was used already: certain. */
export const CODE_ALREADY_USED = entry({
	code: 'invalid_grant',
	level: 'error',
	message: (desc: string) =>
		`The authorization code had been used already: a code is exchanged once.${said(desc)}`,
	fix: 'Start the flow again for a new code. If nothing of yours sent it before, something else holds your codes (a second exchange in your application, a proxy or a browser extension that retries): a compliant service then revokes the tokens the first exchange gave (RFC 6749 §4.1.2).',
	ref: RFC6749('4.1.2')
});

/**
 * invalid_grant on the code exchange whose words name the redirect URI: it is not the one the
 * consent request sent (RFC 6749 §4.1.3 asks for the same value).
 */
export const CODE_REDIRECT_URI = entry({
	code: 'invalid_grant',
	level: 'error',
	message: (desc: string) =>
		`The code was refused for its redirect_uri: the code exchange must send the same redirect_uri as the consent request that brought the code.${said(desc)}`,
	fix: 'Send exactly the redirect_uri of the consent request, character for character (a trailing slash, http against https, a port).',
	ref: RFC6749('4.1.3')
});

/**
 * invalid_grant on a code exchange that sent another redirect_uri than the consent request that
 * brought the code, as a recording shows both: the service must refuse it (RFC 6749 §4.1.3).
 */
export const CODE_REDIRECT_URI_DIFFERS = entry({
	code: 'invalid_grant',
	level: 'error',
	message: (consent: string, sent: string, desc: string | undefined) =>
		`The code was refused, and this exchange sent redirect_uri ${sent}, where the consent request that brought the code sent ${consent}: the code exchange must send the same value, character for character, and a service refuses the code otherwise.${said(desc)}`,
	fix: 'Send the redirect_uri of the consent request, exactly (a trailing slash, http against https, a port or a path differ), or start the consent again with the one the code exchange sends.',
	ref: RFC6749('4.1.3')
});

/**
 * invalid_grant on the code exchange: the code is invalid, expired or used already, or the
 * redirect_uri is not the one sent at consent.
 */
export const CODE_REFUSED = entry({
	code: 'invalid_grant',
	oauthError: true,
	grantType: 'authorization_code',
	level: 'error',
	message: (desc: string | undefined) => `The authorization code was refused.${said(desc)}`,
	fix: 'Likely causes: the code was already used (codes are single-use), it expired (exchange it at once), or the redirect_uri differs from the one sent at consent. Start the flow again.',
	ref: RFC6749('4.1.3')
});

/**
 * In an imported recording: a code that an earlier exchange of the file sent, sent again and
 * refused (said in place of invalid_grant).
 */
export const CODE_REUSED = entry({
	code: 'code-reused',
	level: 'error',
	message: (earlier: number, desc: string | undefined) =>
		`This code was already sent to the token endpoint in exchange #${earlier} of this file, and a code can be exchanged only once, so the service refused it.${said(desc)}`,
	fix: 'Exchange each code once: look in the application for a second exchange of the same code (a retry after a time-out, a double submit, two handlers of the redirect). The service may also have revoked the tokens the first exchange gave (RFC 6749 §4.1.2).',
	ref: RFC6749('4.1.2')
});

/**
 * In an imported recording: the service gave tokens for a code an earlier exchange of the file had
 * exchanged already, which it MUST NOT do.
 */
export const CODE_REUSE_ACCEPTED = entry({
	code: 'code-reuse-accepted',
	level: 'warning',
	message: (earlier: number) =>
		`This code was already exchanged in exchange #${earlier} of this file, and the service gave tokens for it again. RFC 6749 §4.1.2 says a code MUST NOT be used more than once, and the service should refuse it.`,
	fix: 'The application exchanges a code twice (look for a retry or a second handler of the redirect); the service should refuse the second exchange.',
	ref: RFC6749('4.1.2')
});

/** invalid_scope: the requested scope is invalid or beyond the registration. */
export const INVALID_SCOPE = entry({
	code: 'invalid_scope',
	oauthError: true,
	level: 'error',
	message: (desc: string | undefined) => `The requested scope was refused.${said(desc)}`,
	fix: 'A read-only registration cannot ask for write: ask for "read" only, or leave the scope empty for the registration’s default.',
	ref: RFC6749('5.2')
});

/**
 * invalid_scope from a server other than the feed-reader service: the fix names the scopes its
 * metadata lists, when the flow has its metadata, never the service's read-only registrations.
 */
export const INVALID_SCOPE_ELSEWHERE = entry({
	code: 'invalid_scope',
	level: 'error',
	message: (desc: string | undefined, _scopes?: readonly string[]) =>
		`The requested scope was refused.${said(desc)}`,
	fix: (_desc: string | undefined, scopes?: readonly string[]) =>
		`Ask only for scopes this client is registered for: ${scopesOf(scopes)}. Or leave the scope empty for the registration’s default.`,
	ref: RFC6749('5.2')
});

/** unsupported_grant_type: the token endpoint does not support the grant_type sent. */
export const UNSUPPORTED_GRANT_TYPE = entry({
	code: 'unsupported_grant_type',
	oauthError: true,
	level: 'error',
	message: (desc: string | undefined) =>
		`The token endpoint does not support this grant_type.${said(desc)}`,
	fix: `grant_type must be authorization_code for the exchange and refresh_token for the refresh (${API_DOCS} §4.2, §4.3).`,
	ref: RFC6749('5.2')
});

/** unauthorized_client: the client may not use this grant. */
export const UNAUTHORIZED_CLIENT = entry({
	code: 'unauthorized_client',
	oauthError: true,
	level: 'error',
	message: (desc: string | undefined) => `This client may not use this grant.${said(desc)}`,
	fix: 'Check the registration.',
	ref: RFC6749('5.2')
});

/**
 * invalid_request whose error_description names the Content-Type: the token request lacked the form
 * Content-Type.
 */
export const CONTENT_TYPE_REFUSED = entry({
	code: 'content-type',
	level: 'error',
	message: (desc: string | undefined) => `The token request was malformed.${said(desc)}`,
	fix: `Send Content-Type: application/x-www-form-urlencoded on token requests (${API_DOCS} §4.2).`,
	ref: RFC6749('5.2')
});

/** invalid_request: a parameter of the token request is missing, repeated or malformed. */
export const INVALID_REQUEST = entry({
	code: 'invalid_request',
	oauthError: true,
	level: 'error',
	message: (desc: string | undefined) => `The token request was malformed.${said(desc)}`,
	fix: `A required parameter is missing or repeated (${API_DOCS} §4.2 lists them).`,
	ref: RFC6749('5.2')
});

/**
 * An OAuth error the playground has no words of its own for: the finding carries the service's code
 * and its error_description.
 */
export const OTHER_ERROR = entry({
	code: (error: string, _desc: string | undefined) => error,
	level: 'error',
	message: (error: string, desc: string | undefined) =>
		`The token endpoint answered with error "${error}".${said(desc)}`,
	ref: RFC6749('5.2')
});

/**
 * An error status from the token endpoint whose body is not the JSON error object of RFC 6749 §5.2.
 */
export const NO_ERROR_OBJECT = entry({
	code: 'no-error-object',
	level: 'error',
	message: (status: number) => `HTTP ${status} without an RFC 6749 §5.2 JSON error object.`,
	ref: RFC6749('5.2')
});

/**
 * An OAuth error object in a success status (GitHub answers every token error with 200): a client
 * that checks only the status takes it for tokens.
 */
export const ERROR_IN_SUCCESS = entry({
	code: 'error-in-success',
	level: 'warning',
	message: (status: number, error: string) =>
		`The error ${error} came with HTTP ${status}, a success status, where RFC 6749 §5.2 sends errors with 400 (401 for invalid_client): a client that checks only the status code takes this answer for tokens, and finds none.`,
	fix: 'In the client, read the error field of every token answer, whatever its status.',
	ref: RFC6749('5.2')
});

// The request and the response's headers.

/** The token request went out without the form Content-Type (or with another one). */
export const CONTENT_TYPE_NOT_SENT = entry({
	code: 'content-type',
	level: 'error',
	message: (sent: string | undefined) =>
		`The token request was sent ${sent ? `with Content-Type ${sent}` : 'without a Content-Type'}.`,
	fix: `Send Content-Type: application/x-www-form-urlencoded (${API_DOCS} §4.2).`,
	ref: apiDocs('§4.2')
});

/** A token response without Cache-Control: no-store. */
export const CACHE_CONTROL = entry({
	code: 'cache-control',
	level: 'info',
	message: 'The token response lacks Cache-Control: no-store, which RFC 6749 §5.1 requires.',
	ref: RFC6749('5.1')
});

// The token response's fields (RFC 6749 §5.1; the service's API docs §2.3).

/** The token response has no access_token string. */
export const MISSING_ACCESS_TOKEN = entry({
	code: 'missing-access_token',
	level: 'error',
	message: 'The token response has no access_token string.',
	ref: RESPONSE
});

/** The token response has no token_type. */
export const MISSING_TOKEN_TYPE = entry({
	code: 'missing-token_type',
	level: 'error',
	message: 'The token response has no token_type.',
	ref: RESPONSE
});

/** The token_type is not Bearer, in any letter case. */
export const TOKEN_TYPE = entry({
	code: 'token_type',
	level: 'warning',
	message: (tokenType: string) => `token_type is "${tokenType}", not Bearer.`,
	ref: RESPONSE
});

/** The token_type is Bearer in another letter case. */
export const TOKEN_TYPE_CASE = entry({
	code: 'token_type-case',
	level: 'info',
	message: (tokenType: string) =>
		`token_type is "${tokenType}"; ${API_DOCS} show "Bearer". The value is case-insensitive (RFC 6749 §5.1).`,
	ref: RESPONSE
});

/** The token response has no expires_in, so the expiry is not known. */
export const MISSING_EXPIRES_IN = entry({
	code: 'missing-expires_in',
	level: 'warning',
	message:
		'The token response has no expires_in, so the playground cannot tell when the token expires.',
	ref: RESPONSE
});

/** expires_in is not an integer number of seconds. */
export const EXPIRES_IN_TYPE = entry({
	code: 'expires_in-type',
	level: 'warning',
	message: (expiresIn: unknown) =>
		`expires_in should be an integer number of seconds; it is ${JSON.stringify(expiresIn)}.`,
	ref: RESPONSE
});

/** expires_in is zero or negative: the token is expired when it arrives. */
export const EXPIRES_IN_NOT_POSITIVE = entry({
	code: 'expires_in-range',
	level: 'error',
	message: (expiresIn: number) =>
		`expires_in is ${expiresIn}: the token is expired the moment it arrives.`,
	ref: RESPONSE
});

/** expires_in is over a year: implausibly long for an access token. */
export const EXPIRES_IN_TOO_LONG = entry({
	code: 'expires_in-range',
	level: 'warning',
	message: (expiresIn: number) =>
		`expires_in is ${expiresIn} s, over a year: implausibly long for an access token.`,
	ref: RESPONSE
});

/** The refresh answered without a new refresh token; the old one stays. */
export const REFRESH_TOKEN_KEPT = entry({
	code: 'refresh_token-kept',
	level: 'info',
	message:
		'The refresh response has no refresh_token; the playground keeps the old one (RFC 6749 §6).',
	ref: RFC6749('6')
});

/** The code exchange answered without a refresh token. */
export const MISSING_REFRESH_TOKEN = entry({
	code: 'missing-refresh_token',
	level: 'warning',
	message: 'The token response has no refresh_token, so the token cannot be refreshed.',
	ref: RESPONSE
});

/** refresh_token is not a string. */
export const REFRESH_TOKEN_TYPE = entry({
	code: 'refresh_token-type',
	level: 'error',
	message: 'refresh_token is not a string.',
	ref: RESPONSE
});

/** The token response has no scope: the requested one was granted. */
export const MISSING_SCOPE = entry({
	code: 'missing-scope',
	level: 'info',
	message:
		'The token response has no scope; per RFC 6749 §5.1 that means the requested scope was granted.',
	ref: RESPONSE
});

/** scope is not a string. */
export const SCOPE_TYPE = entry({
	code: 'scope-type',
	level: 'warning',
	message: 'scope should be a space-separated string.',
	ref: RESPONSE
});

/** The granted scope is not the requested one; the fix only when write was asked for and lost. */
export const SCOPE_DIFFERS = entry({
	code: 'scope-differs',
	level: 'warning',
	message: (granted: string, requested: string, _writeLost: boolean) =>
		`Granted scope "${granted}" differs from the requested "${requested}".`,
	fix: (_granted: string, _requested: string, writeLost: boolean) =>
		writeLost
			? 'Write was not granted: zone-2 calls will get 403. Check that the registration is not "Read only".'
			: undefined,
	ref: RFC6749('3.3')
});

/** Fields the service's API docs do not list, which the playground shows and keeps. */
export const EXTRA_FIELDS = entry({
	code: 'extra-fields',
	level: 'info',
	message: (fields: readonly string[]) =>
		`Fields beyond those of ${API_DOCS} §2.3: ${fields.join(', ')}. They are shown and kept.`,
	// An observation, not a breach: the API docs list what they send, and say nothing of the rest.
	ref: undefined
});
