/**
 * The diagnostics of an imported HAR: the same rules as the live flow (diagnose.ts), run in
 * transcript order with the context the live flow had: the scope the consent URL asked for, and the
 * expiry of the token in use. The file's own findings are not trusted, except the callback's: its
 * state check can't be redone from a file (the saved state is not in it). A consent request the
 * browser recorded with its answer gets the live registration check's redirect-URI finding, from
 * the same signals (redirect-refusal.ts). A client secret check is judged as the live one is
 * (judge-secret.ts), except that a file cannot show that its service was the sandbox, whose order
 * of checks is known: an `invalid_grant` to its made-up code is "likely" accepted.
 */
import { fromHar, type ImportOptions, type ImportResult } from '$lib/exchange/har/import';
import { parseJson, queryFields, splitUrl } from '$lib/exchange/text';
import type { Exchange, Finding } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';
import { diagnose, diagnoseCallback, type DiagnoseContext } from './diagnose';
import * as token from './catalogue/token';
import { hasCode, raise } from './catalogue/raise';
import * as stateCheck from './catalogue/state-check';
import * as consentUrl from './catalogue/consent-url';
import { redirectRefusal } from './redirect-refusal';
import { judgeSecretCheck } from './judge-secret';
import { refreshHistories } from './refresh-cause';
import { redirectUriFix } from './redirect-uri';
import { adviceForRecording, type Advice } from './advice';

/** The callback keeps the findings its file carried; without them, its error (if any) can be read. */
function callbackFindings(ex: Exchange, advice: Advice): Finding[] {
	if (ex.findings.length) return ex.findings;
	// Without a query: no parameters, no error.
	const params = new URLSearchParams(splitUrl(ex.request.url).query);
	const error = params.get('error');
	if (error === null) return [];
	return diagnoseCallback('error', error, params.get('error_description') ?? undefined, advice);
}

/**
 * A redirect back whose state no consent request of the file sent: the file cannot show which
 * consent it answers (one from before the recording, another tab's), or it was made up. Said only
 * when the file holds consent requests to compare with, and never for a playground's own record,
 * which carries the state check it made.
 */
function unknownState(ex: Exchange, states: ReadonlySet<string>): Finding[] {
	if (ex.findings.length || states.size === 0) return [];
	const state = new URLSearchParams(splitUrl(ex.request.url).query).get('state');
	if (state === null || states.has(state)) return [];
	return [raise(stateCheck.STATE_NOT_IN_RECORDING)];
}

/**
 * A consent request whose recorded answer refuses its redirect URI, as "Check the consent URL"
 * says it of the live one: certain when the server's code for it (redirect_uri_mismatch,
 * invalid_redirect_uri, …) is in a body, a page's visible text or the query of a redirect to any
 * URI; likely when an error page's (or a redirect to the server's own error page's) words name
 * the redirect URI and refuse it. A redirect back to the redirect URI with any other error
 * (invalid_scope, access_denied) is never one: a server does not redirect to a URI it refuses.
 */
function redirectUriRefused(ex: Exchange): Finding[] {
	const res = ex.response;
	if (!res) return [];
	const fields = queryFields(ex.request.url);
	const field = (name: string) => fields.find(([n]) => n === name)?.[1];
	const sent = field('redirect_uri');
	const refusal = redirectRefusal(res, ex.request.url, sent);
	if (!refusal) return [];
	const fix = redirectUriFix(sent, undefined);
	return [
		refusal.strength === 'certain'
			? raise(
					consentUrl.REDIRECT_URI_REFUSED,
					sent,
					field('client_id'),
					refusal.code,
					refusal.to,
					refusal.words,
					fix,
					undefined
				)
			: raise(
					consentUrl.REDIRECT_URI_LIKELY_REFUSED,
					sent,
					field('client_id'),
					res.status,
					refusal.to,
					refusal.words,
					fix,
					undefined
				)
	];
}

/**
 * The authorization code a token request sends (the step that spends one), unless shortened by an
 * export (it holds "…").
 */
function codeSent(ex: Exchange): string | undefined {
	if (specOf(ex.step).spends !== 'code') return undefined;
	const code = new URLSearchParams(ex.request.body).get('code');
	return code && !code.includes('…') ? code : undefined;
}

/**
 * A code sent again: the service's refusal (invalid_grant) is said in those terms, in place of the
 * generic one; tokens given for it again are a warning of their own.
 */
function reusedCode(findings: Finding[], ex: Exchange, earlier: number): Finding[] {
	const status = ex.response?.status ?? 0;
	if (status >= 200 && status < 300)
		return [...findings, raise(token.CODE_REUSE_ACCEPTED, earlier)];
	const refused = findings.find((f) => hasCode(f, 'invalid_grant'));
	if (!refused) return findings;
	const body = parseJson(ex.response?.body ?? '') as Record<string, unknown> | undefined;
	const desc = typeof body?.error_description === 'string' ? body.error_description : undefined;
	return findings.map((f) => (f === refused ? raise(token.CODE_REUSED, earlier, desc) : f));
}

