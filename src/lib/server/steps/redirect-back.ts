/**
 * The redirect back (the service's API docs §5 step 3), in three named steps: `readCallback` takes
 * what arrived (its parameters, unless the query is too long to read, and the headers shown),
 * `judgeCallback` decides what it means for the flow (its verdict, whether it carries the flow's
 * pending state, the issuer check of RFC 9207, and the findings), and `recordCallback` writes it
 * down (the callback record, the code kept, the exchange, the next session). `handleCallback` is the
 * three in a row; /callback (callback-route.ts) and paste-back (flow-steps.ts) call it.
 *
 * The state is single-use: a redirect that carries it uses it up, whatever the outcome, and its code
 * is kept (held back when the issuer check fails); the state joins the flow's recent ones. A
 * redirect that carries any other state changes nothing (callback-trust.ts): one of the flow's
 * recent states is stale, any other unsolicited (oauth/callback.ts).
 */
import { randomUUID } from 'node:crypto';
import {
	checkCallback,
	explainAuthorizationError,
	scopeRetry,
	type CallbackVerdict
} from '$lib/oauth/consent';
import { diagnoseCallback } from '$lib/oauth/diagnose';
import { codeForScript, routeCallback } from '$lib/oauth/callback';
import { expectedIssuer, issuerStops } from '$lib/oauth/issuer';
import { issuerFinding } from '$lib/oauth/issuer-finding';
import { redirectVerdict } from '$lib/oauth/strict-client';
import { pkceCallbackFindings } from '$lib/oauth/pkce-auth';
import type { Exchange, Finding, HeaderList } from '$lib/exchange/types';
import { ignoreCallback, issuerOnCallback } from './callback-trust';
import type { StepContext } from '../flow/context';
import { redirectMismatchFix, redirectRetry } from './registered-redirect';
import { rememberState, type Session } from '../session/session';
import { flowAdvice } from '../flow/flow-advice';

/** The request headers a callback's exchange shows (the cookie by name only). */
const CALLBACK_HEADERS = new Set([
	'host',
	'user-agent',
	'accept',
	'referer',
	'cookie',
	'sec-fetch-site'
]);
/** A redirect with a longer query string is not read: it could not be kept in the session cookie, and no real one is this long. */
export const MAX_CALLBACK_QUERY = 2048;
const clip = (s: string, n: number) =>
	s.length > n ? `${s.slice(0, n)}… (${s.length - n} more characters)` : s;
const clipOptional = (s: string | undefined, n: number) =>
	s === undefined ? undefined : clip(s, n);

/** What the redirect back needs of the request it arrived in. */
type Here = Pick<StepContext, 'app' | 'origin'>;

/** What arrived. */
interface Arrived {
	url: URL;
	/** The query string is over MAX_CALLBACK_QUERY: none of it was read. */
	tooLong: boolean;
	/** Its parameters, in order (none when it was too long). */
	params: [string, string][];
	/** The headers the exchange shows. */
	headers: HeaderList;
}

/** Step one: what arrived, read. */
function readCallback(url: URL, headers: Headers): Arrived {
	const tooLong = url.search.length > MAX_CALLBACK_QUERY;
	const shown: HeaderList = [];
	headers.forEach((value, name) => {
		if (CALLBACK_HEADERS.has(name))
			shown.push([name, name === 'cookie' ? '<session cookie, not shown>' : clip(value, 500)]);
	});
	return { url, tooLong, params: tooLong ? [] : [...url.searchParams.entries()], headers: shown };
}

/** What the redirect means for the flow. */
interface Judged {
	verdict: CallbackVerdict;
	/** It carries the flow's pending state: the flow goes on with it. */
	matched: boolean;
	/** It carries one of the flow's recent states: stale, not unsolicited. */
	stale: boolean;
	/** The issuer check (RFC 9207), when the redirect is the flow's and carries a code or an error. */
	iss: ReturnType<typeof issuerOnCallback>;
	findings: Finding[];
}

