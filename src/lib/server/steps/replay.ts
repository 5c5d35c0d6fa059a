/**
 * "Replay this code": support staff show how a service answers a code used twice (RFC 6749
 * §4.1.2: it MUST refuse it, and SHOULD revoke the tokens issued from it). Only the code this flow
 * itself exchanged for tokens, only on the user's confirmation (the action refuses a request
 * without it), and in a fork of the flow: the original flow's session is not written, so it stays
 * as it was, while the fork holds a copy of its setup, secret binding and tokens, and records the
 * flow it was made from. A flow has one fork at a time (fork.ts). In the fork the
 * code is sent again, then the access token issued from it is sent to the user-info endpoint, to see
 * whether the service revoked it. Their findings are information, not failures: the refusal is what
 * the replay is for.
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';
import * as found from '$lib/oauth/catalogue/code-replay';
import * as tried from '$lib/oauth/catalogue/refresh-replay';
import { raise } from '$lib/oauth/catalogue/raise';
import { jsonObject } from '$lib/exchange/text';
import { refusesRefreshToken } from '$lib/oauth/refresh-cause';
import {
	callApi,
	exchangeCode,
	prepareConsent,
	refreshTokens,
	type StepResult
} from './flow-steps';
import { realTokens } from '../flow/tokens';
import { isExpired } from '$lib/oauth/token-set';
import type { StepContext } from '../flow/context';
import type { Session } from '../session/session';
import {
	NO_PREVIOUS_REFRESH,
	NO_TOKENS_TO_RACE,
	NOTHING_TO_REPLAY,
	refuse,
	TRY_SUPERSEDED
} from '../flow/refusals';

const RFC = 'RFC 6749 §4.1.2';

/**
 * Whether this flow may replay a code: the one it exchanged, under the setup it still has. A fork
 * is a record of a try, and tries nothing of its own (FORK_IS_RECORD), nor does any below.
 */
export function canReplay(session: Session): boolean {
	return (
		!session.fork_of &&
		!!session.spent &&
		!!session.tokens &&
		session.spent.setup_id === session.setup_id
	);
}

/**
 * The fork's session: the flow's setup, secret binding and tokens, a fresh consent request, and the
 * flow it was made from (`from`).
 */
export function replayFork(
	session: Session,
	from: string,
	now: number,
	by: 'code' | 'refresh' = 'code'
): Session {
	const { setup, client_secret, secret_for, preset, secret_note, setup_id } = session;
	const { tokens, token_values, tokens_for, metadata_for } = session;
	return prepareConsent(
		{
			v: 1,
			setup,
			client_secret,
			secret_for,
			preset,
			secret_note,
			setup_id,
			tokens,
			token_values,
			tokens_for,
			metadata_for,
			fork_of: { flow: from, by }
		},
		now
	);
}

/** The replayed exchange's findings: its refusal is the expected answer; tokens again are not. */
function replayFindings(ex: Exchange): Finding[] {
	const status = ex.response?.status ?? 0;
	const others = ex.findings.filter((f) => f.level !== 'error');
	if (status >= 200 && status < 300) return [raise(found.CODE_REPLAY_ACCEPTED), ...others];
	if (!ex.response) return ex.findings;
	return [raise(found.CODE_REPLAY_REFUSED, status, oauthErrorOf(ex)), ...others];
}

/** The answer's OAuth `error`, when it has one. */
function oauthErrorOf(ex: Exchange): string | undefined {
	const body = jsonObject(ex.response?.body ?? '');
	return typeof body?.error === 'string' ? body.error : undefined;
}

/**
 * What the fork records of the tokens it shares with the flow it was made from: revoked, when its
 * check of their access token was refused (401), by the time they were received.
 */
function revokedBoth(session: Session, check: Exchange | undefined): { revoked?: number } {
	return check?.response?.status === 401 && session.tokens
		? { revoked: session.tokens.obtained_at }
		: {};
}

/** The check of revocation: the access token issued from the code, still accepted or not. */
function revocationFindings(ex: Exchange): Finding[] {
	const status = ex.response?.status;
	if (status === undefined) return ex.findings;
	const others = ex.findings.filter((f) => f.level !== 'error');
	if (status === 401) return [raise(found.TOKENS_REVOKED), ...others];
	if (status >= 200 && status < 300) return [raise(found.TOKENS_NOT_REVOKED), ...others];
	return ex.findings;
}

/**
 * The replay, in a fork of `session` (flow `from`): the code sent again, then the check of
 * revocation. Returns the fork's session and the two exchanges; nothing is written here. The check
 * is counted by the visitor's address (`c.client`) in the sender's pool, as every pooled call is.
 */
