/**
 * The codes of the findings the diagnostics attach to an Exchange (`Finding.code`), each defined once.
 * An OAuth error that the service names itself (RFC 6749 §5.2, §4.1.2.1; RFC 6750 §3.1) keeps the
 * service's own code, so those constants carry the RFC's spelling.
 */

/**
 * The outbound policy refused the address; the request never left.
 * @see the sender's outbound policy, `$lib/server/guard`
 */
export const BLOCKED = 'blocked';

/**
 * Nothing listens at the address.
 * @see the sender's failure kinds, `Exchange.failure`
 */
export const CONNECTION_REFUSED = 'connection-refused';

/**
 * The host name does not resolve.
 * @see the sender's failure kinds, `Exchange.failure`
 */
export const DNS_FAILURE = 'dns-failure';

/**
 * The service did not answer in time.
 * @see the sender's failure kinds, `Exchange.failure`
 */
export const TIMEOUT = 'timeout';

/**
 * The TLS handshake or the certificate check failed.
 * @see https://www.rfc-editor.org/rfc/rfc8446
 */
export const TLS_FAILURE = 'tls-failure';

/**
 * An https:// URL on a port that answers in plain HTTP: the handshake got no TLS back.
 * @see https://www.rfc-editor.org/rfc/rfc8446#section-5.1
 */
export const PLAIN_HTTP_PORT = 'plain-http-port';

/**
 * An http:// URL on a port that may speak TLS: the server says so in a 400, or closed a new
 * connection without a byte.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-4.2.2
 */
export const TLS_PORT_HINT = 'tls-port-hint';

/**
 * The response body was cut at the size cap.
 * @see the sender's failure kinds, `Exchange.failure`
 */
export const RESPONSE_TOO_LARGE = 'response-too-large';

/**
 * The connection was closed before a full response.
 * @see the sender's failure kinds, `Exchange.failure`
 */
export const CONNECTION_RESET = 'connection-reset';

/**
 * The connection closed before an answer during the code exchange: the code may or may not be spent.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export const CODE_MAYBE_SPENT = 'code-maybe-spent';

/**
 * Every one of the playground's connections to the host was in use by other visitors' requests.
 * @see the sender's failure kinds, `Exchange.failure`
 */
export const POOL_BUSY = 'pool-busy';

/**
 * The step waited for one of the playground's own connections to the host before it was sent.
 * @see the sender's connection pool, `$lib/server/send`
 */
export const POOL_WAIT = 'pool-wait';

/**
 * A GET the playground ended, because every one of its connections to the host was in use and
 * another visitor, who held none, needed one: a GET changes nothing, so it can be sent again.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-9.2.1
 */
export const POOL_ENDED = 'pool-ended';

/**
 * The user cancelled the step.
 * @see the sender's failure kinds, `Exchange.failure`
 */
export const CANCELLED = 'cancelled';

/**
 * Any other network failure.
 * @see the sender's failure kinds, `Exchange.failure`
 */
export const NETWORK_ERROR = 'network-error';

/**
 * Client authentication failed.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export const INVALID_CLIENT = 'invalid_client';

/**
 * The code or refresh token is invalid, expired, used or revoked.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export const INVALID_GRANT = 'invalid_grant';

/**
 * The requested scope is invalid or beyond the registration.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export const INVALID_SCOPE = 'invalid_scope';

/**
 * The grant_type is not supported.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export const UNSUPPORTED_GRANT_TYPE = 'unsupported_grant_type';

/**
 * The client may not use this grant.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export const UNAUTHORIZED_CLIENT = 'unauthorized_client';

/**
 * A parameter is missing, repeated or malformed.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export const INVALID_REQUEST = 'invalid_request';

/**
 * A token request without the form Content-Type.
 * @see the service's API docs §4.2 (/api-docs#section-4.2)
 */
export const CONTENT_TYPE = 'content-type';

/**
 * A token-endpoint failure without the JSON error object.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export const NO_ERROR_OBJECT = 'no-error-object';

/**
 * The token response has no access_token.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const MISSING_ACCESS_TOKEN = 'missing-access_token';

/**
 * The token response has no token_type.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const MISSING_TOKEN_TYPE = 'missing-token_type';

/**
 * The token_type is not Bearer.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-4
 */
export const TOKEN_TYPE = 'token_type';

/**
 * The token_type is Bearer in another letter case.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const TOKEN_TYPE_CASE = 'token_type-case';

/**
 * The token response has no expires_in.
 * @see the service's API docs §2.3 (/api-docs#section-2.3)
 */
export const MISSING_EXPIRES_IN = 'missing-expires_in';

