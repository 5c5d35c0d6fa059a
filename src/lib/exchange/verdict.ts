/**
 * The flow's outcome in one line, from the transcript: what the newest attempt came to, whatever
 * step it reached. The steps that have a verdict say so in their spec (`verdict`): a token request
 * (the code exchange, or a refresh after it) brought tokens or which step failed and why; the
 * redirect back brought a code, or the consent was refused or declined; the registration check
 * accepted the client or not, and what it did not check; the client secret check accepted the
 * credentials or refused them, and how surely. The page shows the line at the top, in
 * the document's title and to screen readers; the Markdown report opens with it. One function, so
 * the page and the exports never say two different things. It loads with the steps after the setup
 * (ui/steps/parts.ts), or when an import first needs it: a fresh page has nothing to judge.
 */
import { specOf, STEPS } from '$lib/steps/registry';
import { judgedOk } from './judged-ok';
import { jsonObject } from './text';
import { FAILURE_WORDS, type Exchange } from './types';

/** Whether `ex` has a finding of `code` (the catalogue's codes: oauth/catalogue/). */
const hasFinding = (ex: Exchange, code: string) => ex.findings.some((f) => f.code === code);

export interface Verdict {
	/**
	 * `ok`: it worked; `fail`: it failed, and the line says why; `neutral`: nothing failed and
	 * nothing was granted (a consent declined, a code kept for the script).
	 */
	tone: 'ok' | 'fail' | 'neutral';
	/** "✓ Tokens received: read write, expires in 59 min", "✕ Step 3, code exchange, failed: …". */
	text: string;
	/** The id of what it names on the page: the tokens, or the step's card. */
	target: string;
}

/** "45 s", "59 min", "2 h 5 min", "3 days": a duration in whole units, rounded down. */
export function durationText(ms: number): string {
	const s = Math.floor(ms / 1000);
	if (s < 60) return `${s} s`;
	if (s < 3600) return `${Math.floor(s / 60)} min`;
	if (s < 48 * 3600) {
		const h = Math.floor(s / 3600);
		const m = Math.floor((s % 3600) / 60);
		return m ? `${h} h ${m} min` : `${h} h`;
	}
	return `${Math.floor(s / 86400)} days`;
}

/** A finding's first sentence, as a clause: "the service did not accept the client credentials". */
function clause(message: string): string {
	const first = /^.*?[.!?](?=\s|$)/.exec(message)?.[0] ?? message;
	const words = first.replace(/[.!?]$/, '');
	return words.charAt(0).toLowerCase() + words.slice(1);
}

/** Why a token request failed: the OAuth error (or the failure's kind, or the status) and its first finding. */
function why(ex: Exchange): string {
	const body = ex.response ? jsonObject(ex.response.body) : undefined;
	const code =
		typeof body?.error === 'string'
			? body.error
			: ((ex.failure && FAILURE_WORDS[ex.failure.kind]) ??
				(ex.response ? `HTTP ${ex.response.status}` : 'no answer'));
	const finding = ex.findings.find((f) => f.level === 'error');
	return finding ? `${code}, ${clause(finding.message)}` : code;
}

/** The first error finding's first sentence, as a clause; none without an error finding. */
function firstError(ex: Exchange): string | undefined {
	const finding = ex.findings.find((f) => f.level === 'error');
	return finding && clause(finding.message);
}

/**
 * What this flow's fork found about the tokens both hold (server/steps/replay.ts): the service
 * revoked them when the fork replayed their code, or sent a superseded refresh token. Only the
 * server knows: the fork's exchanges are in the fork's transcript, not this flow's.
 */
export type RevokedByFork = 'code' | 'refresh';

const REVOKED = {
	code: '✕ Tokens revoked: the service revoked them when their code was replayed',
	refresh: '✕ Tokens revoked: the service revoked them when a superseded refresh token came back'
} as const;

/**
 * The verdict on a token answer: the tokens and their time left, or which step failed and why. A
 * fork's finding (`byFork`) is said as its own check would say it, and where to read it.
 */
