/**
 * What "Replay this code" (server/replay.ts) found: how the service answered the code sent a
 * second time, and whether the access token issued from it still works. Information, not failures:
 * the refusal is what the replay is for. `server/replay.ts` decides which applies.
 */
import * as F from '../findings';
import { entry } from './raise';

const RFC = 'RFC 6749 §4.1.2';

export const CODE_REPLAY_REFUSED = entry({
	code: F.CODE_REPLAY_REFUSED,
	level: 'info',
	message: (status: number, error: string | undefined) =>
		`The service refused the code the second time (HTTP ${status}${error ? `, ${error}` : ''}), as ${RFC} requires: a code is used once.`,
	ref: RFC
});

export const CODE_REPLAY_ACCEPTED = entry({
	code: F.CODE_REUSE_ACCEPTED,
	level: 'warning',
	message: `The service gave tokens for a code it had already exchanged: ${RFC} says a code MUST NOT be used more than once, and the service should refuse it.`,
	ref: RFC
});

export const TOKENS_REVOKED = entry({
	code: F.TOKENS_REVOKED,
	level: 'info',
	message: `The access token issued from the replayed code no longer works (HTTP 401): the service revoked it, as ${RFC} recommends. The original flow's tokens are the same ones, so they no longer work either.`,
	ref: RFC
});

export const TOKENS_NOT_REVOKED = entry({
	code: F.TOKENS_NOT_REVOKED,
	level: 'info',
	message: `The access token issued from the replayed code still works: the service did not revoke the tokens issued from a reused code, which ${RFC} says it SHOULD.`,
	ref: RFC
});