/**
 * expires_in is not a number.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const EXPIRES_IN_TYPE = 'expires_in-type';

/**
 * expires_in is zero, negative or implausibly large.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const EXPIRES_IN_RANGE = 'expires_in-range';

/**
 * The refresh answered without a new refresh token; the old one stays.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-6
 */
export const REFRESH_TOKEN_KEPT = 'refresh_token-kept';

/**
 * The exchange answered without a refresh token.
 * @see the service's API docs §2.3 (/api-docs#section-2.3)
 */
export const MISSING_REFRESH_TOKEN = 'missing-refresh_token';

/**
 * refresh_token is not a string.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const REFRESH_TOKEN_TYPE = 'refresh_token-type';

/**
 * The token response has no scope: the requested one was granted.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const MISSING_SCOPE = 'missing-scope';

/**
 * scope is not a string.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const SCOPE_TYPE = 'scope-type';

/**
 * The granted scope differs from the requested one.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.3
 */
export const SCOPE_DIFFERS = 'scope-differs';

/**
 * Fields beyond the documented token response.
 * @see the service's API docs §2.3 (/api-docs#section-2.3)
 */
export const EXTRA_FIELDS = 'extra-fields';

/**
 * The service answered 429: over its rate limit.
 * @see https://www.rfc-editor.org/rfc/rfc6585#section-4
 */
export const RATE_LIMITED = 'rate-limited';

/**
 * The access token is invalid or expired.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1
 */
export const INVALID_TOKEN = 'invalid_token';

/**
 * The access token lacks the scope the call needs.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3.1
 */
export const INSUFFICIENT_SCOPE = 'insufficient_scope';

/**
 * A 403 from the API: zone 2 needs read write, or the app credentials were refused.
 * @see the service's API docs §5 step 7 (/api-docs#section-5-step-7)
 */
export const FORBIDDEN = 'forbidden';

/**
 * A body that should be JSON is not.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const NOT_JSON = 'not-json';

/**
 * The redirect_uri is not the registered one.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2.4
 */
export const REDIRECT_URI_MISMATCH = 'redirect_uri_mismatch';

/**
 * The service's error answer to the consent URL names the redirect URI and refuses it in words, with
 * no error code that says so (redirect-refusal.ts): likely, not certain.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2.4
 */
export const REDIRECT_URI_LIKELY_REFUSED = 'redirect-uri-likely-refused';

/**
 * The service does not know the client_id.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 */
export const UNKNOWN_CLIENT = 'unknown-client';

/**
 * The consent page refused with an error the playground does not name.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 */
export const CONSENT_ERROR = 'consent-error';

/**
 * The service failed with a 5xx.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.6
 */
export const SERVER_ERROR = 'server-error';

/**
 * The consent URL is accepted: client and redirect_uri are registered.
 * @see the service's API docs §4.1 (/api-docs#section-4.1)
 */
export const REGISTRATION_OK = 'registration-ok';

/**
 * The state is over 500 bytes.
 * @see the service's API docs §4.1 (/api-docs#section-4.1)
 */
export const STATE_TOO_LONG = 'state-too-long';

/**
 * The token endpoint or API answered with a redirect, which is not followed.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.4
 */
export const REDIRECT = 'redirect';

/**
 * The answer is not one the called endpoint sends (an HTML page, a 404, a redirect, JSON without an
 * `error` member): the URL is probably not the service's endpoint, a wrong base URL or endpoint.
 * @see the service's API docs §4 (/api-docs#section-4)
 */
export const WRONG_ENDPOINT = 'wrong-endpoint';

/**
 * A 400 from the API over an item id that is not one (edit-tag's `i`).
 * @see the built-in sandbox's page (/sandbox): the item id forms
 */
export const BAD_ITEM_ID = 'bad-item-id';

/**
 * A token response without Cache-Control: no-store.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 */
export const CACHE_CONTROL = 'cache-control';

/**
 * The user-info fields the service returned.
 * @see the service's API docs §4.4 (/api-docs#section-4.4)
 */
export const USERINFO_FIELDS = 'userinfo-fields';

/**
 * The returned state is not the saved one: the flow stops.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12
 */
export const STATE_MISMATCH = 'state-mismatch';

/**
 * A redirect arrived with no consent request pending (the state is single-use).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12
 */
export const NO_PENDING_STATE = 'no-pending-state';

/**
 * The redirect back is malformed (repeated or missing parameters).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export const MALFORMED_CALLBACK = 'malformed-callback';

/**
 * The returned state matches the saved one.
 * @see the service's API docs §5 step 3 (/api-docs#section-5-step-3)
 */
