/**
 * Exchange → findings, in plain words, each with the fix and the rule it rests on.
 * Pure: the same rules run on live exchanges and on imported ones. This module decides which
 * finding applies. The token endpoint's findings and a failed request's (with the wait for a
 * connection and the code that may be spent) are entries of the catalogue
 * (`catalogue/token.ts`, `catalogue/transport.ts`), which hold their words; the others are still
 * written where they are raised.
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { headerValue } from '$lib/exchange/types';
import { jsonObject } from '$lib/exchange/text';
import { STEPS } from '$lib/exchange/step-registry';
import { AUTHORIZATION_ERRORS, MAX_STATE_BYTES } from './consent';
import { API_DOCS, apiDocs } from './docs';
import * as F from './findings';
import { raise, type Entry } from './catalogue/raise';
import * as consentUrl from './catalogue/consent-url';
import * as token from './catalogue/token';
import * as transport from './catalogue/transport';
import { wrongEndpointFinding, type PlaygroundInfo } from './wrong-endpoint';
import { badItemIdFinding } from './item-ids';
import { redirectUriFix, retryRedirect, type RedirectUriOptions } from './redirect-uri';
import { pageText } from './page-text';
import { redirectRefusal } from './redirect-refusal';

const RFC6750 = (s: string) => `RFC 6750 §${s}`;

export interface DiagnoseContext {
	requestedScope?: string;
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
}

/** `: "text"` after a message's words, or nothing when there is no text. */
const colonQuoted = (text: string | null) => (text ? `: "${text}"` : '');

/** Number.isInteger, which also tells the type checker that the value is a number. */
const isInteger = (v: unknown): v is number => Number.isInteger(v);

/** The words of a space-separated list (RFC 6749 §3.3): the empty strings between blanks dropped. */
function words(s: string): Set<string> {
	return new Set(s.split(/\s/).filter(Boolean));
}

/** The entry of each failure kind of the sender; any other kind is a network error. */
const failureFindings: Record<string, Entry<[message: string]>> = {
	blocked: transport.BLOCKED,
	refused: transport.CONNECTION_REFUSED,
	dns: transport.DNS_FAILURE,
	timeout: transport.TIMEOUT,
	tls: transport.TLS_FAILURE,
	'plain-http': transport.PLAIN_HTTP_PORT,
	'too-large': transport.RESPONSE_TOO_LARGE,
	reset: transport.CONNECTION_RESET,
	busy: transport.POOL_BUSY,
	cancelled: transport.CANCELLED,
	network: transport.NETWORK_ERROR
};

/** The token endpoint's OAuth error (RFC 6749 §5.2), by its code and the step that got it. */
function tokenErrorFinding(ex: Exchange, err: string, desc: string | undefined): Finding {
	switch (err) {
		case F.INVALID_CLIENT:
			return raise(token.INVALID_CLIENT, desc);
		case F.INVALID_GRANT:
			return raise(ex.step === 'refresh' ? token.REFRESH_TOKEN_REFUSED : token.CODE_REFUSED, desc);
		case F.INVALID_SCOPE:
			return raise(token.INVALID_SCOPE, desc);
		case F.UNSUPPORTED_GRANT_TYPE:
			return raise(token.UNSUPPORTED_GRANT_TYPE, desc);
		case F.UNAUTHORIZED_CLIENT:
			return raise(token.UNAUTHORIZED_CLIENT, desc);
		case F.INVALID_REQUEST:
			return raise(
				/content-type/i.test(desc ?? '') ? token.CONTENT_TYPE_REFUSED : token.INVALID_REQUEST,
				desc
			);
		default:
			return raise(token.OTHER_ERROR, err, desc);
	}
}

function tokenResponseFindings(
	ex: Exchange,
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
		out.push(raise(ex.step === 'refresh' ? token.REFRESH_TOKEN_KEPT : token.MISSING_REFRESH_TOKEN));
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
					asked.has('write') && !got.has('write')
				)
			);
	}
	const known = new Set(['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope']);
	const extra = Object.keys(body).filter((k) => !known.has(k));
	if (extra.length) out.push(raise(token.EXTRA_FIELDS, extra));
	return out;
}

function rateLimitFindings(ex: Exchange): Finding[] {
	const res = ex.response!;
	const reset = headerValue(res.headers, 'X-Reader-Limits-Reset-After');
	if (res.status === 429)
		return [
			{
				level: 'error',
				code: F.RATE_LIMITED,
				message: `The service's rate limit is reached (429).${reset ? ` The limits reset in ${reset} s.` : ''}`,
				fix: 'Wait for the reset; zone-1 (reads) and zone-2 (writes) are counted apart.',
				ref: 'X-Reader-Zone*-Usage headers'
			}
		];
	return [];
}

