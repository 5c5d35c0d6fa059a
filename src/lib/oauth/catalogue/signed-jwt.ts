/**
 * What the check of a signed JWT found (oauth/jwt-signature.ts decides which applies): the
 * signature against the issuer's published keys, then `iss`, `exp` and `typ`, each apart, since a
 * valid signature says who signed the token, not that it is meant for you or still good.
 */
import { entry } from './raise';

const SIGNATURE = 'RFC 7515 §5.2';
const KEY_MATCH = 'RFC 7517 §4.5';
const ISS = 'RFC 7519 §4.1.1';
const EXP = 'RFC 7519 §4.1.4';
const TYP = 'RFC 9068 §2.1';

/** Names the key: `kid "test-1"`, or that the header named none. */
const keyName = (kid: string | undefined) => (kid ? `kid "${kid}"` : 'no kid in the header');

/** The algorithm and the key, as the failures name them. */
const named = (alg: string | undefined, kid: string | undefined) =>
	`(${alg ?? 'no alg'}, ${keyName(kid)})`;
/** The claim as found: quoted, or missing. */
const claim = (v: unknown) => (typeof v === 'string' ? `"${v}"` : 'missing');

/** The signature verifies with a key of the issuer's JWKS. */
export const SIGNATURE_VALID = entry({
	code: 'jwt-signature-valid',
	level: 'info',
	message: (alg: string, kid: string | undefined, jwksUri: string) =>
		`The signature is valid: ${alg}, made with the key ${keyName(kid)} of ${jwksUri}. This says who signed the token and that it was not changed; whether the token is meant for you and still good is in the findings below.`,
	ref: SIGNATURE
});

/** The signature does not verify: the token was changed, or someone else signed it. */
export const SIGNATURE_INVALID = entry({
	code: 'jwt-signature-invalid',
	level: 'error',
	message: (alg: string | undefined, kid: string | undefined, jwksUri: string) =>
		`The signature is invalid ${named(alg, kid)}: the key of ${jwksUri} does not verify it, so the token was changed after signing, or was signed by someone else. Its claims (iss, exp) are not reported: nothing in it can be trusted.`,
	fix: 'Do not trust this token. Check the whole token was copied, and that it came from this issuer.',
	ref: SIGNATURE
});

/** No key of the JWKS matches the token's header (kid, alg, key type). */
export const NO_MATCHING_KEY = entry({
	code: 'jwt-no-matching-key',
	level: 'error',
	message: (alg: string | undefined, kid: string | undefined, jwksUri: string) =>
		`No key of ${jwksUri} matches the token ${named(alg, kid)}: nothing could verify it.`,
	fix: 'The issuer may have rotated its keys (fetch again later), or the token was issued by another server, or the JWKS URL is not this issuer’s.',
	ref: KEY_MATCH
});

/** Several keys of the JWKS match the token's header, and none verifies it. */
export const MULTIPLE_MATCHING_KEYS = entry({
	code: 'jwt-multiple-matching-keys',
	level: 'error',
	message: (alg: string | undefined, kid: string | undefined, jwksUri: string) =>
		`Several keys of ${jwksUri} match the token ${named(alg, kid)}, and none of them verifies it.`,
	fix: 'The issuer should give each key its own kid and name it in the token header.',
	ref: KEY_MATCH
});

/** The token's algorithm is not an asymmetric one (none, HS*): refused. */
export const ALG_NOT_ALLOWED = entry({
	code: 'jwt-alg-not-allowed',
	level: 'error',
	message: (alg: string | undefined, allowed: readonly string[]) =>
		`The token's algorithm ${alg ?? '(none given)'} is refused: only asymmetric signatures (${allowed.join(', ')}) can be checked against public keys. "none" is no signature, and an HS* token checked with a published key is the key-confusion attack.`,
	fix: 'A token signed with a shared secret (HS*) can only be checked by whoever holds the secret: the issuer itself.',
	ref: 'RFC 8725 §3.1'
});

/** The key set the JWKS URL gave is not a valid JWKS. */
export const JWKS_INVALID = entry({
	code: 'jwks-invalid',
	level: 'error',
	message: (jwksUri: string) => `The key set of ${jwksUri} is not a valid JWKS.`,
	fix: 'The JWKS URL must give a JSON object with a "keys" array of JWKs.',
	ref: 'RFC 7517 §5'
});

