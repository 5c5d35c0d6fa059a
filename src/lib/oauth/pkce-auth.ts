/**
 * What a refused token request or consent means for the client's authentication method and PKCE:
 * the method used and the one to try, the form-encoding that HTTP Basic needs, and a verifier that
 * is missing or does not match. Pure. The words are the catalogue's (`catalogue/method-and-pkce.ts`).
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';
import type { AuthMethod, PkceMethod } from './setup';
import { AUTH_METHOD_NAME } from './auth-methods';
import { raise } from './catalogue/raise';
import * as said from './catalogue/method-and-pkce';

/** `error` and `error_description` of a JSON error answer. */
function oauthError(ex: Exchange): { error: string; description: string } | undefined {
	const res = ex.response;
	if (!res || res.status < 400) return undefined;
	try {
		const body: unknown = JSON.parse(res.body);
		if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string')
			return {
				error: body.error,
				description:
					'error_description' in body && typeof body.error_description === 'string'
						? body.error_description
						: ''
			};
	} catch {
		// not JSON: other findings say so
	}
	return undefined;
}

const mentionsPkce = (text: string) => /pkce|code[_ ]?(verifier|challenge)/i.test(text);

export interface ClientContext {
	method: AuthMethod;
	pkce: PkceMethod;
	/**
	 * The methods the token endpoint takes, from its verified metadata (RFC 8414
	 * `token_endpoint_auth_methods_supported`), when it was fetched for this token endpoint.
	 */
	supported?: readonly string[];
}

/** An error description that speaks of how the client authenticated, not only that it failed. */
const NAMES_METHOD =
	/client_secret_(basic|post|jwt)|private_key_jwt|token_endpoint_auth_method|auth(entication)? method|authorization header|\bbasic\b|client assertion/i;

/**
 * Whether the method, not the secret, is the likely cause of an invalid_client: the metadata lists
 * other methods, the server's words name the method, or it challenges a secret sent in the body
 * with HTTP Basic (RFC 6749 §5.2: a server that wants Basic answers 401 with `WWW-Authenticate`).
 * Otherwise a refused client is a wrong client id or secret, and saying the method may be wrong
 * would only contradict that.
 */
function methodLikely(ex: Exchange, ctx: ClientContext, description: string): boolean {
	if (ctx.supported && !ctx.supported.includes(ctx.method)) return true;
	if (NAMES_METHOD.test(description)) return true;
	const challenge = ex.response?.headers.find(([n]) => n.toLowerCase() === 'www-authenticate')?.[1];
	return (
		ctx.method === 'client_secret_post' &&
		ex.response?.status === 401 &&
		/^\s*basic\b/i.test(challenge ?? '')
	);
}

/** Findings for a token-endpoint answer (code exchange or refresh), from the method and PKCE used. */
export function clientAuthFindings(ex: Exchange, ctx: ClientContext): Finding[] {
	const { grantType } = specOf(ex.step);
	if (grantType === undefined) return [];
	const err = oauthError(ex);
	if (!err) return [];
	if (err.error === 'invalid_client') {
		if (ctx.method === 'none') return [raise(said.PUBLIC_CLIENT_REFUSED)];
		if (!methodLikely(ex, ctx, err.description)) return [];
		const listed = ctx.supported?.filter((m): m is AuthMethod =>
			Object.hasOwn(AUTH_METHOD_NAME, m)
		);
		const unlisted = !!ctx.supported && !ctx.supported.includes(ctx.method);
		const other: AuthMethod =
			listed?.find((m) => m !== ctx.method) ??
			(ctx.method === 'client_secret_basic' ? 'client_secret_post' : 'client_secret_basic');
		return [
			raise(said.CLIENT_AUTH_METHOD, ctx.method, unlisted ? ctx.supported : undefined, other)
		];
	}
	if (err.error === 'invalid_grant' && grantType === 'authorization_code') {
		if (ctx.pkce === 'off' && mentionsPkce(err.description)) return [raise(said.PKCE_REQUIRED)];
		if (ctx.pkce !== 'off')
			return [
				raise(mentionsPkce(err.description) ? said.PKCE_MISMATCH : said.PKCE_MISMATCH_POSSIBLE)
			];
	}
	return [];
}

/** A consent refused for want of PKCE (`invalid_request` naming it), and the warning for plain. */
export function pkceCallbackFindings(
	error: string | undefined,
	description: string | undefined,
	pkce: PkceMethod
): Finding[] {
	const out: Finding[] = [];
	if (error === 'invalid_request' && pkce === 'off' && mentionsPkce(description ?? ''))
		out.push(raise(said.PKCE_REQUIRED_AT_CONSENT));
	if (pkce === 'plain') out.push(raise(said.PKCE_PLAIN));
	return out;
}
