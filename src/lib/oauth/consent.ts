/**
 * The consent redirect (the service's API docs §4.1, RFC 6749 §4.1.1) and the state check on return
 * (the service's API docs §5 step 3, RFC 6749 §10.12).
 * Pure functions: no I/O.
 */
import { API_DOCS } from './docs';
import { explaining, raise } from './catalogue/raise';
import * as authorizationError from './catalogue/authorization-error';
import type { Advice } from './advice';
import { MAX_STATE_BYTES } from './setup-fields';

export interface ConsentRequest {
	client_id: string;
	redirect_uri: string;
	scope: string;
	state: string;
	/** PKCE (RFC 7636 §4.3): the challenge derived from the verifier the server keeps, and its method. */
	code_challenge?: string;
	code_challenge_method?: 'S256' | 'plain';
}

const CONSENT_PARAMS = [
	'client_id',
	'redirect_uri',
	'response_type',
	'scope',
	'state',
	'code_challenge',
	'code_challenge_method'
] as const;

/** The authorization request's parameters, in the order they are sent (the URL, or a pushed request). */
export function consentParams(req: ConsentRequest): [string, string][] {
	const all: Partial<Record<(typeof CONSENT_PARAMS)[number], string>> = {
		...req,
		response_type: 'code'
	};
	return CONSENT_PARAMS.flatMap((k) => {
		const v = all[k];
		return v === undefined ? [] : [[k, v] as [string, string]];
	});
}

export function stateBytes(state: string): number {
	return new TextEncoder().encode(state).length;
}