function tokensVerdict(
	ex: Exchange,
	after: readonly Exchange[],
	now: number,
	byFork?: RevokedByFork | null
): Verdict {
	const step = STEPS[ex.step];
	const res = ex.response;
	// An imported answer whose body the file does not hold: its status is all there is to say.
	if (res?.bodyMissing)
		return {
			tone: 'neutral',
			text: `Step ${step.n}, ${step.name}: HTTP ${res.status}, not judged: the file does not hold its body`,
			target: ex.step
		};
	const body = res && res.status >= 200 && res.status < 300 ? jsonObject(res.body) : undefined;
	if (!body || typeof body.access_token !== 'string')
		return {
			tone: 'fail',
			text: `✕ Step ${step.n}, ${step.name}, failed: ${why(ex)}`,
			target: ex.step
		};
	// A replay's check of revocation after it (server/steps/replay.ts): the tokens no longer work,
	// revoked when their code was replayed, or when a superseded refresh token came back.
	const revoked = after.find(
		(e) => e.replay && specOf(e.step).endpoint === 'userinfo' && e.response?.status === 401
	);
	if (revoked)
		return {
			tone: 'fail',
			text: revoked.findings.some((f) => f.code === 'refresh-replay-access-revoked')
				? REVOKED.refresh
				: REVOKED.code,
			target: 'tokens'
		};
	if (byFork)
		return { tone: 'fail', text: `${REVOKED[byFork]}, in a fork of this flow`, target: 'tokens' };
	const scope = typeof body.scope === 'string' && body.scope.trim() ? body.scope.trim() : '';
	const granted = scope ? `: ${scope}` : '';
	const lifetime = typeof body.expires_in === 'number' ? body.expires_in * 1000 : undefined;
	const left = lifetime === undefined ? undefined : Date.parse(ex.startedAt) + lifetime - now;
	const time =
		left === undefined
			? ''
			: left > 0
				? `, expires in ${durationText(left)}`
				: ', the access token has expired';
	return { tone: 'ok', text: `✓ Tokens received${granted}${time}`, target: 'tokens' };
}

/** The parameters the redirect back carried, read from its recorded address. */
function returned(ex: Exchange): URLSearchParams {
	return URL.canParse(ex.request.url)
		? new URL(ex.request.url).searchParams
		: new URLSearchParams();
}

/**
 * Whether the tokens the flow held before `before`'s end still work, as a clause of a line whose
 * attempt brought none ("; the tokens from #3 still work"), by their running number; nothing
 * when it held none.
 */
function tokensHeld(
	before: readonly Exchange[],
	now: number,
	numbers: ReadonlyMap<string, number> | undefined,
	byFork?: RevokedByFork | null
): string {
	const at = before.findLastIndex((e) => specOf(e.step).verdict === 'tokens' && !e.replay);
	const held = before[at];
	const after = before.slice(at + 1);
	const tokens = held && tokensVerdict(held, after, now, byFork);
	if (tokens?.tone !== 'ok') return '';
	// Revoked since (a revocation answered 2xx), or refused since (a call with them got a 401):
	// they are not said to work.
	const status = (e: Exchange) => e.response?.status ?? 0;
	if (
		after.some(
			(e) =>
				(specOf(e.step).endpoint === 'revocation' && status(e) >= 200 && status(e) < 300) ||
				(specOf(e.step).sendsAccessToken && status(e) === 401)
		)
	)
		return '';
	const n = numbers?.get(held!.id);
	const from = n ? ` from #${n}` : '';
	return tokens.text.endsWith('has expired')
		? `; the access token${from} has expired`
		: `; the tokens${from} still work`;
}

/** " for scope read write": the scope a consent request's address asks for; nothing without one. */
function forScope(url: string): string {
	const scope = URL.canParse(url) ? new URL(url).searchParams.get('scope')?.trim() : undefined;
	return scope ? ` for scope ${scope}` : '';
}

/**
 * The verdict on a consent page opened (step 1's navigation) that nothing came back from yet: the
 * service has the browser, and may keep it on a page of its own; the tokens held before still work
 * or not.
 */
function openedVerdict(
	ex: Exchange,
	before: readonly Exchange[],
	now: number,
	numbers: ReadonlyMap<string, number> | undefined,
	byFork?: RevokedByFork | null
): Verdict {
	const step = STEPS[ex.step];
	// A recording (a HAR) holds what the service answered the browser: that, not "nothing yet".
	const res = ex.response;
	if (res || ex.failure) {
		const failed = !!ex.failure || (!!res && res.status >= 400) || !!firstError(ex);
		return failed
			? {
					tone: 'fail',
					text: `✕ Step ${step.n}, ${step.name}, failed: ${why(ex)}`,
					target: ex.step
				}
			: {
					tone: 'neutral',
					text: `Step ${step.n}, consent page answered ${res!.status}${forScope(ex.request.url)}; no redirect back is recorded`,
					target: ex.step
				};
	}
	return {
		tone: 'neutral',
		text: `Step ${step.n}, consent page opened${forScope(ex.request.url)}; nothing came back yet${tokensHeld(before, now, numbers, byFork)}`,
		target: ex.step
	};
}