export async function replayCode(
	c: StepContext,
	session: Session,
	from: string
): Promise<StepResult & { fork?: Session }> {
	if (!canReplay(session)) return refuse(NOTHING_TO_REPLAY);
	const fork = replayFork(session, from, c.app.clock());
	const { held: _held, setup_id: _setup, ...code } = session.spent!;
	const replayed = await exchangeCode(c, { ...fork, code });
	if (!replayed.ok) return replayed;
	const replay = replayed.exchanges.map((ex) => ({
		...ex,
		replay: true as const,
		note: `The code this flow exchanged, sent again on purpose, from a fork of the flow: how the service answers a code used twice (${RFC}).`,
		findings: replayFindings(ex)
	}));
	// The token the original exchange gave (the fork's copy), whatever the replay gave; not sent
	// once expired (checkAccess).
	const { exchanges: check } = await checkAccess(
		c,
		fork,
		'A check of revocation: the access token issued from the replayed code, sent to the user-info endpoint.',
		revocationFindings
	);
	// Not sent (the access token had expired): said on the replay, so nothing is left unsaid.
	const last = replay.at(-1);
	if (!check.length && last) last.findings = [...last.findings, raise(found.TOKENS_NOT_CHECKED)];
	const after = replayed.session ?? fork;
	return {
		ok: true,
		// The original flow's session, as it was: nothing of it is written.
		session,
		fork: {
			...after,
			spent: undefined,
			code: undefined,
			fork_of: { ...after.fork_of!, ...revokedBoth(session, check.at(-1)) }
		},
		exchanges: [...replay, ...check]
	};
}

/**
 * Whether this flow may send its previous refresh token on purpose: a refresh of this flow replaced
 * it (the service rotated it), under the setup it still has, and the flow holds the tokens that
 * replaced it, none of them revoked (step 8 proved one no longer works: a refusal then could not
 * be told from what the try caused), and no fork's try superseded them (`supersededHere`).
 */
export function canReplayRefresh(session: Session): boolean {
	const previous = session.previous_refresh;
	return (
		!session.fork_of &&
		!supersededHere(session) &&
		!!previous &&
		!!realTokens(session)?.refresh_token &&
		!session.tokens?.revoked &&
		previous.setup_id === session.setup_id
	);
}

/**
 * Whether a fork's try superseded the refresh token this flow holds (`fork_superseded`): a try
 * here would send that superseded token, as a refresh would (its refreshes are held).
 */
const supersededHere = (s: Session) =>
	s.tokens?.obtained_at !== undefined && s.fork_superseded === s.tokens.obtained_at;

const ok2xx = (ex: Exchange | undefined) =>
	!!ex?.response && ex.response.status >= 200 && ex.response.status < 300;

/**
 * A refusal of the refresh token itself (RFC 6749 §5.2): `invalid_grant` (or GitHub's
 * `bad_refresh_token`), at the standard's 400 or the status a server gives it (Auth0's 403,
 * GitHub's 200; oauth/refresh-cause.ts). Any other answer (no answer, a 5xx, a 429,
 * `invalid_client`) says nothing about the token.
 */
const tokenRefused = refusesRefreshToken;

/** The try's exchange marked as sent on purpose, with what it showed first. */
function tryOf(ex: Exchange, finding: Finding, keepErrors = false): Exchange {
	return {
		...ex,
		replay: true,
		findings: [finding, ...ex.findings.filter((f) => keepErrors || f.level !== 'error')]
	};
}

/**
 * After a try that answered with new tokens (`answered`, from the fork `fork`): when the answer
 * carried no refresh token, the service did not rotate, and the fork keeps its own current one
 * (the try's session holds the previous one in its place).
 */
function afterAccepted(answered: Session, fork: Session): Session {
	const refresh = realTokens(answered)!;
	if (refresh.refresh?.rotated) return answered;
	const own = realTokens(fork)!.refresh_token;
	return {
		...answered,
		tokens: { ...answered.tokens!, refresh_token: fork.tokens!.refresh_token },
		token_values: answered.token_values && { ...answered.token_values, refresh_token: own }
	};
}

