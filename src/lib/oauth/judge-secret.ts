/**
 * The client secret check's judgement (its step: steps/secret-step.ts; its request:
 * server/steps/check-secret.ts): whether the service accepted the client's credentials, and how
 * surely, in one finding. Pure, for any server's answer:
 *
 * - `invalid_client` (or GitHub's `incorrect_client_credentials`) as the JSON error, or
 *   `invalid_client` in the visible text of a 4xx error page: refused, certain;
 * - any other 401: refused, likely (Auth0 answers a wrong secret 401 `access_denied`, some Keycloak
 *   versions 401 `unauthorized_client`);
 * - a pushed request taken (201): accepted, certain (RFC 9126 §2.1);
 * - `invalid_grant` (or GitHub's `bad_verification_code`) to the made-up code: accepted, likely;
 *   certain against the sandbox, which checks the client first (RFC 6749 §4.1.3 does not fix the
 *   order);
 * - a pushed request refused for its parameters (a 400 with another error): accepted, likely
 *   (RFC 9126 §2.1 authenticates the client before it judges the request);
 * - a 400 `unauthorized_client` that says it is about the grant: accepted, likely, but the client
 *   may not use the grant (without those words, Entra ID says it of an unknown client too);
 * - a 404, a 405 or a success that is no token endpoint's answer (a wrong URL), or any such answer
 *   from the playground itself (a base URL without its /sandbox): that finding (wrong-endpoint.ts);
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
import { reachesPlayground, wrongEndpointFinding, type PlaygroundInfo } from './wrong-endpoint';
import { STEP_NAMES, specOf, type Step } from '$lib/steps/registry';

/**
 * The step whose request the check's token request is: the code exchange, found by what it spends
 * (its endpoint's answers are judged as that step's are, wrong-endpoint.ts).
 */
const CODE_EXCHANGE: Step = STEP_NAMES.find((s) => specOf(s).spends === 'code')!;

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

/**
 * The errors that refuse the client's credentials, in a JSON answer: RFC 6749 §5.2's, and GitHub's
 * own (it answers a wrong secret 200 `incorrect_client_credentials`).
 */
const REFUSES_CLIENT = new Set(['invalid_client', 'incorrect_client_credentials']);
/** The errors that refuse only the made-up code: RFC 6749 §5.2's, and GitHub's own. */
const REFUSES_CODE = new Set(['invalid_grant', 'bad_verification_code']);
/** A description that says the refusal is about the grant (a client may not use it). */
const ABOUT_GRANT = /\bgrant\b/i;

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
	if (error && REFUSES_CLIENT.has(error))
		return [raise(said.SECRET_REFUSED, error, false, words, basic)];
	// An error page's visible text: only on a 4xx that is the endpoint's own (a 404 or a 405 is
	// another page, a 2xx no refusal), and never in a JSON document.
	const errorPage =
		!body &&
		!/^\s*[[{]/.test(res.body) &&
		res.status >= 400 &&
		res.status !== 404 &&
		res.status !== 405;
	const line = errorPage ? pageSays(res.body) : undefined;
	if (line) return [raise(said.SECRET_REFUSED, 'invalid_client', true, line, basic)];
	if (res.status === 401) return [raise(said.SECRET_LIKELY_REFUSED, error, words, basic)];
	if (via === 'par' && res.status === 201) return [raise(said.SECRET_ACCEPTED, 'pushed')];
	if (via === 'token' && error && REFUSES_CODE.has(error))
		return [
			ctx.sandbox === true
				? raise(said.SECRET_ACCEPTED, 'sandbox')
				: raise(said.SECRET_LIKELY_ACCEPTED, 'code', error, words)
		];
	// unauthorized_client is about the grant when it says so; some servers answer an unknown
	// client with it too (Entra ID, AADSTS700016), and then it tells nothing of the secret.
	if (res.status === 400 && error === 'unauthorized_client' && words && ABOUT_GRANT.test(words))
		return [raise(said.SECRET_GRANT_REFUSED, via, words)];
	// A pushed request refused for its own parameters: the client was authenticated first
	// (RFC 9126 §2.1), as far as the server follows that order.
	if (via === 'par' && res.status === 400 && error && error !== 'unauthorized_client')
		return [raise(said.SECRET_LIKELY_ACCEPTED, 'pushed', error, words)];
	// A 404, a 405 or a page in place of a token answer: probably not the token endpoint at all.
	// Another error page (a 400 of HTML) may be the endpoint's own, and tells nothing, unless it
	// came from the playground itself (a base URL without its /sandbox): no service's answer.
	const elsewhere =
		res.status < 300 ||
		res.status === 404 ||
		res.status === 405 ||
		reachesPlayground(ex.request.url, ctx.playground);
	const wrong =
		via === 'token' && elsewhere
			? wrongEndpointFinding({ ...ex, step: CODE_EXCHANGE }, ctx.playground)
			: undefined;
	if (wrong) return [wrong];
	return [raise(said.SECRET_NOT_TOLD, res.status, error, words)];
}
