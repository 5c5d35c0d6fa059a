/**
 * Which recorded requests spend something when they are sent again, for the exports that can be
 * run (the curl script, "Copy as curl", "Copy as Node fetch"): the code exchange
 * (`grant_type=authorization_code`, RFC 6749 §4.1.3), a refresh (`grant_type=refresh_token`, §6)
 * and a revocation (a request to a revocation endpoint, RFC 7009). A code is single-use and the
 * refresh token rotates: the service treats a replay as reuse and revokes the tokens issued from it
 * (RFC 6749 §4.1.2 and §10.4), so an export runs these only when asked to (`RUN_SPENDING_STEPS=1`).
 */
import { specOf } from '$lib/steps/registry';
import type { Spend } from '$lib/steps/spec';
import { formFields, isFormBody, parseJson, queryFields, splitUrl } from './text';
import type { Exchange } from './types';

/** What a spending step uses up, for the sentence "Skipped: it …". */
export const SPENDS: Record<Spend, string> = {
	code: 'it spends the authorization code',
	refresh: 'it spends the refresh token',
	revoke: 'it revokes a token'
};

/** Why spending steps do not run by default. */
export const SPEND_WHY =
	'A code is single-use and the refresh token rotates; replaying them makes the service revoke the grant.';

/** The variable that turns the spending steps on. */
export const RUN_SPENDING = 'RUN_SPENDING_STEPS';

/** The request's fields by name: query, form body and a JSON body's top-level strings. */
export function requestFields(req: Exchange['request']): Map<string, string> {
	const out = new Map<string, string>(queryFields(req.url));
	if (isFormBody(req.headers, req.body)) for (const [n, v] of formFields(req.body)) out.set(n, v);
	else {
		// parseJson gives an object, an array or undefined, nothing else.
		const json = parseJson(req.body);
		if (json && !Array.isArray(json))
			for (const [n, v] of Object.entries(json)) if (typeof v === 'string') out.set(n, v);
	}
	return out;
}

/**
 * What sending this request again would spend, if anything: by the grant it sends, or a
 * revocation's by its step's spec or its URL. A request the playground server did not send (the
 * consent page the browser opened, the redirect back) is shown by the exports, never sent, and so
 * is a check whose spec says so (the client secret check's made-up code): neither spends anything.
 */
export function spends(ex: Exchange): Spend | undefined {
	const spec = specOf(ex.step);
	if (spec.travels !== 'server' || spec.exportsShowOnly) return undefined;
	const grant = requestFields(ex.request).get('grant_type');
	if (grant === 'authorization_code') return 'code';
	if (grant === 'refresh_token') return 'refresh';
	if (spec.spends === 'revoke' || /\/(revoke|revocation)\/?$/i.test(splitUrl(ex.request.url).base))
		return 'revoke';
	return undefined;
}

/**
 * Why an export shows a deliberate replay and never sends it, not even with `RUN_SPENDING_STEPS=1`:
 * a code replayed, or a superseded refresh token tried (and the current one after it), from a fork
 * of the flow (server/steps/replay.ts). None for any other request.
 */
export function notResent(ex: Exchange): string | undefined {
	if (!ex.replay) return undefined;
	const spend = spends(ex);
	if (spend === 'refresh')
		return 'Not re-sent: part of a deliberate replay of a superseded refresh token, sent once on purpose from a fork of the flow; sending it again could make the service revoke the grant.';
	if (spend === 'code')
		return 'Not re-sent: a deliberate replay of a code already exchanged, sent once on purpose from a fork of the flow.';
	return undefined;
}
