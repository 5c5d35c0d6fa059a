/**
 * oauth4webapi as a second judge: what a strict client library makes of the recorded bytes. The
 * playground writes its own requests (token-endpoint.ts says why) and judges the answers with its
 * own rules (diagnose.ts and the others), which are lenient on purpose so that a flow goes on and
 * the findings say what is wrong. This module runs the library's own checks on the same answers:
 * `validateAuthResponse` on the redirect back (state, RFC 9207's `iss`), the `process…Response`
 * functions on a `Response` rebuilt from the recorded Exchange (never the live one: they consume its
 * body), and `calculatePKCECodeChallenge` on the PKCE pair. What the library rejects becomes one
 * info finding in its own words (its entries: catalogue/library-verdict.ts), beside ours, never
 * instead of them; it never throws and never fails a step.
 *
 * Left out, because it would only repeat ours: the server's own OAuth error, which the library
 * passes on (an error object, a `WWW-Authenticate` challenge, `error=` on the redirect); an answer
 * our findings already call no OAuth answer at all (a wrong endpoint, a redirect, a 5xx, a 4xx
 * without an error object, a body that is not JSON), to which the library could only object that
 * its status or Content-Type is not the protocol's; and an answer that is cut off or missing.
 * Beside our own finding on a member (a missing `token_type`, say) it is still said: it names the
 * exact rule a client built on such a library enforces, so the developer knows their own client
 * fails at the same point.
 * Pure: no I/O (the library's checks read only the Response given to them).
 * @see https://github.com/panva/oauth4webapi/tree/main/docs
 */
import * as oauth from 'oauth4webapi';
import type { Exchange, Finding } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';
import type { StrictJudge } from '$lib/steps/spec';
import type { Setup } from './setup';
import { hasCode, raise, type Entry } from './catalogue/raise';
import type { FindingCode } from './catalogue';
import * as V from './catalogue/library-verdict';

/** Our own findings that already say the answer is no OAuth answer at all. */
const NOT_OAUTH: readonly FindingCode[] = [
	'wrong-endpoint',
	'redirect',
	'server-error',
	'no-error-object',
	'not-json'
];

const nullBody = (status: number) => status === 204 || status === 205 || status === 304;

/**
 * The recorded answer as a WHATWG Response, for the library to judge; undefined when none can be
 * made (no answer, a failure, a status a Response cannot hold). A header the Response cannot hold
 * (a name with a blank, a value with a line break) is left out, and the rest kept.
 */
export function responseOf(ex: Exchange, body = ex.response?.body): Response | undefined {
	const res = ex.response;
	if (!res || ex.failure) return undefined;
	const headers = new Headers();
	for (const [name, value] of res.headers) {
		try {
			headers.append(name, value);
		} catch {
			// Not a header the Response can hold: the library never reads such a one.
		}
	}
	try {
		return new Response(nullBody(res.status) ? null : body, { status: res.status, headers });
	} catch {
		return undefined;
	}
}

/**
 * The token answer's body without its `id_token`: the playground asks for no `openid` scope and
 * sends no nonce, so the ID token is not its claim to judge here (the JWT check reads it), and the
 * library would otherwise judge it against an issuer and a clock the playground does not hold.
 */
function withoutIdToken(body: string): string {
	try {
		const json: unknown = JSON.parse(body);
		if (json && typeof json === 'object' && !Array.isArray(json) && 'id_token' in json) {
			const { id_token: _, ...rest } = json as Record<string, unknown>;
			return JSON.stringify(rest);
		}
	} catch {
		// Not JSON: the library says so itself.
	}
	return body;
}

/**
 * The library's objection, in its words; undefined when it only passes on the server's own error,
 * or when what it threw is about our use of it (an argument it refuses), not about the answer.
 */
function objection(e: unknown): string | undefined {
	if (
		e instanceof oauth.ResponseBodyError ||
		e instanceof oauth.WWWAuthenticateChallengeError ||
		e instanceof oauth.AuthorizationResponseError
	)
		return undefined;
	if (e instanceof oauth.OperationProcessingError || e instanceof oauth.UnsupportedOperationError)
		return e.message;
	return undefined;
}

/**
 * Each judge a step's spec can name (its `strictJudge`): the library's function, and the entry its
 * objection is said by.
 */
const JUDGES: Record<
	StrictJudge,
	[
		(as: oauth.AuthorizationServer, client: oauth.Client, res: Response) => Promise<unknown>,
		Entry<[string]>
	]
