/**
 * What a refused token request or consent means for the client's authentication method and PKCE:
 * the method used and the one to try, the form-encoding that HTTP Basic needs, and a verifier that
 * is missing or does not match. Pure. The wording never depends on the secret's characters.
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import type { AuthMethod, PkceMethod } from './setup';
import { AUTH_METHOD_NAME } from './auth-methods';
import {
	CLIENT_AUTH_METHOD,
	PKCE_MISMATCH,
	PKCE_PLAIN,
	PKCE_REQUIRED,
	PUBLIC_CLIENT_REFUSED
} from './findings';

const RFC6749 = 'https://www.rfc-editor.org/rfc/rfc6749';
const RFC7636 = 'https://www.rfc-editor.org/rfc/rfc7636';

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
	if (ex.step !== 'exchange' && ex.step !== 'refresh') return [];
	const err = oauthError(ex);
	if (!err) return [];
	if (err.error === 'invalid_client') {
		if (ctx.method === 'none')
			return [
				{
					level: 'error',
					code: PUBLIC_CLIENT_REFUSED,
					message:
						'The server does not accept this client as a public client: it sent no secret (client authentication "none"), and the server wants one.',
					fix: 'If the registration is confidential, choose client_secret_post or client_secret_basic and enter the secret; a public client must be registered with token_endpoint_auth_method "none".',
					ref: `${RFC6749}#section-2.1`
				}
			];
		if (!methodLikely(ex, ctx, err.description)) return [];
		const listed = ctx.supported?.filter((m): m is AuthMethod =>
			Object.hasOwn(AUTH_METHOD_NAME, m)
		);
		const unlisted = !!ctx.supported && !ctx.supported.includes(ctx.method);
		const other: AuthMethod =
			listed?.find((m) => m !== ctx.method) ??
			(ctx.method === 'client_secret_basic' ? 'client_secret_post' : 'client_secret_basic');
		return [
			{
				level: 'error',
				code: CLIENT_AUTH_METHOD,
				message: `The server refused the client's authentication. It was sent as ${AUTH_METHOD_NAME[ctx.method]}; ${unlisted ? `the server's metadata lists ${ctx.supported!.join(', ') || 'no method'} in token_endpoint_auth_methods_supported, not this one, so the method is the likely cause.` : 'a server accepts only the method the client is registered with, and its answer points to the method, so the secret may be right and the method wrong.'}${
					ctx.method === 'client_secret_basic'
						? ' With HTTP Basic, RFC 6749 §2.3.1 has the client id and the secret form-encoded before base64: a server (or client) that skips that step reads a different secret whenever it holds characters such as ":", "%", "+", a space or non-ASCII letters, a common interop bug.'
						: ''
				}`,
				fix: `Check the registration's token_endpoint_auth_method (the server's metadata lists the methods it supports), and try ${AUTH_METHOD_NAME[other]} in the setup's Advanced settings; if the client is registered as public, choose "none" (with PKCE, and no secret). If the method is right, the secret is not.`,
				ref: `${RFC6749}#section-2.3.1`,
				suggest: { field: 'token_endpoint_auth_method', value: other }
			}
		];
	}
	if (err.error === 'invalid_grant' && ex.step === 'exchange') {
		if (ctx.pkce === 'off' && mentionsPkce(err.description))
			return [
				{
					level: 'error',
					code: PKCE_REQUIRED,
					message:
						'The server expects PKCE for this client, and the consent request and the exchange had none.',
					fix: 'Turn PKCE on (S256) in the setup’s Advanced settings, then start the consent again: the code must come from a consent request that carried the challenge.',
					ref: `${RFC7636}#section-4.4.1`,
					suggest: { field: 'pkce', value: 'S256' }
				}
			];
		if (ctx.pkce !== 'off')
			return [
				{
					level: mentionsPkce(err.description) ? 'error' : 'info',
					code: PKCE_MISMATCH,
					message: `${mentionsPkce(err.description) ? 'The' : 'One possible cause: the'} code_verifier sent does not match the code_challenge the code was issued for. That happens with a code from another consent request (another tab, a pasted address, or a consent started before the setup was saved again).`,
					fix: 'Open the consent page from this flow’s step 1 and exchange the code it brings back.',
					ref: `${RFC7636}#section-4.6`
				}
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
		out.push({
			level: 'error',
			code: PKCE_REQUIRED,
			message: 'The server requires PKCE for this client, and the consent request had none.',
			fix: 'Turn PKCE on (S256) in the setup’s Advanced settings and open the consent page again.',
			ref: `${RFC7636}#section-4.4.1`
		});
	if (pkce === 'plain')
		out.push({
			level: 'warning',
			code: PKCE_PLAIN,
			message:
				'PKCE plain: the challenge in the consent URL is the verifier itself, so anyone who saw that URL can exchange the code.',
			fix: 'Use S256 unless the server offers nothing else.',
			ref: `${RFC7636}#section-7.2`
		});
	return out;
}