export const STATE_OK = 'state-ok';

/**
 * An error on the redirect without an error code.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 */
export const AUTHORIZATION_ERROR = 'error';

/**
 * A redirect whose state matches no pending consent request was ignored: the pending request (if
 * any) stays pending, and nothing of the redirect is kept beyond showing it once.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12
 */
export const CALLBACK_IGNORED = 'callback-ignored';

/**
 * The `iss` on the redirect is exactly the expected issuer.
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2.4
 */
export const ISSUER_OK = 'issuer-ok';

/**
 * Possible mix-up: the `iss` on the redirect is not the expected issuer (exact string comparison),
 * or, with no issuer known, its origin is not the authorization endpoint's. The code is held back.
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2.4
 */
export const ISSUER_MISMATCH = 'issuer-mismatch';

/**
 * The redirect carries `iss`, but no issuer is known to compare it with.
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2.4
 */
export const ISSUER_NOT_CHECKED = 'issuer-not-checked';

/**
 * An issuer is known but the redirect carries no `iss` (only a server that announces
 * `authorization_response_iss_parameter_supported` must send it).
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2.4
 */
export const ISSUER_NOT_SENT = 'issuer-not-sent';

// Pushed authorization requests (RFC 9126) and the JWT signature check against the issuer's keys.

/**
 * The pushed authorization request was accepted: 201 with a `request_uri` and its `expires_in`.
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-2.2
 */
export const PAR_PUSHED = 'par-pushed';

/**
 * The answer to a pushed authorization request is not the 201 with `request_uri` and `expires_in`
 * that RFC 9126 §2.2 defines, or is an error (§2.3).
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-2.3
 */
export const PAR_REFUSED = 'par-refused';

/**
 * The `request_uri` is unknown to the server: expired or already used (a pushed request is single-use).
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-4
 */
export const INVALID_REQUEST_URI = 'invalid_request_uri';

/**
 * The signature verifies with a key of the issuer's JWKS.
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-5.2
 */
export const JWT_SIGNATURE_VALID = 'jwt-signature-valid';

/**
 * The signature does not verify: the token was changed, or someone else signed it.
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-5.2
 */
export const JWT_SIGNATURE_INVALID = 'jwt-signature-invalid';

/**
 * No key of the JWKS matches the token's header (kid, alg, key type).
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-4.5
 */
export const JWT_NO_MATCHING_KEY = 'jwt-no-matching-key';

/**
 * Several keys match and none verifies.
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-4.5
 */
export const JWT_MULTIPLE_MATCHING_KEYS = 'jwt-multiple-matching-keys';

/**
 * The token's algorithm is not an asymmetric one (`none`, HS*): refused.
 * @see https://www.rfc-editor.org/rfc/rfc8725#section-3.1
 */
export const JWT_ALG_NOT_ALLOWED = 'jwt-alg-not-allowed';

/**
 * The token is not a well-formed compact JWS.
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-7.1
 */
export const JWT_MALFORMED = 'jwt-malformed';

/**
 * The JWKS URL gave no usable key set.
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-5
 */
export const JWKS_INVALID = 'jwks-invalid';

/**
 * The token's `iss` is the expected issuer.
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.1
 */
export const JWT_ISSUER_OK = 'jwt-issuer-ok';

/**
 * The token's `iss` is not the expected issuer.
 * @see https://www.rfc-editor.org/rfc/rfc8725#section-3.8
 */
export const JWT_ISSUER_MISMATCH = 'jwt-issuer-mismatch';

/**
 * No issuer is known to compare the token's `iss` with.
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.1
 */
export const JWT_ISSUER_NOT_CHECKED = 'jwt-issuer-not-checked';

/**
 * The token has expired (`exp` is past).
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4
 */
export const JWT_EXPIRED = 'jwt-expired';

/**
 * The token has not expired yet.
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4
 */
export const JWT_NOT_EXPIRED = 'jwt-not-expired';

/**
 * The token carries no `exp`.
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4
 */
export const JWT_NO_EXPIRY = 'jwt-no-expiry';

/**
 * The header's `typ`: `at+jwt` marks a JWT access token.
 * @see https://www.rfc-editor.org/rfc/rfc9068#section-2.1
 */
export const JWT_TYP = 'jwt-typ';
// Revocation (RFC 7009) and introspection (RFC 7662).

/**
 * The token is active: the introspection answer says so, with what it holds.
 * @see https://www.rfc-editor.org/rfc/rfc7662#section-2.2
 */
export const INTROSPECTION_ACTIVE = 'introspection-active';