/**
 * The redirect_uri a code exchange sent, and the one of the consent request that brought its code
 * (the redirect back that carried the code named that request by its state, as it stood then),
 * when the recording holds both.
 */
function codeRedirect(
	ex: Exchange,
	codeRedirectUri: ReadonlyMap<string, string>
): Pick<DiagnoseContext, 'code'> {
	const code = codeSent(ex);
	const consent = code === undefined ? undefined : codeRedirectUri.get(code);
	const sentUri = new URLSearchParams(ex.request.body).get('redirect_uri');
	return consent === undefined || sentUri === null
		? {}
		: { code: { redirectUri: { consent, sent: sentUri } } };
}

/** Findings worked out again for imported exchanges, in transcript order. */
export function diagnoseImported(exchanges: Exchange[]): Exchange[] {
	let requestedScope: string | undefined;
	let tokenExpiresAt: number | undefined;
	// The consent requests: the URLs the browser opened, with the state and the scope they sent.
	const consent = (ex: Exchange) => specOf(ex.step).travels === 'navigation';
	const states = new Set(
		exchanges.flatMap((ex) =>
			consent(ex) ? queryFields(ex.request.url).flatMap(([n, v]) => (n === 'state' ? [v] : [])) : []
		)
	);
	/** The service's own advice only for a recording of the service (advice.ts). */
	const advice = adviceForRecording(exchanges);
	/** What is on record of the refresh token each refresh sent (refresh-cause.ts). */
	const histories = refreshHistories(exchanges);
	/** Each code sent to the token endpoint, and the first exchange (#n) that sent it. */
	const sent = new Map<string, number>();
	/**
	 * The redirect_uri of each consent request, by its state; and of the consent each code came
	 * back for, read when it came back (a later request may reuse the state).
	 */
	const consentRedirect = new Map<string, string>();
	const codeRedirectUri = new Map<string, string>();
	return exchanges.map((ex, i) => {
		const fields = queryFields(ex.request.url);
		const field = (name: string) => fields.find(([n]) => n === name)?.[1];
		if (consent(ex)) {
			const scope = field('scope');
			if (scope !== undefined) requestedScope = scope;
			const [state, uri] = [field('state'), field('redirect_uri')];
			if (state !== undefined && uri !== undefined) consentRedirect.set(state, uri);
		} else if (specOf(ex.step).travels === 'redirect-back') {
			const [code, state] = [field('code'), field('state')];
			const uri = state === undefined ? undefined : consentRedirect.get(state);
			if (code !== undefined && uri !== undefined) codeRedirectUri.set(code, uri);
		}
		const ctx: DiagnoseContext = {
			advice,
			requestedScope,
			tokenExpiresAt,
			refreshHistory: histories.get(i),
			...codeRedirect(ex, codeRedirectUri)
		};
		let findings =
			specOf(ex.step).travels === 'redirect-back'
				? [...callbackFindings(ex, advice), ...unknownState(ex, states)]
				: consent(ex)
					? [...diagnose(ex, ctx), ...redirectUriRefused(ex)]
					: specOf(ex.step).verdict === 'secret'
						? [...diagnose(ex, ctx), ...judgeSecretCheck(ex)]
						: diagnose(ex, ctx);
		const code = codeSent(ex);
		if (code !== undefined) {
			const earlier = sent.get(code);
			if (earlier === undefined) sent.set(code, i + 1);
			else findings = reusedCode(findings, ex, earlier);
		}
		const res = ex.response;
		if (specOf(ex.step).grantType !== undefined && res && res.status >= 200 && res.status < 300) {
			const body = parseJson(res.body) as Record<string, unknown> | undefined;
			// A number, string or array has no access_token field: only an object passes.
			if (typeof body?.access_token === 'string') {
				const expiresIn = body.expires_in;
				// Number.isFinite is false for anything but a finite number: no typeof check needed.
				tokenExpiresAt = Number.isFinite(expiresIn)
					? Date.parse(ex.startedAt) + ex.timing.total + (expiresIn as number) * 1000
					: undefined;
			}
		}
		return { ...ex, findings };
	});
}

/** A HAR file's text as Exchanges with their findings, as the transcript shows them. Never throws. */
export function importHar(text: string, opts: ImportOptions = {}): ImportResult {
	const result = fromHar(text, opts);
	if (!result.ok) return result;
	try {
		return { ...result, exchanges: diagnoseImported(result.exchanges) };
	} catch (err) {
		return {
			ok: false,
			reason: 'unreadable',
			message: `This file could not be read as a HAR: ${err instanceof Error ? err.message : String(err)}`
		};
	}
}
