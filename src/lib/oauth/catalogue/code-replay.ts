/**
 * What "Replay this code" (server/steps/replay.ts) found: how the service answered the code sent a
 * second time, and whether the access token issued from it still works. Information, not failures:
 * the refusal is what the replay is for. `server/steps/replay.ts` decides which applies.
 */
import { entry } from './raise';

const RFC = 'RFC 6749 §4.1.2';

/** "Replay this code": the service refused the code sent a second time, as it must. */
export const CODE_REPLAY_REFUSED = entry({
	code: 'code-replay-refused',
	level: 'info',
	message: (status: number, error: string | undefined) =>
		`The service refused the code the second time (HTTP ${status}${error ? `, ${error}` : ''}), as ${RFC} requires: a code is used once.`,
	ref: RFC
});

/**
 * "Replay this code": the service gave tokens for a code it had already exchanged, which it MUST
 * NOT do.
 */
export const CODE_REPLAY_ACCEPTED = entry({
	code: 'code-reuse-accepted',
	level: 'warning',
	message: `The service gave tokens for a code it had already exchanged: ${RFC} says a code MUST NOT be used more than once, and the service should refuse it.`,
	ref: RFC
});

/**
 * After a replay, the access token issued from the code no longer works: the service revoked it.
 */
export const TOKENS_REVOKED = entry({
	code: 'tokens-revoked',
	level: 'info',
	message: `The access token issued from the replayed code no longer works (HTTP 401): the service revoked it, as ${RFC} recommends. The original flow's tokens are the same ones, so they no longer work either.`,
	ref: RFC
});

/**
 * After a replay, the access token issued from the code still works: the service did not revoke it.
 */
export const TOKENS_NOT_REVOKED = entry({
	code: 'tokens-not-revoked',
	level: 'info',
	message: `The access token issued from the replayed code still works: the service did not revoke the tokens issued from a reused code, which ${RFC} says it SHOULD.`,
	ref: RFC
});

/**
 * After a replay, the access token issued from the code had expired: the check of revocation was
 * not sent.
 */
export const TOKENS_NOT_CHECKED = entry({
	code: 'tokens-not-checked',
	level: 'info',
	message:
		'The access token issued from the replayed code had expired, so it was not sent to the user-info endpoint: an expired token is refused whether revoked or not, and refreshing it would spend the refresh token. Whether the service revoked the tokens issued from the code is not known.',
	ref: RFC
});
