/**
 * Pushed authorization requests (RFC 9126): the authorization request's parameters go to the
 * server from the playground server first, with the client's authentication, and only a short-lived
 * handle (`request_uri`) travels through the browser. Pure: the sender makes the request.
 * The body is written here, not by oauth4webapi, for the reason token-endpoint.ts gives (the library
 * orders the fields its own way, appends `;charset=UTF-8` and refuses an empty secret); it judges
 * the answer instead (strict-client.ts).
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { jsonObject } from '$lib/exchange/text';
import { raise } from './catalogue/raise';
import * as said from './catalogue/pushed-request';

/** The client's fields a body carries (client-auth.ts gives them). */
export interface BodyCredentials {
	client_id?: string;
	client_secret?: string;
}

/**
 * The pushed body: the authorization request's parameters in their order (`consentParams`), with
 * the client's body credentials after `client_id` (the secret for client_secret_post; nothing more
 * for Basic, whose credentials go in the header, or for a public client).
 */
export function pushedBody(params: [string, string][], credentials: BodyCredentials): string {
	const extra = Object.entries(credentials).filter(
		(e): e is [string, string] => e[0] !== 'client_id' && typeof e[1] === 'string'
	);
	const hasId = params.some(([k]) => k === 'client_id');
	const pairs = params.flatMap((p) => (p[0] === 'client_id' ? [p, ...extra] : [p]));
	return new URLSearchParams(
		hasId || credentials.client_id === undefined
			? pairs
			: [['client_id', credentials.client_id], ...extra, ...pairs]
	).toString();
}

/** The consent URL after a push: the authorization endpoint with only `client_id` and `request_uri` (RFC 9126 §4). */
export function pushedConsentUrl(
	authorizationEndpoint: string,
	clientId: string,
	requestUri: string
): string {
	const url = new URL(authorizationEndpoint);
	url.search = '';
	url.searchParams.set('client_id', clientId);
	url.searchParams.set('request_uri', requestUri);
	return url.toString();
}

export type PushVerdict =
	| { ok: true; request_uri: string; expires_in: number; finding: Finding }
	| { ok: false; finding?: Finding };

/**
 * Judges the answer of RFC 9126 §2.2 as oauth4webapi's `processPushedAuthorizationResponse` does
 * (a unit test compares the two): 201 Created, a JSON object with a non-empty string `request_uri`
 * and an `expires_in` of zero or more seconds (a number, or a numeric string, which is said). An
 * OAuth error (§2.3) is named with the server's own words; a failed request (no answer) gets no
 * finding here (the sender's findings say why).
 */
export function judgePush(ex: Exchange): PushVerdict {
	const res = ex.response;
	if (!res) return { ok: false };
	const body = jsonObject(res.body);
	const uri = body?.request_uri;
	const expires = body?.expires_in;
	const seconds =
		typeof expires === 'number' ? expires : typeof expires === 'string' ? parseFloat(expires) : NaN;
	if (
		res.status === 201 &&
		typeof uri === 'string' &&
		uri !== '' &&
		Number.isFinite(seconds) &&
		seconds >= 0
	)
		return {
			ok: true,
			request_uri: uri,
			expires_in: seconds,
			finding: raise(
				typeof expires === 'number' ? said.PUSHED : said.PUSHED_EXPIRY_AS_TEXT,
				seconds
			)
		};
	if (body && typeof body.error === 'string')
		return {
			ok: false,
			finding: raise(
				said.REFUSED,
				body.error,
				typeof body.error_description === 'string' ? body.error_description : undefined
			)
		};
	const wrong: string[] = [];
	if (res.status !== 201) wrong.push(`the status is ${res.status}, not 201 Created`);
	if (!body) wrong.push('the body is not a JSON object');
	else {
		if (typeof uri !== 'string' || uri === '') wrong.push('request_uri is not a non-empty string');
		if (!(seconds >= 0)) wrong.push('expires_in is not a number of seconds');
	}
	return {
		ok: false,
		finding: raise(said.NOT_AN_ANSWER, wrong)
	};
}
