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
import {
	callApi,
	exchangeCode,
	prepareConsent,
	refreshTokens,
	type StepResult
} from './flow-steps';
import { realTokens } from '../flow/tokens';
import type { StepContext } from '../flow/context';
import type { Session } from '../session/session';
import { NO_PREVIOUS_REFRESH, NOTHING_TO_REPLAY, refuse } from '../flow/refusals';

const RFC = 'RFC 6749 §4.1.2';

/** Whether this flow may replay a code: the one it exchanged, under the setup it still has. */
export function canReplay(session: Session): boolean {
	return !!session.spent && !!session.tokens && session.spent.setup_id === session.setup_id;
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
	// The token the original exchange gave (the fork's copy), whatever the replay gave.
	const checked = await callApi(c, fork, 'userinfo');
	const check = checked.ok
		? checked.exchanges
				.filter((ex) => specOf(ex.step).endpoint === 'userinfo')
				.map((ex) => ({
					...ex,
					replay: true as const,
					note: 'A check of revocation: the access token issued from the replayed code, sent to the user-info endpoint.',
					findings: revocationFindings(ex)
				}))
		: [];
	const after = replayed.session ?? fork;
	return {
		ok: true,
		// The original flow's session, as it was: nothing of it is written.
		session,
		fork: { ...after, spent: undefined, code: undefined },
		exchanges: [...replay, ...check]
	};
}

/**
 * Whether this flow may send its previous refresh token on purpose: a refresh of this flow replaced
 * it (the service rotated it), under the setup it still has, and the flow holds the tokens that
 * replaced it.
 */
export function canReplayRefresh(session: Session): boolean {
	const previous = session.previous_refresh;
	return (
		!!previous && !!realTokens(session)?.refresh_token && previous.setup_id === session.setup_id
	);
}

const ok2xx = (ex: Exchange | undefined) =>
	!!ex?.response && ex.response.status >= 200 && ex.response.status < 300;

/** The try's exchange marked as sent on purpose, its findings replaced by what it showed. */
function tryOf(ex: Exchange, note: string, finding: Finding): Exchange {
	return {
		...ex,
		replay: true,
		note,
		findings: [finding, ...ex.findings.filter((f) => f.level !== 'error')]
	};
}

/**
 * "Replay the previous refresh token", confirmed, in a fork of `session` (flow `from`): the
 * previous refresh token sent again; if the service refused it, the current one, to see whether
 * the reuse cost the grant; then the newest access token to the user-info endpoint. What the
 * service did is in the findings: the previous token accepted (a grace window of at least the time
 * since it was replaced), or refused with the current one kept, or refused with the family revoked.
 * Returns the fork's session and the exchanges; nothing is written here, and the original flow's
 * session is returned as it was.
 */
export async function replayRefresh(
	c: StepContext,
	session: Session,
	from: string
): Promise<StepResult & { fork?: Session }> {
	if (!canReplayRefresh(session)) return refuse(NO_PREVIOUS_REFRESH);
	const now = c.app.clock();
	const fork = replayFork(session, from, now, 'refresh');
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
	const exchanges: Exchange[] = [];
	const [sent] = first.exchanges;
	if (!sent) return first;
	let newest: Session;
	if (ok2xx(sent)) {
		exchanges.push(tryOf(sent, sent.note ?? '', raise(tried.REFRESH_REPLAY_ACCEPTED, age)));
		newest = first.session ?? fork;
	} else {
		exchanges.push(
			tryOf(
				sent,
				sent.note ?? '',
				raise(tried.REFRESH_REPLAY_REFUSED, sent.response?.status ?? 0, oauthErrorOf(sent), age)
			)
		);
		const second = await refreshTokens(
			c,
			fork,
			'The current refresh token, sent after the previous one was refused: whether the reuse cost the grant.'
		);
		if (!second.ok) return second;
		const [current] = second.exchanges;
		if (current)
			exchanges.push(
				tryOf(
					current,
					current.note ?? '',
					ok2xx(current)
						? raise(tried.REFRESH_REPLAY_CURRENT_KEPT)
						: raise(
								tried.REFRESH_REPLAY_FAMILY_REVOKED,
								current.response?.status ?? 0,
								oauthErrorOf(current)
							)
				)
			);
		newest = second.session ?? fork;
	}
	const checked = await callApi(c, newest, 'userinfo');
	if (checked.ok)
		for (const ex of checked.exchanges) {
			if (specOf(ex.step).endpoint !== 'userinfo') continue;
			const status = ex.response?.status;
			const finding =
				status === 401
					? raise(tried.REFRESH_REPLAY_ACCESS_REVOKED)
					: ok2xx(ex)
						? raise(tried.REFRESH_REPLAY_ACCESS_WORKS)
						: undefined;
			exchanges.push(
				finding
					? tryOf(
							ex,
							'A check after the try: the newest access token the fork holds, sent to the user-info endpoint.',
							finding
						)
					: { ...ex, replay: true }
			);
		}
	const after = (checked.ok ? checked.session : undefined) ?? newest;
	return {
		ok: true,
		session,
		fork: { ...after, previous_refresh: undefined },
		exchanges
	};
}