function apiFindings(ex: Exchange, ctx: DiagnoseContext): Finding[] {
	const res = ex.response!;
	const out: Finding[] = [];
	const www = headerValue(res.headers, 'WWW-Authenticate') ?? '';
	const body = jsonObject(res.body);
	if (res.status === 401) {
		const expired = Date.parse(ex.startedAt) >= (ctx.tokenExpiresAt ?? Infinity);
		out.push({
			level: 'error',
			code: F.INVALID_TOKEN,
			message: expired
				? 'The access token had expired when this request was sent (401).'
				: `The service refused the access token (401${/invalid_token/.test(www) ? ', invalid_token' : ''}).`,
			fix: expired
				? `Refresh the token (step ${STEPS.refresh.n}), then call again.`
				: 'The token may be expired, revoked, or sent in the wrong place. Refresh it, or check where the token goes (header or query).',
			ref: RFC6750('3.1')
		});
	} else if (res.status === 403) {
		const scope = /insufficient_scope/.test(www) || body?.error === 'insufficient_scope';
		out.push(
			scope
				? {
						level: 'error',
						code: F.INSUFFICIENT_SCOPE,
						message:
							'This call needs write permission: it is a zone-2 call, and the token was granted "read" only (403).',
						fix: `Ask for scope "read write" at consent, with a registration that is not "Read only" (${API_DOCS} §5 step 7).`,
						ref: RFC6750('3.1')
					}
				: {
						level: 'error',
						code: F.FORBIDDEN,
						message:
							'The service refused the call (403). For this service that means the application credentials were rejected, or the call needs "read write" (zone 2).',
						fix: 'Check the registration and the granted scope.',
						ref: apiDocs('§5 step 7')
					}
		);
	}
	out.push(...rateLimitFindings(ex));
	return out;
}

function jsonExpected(ex: Exchange): Finding[] {
	const res = ex.response!;
	if (!res.body.trim() || res.status === 204) return [];
	// A 3xx never gets here: diagnose reports it as a redirect first.
	const ct = headerValue(res.headers, 'Content-Type');
	if (jsonObject(res.body) !== undefined) return [];
	if (/^\s*\[/.test(res.body)) return [];
	const isHtml = /html/i.test(ct ?? '') || /^\s*</.test(res.body);
	if (ex.step === 'api' && res.body.trim() === 'OK') return [];
	return [
		{
			level: res.truncated ? 'warning' : 'error',
			code: F.NOT_JSON,
			message: isHtml
				? `JSON was expected, but the service answered with HTML (${ct || 'no Content-Type'}). This is often an error or login page, or the wrong URL.`
				: res.truncated
					? 'The body is cut off, so it is not valid JSON.'
					: `JSON was expected, but the body is not valid JSON (${ct || 'no Content-Type'}).`,
			fix: isHtml
				? 'Check the endpoint URL; read the HTML body for the service’s own message.'
				: undefined
		}
	];
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

/** What the consent URL, fetched without following redirects, says about the registration. */
function checkFindings(ex: Exchange, ctx: DiagnoseContext): Finding[] {
	const res = ex.response!;
	const body = jsonObject(res.body);
	const client = ctx.clientId ? `client_id "${ctx.clientId}"` : 'this client_id';
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
			const err = target.searchParams.get('error')!;
			return [
				{
					level: 'error',
					code: err,
					message: `The service sends the browser straight back with error "${err}"${colonQuoted(target.searchParams.get('error_description'))}. The client and redirect_uri are registered, but the request is refused.`,
					fix: Object.hasOwn(AUTHORIZATION_ERRORS, err)
						? AUTHORIZATION_ERRORS[err]!.fix
						: undefined,
					ref: 'RFC 6749 §4.1.2.1'
				}
			];
		}
		// Straight back or elsewhere, the registration is accepted.
		return [
			{
				level: 'info',
				code: F.REGISTRATION_OK,
				message: back
					? 'The service redirects straight back to the redirect_uri: the registration is accepted (the user may have approved this application before).'
					: `The service redirects to ${target ? target.origin + target.pathname : 'another page'} (typically its login page): ${client} and the redirect_uri are accepted.`
			}
		];
	}
	if (res.status === 200)
		return [
			{
				level: 'info',
				code: F.REGISTRATION_OK,
				message: `The service would show its consent or login page: ${client} and the redirect_uri are accepted.`
			}
		];
	return [];
}

