/**
 * The flow's server-side steps. Each takes the step's context (the app, the playground's origin,
 * the visitor and the abort signal, handed down by the flow: flow/context.ts) and the session, does
 * its one thing (a request to the service goes through `sendStep`, send-step.ts), and returns the
 * new session and the exchanges to show, or a named refusal (refusals.ts). What a step with a form
 * reads from it is written beside it (its `FormInput`), and the table of runs (runs.ts) pairs the
 * two for its form action.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { consentUrl, makeState } from '$lib/oauth/consent';
import { endpoints } from '$lib/oauth/setup';
import { specOf } from '$lib/steps/registry';
import { exchangeBody, FORM_CONTENT_TYPE, refreshBody } from '$lib/oauth/token-endpoint';
import { isExpired, type TokenSet } from '$lib/oauth/token-set';
import { expiredAt, type RefreshHistory } from '$lib/oauth/refresh-cause';
import { API_DOCS } from '$lib/oauth/docs';
import { handleCallback } from './redirect-back';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import { realTokens, receiveTokens } from '../flow/tokens';
import { rememberState, type Session } from '../session/session';
import { clientAuth } from '../flow/client-auth';
import { codeChallenge, newVerifier } from '../flow/pkce';
import type { StepContext } from '../flow/context';
import { registeredRedirect } from './registered-redirect';
import { sendStep } from './send-step';
import { prepare } from '../outbound/send';
import { outward } from '../flow/way-out';
import { ok, refused, type FormInput } from '../flow/step-forms';
import { apiUrl, parseApiCall, type ApiCall } from '$lib/oauth/api-request';
import { tokenMayGo } from '$lib/oauth/token-binding';
import {
	apiCallRefused,
	CODE_HELD,
	NO_ACCESS_TOKEN,
	NO_CODE,
	NO_SETUP,
	NO_TOKENS,
	NOTHING_TO_REFRESH_WITH,
	PASTE_HOLDS_NOTHING,
	PASTE_NOT_A_URL,
	REFRESH_FIRST_FAILED,
	refuse,
	tokenNotSent,
	type Refused
} from '../flow/refusals';

export type StepResult =
	| {
			ok: true;
			session: Session;
			exchanges: Exchange[];
			/** More for the page than the exchanges (a JWT check's verdict, the metadata found). */
			answer?: Record<string, unknown>;
	  }
	| (Refused & {
			session?: Session;
			exchanges?: Exchange[];
			/** More for the page than the message (the fork a second replay is refused for). */
			answer?: Record<string, unknown>;
	  });

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

function tokenHeaders(auth: HeaderList): HeaderList {
	return [['Content-Type', FORM_CONTENT_TYPE], ...auth];
}

/** The setup and the client's credentials for the token endpoint (client-auth.ts attaches them). */
function needSetup(session: Session) {
	// The secret goes only with the client id and URLs it was entered for (secret.ts).
	return clientAuth(session, 'token_endpoint');
}

/**
 * The code exchange of a code kept for the script ("Get a code for the script"), as the sender
 * would write it but not sent: what the code's own script repeats (exchange/curl.ts toCodeScript).
 * It holds the secret until it is redacted on the way out, like every exchange.
 */
export function scriptCodeExchange(session: Session): Exchange | undefined {
	const code = session.code;
	if (!code || !session.callback?.for_script) return undefined;
	const need = needSetup(session);
	if (!need.ok) return undefined;
	const prepared = prepare({
		step: 'exchange',
		method: 'POST',
		url: need.url,
		headers: tokenHeaders(need.headers),
		body: exchangeBody({
			code: code.value,
			redirect_uri: code.redirect_uri,
			...need.body,
			code_verifier: code.code_verifier
		})
	});
	if ('failure' in prepared) return undefined;
	return {
		id: randomUUID(),
		step: 'exchange',
		startedAt: new Date().toISOString(),
		request: prepared.request,
		timing: { total: 0 },
		findings: [],
		note: 'The code exchange of the code kept for the script: sent by the script, not by the playground.'
	};
}

/**
 * The registration check: the server GETs the consent URL without following redirects and without
 * authorizing anything, and reports what the service says about client_id, redirect_uri and scope.
 * The pending state is not used up.
 */