/** The check after a try or a replay: the access token `session` holds, sent to user-info. */
async function checkAccess(
	c: StepContext,
	session: Session,
	note: string,
	judge: (ex: Exchange) => Finding[]
): Promise<{ exchanges: Exchange[]; session: Session }> {
	// An expired token answers 401 whether revoked or not, and the call would refresh it first:
	// not sent, and said so.
	if (session.tokens && isExpired(session.tokens, c.app.sender.clock()))
		return { exchanges: [], session };
	const checked = await callApi(c, session, 'userinfo');
	const sent = 'exchanges' in checked && Array.isArray(checked.exchanges) ? checked.exchanges : [];
	return {
		exchanges: sent.map((ex) =>
			specOf(ex.step).endpoint === 'userinfo'
				? { ...ex, replay: true as const, note, findings: judge(ex) }
				: { ...ex, replay: true as const }
		),
		session: (checked.ok ? checked.session : undefined) ?? session
	};
}

/** The try's check of access: whether the newest access token still works. */
function accessFindings(ex: Exchange): Finding[] {
	const status = ex.response?.status;
	const others = ex.findings.filter((f) => f.level !== 'error');
	if (status === 401) return [raise(tried.REFRESH_REPLAY_ACCESS_REVOKED), ...others];
	if (ok2xx(ex)) return [raise(tried.REFRESH_REPLAY_ACCESS_WORKS), ...others];
	return ex.findings;
}

/**
 * "Replay the previous refresh token", confirmed, in a fork of `session` (flow `from`): the
 * previous refresh token sent again; if the service refused it (`invalid_grant`), the current one,
 * to see whether the reuse cost the grant; then the newest access token to the user-info endpoint
 * (unless it has expired). What the service did is in the findings: the previous token accepted
 * (reused N s after it was replaced), or refused with the current one kept, or refused with the
 * family revoked. An answer that is no refusal of the token (none, a 5xx, `invalid_client`) stops
 * the try there, said so. Returns the fork's session and the exchanges; nothing is written here,
 * and the original flow's session is returned as it was.
 */
export async function replayRefresh(
	c: StepContext,
	session: Session,
	from: string
): Promise<StepResult & { fork?: Session }> {
	if (supersededHere(session)) return refuse(TRY_SUPERSEDED);
	if (!canReplayRefresh(session)) return refuse(NO_PREVIOUS_REFRESH);
	const fork = replayFork(session, from, c.app.clock(), 'refresh');
	const previous = session.previous_refresh!;
	const age = Math.max(0, Math.round((c.app.sender.clock() - previous.replaced_at) / 1000));
	const real = realTokens(fork)!;
	const withPrevious: Session = {
		...fork,
		token_values: { access_token: real.access_token, refresh_token: previous.value }
	};
	const first = await refreshTokens(
		c,
		withPrevious,
		'The previous refresh token, which a refresh of this flow replaced, sent again on purpose from a fork of the flow.'
	);
	if (!first.ok) return first;
	const [sent] = first.exchanges;
	if (!sent) return first;
	const exchanges: Exchange[] = [];
	let newest = fork;
	let check = true;
	const gaveTokens = first.session !== withPrevious;
	if (ok2xx(sent) && gaveTokens) {
		exchanges.push(tryOf(sent, raise(tried.REFRESH_REPLAY_ACCEPTED, age)));
		newest = afterAccepted(first.session, fork);
	} else if (!tokenRefused(sent)) {
		exchanges.push(
			tryOf(sent, raise(tried.REFRESH_REPLAY_UNTOLD, answerWords(sent), 'previous'), true)
		);
		check = false;
	} else {
		exchanges.push(
			tryOf(
				sent,
				raise(tried.REFRESH_REPLAY_REFUSED, sent.response!.status, oauthErrorOf(sent), age)
			)
		);
		const second = await refreshTokens(
			c,
			fork,
			'The current refresh token, sent after the previous one was refused: whether the reuse cost the grant.'
		);
		if (!second.ok) return second;
		const [current] = second.exchanges;
		if (current) {
			if (ok2xx(current) && second.session !== fork) {
				exchanges.push(tryOf(current, raise(tried.REFRESH_REPLAY_CURRENT_KEPT)));
				newest = second.session;
			} else if (tokenRefused(current))
				exchanges.push(
					tryOf(
						current,
						raise(
							tried.REFRESH_REPLAY_FAMILY_REVOKED,
							current.response!.status,
							oauthErrorOf(current)
						)
					)
				);
			else {
				exchanges.push(
					tryOf(current, raise(tried.REFRESH_REPLAY_UNTOLD, answerWords(current), 'current'), true)
				);
				check = false;
			}
		}
	}
	let after = newest;
	let revoked = {};
	if (check) {
		const checked = await checkAccess(
			c,
			newest,
			'A check after the try: the newest access token the fork holds, sent to the user-info endpoint.',
			accessFindings
		);
		if (checked.exchanges.length) exchanges.push(...checked.exchanges);
		else
			exchanges[exchanges.length - 1] = {
				...exchanges.at(-1)!,
				findings: [...exchanges.at(-1)!.findings, raise(tried.REFRESH_REPLAY_NOT_CHECKED)]
			};
		after = checked.session;
		// The access token checked is the one both hold unless a refresh of the try replaced it.
		if (newest === fork) revoked = revokedBoth(session, checked.exchanges.at(-1));
	}
	// A refresh of the try gave the fork new tokens: the parent's refresh token is superseded.
	const superseded = newest !== fork;
	return {
		ok: true,
		session,
		fork: {
			...after,
			previous_refresh: undefined,
			fork_of: {
				flow: from,
				by: 'refresh',
				...(superseded ? { superseded: true } : {}),
				...revoked
			}
		},
		exchanges
	};
}

