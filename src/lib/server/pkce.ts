/**
 * PKCE (RFC 7636): the verifier is made and kept on the server; only its challenge travels in the
 * consent URL. node:crypto, synchronous, so preparing a consent request stays synchronous.
 */
import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: 43 characters from the unreserved set (RFC 7636 §4.1). */
export function newVerifier(): string {
	return randomBytes(32).toString('base64url');
}

/** The challenge for a verifier (RFC 7636 §4.2): BASE64URL(SHA256(verifier)), or the verifier itself for plain. */
export function codeChallenge(verifier: string, method: 'S256' | 'plain'): string {
	return method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url');
}