export function diagnose(ex: Exchange, ctx: DiagnoseContext = {}): Finding[] {
	const queued = queuedFinding(ex);
	if (ex.failure) {
		const f = failureFindings[ex.failure.kind] ?? failureFindings.network!;
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
	return [raise(transport.POOL_WAIT, waited, host)];
}

/**
 * A code exchange whose connection closed before any answer: the service may have received the
 * code and spent it (codes are single-use, RFC 6749 §4.1.2), or never seen it.
 */
function codeMaybeSpent(ex: Exchange): Finding[] {
	if (ex.step !== 'exchange' || ex.failure?.kind !== 'reset' || ex.response) return [];
	return [raise(transport.CODE_MAYBE_SPENT)];
}

function answerFindings(ex: Exchange, ctx: DiagnoseContext): Finding[] {
	const out: Finding[] = [];
	if (ex.step === 'consent') {
		const u = URL.canParse(ex.request.url) ? new URL(ex.request.url) : undefined;
		// Stryker disable next-line StringLiteral: any short text in place of the empty state is under the cap as well
		const state = u?.searchParams.get('state') ?? '';
		if (new TextEncoder().encode(state).length > MAX_STATE_BYTES)
			out.push({
				level: 'error',
				code: F.STATE_TOO_LONG,
				message: `The state is over ${MAX_STATE_BYTES} bytes; the service will refuse it.`,
				ref: apiDocs('§4.1')
			});
		return out;
	}
	const res = ex.response;
	if (!res) return out;
	// An answer that is not OAuth names the URL as probably wrong, in place of the generic findings.
	const wrong = wrongEndpointFinding(ex, ctx.playground);
	if (res.status >= 300 && res.status < 400 && ex.step !== 'callback' && ex.step !== 'check') {
		out.push(
			wrong ?? {
				level: 'error',
				code: F.REDIRECT,
				message: `The service answered with a redirect (${res.status}) to ${headerValue(res.headers, 'Location') ?? 'nowhere'}. The playground does not follow redirects on back-channel requests.`,
				fix: 'Use the final URL directly; a redirect here usually means http instead of https, or a missing path segment.'
			}
		);
		return out;
	}
	if (res.status >= 500)
		out.push({
			level: 'error',
			code: F.SERVER_ERROR,
			message: `The service failed with HTTP ${res.status}.`,
			fix: 'This is on the service side. Try again later; if it repeats, report it with this exchange.'
		});
	if (ex.step === 'check') return [...out, ...(wrong ? [wrong] : checkFindings(ex, ctx))];
	if (ex.step === 'exchange' || ex.step === 'refresh') {
		const ct = headerValue(ex.request.headers, 'Content-Type');
		if (ex.request.method === 'POST' && (!ct || !/^application\/x-www-form-urlencoded\b/i.test(ct)))
			out.push(raise(token.CONTENT_TYPE_NOT_SENT, ct));
		const body = jsonObject(res.body);
		if (wrong) out.push(wrong);
		else if (body && typeof body.error === 'string')
			out.push(
				tokenErrorFinding(
					ex,
					body.error,
					typeof body.error_description === 'string' ? body.error_description : undefined
				)
			);
		// A 2xx (a recorded response is final, never 1xx; a 3xx returned above).
		else if (Math.floor(res.status / 100) === 2 && body)
			out.push(...tokenResponseFindings(ex, body, ctx));
		else if (res.status >= 400 && res.status < 500 && !body)
			out.push(raise(token.NO_ERROR_OBJECT, res.status));
		const cc = headerValue(res.headers, 'Cache-Control');
		if (res.status === 200 && !wrong && !/no-store/i.test(cc ?? ''))
			out.push(raise(token.CACHE_CONTROL));
		if (!wrong) out.push(...jsonExpected(ex));
		return out;
	}
	if (ex.step === 'userinfo' || ex.step === 'api') {
		out.push(...apiFindings(ex, ctx));
		out.push(...(wrong ? [wrong] : jsonExpected(ex)));
		const item = badItemIdFinding(ex);
		if (item) out.push(item);
		if (ex.step === 'userinfo' && res.status === 200) {
			const body = jsonObject(res.body);
			if (body && !('userId' in body))
				out.push({
					level: 'info',
					code: F.USERINFO_FIELDS,
					message:
						'The user record has no userId field, which clients of this service usually read.'
				});
		}
		return out;
	}
	return out;
}

/** Findings for the redirect back from the consent page. */
export function diagnoseCallback(verdict: string, error?: string, description?: string): Finding[] {
	switch (verdict) {
		case 'state-mismatch':
			return [
				{
					level: 'error',
					code: F.STATE_MISMATCH,
					message: `${description ?? 'The returned state does not match the saved one.'} The response may be forged (CSRF), so the playground ignored it and the code was not used.`,
					fix: 'The consent request is still pending: open the consent page again, or start over with "Try again". If it repeats, check that nothing rewrites the redirect, and that only one tab runs the flow.',
					ref: `${apiDocs('§5 step 3')}; RFC 6749 §10.12`
				}
			];
		case 'no-pending-state':
			return [
				{
					level: 'error',
					code: F.NO_PENDING_STATE,
					message:
						'A redirect arrived, but the playground was not waiting for one: its state was used already or the session was reset.',
					fix: 'State values are single-use. Start the flow again from the consent step.',
					ref: 'RFC 6749 §10.12'
				}
			];
		case 'malformed':
			return [
				{
					level: 'error',
					code: F.MALFORMED_CALLBACK,
					message: description ?? 'The redirect is malformed.',
					ref: 'RFC 6749 §4.1.2'
				}
			];
		case 'error':
			return [
				{
					level: error === 'access_denied' ? 'warning' : 'error',
					code: error ?? F.AUTHORIZATION_ERROR,
					message: `The service sent back error "${error}"${description ? `: "${description}"` : ''}.`,
					ref: 'RFC 6749 §4.1.2.1'
				}
			];
		default:
			return [
				{
					level: 'info',
					code: F.STATE_OK,
					message: 'The returned state matches the saved one.',
					ref: apiDocs('§5 step 3')
				}
			];
	}
}
