/**
 * What a refused token request or consent means for the client's authentication method and PKCE
 * (RFC 6749 §2.1, §2.3.1; RFC 7636): a public client refused, the method the likely cause, PKCE
 * wanted, a verifier that does not match, PKCE plain. `pkce-auth.ts` decides which applies. The
 * wording never depends on the secret's characters.
 */
import { AUTH_METHOD_NAME } from '../auth-methods';
import { STEPS } from '$lib/steps/registry';
import type { AuthMethod } from '../setup';
import { entry } from './raise';

const RFC6749 = (s: string) => `RFC 6749 §${s}`;
const RFC7636 = (s: string) => `RFC 7636 §${s}`;

/** The server does not accept this client as a public client (no authentication). */
export const PUBLIC_CLIENT_REFUSED = entry({
	code: 'public-client-refused',
	level: 'error',
	message:
		'The server does not accept this client as a public client: it sent no secret (client authentication "none"), and the server wants one.',
	fix: 'If the registration is confidential, choose client_secret_post or client_secret_basic and enter the secret; a public client must be registered with token_endpoint_auth_method "none".',
	ref: RFC6749('2.1')
});

const BASIC_ENCODING =
	' With HTTP Basic, RFC 6749 §2.3.1 has the client id and the secret form-encoded before base64: a server (or client) that skips that step reads a different secret whenever it holds characters such as ":", "%", "+", a space or non-ASCII letters, a common interop bug.';

/**
 * The server refused the client's authentication, and the method is the likely cause (the metadata
 * does not list it, or the answer points to it).
 *
 * Raised with the method used, the methods the metadata lists when it does not list that one (else
 * undefined), and the method to try.
 */
export const CLIENT_AUTH_METHOD = entry({
	code: 'client-auth-method',
	level: 'error',
	message: (used: AuthMethod, unlistedIn: readonly string[] | undefined, _other: AuthMethod) =>
		`The server refused the client's authentication. It was sent as ${AUTH_METHOD_NAME[used]}; ${unlistedIn ? `the server's metadata lists ${unlistedIn.join(', ') || 'no method'} in token_endpoint_auth_methods_supported, not this one, so the method is the likely cause.` : 'a server accepts only the method the client is registered with, and its answer points to the method, so the secret may be right and the method wrong.'}${used === 'client_secret_basic' ? BASIC_ENCODING : ''}`,
	fix: (_used, _unlistedIn, other) =>
		`Check the registration's token_endpoint_auth_method (the server's metadata lists the methods it supports), and try ${AUTH_METHOD_NAME[other]} in the setup's Advanced settings; if the client is registered as public, choose "none" (with PKCE, and no secret). If the method is right, the secret is not.`,
	ref: RFC6749('2.3.1'),
	suggest: (_used, _unlistedIn, other) => ({ field: 'token_endpoint_auth_method', value: other })
});

/** The server requires PKCE, and the consent request and the code exchange had none. */
export const PKCE_REQUIRED = entry({
	code: 'pkce-required',
	level: 'error',
	message:
		'The server expects PKCE for this client, and the consent request and the exchange had none.',
	fix: 'Turn PKCE on (S256) in the setup’s Advanced settings, then start the consent again: the code must come from a consent request that carried the challenge.',
	ref: RFC7636('4.4.1'),
	suggest: () => ({ field: 'pkce', value: 'S256' })
});

/** The consent itself refused for want of PKCE. */
export const PKCE_REQUIRED_AT_CONSENT = entry({
	code: 'pkce-required',
	level: 'error',
	message: 'The server requires PKCE for this client, and the consent request had none.',
	fix: 'Turn PKCE on (S256) in the setup’s Advanced settings and open the consent page again.',
	ref: RFC7636('4.4.1')
});

const MISMATCH =
	'code_verifier sent does not match the code_challenge the code was issued for. That happens with a code from another consent request (another tab, a pasted address, or a consent started before the setup was saved again).';
const FROM_THIS_FLOW = `Open the consent page from this flow’s step ${STEPS.consent.n} and exchange the code it brings back.`;

/**
 * The code_verifier does not match the code_challenge the code was issued for: the server's words
 * name PKCE.
 */
export const PKCE_MISMATCH = entry({
	code: 'pkce-mismatch',
	level: 'error',
	message: `The ${MISMATCH}`,
	fix: FROM_THIS_FLOW,
	ref: RFC7636('4.6')
});

/**
 * A refused code with PKCE on, the server's words silent on it: a verifier that does not match is
 * one cause among others.
 */
export const PKCE_MISMATCH_POSSIBLE = entry({
	code: 'pkce-mismatch',
	level: 'info',
	message: `One possible cause: the ${MISMATCH}`,
	fix: FROM_THIS_FLOW,
	ref: RFC7636('4.6')
});

/**
 * PKCE plain sends the verifier itself as the challenge: whoever sees the consent URL can use the
 * code.
 */
export const PKCE_PLAIN = entry({
	code: 'pkce-plain',
	level: 'warning',
	message:
		'PKCE plain: the challenge in the consent URL is the verifier itself, so anyone who saw that URL can exchange the code.',
	fix: 'Use S256 unless the server offers nothing else.',
	ref: RFC7636('7.2')
});