/**
 * The token is not active: expired, revoked, unknown, or not this client's to ask about.
 * @see https://www.rfc-editor.org/rfc/rfc7662#section-2.2
 */
export const INTROSPECTION_INACTIVE = 'introspection-inactive';

/**
 * The introspection answer is not what RFC 7662 asks for: JSON with a boolean `active`.
 * @see https://www.rfc-editor.org/rfc/rfc7662#section-2.2
 */
export const INTROSPECTION_MALFORMED = 'introspection-malformed';

/**
 * The server answered the revocation request with 200: that alone proves nothing, since a server
 * answers 200 for a token it does not know too. The proof request tells.
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.2
 */
export const REVOCATION_ACCEPTED = 'revocation-accepted';

/**
 * The revoked token no longer works: the proof request was refused.
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2
 */
export const REVOCATION_PROVEN = 'revocation-proven';

/**
 * The "revoked" token still works: the proof request succeeded after a 200 from revocation.
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.2
 */
export const REVOCATION_NOT_EFFECTIVE = 'revocation-not-effective';

/**
 * The server does not revoke this kind of token (`unsupported_token_type`), e.g. a JWT access
 * token that it cannot take back before it expires.
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.2.1
 */
export const REVOCATION_UNSUPPORTED = 'revocation-unsupported';

/**
 * The server asks to try again later (503, with `Retry-After` when it says when).
 * @see https://www.rfc-editor.org/rfc/rfc7009#section-2.2.1
 */
export const REVOCATION_RETRY = 'revocation-retry';

/**
 * A recording (an imported HAR) sends the same authorization code to the token endpoint a second
 * time: codes are single-use, so the service refuses it and should revoke what the first issued.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export const CODE_REUSED = 'code-reused';

/**
 * The service gave tokens for a code it had already exchanged, which it MUST NOT do.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export const CODE_REUSE_ACCEPTED = 'code-reuse-accepted';

/**
 * "Replay this code" (server/replay.ts): the service refused the code sent a second time, as it
 * must.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export const CODE_REPLAY_REFUSED = 'code-replay-refused';

/**
 * After a replay, the access token issued from the code no longer works: the service revoked it.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export const TOKENS_REVOKED = 'tokens-revoked';

/**
 * After a replay, the access token issued from the code still works: the service did not revoke it.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 */
export const TOKENS_NOT_REVOKED = 'tokens-not-revoked';

// Client authentication (RFC 6749 §2.3.1) and PKCE (RFC 7636).

/**
 * The server refused the client's authentication: the method used may not be the one the client
 * is registered with (post against Basic), or, with Basic, the id or secret may have reached it
 * changed because one side skipped the form-encoding before base64.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1
 */
export const CLIENT_AUTH_METHOD = 'client-auth-method';

/**
 * The server does not accept this client as a public client (no authentication).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.1
 */
export const PUBLIC_CLIENT_REFUSED = 'public-client-refused';

/**
 * The server requires PKCE and the request had none.
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.4.1
 */
export const PKCE_REQUIRED = 'pkce-required';

/**
 * The code_verifier does not match the code_challenge the code was issued for.
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.6
 */
export const PKCE_MISMATCH = 'pkce-mismatch';

/**
 * `plain` sends the verifier itself as the challenge: whoever sees the consent URL can use the code.
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-7.2
 */
export const PKCE_PLAIN = 'pkce-plain';

// Discovery: the authorization server's metadata (RFC 8414, OpenID Connect Discovery 1.0).

/**
 * The metadata document was found and read; the form was filled from it.
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.2
 */
export const METADATA_FOUND = 'metadata-found';

/**
 * Neither well-known URL gave a metadata document: the server publishes none (the feed-reader
 * service's API docs describe none), so the documented endpoints stay.
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3
 */
export const METADATA_NONE = 'metadata-none';

/**
 * The document's `issuer` is not exactly the issuer it was fetched for: it is refused, and nothing
 * of it is used.
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.3
 */
export const METADATA_ISSUER_MISMATCH = 'metadata-issuer-mismatch';

/**
 * The document is not valid metadata (not a JSON object, or a member of the wrong type).
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3.2
 */
export const METADATA_INVALID = 'metadata-invalid';

// The second judge: oauth4webapi on the recorded bytes (oauth/strict-client.ts).

/**
 * A strict client library, oauth4webapi, would reject this answer (or this redirect back), in its
 * own words; said beside the playground's own findings, never instead of them.
 * @see https://github.com/panva/oauth4webapi/tree/main/docs
 */
export const STRICT_CLIENT_REJECTS = 'strict-client-rejects';
