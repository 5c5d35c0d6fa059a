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
import { raise } from '$lib/oauth/catalogue/raise';
import { jsonObject } from '$lib/exchange/text';
import { callApi, exchangeCode, prepareConsent, type StepResult } from './flow-steps';
import type { StepContext } from '../flow/context';
import type { Session } from '../session/session';
import { NOTHING_TO_REPLAY, refuse } from '../flow/refusals';

const RFC = 'RFC 6749 §4.1.2';

/** Whether this flow may replay a code: the one it exchanged, under the setup it still has. */
export function canReplay(session: Session): boolean {
	return !!session.spent && !!session.tokens && session.spent.setup_id === session.setup_id;
}

/**
 * The fork's session: the flow's setup, secret binding and tokens, a fresh consent request, and the
 * flow it was made from (`from`).
 */
export function replayFork(session: Session, from: string, now: number): Session {
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
			fork_of: { flow: from, by: 'code' }
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