> = {
	processAuthorizationCodeResponse: [
		oauth.processAuthorizationCodeResponse,
		V.CODE_ANSWER_REJECTED
	],
	processRefreshTokenResponse: [oauth.processRefreshTokenResponse, V.REFRESH_ANSWER_REJECTED],
	processPushedAuthorizationResponse: [
		oauth.processPushedAuthorizationResponse,
		V.PUSHED_ANSWER_REJECTED
	],
	processRevocationResponse: [
		(_as, _client, res) => oauth.processRevocationResponse(res),
		V.REVOCATION_ANSWER_REJECTED
	],
	processIntrospectionResponse: [
		oauth.processIntrospectionResponse,
		V.INTROSPECTION_ANSWER_REJECTED
	]
};

/**
 * What the library makes of a recorded answer of the token, pushed-request, revocation or
 * introspection endpoint: a finding when it rejects it, else undefined. The authorization server
 * is the setup's issuer (or, with none, the answering origin: only a signed introspection answer's
 * `iss` is compared with it), the client the setup's client id.
 */
export async function strictVerdict(
	ex: Exchange,
	setup: Pick<Setup, 'issuer' | 'client_id'> | undefined
): Promise<Finding | undefined> {
	const spec = specOf(ex.step);
	const judge = spec.strictJudge && JUDGES[spec.strictJudge];
	if (!judge || !ex.response || ex.response.truncated || ex.response.bodyMissing) return undefined;
	if (ex.findings.some((f) => f.level === 'error' && NOT_OAUTH.some((c) => hasCode(f, c))))
		return undefined;
	const tokens = spec.grantType !== undefined;
	const res = responseOf(ex, tokens ? withoutIdToken(ex.response.body) : ex.response.body);
	if (!res) return undefined;
	const origin = URL.canParse(ex.request.url) ? new URL(ex.request.url).origin : 'about:blank';
	try {
		await judge[0]({ issuer: setup?.issuer || origin }, { client_id: setup?.client_id ?? '' }, res);
		return undefined;
	} catch (e) {
		const message = objection(e);
		return message === undefined ? undefined : raise(judge[1], message);
	}
}

/**
 * The Exchange with the library's verdicts beside our findings: one line where a step assembles
 * them. A code exchange also has its PKCE pair checked (`pkceVerdict`).
 */
export async function withStrictVerdict(
	ex: Exchange,
	setup: Pick<Setup, 'issuer' | 'client_id'> | undefined,
	pkce: { verifier?: string; challenge?: string } = {}
): Promise<Exchange> {
	const found = [
		await strictVerdict(ex, setup),
		await pkceVerdict(pkce.verifier, pkce.challenge)
	].filter((f): f is Finding => f !== undefined);
	return found.length ? { ...ex, findings: [...ex.findings, ...found] } : ex;
}

/**
 * What `validateAuthResponse` makes of the redirect back, after our own routing found its flow:
 * the state it expects, and the issuer of RFC 9207 when one is known (the metadata's or the
 * setup's), required when the metadata says the server sends it. With no issuer known, `iss` is
 * not shown to the library, which would compare it with nothing (ours compares origins then).
 */
export function redirectVerdict(
	params: URLSearchParams,
	expected: { state: string; issuer?: string; issParam: boolean; client_id: string }
): Finding | undefined {
	const seen = new URLSearchParams(params);
	if (!expected.issuer) seen.delete('iss');
	try {
		oauth.validateAuthResponse(
			{
				issuer: expected.issuer || 'about:blank',
				authorization_response_iss_parameter_supported: !!expected.issuer && expected.issParam
			},
			{ client_id: expected.client_id },
			seen,
			expected.state
		);
		return undefined;
	} catch (e) {
		const message = objection(e);
		return message === undefined ? undefined : raise(V.REDIRECT_REJECTED, message);
	}
}

/**
 * PKCE (RFC 7636 §4.6): whether the verifier a code exchange sends is the one whose S256 challenge
 * the consent request carried, by the library's `calculatePKCECodeChallenge`. Our own challenge is
 * made synchronously (server/flow/pkce.ts), so the library checks it here, where a step awaits anyway.
 */
export async function pkceVerdict(
	verifier: string | undefined,
	challenge: string | undefined
): Promise<Finding | undefined> {
	if (!verifier || !challenge) return undefined;
	try {
		if ((await oauth.calculatePKCECodeChallenge(verifier)) === challenge) return undefined;
	} catch {
		return undefined;
	}
	return raise(V.PKCE_CHALLENGE_DIFFERS);
}