export async function checkRegistration(c: StepContext, session: Session): Promise<StepResult> {
	const setup = session.setup;
	if (!setup) return refuse(NO_SETUP);
	const url =
		session.pending?.consent_url ??
		consentUrl(endpoints(setup).authorization, {
			client_id: setup.client_id,
			redirect_uri: setup.redirect_uri,
			scope: setup.scope,
			state: makeState()
		});
	const { exchanges } = await sendStep(
		c,
		session,
		{
			step: 'check',
			method: 'GET',
			url,
			accept: 'text/html,application/json;q=0.9',
			note: 'Registration check: the consent URL, fetched by the playground server without following redirects. Nothing is authorized.'
		},
		{
			retry: true,
			diagnosis: {
				redirectUri: setup.redirect_uri,
				clientId: setup.client_id,
				// The scope the consent URL asks for (a pushed request's URL carries none: the setup's).
				requestedScope:
					(URL.canParse(url) && new URL(url).searchParams.get('scope')) || setup.scope,
				...registeredRedirect(c.app.presets, setup, c.origin)
			}
		}
	);
	return { ok: true, session, exchanges };
}

const pasteSchema = z.object({
	pasted: z
		.string()
		.trim()
		.min(1, 'Paste the address your application landed on')
		.max(8192, 'That is too long for a redirect address (at most 8192 characters)')
});

/** Paste-back mode: the address the user's application landed on. */
export const pastedAddress: FormInput<string> = (form) => {
	const parsed = pasteSchema.safeParse({ pasted: form.get('pasted') ?? '' });
	return parsed.success ? ok(parsed.data.pasted) : refused(parsed.error);
};

/** Paste-back mode: the URL (or only its query) that the application's own redirect URI received. */
export function pasteBack(c: StepContext, session: Session, pasted: string): StepResult {
	if (!session.setup) return refuse(NO_SETUP);
	const text = pasted.trim();
	let url: URL;
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
		if (!URL.canParse(text)) return refuse(PASTE_NOT_A_URL);
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
		return refuse(PASTE_HOLDS_NOTHING);
	const { session: next, exchange, ignored } = handleCallback(c, session, url, new Headers());
	// The address is the user's paste: it is redacted here, as a sent step's exchange is by sendStep.
	const pastedExchange: Exchange = outward(
		c.app.redactors,
		{
			...exchange,
			response: undefined,
			note: `Pasted back by hand (paste-back mode): the address your application's redirect URI received${fromFragment ? ' (the parameters were in the #fragment, which the authorization-code flow does not use)' : ''}.`
		},
		session
	);
	// Shown at once, so the outbox keeps only what it held before; an ignored paste changes nothing.
	return {
		ok: true,
		session: ignored ? session : { ...next, outbox: session.outbox },
		exchanges: [pastedExchange]
	};
}

/** The exchange: "Exchange anyway", after the issuer check (`anyway=1`). */
export const exchangeChoice: FormInput<{ anyway: boolean }> = (form) =>
	ok({ anyway: form.get('anyway') === '1' });

/**
 * Step 3: the code exchange (the service's API docs §4.2). The code is used once, whatever the
 * answer. A code the issuer check held back is exchanged only with `anyway` ("Exchange anyway").
 */