/**
 * The verdict on the redirect back (RFC 6749 §4.1.2): a consent refused with the service's error
 * and its description, a consent declined (`access_denied`, and whether the tokens the flow held
 * before still work), a callback that failed its checks, a code kept for the script, or a code
 * waiting for its exchange.
 */
function consentVerdict(
	ex: Exchange,
	before: readonly Exchange[],
	now: number,
	numbers: ReadonlyMap<string, number> | undefined,
	byFork?: RevokedByFork | null
): Verdict {
	const step = STEPS[ex.step];
	const params = returned(ex);
	const error = params.get('error');
	if (error === 'access_denied')
		return {
			tone: 'neutral',
			text: `⊘ Consent declined${tokensHeld(before, now, numbers, byFork)}`,
			target: ex.step
		};
	if (error !== null) {
		const description = params.get('error_description')?.trim();
		return {
			tone: 'fail',
			text: `✕ Step ${step.n}, consent refused: ${error || 'an empty error'}${description ? `, ${clause(description)}` : ''}`,
			target: ex.step
		};
	}
	const failed = firstError(ex);
	if (failed || !params.get('code'))
		return {
			tone: 'fail',
			text: `✕ Step ${step.n}, ${step.name}, failed${failed ? `: ${failed}` : ''}`,
			target: ex.step
		};
	if (hasFinding(ex, 'code-for-script'))
		return { tone: 'neutral', text: 'Code ready for the script, not exchanged', target: ex.step };
	return {
		tone: 'ok',
		text: `✓ Step ${step.n}, code received: exchange it in step ${STEPS.exchange.n}`,
		target: 'exchange'
	};
}

/**
 * The verdict on the registration check: what it found, and what it did not check (the secret is
 * sent only in the code exchange; the scope only when a person consents); a sign-in asked for
 * first judged nothing.
 */
function registrationVerdict(ex: Exchange): Verdict {
	const failed = firstError(ex);
	const target = 'consent';
	if (failed) return { tone: 'fail', text: `✕ Registration check: ${failed}`, target };
	// A sign-in asked for first: nothing was judged, and the line says so (oauth/sign-in-first.ts).
	const signIn = ex.findings.find((f) => f.code === 'sign-in-first');
	if (signIn)
		return {
			tone: 'neutral',
			text: `Registration check: ${clause(signIn.message).replace(/ \(.*\)$/, '')}`,
			target
		};
	if (!hasFinding(ex, 'registration-ok'))
		return {
			tone: 'neutral',
			text: `Registration check: no verdict (${why(ex)}); see step ${STEPS.consent.n}`,
			target
		};
	return {
		tone: 'ok',
		text: '✓ Registration check: client_id and redirect_uri accepted; the scope and any client secret are not checked here',
		target
	};
}

/** The client secret check's line for each of its findings (oauth/catalogue/secret-check.ts). */
const SECRET_LINES: Record<string, Pick<Verdict, 'tone' | 'text'>> = {
	'secret-refused': {
		tone: 'fail',
		text: '✕ Client secret check: the service refused the client credentials (invalid_client)'
	},
	'secret-likely-refused': {
		tone: 'fail',
		text: '✕ Client secret check: the client credentials were most likely refused (401)'
	},
	'secret-accepted': {
		tone: 'ok',
		text: '✓ Client secret check: the service accepted the client credentials'
	},
	'secret-likely-accepted': {
		tone: 'ok',
		text: '✓ Client secret check: the client credentials were most likely accepted; a real code exchange is the proof'
	},
	'secret-grant-refused': {
		tone: 'fail',
		text: '✕ Client secret check: the credentials were most likely accepted, but this client may not use the authorization-code grant'
	}
};

/**
 * The verdict on the client secret check: accepted or refused, and how surely, by the finding its
 * judgement raised; a request that went wrong, why; any other answer did not tell.
 */
function secretVerdict(ex: Exchange): Verdict {
	const target = 'consent';
	const line = ex.findings.map((f) => SECRET_LINES[f.code]).find((l) => l !== undefined);
	if (line) return { ...line, target };
	// The request went wrong (a wrong URL, a redirect, no answer): the check could not ask.
	const failed = firstError(ex);
	if (failed || ex.failure)
		return { tone: 'fail', text: `✕ Client secret check, failed: ${why(ex)}`, target };
	return {
		tone: 'neutral',
		text: `Client secret check: not told (${why(ex)}); a real code exchange is the proof`,
		target
	};
}

/**
 * Where the newest attempt of `exchanges` is, the exchange the verdict is on (-1 before the first):
 * the newest of a step that has a verdict (a consent page opened is one, until something comes
 * back). A replay sent on purpose (server/steps/replay.ts) is no
 * attempt of the flow's own, nor a redirect back that the flow ignored (a stale or unsolicited one,
 * oauth/callback.ts).
 */
