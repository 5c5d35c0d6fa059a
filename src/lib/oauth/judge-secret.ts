/**
 * The client secret check's judgement (its step: steps/secret-step.ts; its request:
 * server/steps/check-secret.ts): whether the service accepted the client's credentials, and how
 * surely, in one finding. Pure, for any server's answer:
 *
 * - `invalid_client`, as the JSON error or in the visible text of an error page: refused, certain;
 * - any other 401: refused, likely (Auth0 answers a wrong secret 401 `access_denied`, some Keycloak
 *   versions 401 `unauthorized_client`);
 * - a pushed request taken (201): accepted, certain (RFC 9126 §2.1);
 * - `invalid_grant` to the made-up code: accepted, likely; certain against the sandbox, which
 *   checks the client first (RFC 6749 §4.1.3 does not fix the order);
 * - a 400 `unauthorized_client`: accepted, likely, but the client may not use the grant;
 * - a 404, a 405 or a success that is no token endpoint's answer (a wrong URL): that finding
 *   (wrong-endpoint.ts);
 * - anything else: not told.
 *
 * A 3xx, a 5xx or no answer gets no finding here: the diagnosis every step gets says what it is,
 * and the verdict says the check told nothing.
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { formFields, isFormBody, jsonObject } from '$lib/exchange/text';
import { raise } from './catalogue/raise';
import * as said from './catalogue/secret-check';
import { pageText } from './page-text';
import { wrongEndpointFinding, type PlaygroundInfo } from './wrong-endpoint';

export interface SecretCheckContext {
	/** The setup's service is the built-in sandbox, whose order of checks is known. */
	sandbox?: boolean;
	/** The playground itself, for the wrong-endpoint judgement. */
	playground?: PlaygroundInfo;
}

/**
 * How the check asked, read from its request: a code exchange carries the made-up code; a pushed
 * authorization request does not. And whether the credentials went in an HTTP Basic header.
 */
function howSent(ex: Exchange): { via: 'par' | 'token'; basic: boolean } {
	const form = isFormBody(ex.request.headers, ex.request.body) ? formFields(ex.request.body) : [];
	const basic = ex.request.headers.some(
		([n, v]) => n.toLowerCase() === 'authorization' && /^\s*basic\s/i.test(v)
	);
	return { via: form.some(([n]) => n === 'code') ? 'token' : 'par', basic };
}

const INVALID_CLIENT = /\binvalid_client\b/;

/** The line of an error page that says invalid_client, if its visible text has one. */
function pageSays(body: string): string | undefined {
	const shown = pageText(body);
	return [shown.title, ...shown.headings, ...shown.text.split('\n')]
		.map((line) => line.trim())
		.find((line) => INVALID_CLIENT.test(line));
}

export function judgeSecretCheck(ex: Exchange, ctx: SecretCheckContext = {}): Finding[] {
	const res = ex.response;
	const { via, basic } = howSent(ex);
	if (!res || (res.status >= 300 && res.status < 400) || res.status >= 500) return [];
	const body = jsonObject(res.body);
	const error = typeof body?.error === 'string' ? body.error : undefined;
	const words =
		typeof body?.error_description === 'string' && body.error_description.trim()
			? body.error_description.trim()
			: undefined;
	if (error === 'invalid_client') return [raise(said.SECRET_REFUSED, false, words, basic)];
	const line = body ? undefined : pageSays(res.body);
	if (line) return [raise(said.SECRET_REFUSED, true, line, basic)];
	if (res.status === 401) return [raise(said.SECRET_LIKELY_REFUSED, error, words, basic)];
	if (via === 'par' && res.status === 201) return [raise(said.SECRET_ACCEPTED, 'pushed')];
	if (via === 'token' && error === 'invalid_grant')
		return [
			ctx.sandbox === true
				? raise(said.SECRET_ACCEPTED, 'sandbox')
				: raise(said.SECRET_LIKELY_ACCEPTED, words)
		];
	if (res.status === 400 && error === 'unauthorized_client')
		return [raise(said.SECRET_GRANT_REFUSED, words)];
	// A 404, a 405 or a page in place of a token answer: probably not the token endpoint at all.
	// Another error page (a 400 of HTML) may be the endpoint's own, and tells nothing.
	const elsewhere = res.status < 300 || res.status === 404 || res.status === 405;
	const wrong = via === 'token' && elsewhere ? wrongEndpointFinding(ex, ctx.playground) : undefined;
	if (wrong) return [wrong];
	return [raise(said.SECRET_NOT_TOLD, res.status, error, words)];
}
