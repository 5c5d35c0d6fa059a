/**
 * Why a refresh failed: one finding naming the most likely cause of a refused refresh token, in
 * place of the generic one, and how sure it is (the words: catalogue/refresh-failure.ts). From what
 * is on record of the refresh token it sent (`RefreshHistory`: worked out from a recording's
 * exchanges by `refreshHistories`, for a HAR import), then from the service's own words, for any
 * server. A refusal of the client (invalid_client), of the grant type or of the scope is no refusal
 * of the refresh token: the token endpoint's own findings say those. GitHub answers its refusal
 * with 200 and an error object (`bad_refresh_token`): a refusal too, in a shape of its own.
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { formFields, isFormBody, jsonObject } from '$lib/exchange/text';
import { specOf } from '$lib/steps/registry';
import { raise } from './catalogue/raise';
import * as said from './catalogue/refresh-failure';

/** What is on record of a refresh token, before the refresh that sent it. */
export interface RefreshHistory {
	/** A refresh on record (#n) sent it and got another in its place: it was rotated away. */
	superseded?: number;
	/**
	 * A revocation on record of it, or of the access token issued with it: by the exchange #n, or
	 * by this flow's revocation step when its number is not known (the server's own record).
	 */
	revoked?: { by?: number; what: 'refresh' | 'access' };
	/**
	 * The answer that issued it (#n, when its number is known: a recording) gave it an expiry (in
	 * this field), and it was sent after it.
	 */
	expired?: { from?: number; field: string };
}

/** The errors that refuse the client or the request itself, never the refresh token. */
const NOT_THE_TOKEN = new Set([
	'invalid_client',
	'unauthorized_client',
	'unsupported_grant_type',
	'invalid_scope'
]);

/** The errors that refuse the refresh token itself: RFC 6749 §5.2's, and GitHub's own. */
const REFUSES_TOKEN = new Set(['invalid_grant', 'bad_refresh_token']);

/** A refresh's answer that refuses its refresh token, read for its error and words; else none. */
function refusal(
	ex: Exchange
): { error: string; words: string | undefined; answered: string | undefined } | undefined {
	if (specOf(ex.step).grantType !== 'refresh_token') return undefined;
	const res = ex.response;
	if (!res || (res.status >= 300 && res.status < 400) || res.status >= 500) return undefined;
	const body = jsonObject(res.body);
	const error = typeof body?.error === 'string' ? body.error : undefined;
	const description = body?.error_description;
	const words =
		typeof description === 'string' && description.trim() ? description.trim() : undefined;
	if (!error || NOT_THE_TOKEN.has(error)) return undefined;
	// invalid_request is the request's, unless its words are about the token.
	if (error === 'invalid_request' && !/token/i.test(words ?? '')) return undefined;
	if (!REFUSES_TOKEN.has(error) && error !== 'invalid_request' && res.status !== 403)
		return undefined;
	const answered =
		res.status === 400 && error === 'invalid_grant' ? undefined : `${res.status} ${error}`;
	return { error, words, answered };
}

/**
 * Whether a refresh's answer refuses its refresh token by the error that says so (invalid_grant,
 * GitHub's bad_refresh_token), whatever its status but a 3xx or a 5xx: Auth0 answers 403, GitHub
 * 200.
 */
export function refusesRefreshToken(ex: Exchange): boolean {
	const r = refusal(ex);
	return !!r && REFUSES_TOKEN.has(r.error);
}

/**
 * The finding for a refused refresh token, its cause first from the record (certain, or likely
 * for an access token revoked), then from the service's words; undefined when the answer is no
 * refusal of the refresh token, or when neither the record nor the words name a cause and the
 * answer is the standard's 400 invalid_grant (the token endpoint's own finding says it then).
 */
export function refreshRefusal(ex: Exchange, history: RefreshHistory = {}): Finding | undefined {
	const r = refusal(ex);
	if (!r) return undefined;
	const { words, answered } = r;
	if (history.superseded !== undefined)
		return raise(said.REFRESH_SUPERSEDED, history.superseded, words, answered);
	if (history.revoked?.what === 'refresh')
		return raise(said.REFRESH_REVOKED, history.revoked.by, words, answered);
	if (history.expired)
		return raise(
			said.REFRESH_EXPIRED,
			history.expired.from,
			history.expired.field,
			words,
			answered
		);
	if (history.revoked)
		return raise(said.REFRESH_ACCESS_REVOKED, history.revoked.by, words, answered);
	if (words && /\bsession\b.*\bnot active\b|\bsession (has )?(ended|expired)\b/i.test(words))
		return raise(said.REFRESH_SESSION_ENDED, words, answered);
	if (words && /\bnot active\b|\bexpired\b|\brevoked\b/i.test(words))
		return raise(said.REFRESH_NOT_ACTIVE, words, answered);
	if (words && /\bunknown\b|\bnot found\b|\binvalid refresh token\b/i.test(words))
		return raise(said.REFRESH_UNKNOWN, words, answered);
	return answered ? raise(said.REFRESH_REFUSED_OTHER_SHAPE, words, answered) : undefined;
}

