/**
 * Exchange → findings, in plain words, each with the fix and the rule it rests on.
 * Pure: the same rules run on live exchanges and on imported ones. This module decides which
 * finding applies; the words, the fix and the reference of each are its entry in the catalogue
 * (`catalogue/`: the token endpoint's, a failed request's, any answer's, a resource call's, the
 * consent URL's and the redirect back's).
 */
import type { Exchange, FailureKind, Finding } from '$lib/exchange/types';
import { refreshRefusal, type RefreshHistory } from './refresh-cause';
import { budgetOf, rateLimits, receivedAtOf } from '$lib/exchange/rate-limit-headers';
import { specOf } from '$lib/steps/registry';
import type { GrantType } from '$lib/steps/spec';
import { headerValue } from '$lib/exchange/types';
import { jsonObject } from '$lib/exchange/text';
import { MAX_STATE_BYTES } from './setup-fields';
import { explaining, raise, type Entry } from './catalogue/raise';
import * as answer from './catalogue/answer';
import * as authorizationError from './catalogue/authorization-error';
import * as consentUrl from './catalogue/consent-url';
import * as resourceCall from './catalogue/resource-call';
import * as stateCheck from './catalogue/state-check';
import * as token from './catalogue/token';
import * as transport from './catalogue/transport';
import { wrongEndpointFinding, type PlaygroundInfo } from './wrong-endpoint';
import { badItemIdFinding } from './item-ids';
import { redirectUriFix, retryRedirect, type RedirectUriOptions } from './redirect-uri';
import { pageText } from './page-text';
import { redirectRefusal } from './redirect-refusal';
import { signInPage, signInRedirect } from './sign-in-first';
import type { Advice } from './advice';

export interface DiagnoseContext {
	requestedScope?: string;
	/** For a call with the access token: the scope its token answer granted, when it said one. */
	grantedScope?: string;
	/** For the registration check: the redirect_uri and client_id that were sent. */
	redirectUri?: string;
	clientId?: string;
	/** What the redirect_uri is registered as, when known: a refusal names the difference (redirect-uri.ts). */
	registeredRedirectUri?: string | readonly string[];
	redirectUriOptions?: RedirectUriOptions;
	/** Epoch ms when the access token used by this exchange expires, if known. */
	tokenExpiresAt?: number;
	/** The playground's own origin, so that a base URL on it is named (wrong-endpoint.ts). */
	playground?: PlaygroundInfo;
	/** For a refresh: what is on record of the refresh token it sent (refresh-cause.ts). */
	refreshHistory?: RefreshHistory;
	/** Whose rate-limit budget a call spends, as far as the playground knows (a 429's words). */
	budget?: { owner: 'client' | 'sign-in' | undefined; clientId?: string };
	/**
	 * The user-info endpoint called is the one OpenID metadata named, with the scope the token was
	 * granted: a refusal of a token without `openid` is named as such, and never laid on the URL.
	 */
	openidUserinfo?: { scope: string };
	/**
	 * Whose advice fits the setup (advice.ts): the feed-reader service's own words (its documented
	 * paths, its `userId`, its "Read only" registrations and two scopes) only where the setup is the
	 * service's; otherwise generic words, with the scopes its metadata lists. Not given: the service's.
	 */
	advice?: Advice;
	/**
	 * For a code exchange: what the page knows of the code (epoch ms by the app's clock): when it
	 * came back, when this exchange sent it, the server's known code lifetime in seconds (the
	 * sandbox's; none for other servers), and whether an exchange sent it before.
	 */
	code?: {
		receivedAt?: number;
		sentAt?: number;
		lifetime?: number;
		sentBefore?: boolean;
		/**
		 * The redirect_uri of the consent request that brought the code, and the one this exchange
		 * sent, where a recording shows both (imported.ts; the live flow always sends the consent's).
		 */
		redirectUri?: { consent: string; sent: string };
	};
}

/** Whether the service's own advice fits (`ctx.advice`); yes when nothing says otherwise. */
const forService = (ctx: DiagnoseContext) => ctx.advice?.service ?? true;