/** The token is not a well-formed compact JWS. */
export const MALFORMED = entry({
	code: 'jwt-malformed',
	level: 'error',
	message: (alg: string | undefined, kid: string | undefined, detail: string) =>
		`The token could not be checked ${named(alg, kid)}: ${detail}`,
	fix: 'A signed JWT is three base64url parts joined by dots: header, payload, signature.',
	ref: 'RFC 7515 §7.1'
});

/** No issuer is known to compare the token's iss with. */
export const ISSUER_NOT_CHECKED = entry({
	code: 'jwt-issuer-not-checked',
	level: 'info',
	message: (iss: unknown) =>
		`The token's iss is ${claim(iss)}; the setup names no issuer to compare it with.`,
	fix: 'Enter the issuer in the setup (Advanced settings) to have it compared.',
	ref: ISS
});

/** The token's iss is the expected issuer. */
export const ISSUER_OK = entry({
	code: 'jwt-issuer-ok',
	level: 'info',
	message: (issuer: string) => `The token's iss is the expected issuer, "${issuer}".`,
	ref: ISS
});

/** The token's iss is not the expected issuer. */
export const ISSUER_MISMATCH = entry({
	code: 'jwt-issuer-mismatch',
	level: 'error',
	message: (iss: unknown, issuer: string) =>
		`The token's iss is ${claim(iss)}, not the expected issuer "${issuer}": a valid signature from these keys does not make it this issuer's token.`,
	ref: `${ISS}; RFC 8725 §3.8`
});

/** The token carries no exp. */
export const NO_EXPIRY = entry({
	code: 'jwt-no-expiry',
	level: 'warning',
	message: 'The token has no exp claim: it never expires by itself.',
	ref: EXP
});

/** The token has expired (its exp is past). */
export const EXPIRED = entry({
	code: 'jwt-expired',
	level: 'warning',
	message: (exp: number) =>
		`The token expired at ${new Date(exp * 1000).toISOString()}: the signature is still valid, the token is not.`,
	ref: EXP
});

/** The token has not expired yet. */
export const NOT_EXPIRED = entry({
	code: 'jwt-not-expired',
	level: 'info',
	message: (exp: number) =>
		`The token has not expired (exp ${new Date(exp * 1000).toISOString()}).`,
	ref: EXP
});

/** An access token whose typ is not at+jwt, which a resource server following RFC 9068 refuses. */
export const ACCESS_TOKEN_TYP = entry({
	code: 'jwt-typ',
	level: 'warning',
	message: (typ: string | undefined) =>
		`The access token's typ is ${typ ? `"${typ}"` : 'missing'}, not "at+jwt": a resource server following RFC 9068 refuses it, and it could be mistaken for another kind of JWT (an ID token).`,
	ref: TYP
});

/** A JWT access token (typ at+jwt) where an ID token or a refresh token should be. */
export const AT_JWT_IN_ANOTHER_FIELD = entry({
	code: 'jwt-typ',
	level: 'warning',
	message: (typ: string) =>
		`The typ is "${typ}": this is a JWT access token (RFC 9068), not what this field should hold.`,
	ref: TYP
});

/** A pasted token that is a JWT access token (typ at+jwt): said, not warned about. */
export const AT_JWT_PASTED = entry({
	code: 'jwt-typ',
	level: 'info',
	message: (typ: string) => `The typ is "${typ}": this is a JWT access token (RFC 9068).`,
	ref: TYP
});

/** The typ of a pasted token, and whether it marks a JWT access token. */
export const TYP_SHOWN = entry({
	code: 'jwt-typ',
	level: 'info',
	message: (typ: string | undefined, atJwt: boolean) =>
		`The typ is ${typ ? `"${typ}"` : 'not given'}${atJwt ? ': a JWT access token (RFC 9068)' : ''}.`,
	ref: TYP
});

const CHECK_JWKS_URI = 'Check the JWKS URL in the setup (the server’s metadata names it jwks_uri).';

/** The JWKS URL answered 200 with something that is not a key set. */
export const NOT_A_KEY_SET = entry({
	code: 'jwks-invalid',
	level: 'error',
	message: (jwksUri: string) =>
		`${jwksUri} did not give a key set: a JWKS is a JSON object with a "keys" array.`,
	fix: CHECK_JWKS_URI,
	ref: 'RFC 7517 §5'
});

/** The JWKS URL answered another status than 200: nothing to check the signature with. */
export const KEY_SET_NOT_SERVED = entry({
	code: 'jwks-invalid',
	level: 'error',
	message: (jwksUri: string, status: number) =>
		`${jwksUri} answered ${status}, not 200 with the key set: the signature was not checked.`,
	fix: CHECK_JWKS_URI,
	ref: 'RFC 7517 §5'
});
