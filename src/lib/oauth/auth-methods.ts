/**
 * Client authentication where the client secret is sent (RFC 6749 §2.3.1): in the form body
 * (`client_secret_post`, the service's API docs §4.2), as HTTP Basic (`client_secret_basic`), or not
 * at all for a public client (`none`, RFC 7591 §2). Pure: the server decides whether the secret may
 * go (server/flow/client-auth.ts).
 */
import type { AuthMethod } from './setup';

/**
 * RFC 6749 §2.3.1: the client id and the secret are each encoded with the
 * application/x-www-form-urlencoded algorithm (Appendix B) before they are joined with `:` and
 * base64-encoded. Forgetting that step is a common interop bug: a secret holding `:`, `%`, `+`, a
 * space or a non-ASCII character then reaches the server changed.
 */
export function basicCredentials(clientId: string, secret: string): string {
	const form = (v: string) => new URLSearchParams([['', v]]).toString().slice(1);
	return `Basic ${Buffer.from(`${form(clientId)}:${form(secret)}`, 'utf8').toString('base64')}`;
}

/** How each method is named in words, for notes and findings. */
export const AUTH_METHOD_NAME: Record<AuthMethod, string> = {
	client_secret_post: 'client_secret_post (the secret in the form body)',
	client_secret_basic: 'client_secret_basic (HTTP Basic)',
	none: 'none (a public client, no secret)'
};
