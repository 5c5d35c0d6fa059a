/**
 * What "Replay the previous refresh token" (server/steps/replay.ts) found: how the service treats a
 * refresh token it replaced by rotation when it comes back. A server that rotates refresh tokens
 * should detect such a reuse and revoke the grant's tokens (RFC 9700 §4.14.2); some accept the
 * previous token for a while after the rotation (a grace window). Information, not failures:
 * sending it is what the try is for. replay.ts decides which applies.
 */
import { entry } from './raise';

const BCP = 'RFC 9700 §4.14.2';

/** The superseded refresh token was refused (`invalid_grant`): the first half of what a rotating server does. */
export const REFRESH_REPLAY_REFUSED = entry({
	code: 'refresh-replay-refused',
	level: 'info',
	message: (status: number, error: string | undefined, age: number) =>
		`The service refused the refresh token it had replaced ${seconds(age)} ago (HTTP ${status}${error ? `, ${error}` : ''}): a refresh token it rotated is not taken back. The current one was sent next, to see whether the reuse cost the grant.`,
	ref: BCP
});

/**
 * The superseded refresh token was accepted: a reuse window at least this long, or refresh tokens
 * that are not single-use.
 */
export const REFRESH_REPLAY_ACCEPTED = entry({
	code: 'refresh-replay-accepted',
	level: 'info',
	message: (age: number) =>
		`The service accepted the refresh token it had replaced ${seconds(age)} ago, and answered with new tokens: either it has a reuse window of at least ${seconds(age)} for the previous refresh token (some servers allow one, so that a client whose answer was lost can retry), or it does not make refresh tokens single-use at all. A server that rotates them should revoke the grant on a reuse past any such window (${BCP}).`,
	ref: BCP
});

/** An answer to the try that is no refusal of the token: the try stops there. */
export const REFRESH_REPLAY_UNTOLD = entry({
	code: 'refresh-replay-untold',
	level: 'info',
	message: (answer: string, which: 'previous' | 'current') =>
		`The ${which} refresh token got ${answer}: not a refusal of the token itself (that is invalid_grant, RFC 6749 §5.2), so this says nothing about what the service does with a reused refresh token. The try stopped here${which === 'previous' ? ': the current token was not sent' : ''}.`,
	ref: 'RFC 6749 §5.2'
});

/** The newest access token had expired: the check after the try was not made. */
export const REFRESH_REPLAY_NOT_CHECKED = entry({
	code: 'refresh-replay-not-checked',
	level: 'info',
	message:
		'The newest access token the fork holds had expired, so it was not sent to the user-info endpoint: an expired token is refused whether revoked or not, and refreshing it would send a refresh token once more. Whether the service revoked the access tokens is not known.',
	ref: BCP
});

/** After the refused reuse, the current refresh token still works: the family was kept. */
export const REFRESH_REPLAY_CURRENT_KEPT = entry({
	code: 'refresh-replay-current-kept',
	level: 'info',
	message: `After refusing the previous refresh token, the service still accepted the current one: it did not revoke the grant on the reuse, which ${BCP} recommends for a server that rotates refresh tokens. The fork's refresh replaced the current token, so the original flow's refresh token is now the previous one: a refresh there is itself a reuse.`,
	ref: BCP
});

/** After the refused reuse, the current refresh token was refused too: the family was revoked. */
export const REFRESH_REPLAY_FAMILY_REVOKED = entry({
	code: 'refresh-replay-family-revoked',
	level: 'info',
	message: (status: number, error: string | undefined) =>
		`After the previous refresh token came back, the service refused the current one too (HTTP ${status}${error ? `, ${error}` : ''}): it revoked the grant's refresh tokens on the reuse, as ${BCP} recommends. The original flow's refresh token is the current one, so it no longer works either.`,
	ref: BCP
});

/** The check after the try: the newest access token still works. */
export const REFRESH_REPLAY_ACCESS_WORKS = entry({
	code: 'refresh-replay-access-works',
	level: 'info',
	message:
		'The newest access token the fork holds still works (the user-info call answered 2xx) after the try.',
	ref: BCP
});

/** The check after the try: the newest access token no longer works. */
export const REFRESH_REPLAY_ACCESS_REVOKED = entry({
	code: 'refresh-replay-access-revoked',
	level: 'info',
	message: `The newest access token the fork holds no longer works (HTTP 401) after the try: the service revoked the grant's access tokens as well. The original flow holds the same access token, unless the fork's try gave new ones.`,
	ref: BCP
});

function seconds(n: number): string {
	return `${n} second${n === 1 ? '' : 's'}`;
}

/** "Two refreshes at once": both answered new tokens. */
export const RACE_BOTH_ACCEPTED = entry({
	code: 'refresh-race-both-accepted',
	level: 'info',
	message:
		'Two refreshes with the same refresh token, sent at once, both answered new tokens: the service took the second as a retry, not a reuse (a reuse window, or refresh tokens that are not single-use). The tokens they returned were not tried: that would spend them.',
	ref: BCP
});

/** "Two refreshes at once": this one was refused, the other answered new tokens. */
export const RACE_REFUSED = entry({
	code: 'refresh-race-refused',
	level: 'info',
	message: (status: number, error: string | undefined) =>
		`Of two refreshes with the same refresh token sent at once, this one was refused (HTTP ${status}${error ? `, ${error}` : ''}) and the other answered new tokens: the service treats a second, concurrent use as a reuse. A service that revokes the grant on reuse (${BCP}) has revoked the other's new tokens too; they were not tried, since that would spend them.`,
	ref: BCP
});

/** "Two refreshes at once": this one answered new tokens, the other was refused. */
export const RACE_ACCEPTED = entry({
	code: 'refresh-race-accepted',
	level: 'info',
	message:
		'Of two refreshes with the same refresh token sent at once, this one answered new tokens and the other was refused. The new tokens were not tried: that would spend them, and a service that revokes the grant on reuse may have revoked them already.',
	ref: BCP
});

/** "Two refreshes at once": both were refused. */
export const RACE_BOTH_REFUSED = entry({
	code: 'refresh-race-both-refused',
	level: 'info',
	message:
		'Two refreshes with the same refresh token, sent at once, were both refused (invalid_grant): the service revoked the grant on the concurrent use, or the refresh token no longer worked before them.',
	ref: BCP
});

/** "Two refreshes at once": this one was refused, and the other's answer tells nothing. */
export const RACE_REFUSED_ALONE = entry({
	code: 'refresh-race-refused-alone',
	level: 'info',
	message: (status: number, error: string | undefined, other: string) =>
		`Of two refreshes with the same refresh token sent at once, this one was refused (HTTP ${status}${error ? `, ${error}` : ''}), and the other got ${other}, which says nothing about the token: whether the service took this one as a reuse, or the token no longer worked, is not known.`,
	ref: BCP
});