/** Number.isInteger, which also tells the type checker that the value is a number. */
const isInteger = (v: unknown): v is number => Number.isInteger(v);

/** The words of a space-separated list (RFC 6749 §3.3): the empty strings between blanks dropped. */
function words(s: string): Set<string> {
	return new Set(s.split(/\s/).filter(Boolean));
}

/** The entry of each failure kind of the sender; any other kind is a network error. */
const failureFindings: Record<FailureKind, Entry<[message: string]>> = {
	blocked: transport.BLOCKED,
	refused: transport.CONNECTION_REFUSED,
	dns: transport.DNS_FAILURE,
	timeout: transport.TIMEOUT,
	tls: transport.TLS_FAILURE,
	'plain-http': transport.PLAIN_HTTP_PORT,
	'too-large': transport.RESPONSE_TOO_LARGE,
	reset: transport.CONNECTION_RESET,
	busy: transport.POOL_BUSY,
	ended: transport.POOL_ENDED,
	cancelled: transport.CANCELLED,
	network: transport.NETWORK_ERROR
};

/** Two causes of a refusal, one either side of an "or", in one sentence. */
const CAUSE = String.raw`\b(invalid|incorrect|wrong|malformed|expired?|used|redeemed|revoked)\b`;
const WEIGHS_CAUSES = new RegExp(String.raw`${CAUSE}[^.]*\bor\b[^.]*${CAUSE}`, 'i');

/**
 * A refused code whose refusal says why, in any server's words: expired ("authorization code has
 * expired"), used already ("has already been used", "already redeemed"), or its redirect_uri
 * (Keycloak's "Incorrect redirect_uri"), in Entra ID's words too. Words that weigh several causes
 * prove none: then the likely causes, most likely first.
 */
function codeRefusal(desc: string | undefined): Finding | undefined {
	// Words that weigh causes ("invalid or has expired", "whether it was used is not known") prove
	// none of them. An "or" between two things that are no causes (Entra ID's "authorization code
	// or refresh token", "a new valid code or use an existing refresh token") weighs nothing.
	if (!desc || /\b(whether|unknown|not known)\b/i.test(desc) || WEIGHS_CAUSES.test(desc))
		return undefined;
	if (/\bexpired?\b/i.test(desc)) return raise(token.CODE_EXPIRED, desc);
	if (/\b(already|previously)\b.*\b(used|redeemed|exchanged|consumed)\b|\breused?\b/i.test(desc))
		return raise(token.CODE_ALREADY_USED, desc);
	if (/\bredirect[_ ]?ur[il]\b/i.test(desc)) return raise(token.CODE_REDIRECT_URI, desc);
	return undefined;
}

/**
 * A refused code whose cause the page knows: sent before by an exchange of this flow (used twice),
 * sent with another redirect_uri than the consent request that brought it (a recording shows
 * both), or never sent and older than the server's known code lifetime (expired).
 */
function codeKnown(desc: string | undefined, code: DiagnoseContext['code']): Finding | undefined {
	if (!code) return undefined;
	if (code.sentBefore) return raise(token.CODE_SENT_BEFORE, desc);
	const uri = code.redirectUri;
	if (uri && uri.sent !== uri.consent)
		return raise(token.CODE_REDIRECT_URI_DIFFERS, uri.consent, uri.sent, desc);
	if (code.sentAt === undefined || code.receivedAt === undefined) return undefined;
	const age = (code.sentAt - code.receivedAt) / 1000;
	if (code.lifetime !== undefined && age > code.lifetime)
		return raise(token.CODE_EXPIRED_BY_AGE, Math.floor(age), code.lifetime, desc);
	return undefined;
}

/**
 * GitHub's own token errors (it answers them with 200), by the RFC 6749 §5.2 error each stands for:
 * its refused code and its refused client credentials are explained as those are. Its refused
 * refresh token, `bad_refresh_token`, is refresh-cause.ts's.
 */
const STANDS_FOR: Readonly<Record<string, string>> = {
	bad_verification_code: 'invalid_grant',
	incorrect_client_credentials: 'invalid_client'
};

