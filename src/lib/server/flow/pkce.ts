/**
 * PKCE (RFC 7636): the verifier is made and kept on the server; only its challenge travels in the
 * consent URL. The verifier is oauth4webapi's `generateRandomCodeVerifier` (32 random bytes,
 * base64url: the 43 characters our own code made before). The challenge stays ours, with
 * node:crypto: the library's `calculatePKCECodeChallenge` is asynchronous (WebCrypto), and preparing
 * a consent request is synchronous where four steps call it; the library checks the challenge
 * instead, when the code exchange sends the verifier (oauth/strict-client.ts `pkceVerdict`).
 */
import { createHash } from 'node:crypto';
import { generateRandomCodeVerifier } from 'oauth4webapi';

/** 32 random bytes, base64url: 43 characters from the unreserved set (RFC 7636 §4.1). */
export function newVerifier(): string {
	return generateRandomCodeVerifier();
}

/** The challenge for a verifier (RFC 7636 §4.2): BASE64URL(SHA256(verifier)), or the verifier itself for plain. */
export function codeChallenge(verifier: string, method: 'S256' | 'plain'): string {
	return method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
}
