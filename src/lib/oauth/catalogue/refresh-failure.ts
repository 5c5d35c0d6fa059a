/**
 * Why a refresh failed (RFC 6749 §6, §5.2), its most likely cause named from what the flow, or the
 * recording, knows of the refresh token it sent, and from the service's own words, and how sure
 * that is: an older generation sent after a rotation (certain when the rotation is on record), a
 * refresh token revoked on record (certain) or whose access token was (likely: RFC 7009 §2.1
 * leaves it to the server), a refresh token past the expiry its answer gave (certain), a session
 * the server says has ended (Keycloak's "Session not active"), a token it says is no longer active
 * or has expired or been revoked (Keycloak's "Token is not active", Google's "Token has been
 * expired or revoked."), one it does not know (Auth0's "Unknown or invalid refresh token"). A
 * service that answers a 403 or `invalid_request` for what §5.2 calls a 400 `invalid_grant`, or a
 * 200 with an error object (GitHub's `bad_refresh_token`), is said to, beside the cause. `refresh-cause.ts` decides which applies.
 */
import { entry } from './raise';

const RFC6749 = (s: string) => `RFC 6749 §${s}`;

/** The service's own words, quoted after the message's, or nothing. */
const said = (words: string | undefined) => (words ? ` The service said: "${words}".` : '');

/**
 * How the service answered, when it is not RFC 6749 §5.2's 400 invalid_grant for a refused refresh
 * token: a client that acts on invalid_grant (a new sign-in) misses it, and may loop; a success
 * status (GitHub's 200) passes a client that checks only the status.
 */
const shape = (answered: string | undefined) =>
	answered
		? ` It answered ${answered} where RFC 6749 §5.2 has 400 invalid_grant: a client that starts a new sign-in on invalid_grant misses this one, and may retry it in a loop.${answered.startsWith('2') ? ' And a client that checks only the status code takes it for tokens: read the error field of every answer.' : ''}`
		: '';

/** What to do when the refresh token is spent for good: a new consent. */
const NEW_CONSENT = 'Run the flow again from the consent step for a new refresh token.';

/** The refresh token sent was replaced by a later answer on record: an older generation. */
export const REFRESH_SUPERSEDED = entry({
	code: 'refresh-superseded',
	level: 'error',
	message: (by: number, words: string | undefined, answered: string | undefined) =>
		`The refresh token sent is an older generation: the refresh #${by} already returned a new one in its place (the service rotates refresh tokens), and a rotating service refuses the one it replaced, and may revoke every token of the grant.${said(words)}${shape(answered)}`,
	fix: 'Send the newest refresh token. Where two instances, tabs or workers share one refresh token, let one refresh and the others read the new token it stored.',
	ref: 'RFC 9700 §4.14.2; RFC 6749 §6'
});

/** Who revoked it: the exchange #n, or this flow's revocation step. */
const revokedBy = (by: number | undefined) => (by === undefined ? 'this flow (step 8)' : `#${by}`);

/** The refresh token sent was revoked on record (#n). */
export const REFRESH_REVOKED = entry({
	code: 'refresh-revoked',
	level: 'error',
	message: (by: number | undefined, words: string | undefined, answered: string | undefined) =>
		`The refresh token sent was revoked by ${revokedBy(by)}: a revoked refresh token is refused.${said(words)}${shape(answered)}`,
	fix: NEW_CONSENT,
	ref: 'RFC 7009 §2.1'
});

/** The access token of the same grant was revoked on record: the server may have revoked the grant. */
export const REFRESH_ACCESS_REVOKED = entry({
	code: 'refresh-access-revoked',
	level: 'error',
	message: (by: number | undefined, words: string | undefined, answered: string | undefined) =>
		`Most likely revoked: ${revokedBy(by)} revoked the access token of this grant, and a server may revoke the refresh token with it.${said(words)}${shape(answered)}`,
	fix: NEW_CONSENT,
	ref: 'RFC 7009 §2.1'
});

/** The refresh token was sent after the expiry its answer gave. */
export const REFRESH_EXPIRED = entry({
	code: 'refresh-expired',
	level: 'error',
	message: (
		from: number | undefined,
		field: string,
		words: string | undefined,
		answered: string | undefined
	) =>
		`The refresh token had expired: the answer ${from === undefined ? 'that gave it' : `#${from}`} gave it ${field}, and it was sent after that.${said(words)}${shape(answered)}`,
	fix: `${NEW_CONSENT} A client should refresh before the refresh token's own expiry, or sign the user in again.`,
	ref: RFC6749('6')
});

/** The service says the user's session at the server has ended (Keycloak: "Session not active"). */
export const REFRESH_SESSION_ENDED = entry({
	code: 'refresh-session-ended',
	level: 'error',
	message: (words: string, answered: string | undefined) =>
		`The user's session at the service has ended (a sign-out, or its idle or maximum time passed), and the refresh token ended with it.${said(words)}${shape(answered)}`,
	fix: `${NEW_CONSENT} Servers such as Keycloak tie refresh tokens to the sign-in session: its idle and maximum times bound the refresh token's life.`,
	ref: RFC6749('6')
});

/** The service says the refresh token is no longer active, or has expired or been revoked. */
export const REFRESH_NOT_ACTIVE = entry({
	code: 'refresh-not-active',
	level: 'error',
	message: (words: string, answered: string | undefined) =>
		`Most likely expired or revoked: the service says the refresh token is no longer valid. It may have reached its lifetime (Google limits the refresh tokens of an app in "Testing" to 7 days), or been revoked by the user, an administrator or a reuse after rotation.${said(words)}${shape(answered)}`,
	fix: NEW_CONSENT,
	ref: RFC6749('6')
});

/** The service does not know the refresh token (Auth0: "Unknown or invalid refresh token"). */
export const REFRESH_UNKNOWN = entry({
	code: 'refresh-unknown',
	level: 'error',
	message: (words: string, answered: string | undefined) =>
		`Most likely rotated away or revoked: the service does not know this refresh token. A newer one may have replaced it (with rotation, each refresh returns a new one), it may have been revoked, or it was issued by another tenant or environment.${said(words)}${shape(answered)}`,
	fix: 'Send the newest refresh token the service returned; if none works, run the flow again from the consent step.',
	ref: RFC6749('6')
});

/** A refusal of the refresh token in a shape of the service's own, with no cause in its words. */
export const REFRESH_REFUSED_OTHER_SHAPE = entry({
	code: 'refresh-refused',
	level: 'error',
	message: (words: string | undefined, answered: string) =>
		`The refresh token was refused.${said(words)}${shape(answered)}`,
	fix: 'It may have been used already (refresh tokens rotate: each refresh returns a new one), revoked, or expired. Run the flow again from the consent step.',
	ref: RFC6749('5.2')
});