/**
 * The token endpoint's OAuth error (RFC 6749 §5.2): the entry of the token catalogue that explains
 * it, for the grant that got it; an invalid_request whose description names the Content-Type is
 * about that header; an error the catalogue has no words for keeps the service's own.
 */
/** Words about the client's own credentials: its secret, its authentication. */
const CLIENT_CREDENTIAL_WORDS =
	/\bclient[ _-]?(secret|credentials?|authentication)\b|\binvalid client\b/i;

/** Errors about the grant or the request's parameters, never about who the client is. */
const NOT_ABOUT_THE_CLIENT = new Set(['invalid_grant', 'invalid_scope', 'unsupported_grant_type']);

function tokenErrorFinding(
	grant: GrantType,
	error: string,
	desc: string | undefined,
	status: number,
	ctx: DiagnoseContext
): Finding {
	const err = Object.hasOwn(STANDS_FOR, error) ? STANDS_FOR[error]! : error;
	// The client's credentials refused under another error code (token.CLIENT_REFUSED_AS).
	const aboutCredentials = CLIENT_CREDENTIAL_WORDS.test(desc ?? '');
	if (
		err !== 'invalid_client' &&
		!NOT_ABOUT_THE_CLIENT.has(err) &&
		(aboutCredentials || status === 401)
	)
		return raise(token.CLIENT_REFUSED_AS, error, status, desc, aboutCredentials);
	if (err === 'invalid_request' && /content-type/i.test(desc ?? ''))
		return raise(token.CONTENT_TYPE_REFUSED, desc);
	if (err === 'invalid_scope' && !forService(ctx))
		return raise(token.INVALID_SCOPE_ELSEWHERE, desc, ctx.advice?.scopes);
	if (grant === 'authorization_code' && err === 'invalid_grant') {
		const why = codeRefusal(desc) ?? codeKnown(desc, ctx.code);
		if (why) return why;
	}
	const e = explaining(Object.values(token), err, grant);
	return e ? raise(e, desc) : raise(token.OTHER_ERROR, err, desc);
}

function tokenResponseFindings(
	grant: GrantType,
	body: Record<string, unknown>,
	ctx: DiagnoseContext
): Finding[] {
	const out: Finding[] = [];
	if (typeof body.access_token !== 'string' || !body.access_token)
		out.push(raise(token.MISSING_ACCESS_TOKEN));
	if (typeof body.token_type !== 'string') out.push(raise(token.MISSING_TOKEN_TYPE));
	else if (body.token_type.toLowerCase() !== 'bearer')
		out.push(raise(token.TOKEN_TYPE, body.token_type));
	else if (body.token_type !== 'Bearer') out.push(raise(token.TOKEN_TYPE_CASE, body.token_type));
	if (body.expires_in === undefined) out.push(raise(token.MISSING_EXPIRES_IN));
	else if (!isInteger(body.expires_in)) out.push(raise(token.EXPIRES_IN_TYPE, body.expires_in));
	else if (body.expires_in <= 0) out.push(raise(token.EXPIRES_IN_NOT_POSITIVE, body.expires_in));
	else if (body.expires_in > 366 * 24 * 3600)
		out.push(raise(token.EXPIRES_IN_TOO_LONG, body.expires_in));
	if (body.refresh_token === undefined)
		// A refresh that sends no new refresh token keeps the old one (RFC 6749 §6).
		out.push(
			raise(grant === 'refresh_token' ? token.REFRESH_TOKEN_KEPT : token.MISSING_REFRESH_TOKEN)
		);
	else if (typeof body.refresh_token !== 'string') out.push(raise(token.REFRESH_TOKEN_TYPE));
	if (body.scope === undefined) out.push(raise(token.MISSING_SCOPE));
	else if (typeof body.scope !== 'string') out.push(raise(token.SCOPE_TYPE));
	else if (ctx.requestedScope) {
		const asked = words(ctx.requestedScope);
		const got = words(body.scope);
		const same = asked.size === got.size && [...asked].every((w) => got.has(w));
		if (!same)
			out.push(
				raise(
					token.SCOPE_DIFFERS,
					body.scope,
					ctx.requestedScope,
					// Zone 2 and "Read only" are the service's (its API docs §5 step 7, §4.1).
					forService(ctx) && asked.has('write') && !got.has('write')
				)
			);
	}
	const known = new Set(['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope']);
	const extra = Object.keys(body).filter((k) => !known.has(k));
	if (extra.length) out.push(raise(token.EXTRA_FIELDS, extra));
	return out;
}

