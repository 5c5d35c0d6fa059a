/**
 * The flow's server-side steps. Each takes the session, does its one thing (through the one sender),
 * and returns the new session and the exchanges to show. Route files only parse input and call these.
 */
import { randomUUID } from 'node:crypto';
import {
	consentUrl,
	checkCallback,
	explainAuthorizationError,
	scopeRetry,
	makeState
} from '$lib/oauth/consent';
import { diagnose, diagnoseCallback, type DiagnoseContext } from '$lib/oauth/diagnose';
import { endpoints } from '$lib/oauth/setup';
import { exchangeBody, FORM_CONTENT_TYPE, refreshBody } from '$lib/oauth/token-endpoint';
import { isExpired } from '$lib/oauth/token-set';
import { outward } from './way-out';
import { API_DOCS } from '$lib/oauth/docs';
import { routeCallback } from '$lib/oauth/callback';
import { expectedIssuer, issuerStops } from '$lib/oauth/issuer';
import { issuerFinding } from '$lib/oauth/issuer-finding';
import { redirectVerdict, withStrictVerdict } from '$lib/oauth/strict-client';
import { ignoreCallback, issuerOnCallback } from './callback-trust';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import { realTokens, receiveTokens } from './tokens';
import type { Sender } from './send';
import { rememberState, type Session } from './session';
import { clientAuth } from './client-auth';
import { codeChallenge, newVerifier } from './pkce';
import { requestPlayground } from './playground';
import { playgroundInfo } from './playground-info';
import { redirectMismatchFix, redirectRetry, registeredRedirect } from './registered-redirect';
import {
	CLIENT_AUTH_METHOD,
	INVALID_CLIENT,
	PUBLIC_CLIENT_REFUSED,
	REDIRECT_URI_MISMATCH
} from '$lib/oauth/findings';
import { clientAuthFindings, pkceCallbackFindings } from '$lib/oauth/pkce-auth';
import { apiUrl, type ApiCall } from '$lib/oauth/api-request';
import { tokenMayGo } from '$lib/oauth/token-binding';

export type StepResult =
	| {
			ok: true;
			session: Session;
			exchanges: Exchange[];
			/** More for the page than the exchanges (a JWT check's verdict, the metadata found). */
			answer?: Record<string, unknown>;
	  }
	| { ok: false; status: number; message: string; session?: Session; exchanges?: Exchange[] };

/** Redact, then diagnose: what leaves the server. */
export function present(ex: Exchange, session: Session, ctx: DiagnoseContext = {}): Exchange {
	const clean = outward(ex, session);
	const findings = diagnose(clean, { playground: playgroundInfo(), ...ctx });
	const setup = session.setup;
	// The metadata's methods count only for the token endpoint it was fetched for.
	const metadata = session.metadata_for;
	const supported =
		setup && metadata?.auth_methods && metadata.token_endpoint === endpoints(setup).token
			? metadata.auth_methods
			: undefined;
	const client = setup
		? clientAuthFindings(clean, {
				method: setup.token_endpoint_auth_method,
				pkce: setup.pkce,
				supported
			})
		: [];
	// One finding per failure: where the method is the cause, it says so instead of "check the
	// client id and secret", whose fix it already ends with.
	const replaces = client.some(
		(f) => f.code === CLIENT_AUTH_METHOD || f.code === PUBLIC_CLIENT_REFUSED
	);
	const kept = replaces ? findings.filter((f) => f.code !== INVALID_CLIENT) : findings;
	return { ...clean, findings: [...clean.findings, ...kept, ...client] };
}