/** 32 random bytes, base64url: 43 characters, well under the 500-byte cap of the service's API docs. */
export function makeState(
	random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n))
): string {
	const bytes = random(32);
	let bin = '';
	for (const b of bytes) bin += String.fromCharCode(b);
	return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The consent URL: the authorization endpoint with client_id, redirect_uri, response_type=code, scope and state.
 * Query parameters already on the endpoint are kept (the service's API docs §5 step 9 show `…/oauth2/auth?state=<STATE>`; ours replace theirs).
 */
export function consentUrl(authorizationEndpoint: string, req: ConsentRequest): string {
	if (stateBytes(req.state) > MAX_STATE_BYTES)
		throw new RangeError(`state is over ${MAX_STATE_BYTES} bytes`);
	const url = new URL(authorizationEndpoint);
	for (const k of CONSENT_PARAMS) url.searchParams.delete(k);
	for (const [k, v] of consentParams(req)) url.searchParams.set(k, v);
	return url.toString();
}

/** What each consent parameter is for, shown in the table under the URL. */
export const CONSENT_PARAM_HELP: Record<string, string> = {
	client_id: `Your application's client id, from its registration (${API_DOCS} §2.1).`,
	redirect_uri: `Where the service sends the browser back. It must match the registered redirect address exactly (${API_DOCS} §4.1).`,
	response_type: 'Always "code": the authorization-code flow (RFC 6749 §4.1.1).',
	scope: `"read" or "read write". Empty means the scope set in the registration; a read-only registration cannot ask for write (${API_DOCS} §4.1).`,
	state: `A random value the playground keeps with this flow. It must come back unchanged: that is how the redirect is known to answer this flow's consent request (${API_DOCS} §5 step 3).`,
	code_challenge:
		'PKCE (RFC 7636 §4.2): derived from a random verifier that stays on the playground server until the code exchange sends it, so a stolen code is useless without it.',
	code_challenge_method:
		'How the challenge was derived: S256 (SHA-256, RFC 7636 §4.2) or plain (the verifier itself, RFC 7636 §7.2 advises against it).',
	request_uri:
		'The handle of a pushed authorization request (RFC 9126 §4): the parameters were sent to the server first, from the playground server, and only this handle travels through the browser.'
};

export type CallbackVerdict =
	| { kind: 'code'; code: string }
	| { kind: 'error'; error: string; description?: string; uri?: string }
	| { kind: 'state-mismatch'; detail: string }
	| { kind: 'no-pending-state' }
	| { kind: 'malformed'; detail: string };

/** Constant-time comparison of two strings (length leaks, as it does for any fixed-length random value). */
export function sameString(a: string, b: string): boolean {
	if (a.length !== b.length) return false;
	// Every code unit, whatever the first difference (split('') splits into UTF-16 code units).
	const diff = a.split('').reduce((d, ch, i) => d | (ch.charCodeAt(0) ^ b.charCodeAt(i)), 0);
	return diff === 0;
}

/**
 * Decides what a redirect back from the service means. The state is checked first, also on an error
 * response, because an error that does not carry our state may be forged too (RFC 6749 §10.12).
 */
export function checkCallback(
	params: URLSearchParams,
	savedState: string | undefined
): CallbackVerdict {
	const returned = params.getAll('state');
	const codes = params.getAll('code');
	const errors = params.getAll('error');
	if (savedState === undefined) return { kind: 'no-pending-state' };
	if (returned.length > 1 || codes.length > 1 || errors.length > 1)
		return {
			kind: 'malformed',
			detail: 'A parameter appears more than once; RFC 6749 §3.1 forbids repeated parameters.'
		};
	if (returned.length === 0)
		return {
			kind: 'state-mismatch',
			detail: 'The redirect carries no state, but the playground sent one.'
		};
	if (!sameString(returned[0]!, savedState))
		return {
			kind: 'state-mismatch',
			detail: 'The returned state differs from the state the playground saved.'
		};
	if (errors.length === 1)
		return {
			kind: 'error',
			error: errors[0]!,
			description: params.get('error_description') ?? undefined,
			uri: params.get('error_uri') ?? undefined
		};
	if (codes.length === 0 || codes[0] === '')
		return { kind: 'malformed', detail: 'The redirect carries neither a code nor an error.' };
	return { kind: 'code', code: codes[0]! };
}

/**
 * Plain words for an authorization error that came back on the redirect (RFC 6749 §4.1.2.1): the
 * fix of its entry in `catalogue/authorization-error.ts`, or of the entry for any other error. They
 * name the sandbox's own buttons only when `target.sandbox` says the consent page was the built-in
 * sandbox's; any other provider's page has its own. An invalid_scope names the service's "Read
 * only" and two scopes only when `target.advice` (advice.ts) does not say the setup is another's.
 */
export function explainAuthorizationError(
	error: string,
	target: { sandbox?: boolean; advice?: Advice } = {}
): string {
	if (error === 'invalid_scope' && target.advice && !target.advice.service)
		return raise(authorizationError.INVALID_SCOPE_ELSEWHERE, undefined, target.advice.scopes).fix!;
	const explained = explaining(Object.values(authorizationError), error);
	const finding = explained
		? raise(explained, undefined, target.sandbox)
		: raise(authorizationError.OTHER_ERROR, error, undefined);
	return finding.fix!;
}

/**
 * The scope to try again with after `invalid_scope`, where the cause is plain: the service's API
 * docs (§4.1) let a registration set to "Read only" ask for `read` and nothing more, so a scope that
 * asked for write is tried again without it (the other words kept). Undefined when the scope asked
 * for no write, or when the setup is not the service's (`advice`, oauth/advice.ts: another server's
 * scopes mean what it says they mean): then the Scope field is the place to change, and no guess is
 * made.
 */
export function scopeRetry(
	error: string | undefined,
	requested: string | undefined,
	advice: Pick<Advice, 'service'>
): string | undefined {
	if (error !== 'invalid_scope' || !advice.service) return undefined;
	const words = (requested ?? '').split(/\s+/).filter(Boolean);
	if (!words.includes('write')) return undefined;
	const rest = words.filter((w) => w !== 'write');
	return (rest.includes('read') ? rest : [...rest, 'read']).join(' ');
}