/** An answer in a few words: "HTTP 503", "HTTP 401, invalid_client", "no answer". */
function answerWords(ex: Exchange): string {
	if (!ex.response) return `no answer${ex.failure ? ` (${ex.failure.message})` : ''}`;
	const error = oauthErrorOf(ex);
	return `HTTP ${ex.response.status}${error ? `, ${error}` : ''}`;
}

/**
 * Whether this flow may send "Two refreshes at once": it holds a refresh token, under its setup,
 * none of its tokens revoked, and no fork's try superseded it (`supersededHere`).
 */
export function canRaceRefresh(session: Session): boolean {
	return (
		!session.fork_of &&
		!supersededHere(session) &&
		!!session.setup &&
		!!realTokens(session)?.refresh_token &&
		!session.tokens?.revoked
	);
}

/**
 * "Two refreshes at once", confirmed, in a fork of `session` (flow `from`): two refreshes with the
 * same refresh token, started in the same tick, each on a connection of its own (the refresh step
 * never shares one), and what each answer returned. The tokens they return are not tried: that
 * would spend them. The fork keeps the tokens of the first answer that gave some (then the
 * original flow's refresh token is superseded, and its refreshes are held); nothing is written
 * here, and the original flow's session is returned as it was.
 */
export async function raceRefresh(
	c: StepContext,
	session: Session,
	from: string
): Promise<StepResult & { fork?: Session }> {
	if (supersededHere(session)) return refuse(TRY_SUPERSEDED);
	if (!canRaceRefresh(session)) return refuse(NO_TOKENS_TO_RACE);
	const fork = replayFork(session, from, c.app.clock(), 'refresh');
	const note = (which: string) =>
		`The ${which} of two refreshes with the same refresh token, sent at once on purpose from a fork of the flow: whether the service takes the second as a reuse.`;
	const results = await Promise.all([
		refreshTokens(c, fork, note('first')),
		refreshTokens(c, fork, note('second'))
	]);
	const refused = results.find((r) => !r.ok);
	if (refused) return refused;
	const sent = results.map((r) => (r.ok ? r.exchanges[0] : undefined));
	const gave = results.map((r) => r.ok && r.session !== fork && ok2xx(r.exchanges[0]));
	const denied = sent.map((ex) => !!ex && tokenRefused(ex));
	const exchanges: Exchange[] = [];
	for (const [i, ex] of sent.entries()) {
		if (!ex) continue;
		const other = 1 - i;
		const finding =
			gave[i] && gave[other]
				? raise(tried.RACE_BOTH_ACCEPTED)
				: gave[i] && denied[other]
					? raise(tried.RACE_ACCEPTED)
					: denied[i] && gave[other]
						? raise(tried.RACE_REFUSED, ex.response!.status, oauthErrorOf(ex))
						: denied[i] && denied[other]
							? raise(tried.RACE_BOTH_REFUSED)
							: denied[i] && sent[other]
								? raise(
										tried.RACE_REFUSED_ALONE,
										ex.response!.status,
										oauthErrorOf(ex),
										answerWords(sent[other])
									)
								: raise(tried.REFRESH_REPLAY_UNTOLD, answerWords(ex), 'current');
		exchanges.push(tryOf(ex, finding, !gave[i] && !denied[i]));
	}
	const first = results.find((r, i) => gave[i] && r.ok);
	const after = first?.ok ? first.session : fork;
	return {
		ok: true,
		session,
		fork: {
			...after,
			previous_refresh: undefined,
			fork_of: { flow: from, by: 'refresh', ...(first ? { superseded: true } : {}) }
		},
		exchanges
	};
}