export async function exchangeCode(
	c: StepContext,
	session: Session,
	{ anyway = false }: { anyway?: boolean } = {}
): Promise<StepResult> {
	const need = needSetup(session);
	if (!need.ok) return need;
	if (!session.code) return refuse(NO_CODE);
	if (session.code.held && !anyway) return refuse(CODE_HELD);
	const { url, headers, body } = need;
	const code = session.code;
	// What the page knows of the code (diagnose.ts): when it came back, when it is sent, the
	// sandbox's code lifetime (the service's API docs give none), whether it was sent before.
	const received = session.callback?.verdict === 'code' ? session.callback.received_at : undefined;
	const known =
		received === undefined
			? {}
			: {
					code: {
						receivedAt: received,
						sentAt: c.app.sender.clock(),
						lifetime: c.app.presets.isSandboxTarget(session.setup, c.origin)
							? c.app.config.sandbox.codeTtl
							: undefined,
						sentBefore: !!code.sent
					}
				};
	const { raw, shown } = await sendStep(
		c,
		session,
		{
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
				: 'The code exchange, from the playground server.'
		},
		{
			diagnosis: { requestedScope: code.scope, ...known },
			pkce: { verifier: code.code_verifier, challenge: code.code_challenge }
		}
	);
	// The connection closed before any answer: the code may not be spent, so it stays, and
	// exchanging it again shows which (diagnose.ts, code-maybe-spent).
	const unanswered = raw.failure?.kind === 'reset' && !raw.response;
	const next: Session = { ...session, code: unanswered ? { ...code, sent: true } : undefined };
	// Tokens for it: the code this flow may replay on purpose (replay.ts), and no other.
	const granted = !!raw.response && raw.response.status >= 200 && raw.response.status < 300;
	if (granted) next.spent = { ...code, setup_id: session.setup_id };
	if (session.code.held && next.callback)
		next.callback = { ...next.callback, exchanged_anyway: true };
	return {
		ok: true,
		session:
			receiveTokens(c.app.redactors, next, raw, shown, code.scope, c.app.sender.clock()) ?? next,
		exchanges: [shown]
	};
}

/** What the live flow knows of the refresh token it is about to send (refresh-cause.ts). */
function liveHistory(tokens: TokenSet, now: number): RefreshHistory | undefined {
	const revoked = tokens.revoked?.refresh
		? ({ what: 'refresh' } as const)
		: tokens.revoked?.access
			? ({ what: 'access' } as const)
			: undefined;
	const expired = expiredAt(tokens.extra, tokens.obtained_at, now);
	return revoked || expired
		? { ...(revoked && { revoked }), ...(expired && { expired }) }
		: undefined;
}

/** The refresh: sent by the switch under the tokens before the token expires (`auto=1`). */
export const refreshChoice: FormInput<{ auto: boolean }> = (form) =>
	ok({ auto: form.get('auto') === '1' });

/** Step 5: the refresh (the service's API docs §4.3). */
export async function refreshTokens(
	c: StepContext,
	session: Session,
	note = 'The refresh, from the playground server.'
): Promise<StepResult> {
	const need = needSetup(session);
	if (!need.ok) return need;
	const tokens = realTokens(session);
	if (!tokens?.refresh_token) return refuse(tokens ? NOTHING_TO_REFRESH_WITH : NO_TOKENS);
	// A fork's try superseded this flow's refresh token (fork.ts `refreshHold`).
	const held = await c.refreshHeld?.(session);
	if (held) return refuse(held);
	const { url, headers, body } = need;
	const { raw, shown } = await sendStep(
		c,
		session,
		{
			step: 'refresh',
			method: 'POST',
			url,
			headers: tokenHeaders(headers),
			body: refreshBody({ ...body, refresh_token: tokens.refresh_token }),
			note
		},
		{
			diagnosis: {
				requestedScope: tokens.requested_scope,
				// What this flow knows of the refresh token it sends: a revocation in step 8, of it
				// or of its access token, and an expiry its answer gave that has passed
				// (refresh-cause.ts names the cause of a refusal from it).
				refreshHistory: session.tokens && liveHistory(session.tokens, c.app.sender.clock())
			}
		}
	);
	return {
		ok: true,
		session:
			receiveTokens(
				c.app.redactors,
				session,
				raw,
				shown,
				tokens.requested_scope,
				c.app.sender.clock(),
				true
			) ?? session,
		exchanges: [shown]
	};
}

export type { ApiCall };

/**
 * The request with the access token attached, in the header or the query as the setup says: only
 * to an origin the tokens were issued for (oauth/token-binding.ts), checked here, where every call
 * that sends the access token gets it.
 */
export function withToken(
	url: string,
	session: Session
): { ok: true; url: string; headers: HeaderList } | Refused {
	const allowed = tokenMayGo(session.tokens_for, url);
	if (!allowed.ok) return refuse(tokenNotSent(allowed.message));
	const tokens = realTokens(session)!;
	if (session.setup?.token_location === 'query') {
		const u = new URL(url);
		u.searchParams.set('access_token', tokens.access_token);
		return { ok: true, url: u.toString(), headers: [] };
	}
	return { ok: true, url, headers: [['Authorization', `Bearer ${tokens.access_token}`]] };
}