/**
 * A 429: the budget its headers show spent (exchange/rate-limit-headers.ts, any service's shape),
 * when it resets and when the service asks to be called again, and whose it is (`ctx.budget`).
 */
function rateLimitFindings(ex: Exchange, ctx: DiagnoseContext = {}): Finding[] {
	if (ex.response!.status !== 429) return [];
	const budget = budgetOf(ex);
	const at = receivedAtOf(ex);
	const spent = budget?.meters.find(
		(m) => m.left === 0 || (m.limit !== undefined && m.used !== undefined && m.used >= m.limit)
	);
	const secondsTo = (ms: number | undefined) =>
		ms === undefined || at === undefined ? undefined : Math.max(0, Math.round((ms - at) / 1000));
	const label = spent && spent.label.charAt(0).toLowerCase() + spent.label.slice(1);
	return [
		raise(
			resourceCall.RATE_LIMITED,
			label,
			secondsTo(spent?.resetAt ?? budget?.meters.find((m) => m.resetAt !== undefined)?.resetAt) ??
				rateLimits(ex.response!.headers)?.resetAfter,
			secondsTo(budget?.retryAt),
			ctx.budget?.owner,
			ctx.budget?.clientId
		)
	];
}

/**
 * A refusal by an OpenID Connect user-info endpoint (named by the metadata) of a token granted no
 * `openid` (OpenID Connect Core §5.3: the user-info endpoint serves tokens granted it): certain when
 * the server says it wants that scope (403 insufficient_scope, or a challenge naming `openid`),
 * likely for a bare 401 (django-oauth-toolkit's invalid_token).
 */
function openidScopeMissing(ex: Exchange, ctx: DiagnoseContext): Finding | undefined {
	const scope = ctx.openidUserinfo?.scope;
	const res = ex.response!;
	if (scope === undefined || specOf(ex.step).endpoint !== 'userinfo') return undefined;
	if (scope.split(/\s+/).includes('openid') || (res.status !== 401 && res.status !== 403))
		return undefined;
	const www = headerValue(res.headers, 'WWW-Authenticate') ?? '';
	const body = jsonObject(res.body);
	const says =
		/insufficient_scope/.test(www) ||
		body?.error === 'insufficient_scope' ||
		/scope="[^"]*\bopenid\b/.test(www);
	if (res.status === 403 && !says) return undefined;
	return raise(resourceCall.OPENID_SCOPE_MISSING, scope, says);
}

function apiFindings(ex: Exchange, ctx: DiagnoseContext): Finding[] {
	const res = ex.response!;
	const out: Finding[] = [];
	const www = headerValue(res.headers, 'WWW-Authenticate') ?? '';
	const body = jsonObject(res.body);
	if (res.status === 401) {
		const expired = Date.parse(ex.startedAt) >= (ctx.tokenExpiresAt ?? Infinity);
		out.push(
			expired
				? raise(resourceCall.TOKEN_EXPIRED)
				: raise(resourceCall.TOKEN_REFUSED, /invalid_token/.test(www))
		);
	} else if (res.status === 403) {
		const scope = /insufficient_scope/.test(www) || body?.error === 'insufficient_scope';
		// The scope to ask for: the one the server's challenge names (RFC 6750 §3.1), else the
		// token's own words with read and write (the service's zone 2).
		const wanted = /\bscope="([^"]*)"/.exec(www)?.[1]?.trim() || undefined;
		const had = [...words(ctx.grantedScope ?? ctx.requestedScope ?? '')];
		const ask = (more: string[]) => [...new Set([...had, ...more])].join(' ');
		if (forService(ctx)) {
			const requested = words(ctx.requestedScope ?? '');
			const granted = ctx.grantedScope === undefined ? undefined : words(ctx.grantedScope);
			// Asked for write and granted read: the registration can only read.
			const readOnly = requested.has('write') && granted !== undefined && !granted.has('write');
			out.push(
				!scope
					? raise(resourceCall.FORBIDDEN)
					: readOnly
						? raise(
								resourceCall.INSUFFICIENT_SCOPE_READ_ONLY,
								ctx.requestedScope!,
								ctx.grantedScope!
							)
						: raise(resourceCall.INSUFFICIENT_SCOPE, wanted ?? ask(['read', 'write']))
			);
		} else
			out.push(
				scope
					? raise(resourceCall.INSUFFICIENT_SCOPE_ELSEWHERE, wanted, ctx.advice?.scopes, wanted)
					: raise(resourceCall.FORBIDDEN_ELSEWHERE)
			);
	}
	out.push(...rateLimitFindings(ex, ctx));
	return out;
}