export function latestAttempt(exchanges: readonly Exchange[]): number {
	return exchanges.findLastIndex(
		(e) => specOf(e.step).verdict && !e.replay && !hasFinding(e, 'callback-ignored')
	);
}

/**
 * A consent request prepared and not opened yet (the page data's pending one, whose navigation is
 * not in the transcript): after a redirect back ("Try again with scope read", "Prepare a new one",
 * a save), the line speaks of it, not of the request it replaced, whose code (if any) is gone.
 */
export interface PreparedConsent {
	/** Its consent URL, as step 1 shows it. */
	url: string;
}

/** The line while a new consent request waits to be opened; `more` adds what came before it. */
function preparedVerdict(prepared: PreparedConsent, more: string): Verdict {
	return {
		tone: 'neutral',
		text: `Step ${STEPS.consent.n}, a new consent request${forScope(prepared.url)} is ready to open${more}`,
		target: 'consent'
	};
}

/**
 * The verdict on the newest attempt of `exchanges` (at `now`, for the time left; `numbers`, the
 * transcript's running numbers, to name an earlier exchange; `prepared`, a consent request waiting
 * to be opened; `byFork`, what this flow's fork found about the tokens both hold), or none before
 * the first one.
 */
export function verdictOf(
	exchanges: readonly Exchange[],
	now: number,
	numbers?: ReadonlyMap<string, number>,
	prepared?: PreparedConsent,
	byFork?: RevokedByFork | null
): Verdict | undefined {
	const i = latestAttempt(exchanges);
	const ex = exchanges[i];
	if (!ex) return undefined;
	const before = exchanges.slice(0, i);
	switch (specOf(ex.step).verdict) {
		case 'opened':
			// A newer request prepared since: the one opened is no longer the flow's.
			return prepared && prepared.url !== ex.request.url
				? preparedVerdict(prepared, tokensHeld(before, now, numbers, byFork))
				: openedVerdict(ex, before, now, numbers, byFork);
		case 'consent': {
			const consent = consentVerdict(ex, before, now, numbers, byFork);
			// A new request is ready: the redirect back it replaced is used up (its code too, when
			// it brought one), so the line says what comes next; a refusal or a failure is said as
			// earlier, and otherwise whether the tokens held still work.
			if (!prepared) return consent;
			return preparedVerdict(
				prepared,
				consent.tone === 'fail'
					? ` (earlier: ${consent.text.replace(/^✕ Step \d+, /, '')})`
					: tokensHeld(before, now, numbers, byFork)
			);
		}
		case 'registration':
			return registrationVerdict(ex);
		case 'secret':
			return secretVerdict(ex);
		default:
			return tokensVerdict(ex, exchanges.slice(i + 1), now, byFork);
	}
}

/**
 * Whether an imported exchange failed: no answer, an HTTP error, or an error finding. A consent
 * declined is no failure (its finding is a warning).
 */
function failedImport(ex: Exchange): boolean {
	if (judgedOk(ex)) return false;
	return (
		!!ex.failure ||
		(!!ex.response && ex.response.status >= 400) ||
		ex.findings.some((f) => f.level === 'error')
	);
}

/**
 * The verdict on an imported recording (a HAR): what it shows, and its first failure, by the
 * number the transcript gives it, with the OAuth error (or the status) and its first error finding.
 * Its link leads to the imported list, where that exchange is opened.
 */
export function importVerdict(name: string, exchanges: readonly Exchange[]): Verdict {
	const shown = `${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'}`;
	const target = 'transcript-title';
	const i = exchanges.findIndex(failedImport);
	const first = exchanges[i];
	if (!first) return { tone: 'ok', text: `✓ Imported ${name}: ${shown}, none failed`, target };
	// A redirect back carries its error in its address (RFC 6749 §4.1.2.1), with the description.
	const params = specOf(first.step).travels === 'redirect-back' ? returned(first) : undefined;
	const error = params?.get('error');
	const description = params?.get('error_description')?.trim();
	const cause = error ? `${error}${description ? `, ${clause(description)}` : ''}` : why(first);
	return {
		tone: 'fail',
		text: `✕ Imported ${name}: ${shown}; the first failure is #${i + 1} ${STEPS[first.step].title}: ${cause}`,
		target
	};
}

/** The first failing exchange of an imported recording, to open when it is shown. */
export function firstImportFailure(exchanges: readonly Exchange[]): Exchange | undefined {
	return exchanges.find(failedImport);
}