/** A form body's field, unless absent or shortened by an export (it holds "…"). */
function fieldOf(ex: Exchange, name: string): string | undefined {
	if (!isFormBody(ex.request.headers, ex.request.body)) return undefined;
	const v = formFields(ex.request.body).find(([n]) => n === name)?.[1];
	return v && !v.includes('…') ? v : undefined;
}

/** The fields a refresh token's expiry comes in: the common one, and Keycloak's. */
const EXPIRY_FIELDS = ['refresh_token_expires_in', 'refresh_expires_in'] as const;

/**
 * The live flow's refresh token past the expiry the answer that gave it said (`extra`, the fields
 * of the token answer beyond the service's API docs, received at `obtainedAt`), at `now`; none
 * when no answer gave it one, or while it holds.
 */
export function expiredAt(
	extra: Readonly<Record<string, unknown>>,
	obtainedAt: number,
	now: number
): RefreshHistory['expired'] {
	for (const field of EXPIRY_FIELDS) {
		const seconds = extra[field];
		// 0 is no expiry (Keycloak's refresh_expires_in for an offline token): only a positive number.
		if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0)
			return now >= obtainedAt + seconds * 1000 ? { field } : undefined;
	}
	return undefined;
}

/**
 * Each refresh's history in a recording (by the exchange's index), from the exchanges before it:
 * which answer issued the refresh token it sent and with what expiry, which refresh sent it before
 * and got another in its place, which revocation revoked it or its access token. Tokens shortened
 * by an export are not matched.
 */
export function refreshHistories(exchanges: readonly Exchange[]): Map<number, RefreshHistory> {
	const out = new Map<number, RefreshHistory>();
	/** Each refresh token issued: the answer (#n), its access token, and its expiry. */
	const issued = new Map<
		string,
		{ n: number; access?: string; expiresAt?: number; field?: string }
	>();
	/** Each refresh token a successful refresh sent and got another for: that refresh's #n. */
	const replaced = new Map<string, number>();
	/** Each token revoked: the revocation's #n. */
	const revoked = new Map<string, number>();
	exchanges.forEach((ex, i) => {
		const n = i + 1;
		const spec = specOf(ex.step);
		if (spec.spends === 'revoke') {
			const token = fieldOf(ex, 'token');
			const status = ex.response?.status ?? 0;
			if (token && status >= 200 && status < 300) revoked.set(token, n);
			return;
		}
		if (!spec.grantType) return;
		const sent = spec.grantType === 'refresh_token' ? fieldOf(ex, 'refresh_token') : undefined;
		const at = Date.parse(ex.startedAt);
		if (sent) {
			const from = issued.get(sent);
			const history: RefreshHistory = {};
			if (replaced.has(sent)) history.superseded = replaced.get(sent)!;
			if (revoked.has(sent)) history.revoked = { by: revoked.get(sent)!, what: 'refresh' };
			else if (from?.access && revoked.has(from.access))
				history.revoked = { by: revoked.get(from.access)!, what: 'access' };
			if (from?.expiresAt !== undefined && from.field && at > from.expiresAt)
				history.expired = { from: from.n, field: from.field };
			out.set(i, history);
		}
		const res = ex.response;
		const body = res && res.status >= 200 && res.status < 300 ? jsonObject(res.body) : undefined;
		const next = body?.refresh_token;
		if (typeof next !== 'string' || next.includes('…')) return;
		if (sent && next !== sent) replaced.set(sent, n);
		const field = EXPIRY_FIELDS.find(
			(f) => typeof body?.[f] === 'number' && (body[f] as number) > 0
		);
		const seconds = field ? (body![field] as number) : undefined;
		issued.set(next, {
			n,
			access: typeof body?.access_token === 'string' ? body.access_token : undefined,
			...(field && seconds ? { expiresAt: at + seconds * 1000, field: `${field} ${seconds}` } : {})
		});
	});
	return out;
}