function jsonExpected(ex: Exchange): Finding[] {
	const res = ex.response!;
	// A 429 is the rate limit's answer, whatever its body (a proxy's "Too Many Requests"): its own
	// finding says it (rateLimitFindings), once.
	if (!res.body.trim() || res.status === 204 || res.status === 429) return [];
	// A 3xx never gets here: diagnose reports it as a redirect first.
	const ct = headerValue(res.headers, 'Content-Type');
	if (jsonObject(res.body) !== undefined) return [];
	if (/^\s*\[/.test(res.body)) return [];
	const isHtml = /html/i.test(ct ?? '') || /^\s*</.test(res.body);
	// The API answers a write with a plain OK (the service's API docs §4.4).
	if (specOf(ex.step).endpoint === 'api' && res.body.trim() === 'OK') return [];
	return [raise(res.truncated ? answer.NOT_JSON_CUT_OFF : answer.NOT_JSON, isHtml, ct)];
}

/** OAuth's error codes at the authorization endpoint (RFC 6749 §4.1.2.1), and invalid_client. */
const PAGE_ERROR =
	/\b(invalid_client|unauthorized_client|invalid_request|invalid_scope|access_denied|unsupported_response_type|server_error|temporarily_unavailable)\b/;

/**
 * An error page's OAuth error code and the sentence that says why, from what the page shows
 * (page-text.ts): its `error_description` line, else its first line about the client.
 */
function pageError(html: string): { error?: string; description?: string } {
	const page = pageText(html);
	const lines = [page.title, ...page.headings, page.text].filter(Boolean).join('\n');
	const described = /error_description:?\s*([^\n]+)/.exec(lines)?.[1];
	const aboutClient = lines.split('\n').find((l) => /\bclient/i.test(l));
	return {
		error: PAGE_ERROR.exec(lines)?.[1],
		description: (described ?? aboutClient)?.trim().slice(0, 300) || undefined
	};
}

/** Errors that ask for a sign-in or a consent first (OpenID Connect Core §3.1.2.6): no refusal. */
const SIGN_IN_ERRORS = /^(login|consent|interaction|account_selection)_required$/;

/** What the consent URL, fetched without following redirects, says about the registration. */
function checkFindings(ex: Exchange, ctx: DiagnoseContext): Finding[] {
	const res = ex.response!;
	const body = jsonObject(res.body);
	const said = typeof body?.error_description === 'string' ? body.error_description : undefined;
	// A refused redirect URI, in whatever shape the server gives it (redirect-refusal.ts).
	const refusal = redirectRefusal(res, ex.request.url, ctx.redirectUri);
	if (refusal) {
		const fix = redirectUriFix(ctx.redirectUri, ctx.registeredRedirectUri, ctx.redirectUriOptions);
		const retry = retryRedirect(
			ctx.redirectUri,
			ctx.registeredRedirectUri,
			ctx.redirectUriOptions?.callbackUrl
		);
		return [
			refusal.strength === 'certain'
				? raise(
						consentUrl.REDIRECT_URI_REFUSED,
						ctx.redirectUri,
						ctx.clientId,
						refusal.code,
						refusal.to,
						refusal.words,
						fix,
						retry
					)
				: raise(
						consentUrl.REDIRECT_URI_LIKELY_REFUSED,
						ctx.redirectUri,
						ctx.clientId,
						res.status,
						refusal.to,
						refusal.words,
						fix,
						retry
					)
		];
	}
	if (res.status >= 400 && res.status < 500) {
		// An error page says it in its visible text (oidc-provider: "error: invalid_client").
		const page = body ? undefined : pageError(res.body);
		const err = typeof body?.error === 'string' ? body.error : page?.error;
		const description = page ? page.description : said;
		if (
			err === 'invalid_client' ||
			err === 'unauthorized_client' ||
			/client/i.test(description ?? '')
		)
			return [raise(consentUrl.UNKNOWN_CLIENT, ctx.clientId, description)];
		return [raise(consentUrl.CONSENT_REFUSED, res.status, err, description)];
	}
	if (res.status >= 500) return [raise(consentUrl.CONSENT_SERVER_ERROR, res.status)];
	// A 3xx (a 4xx or 5xx returned above).
	if (res.status >= 300) {
		// Stryker disable next-line StringLiteral: another relative text only changes the page named in the message
		const location = headerValue(res.headers, 'Location') ?? '';
		const target = URL.canParse(location, ex.request.url)
			? new URL(location, ex.request.url)
			: undefined;
		const back =
			target &&
			ctx.redirectUri &&
			URL.canParse(ctx.redirectUri) &&
			target.origin + target.pathname ===
				new URL(ctx.redirectUri).origin + new URL(ctx.redirectUri).pathname;
		if (back && target.searchParams.has('error')) {
			const error = target.searchParams.get('error')!;
			const description = target.searchParams.get('error_description');
			const explained = explaining(Object.values(consentUrl), error);
			if (error === 'invalid_scope')
				return [
					forService(ctx)
						? raise(consentUrl.INVALID_SCOPE_AT_ONCE, description, ctx.requestedScope)
						: raise(consentUrl.INVALID_SCOPE_AT_ONCE_ELSEWHERE, description, ctx.advice?.scopes)
				];
			return [
				explained
					? raise(explained, description)
					: raise(consentUrl.REFUSED_STRAIGHT_BACK, error, description)
			];
		}
		// To a page of the server's own origin with error= in the query: its error page (Auth0's
		// /error?error=invalid_request&error_description=Unknown client: …), a refusal; but a sign-in
		// it asks for first is not one.
		const own =
			!!target && URL.canParse(ex.request.url) && target.origin === new URL(ex.request.url).origin;
		// (eSignet names them errorCode and errorMessage.)
		const query = target?.searchParams;
		const refused = !back && own ? (query!.get('error') ?? query!.get('errorCode')) : null;
		if (target && refused && !SIGN_IN_ERRORS.test(refused)) {
			const words = query!.get('error_description') ?? query!.get('errorMessage') ?? undefined;
			return [
				refused === 'invalid_client' ||
				refused === 'unauthorized_client' ||
				/client/i.test(words ?? '')
					? raise(consentUrl.UNKNOWN_CLIENT, ctx.clientId, words)
					: raise(consentUrl.REFUSED_TO_ERROR_PAGE, refused, target.origin + target.pathname, words)
			];
		}
		// A sign-in first: nothing is judged yet (sign-in-first.ts).
		if (!back && signInRedirect(location, ex.request.url))
			return [raise(consentUrl.SIGN_IN_FIRST, hostOf(ex.request.url))];
		// Straight back or elsewhere, the registration is accepted.
		return [
			back
				? raise(consentUrl.ACCEPTED_STRAIGHT_BACK)
				: raise(
						consentUrl.ACCEPTED_REDIRECT,
						target ? target.origin + target.pathname : undefined,
						ctx.clientId
					)
		];
	}
	if (res.status === 200)
		return [
			signInPage(res.body)
				? raise(consentUrl.SIGN_IN_FIRST, hostOf(ex.request.url))
				: raise(consentUrl.ACCEPTED_PAGE, ctx.clientId)
		];
	return [];
}

/** The host a URL names, for the words; the URL itself when it names none. */
function hostOf(url: string): string {
	return URL.canParse(url) ? new URL(url).host : url;
}

export function diagnose(ex: Exchange, ctx: DiagnoseContext = {}): Finding[] {
	const queued = queuedFinding(ex);
	if (ex.failure) {
		const f = failureFindings[ex.failure.kind] ?? failureFindings.network;
		return [raise(f, ex.failure.message), ...tlsPortHint(ex), ...codeMaybeSpent(ex), ...queued];
	}
	return [...queued, ...answerFindings(ex, ctx), ...tlsPortHint(ex)];
}

/** How servers say that a plain request came to their TLS port: nginx, Apache httpd, Go's net/http. */
const TLS_WANTED =
	/plain HTTP request was sent to HTTPS port|speaking plain HTTP to an SSL-enabled server port|sent an HTTP request to an HTTPS server/i;

/**
 * An http:// request that may have reached a TLS port: the server's 400 says so, or it closed a new
 * connection without a byte. A hint beside the other findings, not a verdict.
 */
function tlsPortHint(ex: Exchange): Finding[] {
	if (!/^http:/i.test(ex.request.url)) return [];
	if (ex.failure) return ex.failure.silent ? [raise(transport.TLS_PORT_HINT, undefined)] : [];
	if (ex.response?.status !== 400) return [];
	const shown = pageText(ex.response.body);
	const said = [shown.title, ...shown.headings, ...shown.text.split('\n')].find((line) =>
		TLS_WANTED.test(line)
	);
	return said ? [raise(transport.TLS_PORT_HINT, said)] : [];
}

/** The step waited for one of the playground's own connections: said, and not laid on the service. */
function queuedFinding(ex: Exchange): Finding[] {
	const waited = ex.timing.queued;
	if (waited === undefined || ex.failure?.kind === 'busy') return [];
	const host = URL.canParse(ex.request.url) ? new URL(ex.request.url).host : ex.request.url;
	return [raise(transport.POOL_WAIT, waited, host, ex.request.method !== 'GET')];
}

/**
 * A code exchange whose connection closed before any answer: the service may have received the
 * code and spent it (codes are single-use, RFC 6749 §4.1.2), or never seen it.
 */
function codeMaybeSpent(ex: Exchange): Finding[] {
	if (specOf(ex.step).spends !== 'code' || ex.failure?.kind !== 'reset' || ex.response) return [];
	return [raise(transport.CODE_MAYBE_SPENT)];
}

/**
 * The findings on the answer, by what the step's spec says of its request (steps/): the consent
 * URL the browser opens has no answer recorded, only the URL to judge; the authorization endpoint
 * answers the registration check with a redirect (RFC 6749 §4.1.2), and the redirect back's own
 * answer is the playground's 303, so neither is a stray redirect; a token request's answer is judged
 * for its grant, and a call with the access token by what a protected resource sends.
 */
function answerFindings(ex: Exchange, ctx: DiagnoseContext): Finding[] {
	const out: Finding[] = [];
	const spec = specOf(ex.step);
	if (spec.travels === 'navigation') {
		const u = URL.canParse(ex.request.url) ? new URL(ex.request.url) : undefined;
		// Stryker disable next-line StringLiteral: any short text in place of the empty state is under the cap as well
		const state = u?.searchParams.get('state') ?? '';
		if (new TextEncoder().encode(state).length > MAX_STATE_BYTES)
			out.push(raise(consentUrl.STATE_TOO_LONG));
		return out;
	}
	const res = ex.response;
	if (!res) return out;
	// A body the imported file does not hold: nothing is judged by it, and that is said.
	if (res.bodyMissing)
		return [
			...(res.status >= 500 ? [raise(answer.SERVER_ERROR, res.status)] : []),
			raise(answer.BODY_NOT_IN_FILE, res.bodyMissing.why, res.bodyMissing.size)
		];
	// An answer that is not OAuth names the URL as probably wrong, in place of the generic findings.
	let wrong = wrongEndpointFinding(ex, ctx.playground, forService(ctx));
	const redirects = spec.travels === 'redirect-back' || spec.endpoint === 'authorization';
	if (res.status >= 300 && res.status < 400 && !redirects) {
		out.push(wrong ?? raise(answer.REDIRECT, res.status, headerValue(res.headers, 'Location')));
		return out;
	}
	if (res.status >= 500) out.push(raise(answer.SERVER_ERROR, res.status));
	if (spec.endpoint === 'authorization')
		return [...out, ...(wrong ? [wrong] : checkFindings(ex, ctx))];
	const grant = spec.grantType;
	if (grant) {
		const ct = headerValue(ex.request.headers, 'Content-Type');
		if (ex.request.method === 'POST' && (!ct || !/^application\/x-www-form-urlencoded\b/i.test(ct)))
			out.push(raise(token.CONTENT_TYPE_NOT_SENT, ct));
		const body = jsonObject(res.body);
		if (wrong) out.push(wrong);
		else if (body && typeof body.error === 'string') {
			// A refused refresh token: its most likely cause, in place of the generic finding; its
			// words say a success status themselves (catalogue/refresh-failure.ts).
			const refused = refreshRefusal(ex, ctx.refreshHistory);
			out.push(
				refused ??
					tokenErrorFinding(
						grant,
						body.error,
						typeof body.error_description === 'string' ? body.error_description : undefined,
						res.status,
						ctx
					)
			);
			if (!refused && res.status >= 200 && res.status < 300)
				out.push(raise(token.ERROR_IN_SUCCESS, res.status, body.error));
		}
		// A 2xx (a recorded response is final, never 1xx; a 3xx returned above).
		else if (Math.floor(res.status / 100) === 2 && body)
			out.push(...tokenResponseFindings(grant, body, ctx));
		else if (res.status >= 400 && res.status < 500 && !body)
			out.push(raise(token.NO_ERROR_OBJECT, res.status));
		const cc = headerValue(res.headers, 'Cache-Control');
		if (res.status === 200 && !wrong && !/no-store/i.test(cc ?? ''))
			out.push(raise(token.CACHE_CONTROL));
		if (!wrong) out.push(...jsonExpected(ex));
		return out;
	}
	if (spec.sendsAccessToken) {
		const openid = openidScopeMissing(ex, ctx);
		if (openid) return [...out, openid, ...rateLimitFindings(ex, ctx)];
		// An endpoint the metadata gave is the server's own: no guess that it is another.
		if (spec.endpoint === 'userinfo' && ctx.openidUserinfo) wrong = undefined;
		out.push(...apiFindings(ex, ctx));
		out.push(...(wrong ? [wrong] : jsonExpected(ex)));
		const item = badItemIdFinding(ex);
		if (item) out.push(item);
		// The userId that clients of the feed-reader service read: a note for its setup only.
		if (spec.endpoint === 'userinfo' && res.status === 200 && forService(ctx)) {
			const body = jsonObject(res.body);
			if (body && !('userId' in body)) out.push(raise(resourceCall.USERINFO_FIELDS));
		}
		return out;
	}
	return out;
}

/**
 * Findings for the redirect back from the consent page, by the callback's verdict; `advice`: whose
 * words fit an invalid_scope (advice.ts), the service's when not given.
 */
export function diagnoseCallback(
	verdict: string,
	error?: string,
	description?: string,
	advice?: Advice
): Finding[] {
	switch (verdict) {
		case 'state-mismatch':
			return [raise(stateCheck.STATE_MISMATCH, description)];
		case 'no-pending-state':
			return [raise(stateCheck.NO_PENDING_STATE)];
		case 'malformed':
			return [raise(stateCheck.MALFORMED_CALLBACK, description)];
		case 'error': {
			if (error === 'invalid_scope' && advice && !advice.service)
				return [raise(authorizationError.INVALID_SCOPE_ELSEWHERE, description, advice.scopes)];
			// The entry of the error sent back, or the one of any other error.
			const explained =
				error === undefined ? undefined : explaining(Object.values(authorizationError), error);
			return [
				explained
					? raise(explained, description)
					: raise(authorizationError.OTHER_ERROR, error, description)
			];
		}
		default:
			return [raise(stateCheck.STATE_OK)];
	}
}
