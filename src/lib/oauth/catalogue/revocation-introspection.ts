/**
 * What the revocation (RFC 7009) and introspection (RFC 7662) answers say, and what the proof of a
 * revocation, the revoked token used again, shows. `token-admin.ts` decides which applies. Each but
 * the revocation's bare 200 (which proves nothing until the proof) is its step's verdict.
 */
import { entry } from './raise';

const RFC7009 = (s: string) => `RFC 7009 §${s}`;
const RFC7662 = (s: string) => `RFC 7662 §${s}`;

/** `; it asks to try again after 30 seconds`, from the Retry-After header when there is one. */
const retryAfter = (after: string | undefined) =>
	after ? `; it asks to try again after ${after}${/^\d+$/.test(after) ? ' seconds' : ''}` : '';

/**
 * The server asks to try the revocation or the introspection again later (503, with Retry-After
 * when it says when).
 */
export const REVOCATION_RETRY = entry({
	code: 'revocation-retry',
	verdict: true,
	level: 'warning',
	message: (what: string, after: string | undefined) =>
		`The server is unavailable for ${what} now (503)${retryAfter(after)}.`,
	fix: 'Try again later. Until it succeeds, the token stays valid.',
	ref: RFC7009('2.2.1')
});

/**
 * The server does not revoke (or introspect) this kind of token (unsupported_token_type), e.g. a
 * JWT access token that it cannot take back before it expires.
 */
export const REVOCATION_UNSUPPORTED = entry({
	code: 'revocation-unsupported',
	verdict: true,
	level: 'warning',
	message: (what: string) =>
		`The server does not support ${what} for this kind of token (unsupported_token_type). Structured (JWT) access tokens often cannot be taken back: they stay valid until they expire.`,
	fix: 'Revoke the refresh token instead, which ends the grant on most servers, or let the access token expire.',
	ref: RFC7009('2.2.1')
});

/** The introspection answer is not what RFC 7662 asks for: JSON with a boolean active. */
export const INTROSPECTION_MALFORMED = entry({
	code: 'introspection-malformed',
	verdict: true,
	level: 'error',
	message:
		'The introspection answer is not JSON with a boolean "active" member, which RFC 7662 §2.2 requires.',
	ref: RFC7662('2.2')
});

/** The token is active: the introspection answer says so, with what it holds. */
export const INTROSPECTION_ACTIVE = entry({
	code: 'introspection-active',
	verdict: true,
	level: 'info',
	message: (name: string, details: readonly string[]) =>
		`The ${name} is active${details.length ? `: ${details.join(', ')}` : ''}.`,
	ref: RFC7662('2.2')
});

/** The token is not active: expired, revoked, unknown, or not this client's to ask about. */
export const INTROSPECTION_INACTIVE = entry({
	code: 'introspection-inactive',
	verdict: true,
	level: 'info',
	message: (name: string) =>
		`The ${name} is not active: it expired, was revoked, is unknown to this server, or this client may not ask about it. The server does not say which (RFC 7662 §2.2).`,
	ref: RFC7662('2.2')
});

/**
 * The server answered the revocation with 200: that alone proves nothing, since a server answers
 * 200 for a token it does not know too. The proof request tells.
 */
export const REVOCATION_ACCEPTED = entry({
	code: 'revocation-accepted',
	level: 'info',
	message:
		'The server answered 200. That alone proves nothing: a server answers 200 for a token it does not know, too (RFC 7009 §2.2). The request below shows whether the token still works.',
	ref: RFC7009('2.2')
});

/** The revoked token still works: the proof request succeeded after a 200 from revocation. */
export const REVOCATION_NOT_EFFECTIVE = entry({
	code: 'revocation-not-effective',
	verdict: true,
	level: 'error',
	message: (name: string, use: string, status: number) =>
		`The revoked ${name} still works: ${use} with it succeeded (${status}) after the server answered 200 to the revocation.`,
	fix: 'The server may revoke asynchronously, cache tokens at the resource server, or ignore the token_type_hint. Try the proof again in a moment; if it still works, the revocation endpoint does not revoke this token.',
	ref: RFC7009('2.2')
});

/** The revoked token no longer works: the proof request was refused. */
export const REVOCATION_PROVEN = entry({
	code: 'revocation-proven',
	verdict: true,
	level: 'info',
	message: (name: string, use: string, status: number, error: string) =>
		`The ${name} no longer works: ${use} with it was refused (${status}${error ? `, ${error}` : ''}).`,
	ref: RFC7009('2')
});