/** A new consent request: fresh state (or the custom one), saved in the session. */
export function prepareConsent(session: Session, now = Date.now()): Session {
	const setup = session.setup;
	if (!setup) return session;
	const state = setup.custom_state || makeState();
	const pkce = setup.pkce === 'off' ? undefined : setup.pkce;
	const verifier = pkce && newVerifier();
	const url = consentUrl(endpoints(setup).authorization, {
		client_id: setup.client_id,
		redirect_uri: setup.redirect_uri,
		scope: setup.scope,
		state,
		...(pkce && verifier
			? { code_challenge: codeChallenge(verifier, pkce), code_challenge_method: pkce }
			: {})
	});
	return {
		...session,
		// The state it replaces stays known: its redirect is then stale, not forged.
		recent_states: rememberState(session.recent_states, session.pending?.state),
		pending: {
			state,
			consent_url: url,
			redirect_uri: setup.redirect_uri,
			scope: setup.scope,
			created_at: now,
			...(pkce && verifier ? { code_verifier: verifier, code_challenge_method: pkce } : {})
		},
		callback: undefined,
		code: undefined
	};
}

/** The consent redirect as an Exchange: the request the browser is about to make. */
export function consentExchange(session: Session): Exchange | undefined {
	if (!session.pending) return undefined;
	const u = new URL(session.pending.consent_url);
	return {
		id: randomUUID(),
		step: 'consent',
		startedAt: new Date().toISOString(),
		request: {
			method: 'GET',
			url: u.toString(),
			httpVersion: '1.1',
			headers: [['Host', u.host]],
			body: ''
		},
		timing: { total: 0 },
		findings: [],
		note: 'The browser opens this URL; the service shows its consent page.'
	};
}

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

/**
 * The redirect back (the service's API docs §5 step 3). The state is single-use: a redirect that
 * carries it uses it up, whatever the outcome, and its code is kept (held back when the issuer
 * check fails); the state joins the flow's recent ones. A redirect that carries any other state
 * changes nothing (callback-trust.ts): one of the flow's recent states is stale, any other
 * unsolicited (oauth/callback.ts).
 */
