/**
 * What the revocation (RFC 7009) and introspection (RFC 7662) answers say, and what the proof of a
 * revocation, the revoked token used again, shows. `token-admin.ts` decides which applies.
 */
import * as F from '../findings';
import { entry } from './raise';

const RFC7009 = (s: string) => `RFC 7009 §${s}`;
const RFC7662 = (s: string) => `RFC 7662 §${s}`;

/** `; it asks to try again after 30 seconds`, from the Retry-After header when there is one. */
const retryAfter = (after: string | undefined) =>
	after ? `; it asks to try again after ${after}${/^\d+$/.test(after) ? ' seconds' : ''}` : '';

export const REVOCATION_RETRY = entry({
	code: F.REVOCATION_RETRY,
	level: 'warning',
	message: (what: string, after: string | undefined) =>
		`The server is unavailable for ${what} now (503)${retryAfter(after)}.`,
	fix: 'Try again later. Until it succeeds, the token stays valid.',
	ref: RFC7009('2.2.1')
});

export const REVOCATION_UNSUPPORTED = entry({
	code: F.REVOCATION_UNSUPPORTED,
	level: 'warning',
	message: (what: string) =>
		`The server does not support ${what} for this kind of token (unsupported_token_type). Structured (JWT) access tokens often cannot be taken back: they stay valid until they expire.`,
	fix: 'Revoke the refresh token instead, which ends the grant on most servers, or let the access token expire.',
	ref: RFC7009('2.2.1')
});

export const INTROSPECTION_MALFORMED = entry({
	code: F.INTROSPECTION_MALFORMED,
	level: 'error',
	message:
		'The introspection answer is not JSON with a boolean "active" member, which RFC 7662 §2.2 requires.',
	ref: RFC7662('2.2')
});

export const INTROSPECTION_ACTIVE = entry({
	code: F.INTROSPECTION_ACTIVE,
	level: 'info',
	message: (name: string, details: readonly string[]) =>
		`The ${name} is active${details.length ? `: ${details.join(', ')}` : ''}.`,
	ref: RFC7662('2.2')
});

export const INTROSPECTION_INACTIVE = entry({
	code: F.INTROSPECTION_INACTIVE,
	level: 'info',
	message: (name: string) =>
		`The ${name} is not active: it expired, was revoked, is unknown to this server, or this client may not ask about it. The server does not say which (RFC 7662 §2.2).`,
	ref: RFC7662('2.2')
});

export const REVOCATION_ACCEPTED = entry({
	code: F.REVOCATION_ACCEPTED,
	level: 'info',
	message:
		'The server answered 200. That alone proves nothing: a server answers 200 for a token it does not know, too (RFC 7009 §2.2). The request below shows whether the token still works.',
	ref: RFC7009('2.2')
});

export const REVOCATION_NOT_EFFECTIVE = entry({
	code: F.REVOCATION_NOT_EFFECTIVE,
	level: 'error',
	message: (name: string, use: string, status: number) =>
		`The revoked ${name} still works: ${use} with it succeeded (${status}) after the server answered 200 to the revocation.`,
	fix: 'The server may revoke asynchronously, cache tokens at the resource server, or ignore the token_type_hint. Try the proof again in a moment; if it still works, the revocation endpoint does not revoke this token.',
	ref: RFC7009('2.2')
});

export const REVOCATION_PROVEN = entry({
	code: F.REVOCATION_PROVEN,
	level: 'info',
	message: (name: string, use: string, status: number, error: string) =>
		`The ${name} no longer works: ${use} with it was refused (${status}${error ? `, ${error}` : ''}).`,
	ref: RFC7009('2')
});