/** Step two: what it means for the flow, and what the findings say. */
function judgeCallback(here: Here, session: Session, { url, tooLong }: Arrived): Judged {
	const { presets } = here.app;
	const saved = session.pending?.state;
	const verdict: CallbackVerdict = tooLong
		? {
				kind: 'malformed',
				detail: `The redirect's query string is ${url.search.length} characters long, over the playground's limit of ${MAX_CALLBACK_QUERY}, so it was not read.`
			}
		: checkCallback(url.searchParams, saved);
	const route = tooLong
		? ({ kind: 'none' } as const)
		: routeCallback(url.searchParams, [{ id: '', pending: saved, recent: session.recent_states }]);
	const matched = route.kind === 'pending';
	const metadata =
		session.iss_param_for && session.iss_param_for === session.setup?.issuer
			? { issuer: session.iss_param_for, authorization_response_iss_parameter_supported: true }
			: undefined;
	const iss =
		matched && (verdict.kind === 'code' || verdict.kind === 'error')
			? issuerOnCallback(session, url.searchParams, metadata)
			: undefined;
	const advice = flowAdvice(presets, session, url.origin);
	const findings = diagnoseCallback(
		verdict.kind,
		verdict.kind === 'error' ? verdict.error : undefined,
		verdict.kind === 'error'
			? verdict.description
			: verdict.kind === 'malformed' || verdict.kind === 'state-mismatch'
				? verdict.detail
				: undefined,
		advice
	);
	if (verdict.kind === 'error') {
		findings[0]!.fix = explainAuthorizationError(verdict.error, {
			sandbox: presets.isSandboxTarget(session.setup, url.origin),
			advice
		});
		// invalid_scope for a scope with write, from the service: the scope to try again with
		// (oauth/consent.ts).
		const scope = scopeRetry(verdict.error, session.pending?.scope ?? session.setup?.scope, advice);
		if (scope !== undefined) findings[0]!.suggest = { field: 'scope', value: scope };
	}
	// A service that sends redirect_uri_mismatch back: name the near miss (redirect-uri.ts).
	if (verdict.kind === 'error' && verdict.error === 'redirect_uri_mismatch' && session.pending) {
		const sent = session.pending.redirect_uri;
		findings[0]!.fix = redirectMismatchFix(presets, session.setup, sent, here.origin);
		const retry = redirectRetry(presets, session.setup, sent, here.origin);
		if (retry) findings[0]!.suggest = { field: 'redirect_uri', value: retry };
	}
	const issFinding = iss && issuerFinding(iss);
	if (issFinding) findings.push(issFinding);
	// "Get a code for the script": the code is the script's to spend, and the verdict says so.
	if (matched && verdict.kind === 'code' && session.pending?.for_script)
		findings.push(codeForScript());
	// The second judge, after our routing found the flow (strict-client.ts).
	const strict =
		matched && saved !== undefined
			? redirectVerdict(url.searchParams, {
					state: saved,
					issuer: expectedIssuer(session.setup?.issuer, metadata)?.issuer,
					issParam: !!metadata,
					client_id: session.setup?.client_id ?? ''
				})
			: undefined;
	if (strict) findings.push(strict);
	const pkce = session.setup
		? pkceCallbackFindings(
				verdict.kind === 'error' ? verdict.error : undefined,
				verdict.kind === 'error' ? verdict.description : undefined,
				session.setup.pkce
			)
		: [];
	// One finding per failure, the precise one: PKCE required and off is the invalid_request's
	// cause, and its finding says it alone.
	const precise = pkce.some((f) => f.code === 'pkce-required') && verdict.kind === 'error';
	const kept = precise ? findings.filter((f) => f.code !== verdict.error) : findings;
	return { verdict, matched, stale: route.kind === 'recent', iss, findings: [...kept, ...pkce] };
}

/**
 * The S256 challenge the consent URL carried, kept with the code for the library to check
 * (strict-client.ts). A pushed request's consent URL carries none (it went in the pushed body), and
 * `plain` has nothing to compute: then nothing is kept, and nothing checked.
 */
function pkceChallenge(pending: Session['pending']): { code_challenge?: string } {
	if (pending?.code_challenge_method !== 'S256' || !URL.canParse(pending.consent_url)) return {};
	const challenge = new URL(pending.consent_url).searchParams.get('code_challenge');
	return challenge ? { code_challenge: challenge } : {};
}

/**
 * Step three: the exchange the transcript shows, and the flow's next session: the pending request
 * used up, the callback record, the code kept. A redirect that is not the flow's changes nothing.
 */
function recordCallback(
	session: Session,
	{ url, tooLong, params, headers }: Arrived,
	{ verdict, matched, stale, iss, findings }: Judged,
	now: number,
	location: string
): { session: Session; exchange: Exchange; ignored: boolean } {
	const saved = session.pending?.state;
	const next: Session = {
		...session,
		pending: undefined,
		code: undefined,
		outbox: undefined,
		recent_states: rememberState(session.recent_states, saved)
	};
	next.callback = {
		params,
		saved_state: saved,
		returned_state: tooLong
			? undefined
			: clipOptional(url.searchParams.get('state') ?? undefined, 600),
		verdict: verdict.kind,
		received_at: now,
		...(verdict.kind === 'error'
			? {
					error: clip(verdict.error, 200),
					error_description: clipOptional(verdict.description, 1000),
					error_uri: clipOptional(verdict.uri, 1000)
				}
			: {}),
		...(verdict.kind === 'state-mismatch' || verdict.kind === 'malformed'
			? { detail: verdict.detail }
			: {}),
		...(iss ? { iss } : {}),
		...(matched && session.pending?.for_script ? { for_script: true as const } : {})
	};
	if (verdict.kind === 'code' && session.pending)
		next.code = {
			value: verdict.code,
			redirect_uri: session.pending.redirect_uri,
			scope: session.pending.scope,
			...(issuerStops(iss) ? { held: 'issuer' as const } : {}),
			...(session.pending.code_verifier ? { code_verifier: session.pending.code_verifier } : {}),
			...pkceChallenge(session.pending)
		};
	const exchange: Exchange = {
		id: randomUUID(),
		step: 'callback',
		startedAt: new Date(now).toISOString(),
		request: {
			method: 'GET',
			url: tooLong ? clip(url.toString(), 300) : url.toString(),
			httpVersion: '1.1',
			headers,
			body: ''
		},
		response: {
			status: 303,
			statusText: 'See Other',
			httpVersion: '1.1',
			headers: [['Location', location]],
			body: '',
			truncated: false
		},
		timing: { total: 0 },
		findings,
		note: 'The service sent the browser back to the playground.'
	};
	if (!matched)
		return { ...ignoreCallback(session, exchange, stale ? 'stale' : 'unsolicited'), ignored: true };
	next.outbox = [exchange];
	return { session: next, exchange, ignored: false };
}

/**
 * The redirect back, read, judged and recorded (see the top of this file), in the request `here`:
 * the app (its presets know the sandbox's registrations) and the playground's own origin. `now` is
 * the app's clock unless given.
 */
export function handleCallback(
	here: Here,
	session: Session,
	url: URL,
	headers: Headers,
	now = here.app.clock(),
	location = '/'
): { session: Session; exchange: Exchange; ignored: boolean } {
	const arrived = readCallback(url, headers);
	return recordCallback(session, arrived, judgeCallback(here, session, arrived), now, location);
}