export function handleCallback(
	session: Session,
	url: URL,
	headers: Headers,
	now = Date.now(),
	location = '/'
): { session: Session; exchange: Exchange; ignored: boolean } {
	const saved = session.pending?.state;
	const tooLong = url.search.length > MAX_CALLBACK_QUERY;
	const verdict: ReturnType<typeof checkCallback> = tooLong
		? {
				kind: 'malformed',
				detail: `The redirect's query string is ${url.search.length} characters long, over the playground's limit of ${MAX_CALLBACK_QUERY}, so it was not read.`
			}
		: checkCallback(url.searchParams, saved);
	const params: [string, string][] = tooLong ? [] : [...url.searchParams.entries()];
	const sentHeaders: HeaderList = [];
	headers.forEach((value, name) => {
		if (CALLBACK_HEADERS.has(name))
			sentHeaders.push([
				name,
				name === 'cookie' ? '<session cookie, not shown>' : clip(value, 500)
			]);
	});
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
	const findings = diagnoseCallback(
		verdict.kind,
		verdict.kind === 'error' ? verdict.error : undefined,
		verdict.kind === 'error'
			? verdict.description
			: verdict.kind === 'malformed' || verdict.kind === 'state-mismatch'
				? verdict.detail
				: undefined
	);
	if (verdict.kind === 'error') {
		findings[0]!.fix = explainAuthorizationError(verdict.error, {
			sandbox: requestPlayground().presets.isSandboxTarget(session.setup, url.origin)
		});
		// invalid_scope for a scope with write: the scope to try again with (oauth/consent.ts).
		const scope = scopeRetry(verdict.error, session.pending?.scope ?? session.setup?.scope);
		if (scope !== undefined) findings[0]!.suggest = { field: 'scope', value: scope };
	}
	// A service that sends redirect_uri_mismatch back: name the near miss (redirect-uri.ts).
	if (verdict.kind === 'error' && verdict.error === REDIRECT_URI_MISMATCH && session.pending) {
		findings[0]!.fix = redirectMismatchFix(session.setup, session.pending.redirect_uri, url.origin);
		const retry = redirectRetry(session.setup, session.pending.redirect_uri, url.origin);
		if (retry) findings[0]!.suggest = { field: 'redirect_uri', value: retry };
	}
	const issFinding = iss && issuerFinding(iss);
	if (issFinding) findings.push(issFinding);
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
	if (session.setup)
		findings.push(
			...pkceCallbackFindings(
				verdict.kind === 'error' ? verdict.error : undefined,
				verdict.kind === 'error' ? verdict.description : undefined,
				session.setup.pkce
			)
		);
	const exchange: Exchange = {
		id: randomUUID(),
		step: 'callback',
		startedAt: new Date(now).toISOString(),
		request: {
			method: 'GET',
			url: tooLong ? clip(url.toString(), 300) : url.toString(),
			httpVersion: '1.1',
			headers: sentHeaders,
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
		return {
			...ignoreCallback(session, exchange, route.kind === 'recent' ? 'stale' : 'unsolicited'),
			ignored: true
		};
	next.outbox = [exchange];
	return { session: next, exchange, ignored: false };
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

function tokenHeaders(auth: HeaderList): HeaderList {
	return [['Content-Type', FORM_CONTENT_TYPE], ...auth];
}

/** The setup and the client's credentials for the token endpoint (client-auth.ts attaches them). */
function needSetup(session: Session) {
	// The secret goes only with the client id and URLs it was entered for (secret.ts).
	const auth = clientAuth(session, 'token_endpoint');
	return auth.ok ? auth : { status: auth.status, message: auth.message };
}

/**
 * The registration check: the server GETs the consent URL without following redirects and without
 * authorizing anything, and reports what the service says about client_id, redirect_uri and scope.
 * The pending state is not used up.
 */
export async function checkRegistration(
	{ sendAll }: Sender,
	session: Session,
	signal?: AbortSignal,
	origin?: string,
	client?: string
): Promise<StepResult> {
	const setup = session.setup;
	if (!setup) return { ok: false, status: 409, message: 'Save the setup first.' };
	const url =
		session.pending?.consent_url ??
		consentUrl(endpoints(setup).authorization, {
			client_id: setup.client_id,
			redirect_uri: setup.redirect_uri,
			scope: setup.scope,
			state: makeState()
		});
	const attempts = await sendAll({
		step: 'check',
		method: 'GET',
		url,
		accept: 'text/html,application/json;q=0.9',
		note: 'Registration check: the consent URL, fetched by the playground server without following redirects. Nothing is authorized.',
		signal,
		client
	});
	return {
		ok: true,
		session,
		exchanges: attempts.map((raw) =>
			present(raw, session, {
				redirectUri: setup.redirect_uri,
				clientId: setup.client_id,
				...(origin ? registeredRedirect(setup, origin) : {})
			})
		)
	};
}

/** Paste-back mode: the URL (or only its query) that the application's own redirect URI received. */
export function pasteBack(session: Session, pasted: string, now = Date.now()): StepResult {
	if (!session.setup) return { ok: false, status: 409, message: 'Save the setup first.' };
	const text = pasted.trim();
	let url: URL;
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
		if (!URL.canParse(text))
			return {
				ok: false,
				status: 400,
				message:
					'That is not a valid URL. Paste the whole address from the browser, or only the part after "?".'
			};
		url = new URL(text);
	} else {
		url = new URL(session.pending?.redirect_uri ?? session.setup.redirect_uri);
		url.search = text.replace(/^[?#]/, '');
		url.hash = '';
	}
	// A response in the fragment (#code=…) is read too, and said so.
	let fromFragment = false;
	if (!url.searchParams.has('code') && !url.searchParams.has('error') && url.hash.length > 1) {
		const frag = new URLSearchParams(url.hash.slice(1));
		if (frag.has('code') || frag.has('error')) {
			url.search = frag.toString();
			fromFragment = true;
		}
	}
	url.hash = '';
	if (
		!url.searchParams.has('code') &&
		!url.searchParams.has('error') &&
		!url.searchParams.has('state')
	)
		return {
			ok: false,
			status: 400,
			message:
				'The pasted text holds no code, state or error parameter. Paste the full address the browser landed on after the consent page.'
		};
	const { session: next, exchange, ignored } = handleCallback(session, url, new Headers(), now);
	const pastedExchange: Exchange = {
		...exchange,
		response: undefined,
		note: `Pasted back by hand (paste-back mode): the address your application's redirect URI received${fromFragment ? ' (the parameters were in the #fragment, which the authorization-code flow does not use)' : ''}.`
	};
	// Shown at once, so the outbox keeps only what it held before; an ignored paste changes nothing.
	return {
		ok: true,
		session: ignored ? session : { ...next, outbox: session.outbox },
		exchanges: [pastedExchange]
	};
}

const HELD = {
	status: 409,
	message:
		'The code was held back because the issuer check failed (possible mix-up attack, RFC 9207). Read the warning in step 2; "Exchange anyway" there exchanges it.'
};

/**
 * Step 3: the code exchange (the service's API docs §4.2). The code is used once, whatever the
 * answer. A code the issuer check held back is exchanged only with `anyway` ("Exchange anyway").
 */
export async function exchangeCode(
	{ send }: Sender,
	session: Session,
	signal?: AbortSignal,
	{ anyway = false }: { anyway?: boolean } = {}
): Promise<StepResult> {
	const need = needSetup(session);
	if ('status' in need) return { ok: false, ...need };
	if (!session.code)
		return {
			ok: false,
			status: 409,
			message:
				'There is no code to exchange. Open the consent page and authorize first; a code is used once.'
		};
	if (session.code.held && !anyway) return { ok: false, ...HELD };
	const { setup, url, headers, body } = need;
	const code = session.code;
	const raw = await send({
		step: 'exchange',
		method: 'POST',
		url,
		headers: tokenHeaders(headers),
		body: exchangeBody({
			code: code.value,
			redirect_uri: code.redirect_uri,
			...body,
			code_verifier: code.code_verifier
		}),
		note: session.code.held
			? 'The code exchange, from the playground server: "Exchange anyway", after the issuer check (RFC 9207) held the code back.'
			: 'The code exchange, from the playground server.',
		signal,
		allowInvalidTls: setup.allow_invalid_tls
	});
	const shown = await withStrictVerdict(
		present(raw, session, { requestedScope: code.scope }),
		setup,
		{
			verifier: code.code_verifier,
			challenge: code.code_challenge
		}
	);
	// The connection closed before any answer: the code may not be spent, so it stays, and
	// exchanging it again shows which (diagnose.ts, code-maybe-spent).
	const unanswered = raw.failure?.kind === 'reset' && !raw.response;
	const next: Session = { ...session, code: unanswered ? session.code : undefined };
	// Tokens for it: the code this flow may replay on purpose (replay.ts), and no other.
	const granted = !!raw.response && raw.response.status >= 200 && raw.response.status < 300;
	if (granted) next.spent = { ...code, setup_id: session.setup_id };
	if (session.code.held && next.callback)
		next.callback = { ...next.callback, exchanged_anyway: true };
	return {
		ok: true,
		session: receiveTokens(next, raw, shown, code.scope, Date.now()) ?? next,
		exchanges: [shown]
	};
}

/** Step 5: the refresh (the service's API docs §4.3). */
export async function refreshTokens(
	{ send }: Sender,
	session: Session,
	note = 'The refresh, from the playground server.',
	signal?: AbortSignal
): Promise<StepResult> {
	const need = needSetup(session);
	if ('status' in need) return { ok: false, ...need };
	const tokens = realTokens(session);
	if (!tokens?.refresh_token)
		return {
			ok: false,
			status: 409,
			message: tokens
				? 'The service gave no refresh token, so there is nothing to refresh with.'
				: 'There are no tokens yet: finish the code exchange first.'
		};
	const { setup, url, headers, body } = need;
	const raw = await send({
		step: 'refresh',
		method: 'POST',
		url,
		headers: tokenHeaders(headers),
		body: refreshBody({ ...body, refresh_token: tokens.refresh_token }),
		note,
		signal,
		allowInvalidTls: setup.allow_invalid_tls
	});
	const shown = await withStrictVerdict(
		present(raw, session, { requestedScope: tokens.requested_scope }),
		setup
	);
	return {
		ok: true,
		session:
			receiveTokens(session, raw, shown, tokens.requested_scope, Date.now(), true) ?? session,
		exchanges: [shown]
	};
}

export const REFRESH_FIRST_FAILED =
	'The access token had expired and refreshing it failed (the refresh step shows why), so the call was not made.';

export type { ApiCall };

/**
 * The request with the access token attached, in the header or the query as the setup says: only
 * to an origin the tokens were issued for (oauth/token-binding.ts), checked here, where every call
 * that sends the access token gets it.
 */
export function withToken(
	url: string,
	session: Session
): { ok: true; url: string; headers: HeaderList } | { ok: false; status: number; message: string } {
	const allowed = tokenMayGo(session.tokens_for, url);
	if (!allowed.ok) return { ok: false, status: 409, message: allowed.message };
	const tokens = realTokens(session)!;
	if (session.setup?.token_location === 'query') {
		const u = new URL(url);
		u.searchParams.set('access_token', tokens.access_token);
		return { ok: true, url: u.toString(), headers: [] };
	}
	return { ok: true, url, headers: [['Authorization', `Bearer ${tokens.access_token}`]] };
}

/**
 * Steps 4 and 6: an API call with the access token. The expiry is checked first; an expired token
 * is refreshed as its own shown exchange (the service's API docs §5 step 6).
 */
export async function callApi(
	sender: Sender,
	session: Session,
	step: 'userinfo' | 'api',
	call?: ApiCall,
	signal?: AbortSignal,
	client?: string
): Promise<StepResult> {
	if (!session.setup) return { ok: false, status: 409, message: 'Save the setup first.' };
	if (!session.tokens)
		return {
			ok: false,
			status: 409,
			message: 'There is no access token yet: finish the code exchange first.'
		};
	const exchanges: Exchange[] = [];
	let current = session;
	if (isExpired(session.tokens, Date.now())) {
		// A public client (none) refreshes without a secret.
		if (
			session.tokens.refresh_token &&
			(session.client_secret || session.setup.token_endpoint_auth_method === 'none')
		) {
			const r = await refreshTokens(
				sender,
				session,
				`The access token had expired, so the playground refreshed it before the call (${API_DOCS} §5 step 6).`,
				signal
			);
			if (!r.ok) return r;
			exchanges.push(...r.exchanges);
			current = r.session;
			// The refresh failed (its findings say why): the call is not made, and the step says so.
			if (current.tokens === session.tokens)
				return {
					ok: false,
					status: 424, // Failed Dependency: the refresh it needed failed
					message: REFRESH_FIRST_FAILED,
					session: current,
					exchanges
				};
		}
	}
	const ep = endpoints(current.setup!);
	let url: string;
	if (step === 'userinfo' || !call) url = ep.userinfo;
	else {
		// The token goes only to the API's origin (api-request.ts), checked before anything is sent.
		const u = apiUrl(call, ep.api);
		if (!u.ok) return { ok: false, status: 400, message: u.message };
		url = u.value;
	}
	const t = withToken(url, current);
	if (!t.ok) return { ...t, session: current, exchanges };
	const api = step === 'api' && call ? call : undefined;
	const method = api?.method ?? 'GET';
	const attempts = await sender.sendAll({
		step,
		method,
		url: t.url,
		headers: [
			...t.headers,
			...(api?.contentType ? ([['Content-Type', api.contentType]] as HeaderList) : []),
			...(api?.headers ?? [])
		],
		body: api?.body ?? '',
		note:
			step === 'userinfo'
				? `The user-info read (${API_DOCS} §4.4).`
				: `${method} ${new URL(url).pathname}`,
		signal,
		allowInvalidTls: current.setup!.allow_invalid_tls,
		client
	});
	exchanges.push(
		...attempts.map((raw) =>
			present(raw, current, {
				tokenExpiresAt: current.tokens!.expires_at,
				requestedScope: current.tokens!.requested_scope
			})
		)
	);
	return { ok: true, session: current, exchanges };
}