/** Any API call: method, path, query, headers and body, as the console sends them. */
export const apiCallInput: FormInput<ApiCall> = (form) => {
	const text = (k: string) => {
		const v = form.get(k);
		return typeof v === 'string' ? v : '';
	};
	const method = text('method') || 'GET';
	// A form without a body kind (an older page, a script) sends a POST's body as a form.
	const kind = text('body_kind') || (method === 'POST' && text('body') ? 'form' : 'none');
	const parsed = parseApiCall({
		method,
		path: text('path'),
		query: text('query'),
		headers: text('headers'),
		bodyKind: kind,
		body: text('body'),
		contentType: text('content_type')
	});
	return parsed.ok ? ok(parsed.value) : { ok: false, message: parsed.message, field: parsed.field };
};

/**
 * Steps 4 and 6: an API call with the access token. The expiry is checked first; an expired token
 * is refreshed as its own shown exchange (the service's API docs §5 step 6).
 */
export async function callApi(
	c: StepContext,
	session: Session,
	step: 'userinfo' | 'api',
	call?: ApiCall
): Promise<StepResult> {
	const { sender } = c.app;
	if (!session.setup) return refuse(NO_SETUP);
	if (!session.tokens) return refuse(NO_ACCESS_TOKEN);
	const exchanges: Exchange[] = [];
	let current = session;
	if (isExpired(session.tokens, sender.clock())) {
		// A public client (none) refreshes without a secret.
		if (
			session.tokens.refresh_token &&
			(session.client_secret || session.setup.token_endpoint_auth_method === 'none')
		) {
			const r = await refreshTokens(
				c,
				session,
				`The access token had expired, so the playground refreshed it before the call (${API_DOCS} §5 step 6).`
			);
			if (!r.ok) return r;
			exchanges.push(...r.exchanges);
			current = r.session;
			// The refresh failed (its findings say why): the call is not made, and the step says so.
			if (current.tokens === session.tokens)
				return refuse(REFRESH_FIRST_FAILED, { session: current, exchanges });
		}
	}
	const ep = endpoints(current.setup!);
	// The call of the API's card goes where its path says; the user-info read, to its endpoint.
	const api = specOf(step).endpoint === 'api' ? call : undefined;
	let url: string;
	if (!api) url = ep.userinfo;
	else {
		// The token goes only to the API's origin (api-request.ts), checked before anything is sent.
		const u = apiUrl(api, ep.api);
		if (!u.ok) return refuse(apiCallRefused(u.message));
		url = u.value;
	}
	const t = withToken(url, current);
	if (!t.ok) return { ...t, session: current, exchanges };
	const method = api?.method ?? 'GET';
	const sent = await sendStep(
		c,
		current,
		{
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
				specOf(step).endpoint === 'userinfo'
					? `The user-info read (${API_DOCS} §4.4).`
					: `${method} ${new URL(url).pathname}`
		},
		{
			retry: true,
			diagnosis: {
				tokenExpiresAt: current.tokens!.expires_at,
				requestedScope: current.tokens!.requested_scope,
				...(current.tokens!.granted_scope !== undefined
					? { grantedScope: current.tokens!.granted_scope }
					: {}),
				// Whose budget a 429 spent: the sandbox counts per client, or per sign-in when hosted.
				budget: {
					owner: c.app.presets.isSandboxTarget(current.setup, c.origin)
						? c.app.config.policy.mode === 'hosted'
							? 'sign-in'
							: 'client'
						: undefined,
					clientId: current.setup!.client_id
				},
				// The user-info endpoint is the one OpenID metadata named: it wants `openid`.
				...(!api && current.metadata_for?.openid_userinfo === ep.userinfo
					? {
							openidUserinfo: {
								scope: current.tokens!.granted_scope ?? current.tokens!.requested_scope
							}
						}
					: {})
			}
		}
	);
	exchanges.push(...sent.exchanges);
	return { ok: true, session: current, exchanges };
}
