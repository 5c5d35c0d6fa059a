/**
 * A JWT's signature checked against the issuer's published keys (a JWKS, RFC 7517 §5), and what
 * the check means in plain words. No I/O: the keys are fetched elsewhere (server/jwt-check.ts)
 * through the one sender, then handed here.
 *
 * Only asymmetric algorithms are allowed: a key set is public, so a symmetric algorithm (HS*) would
 * let anyone who read the JWKS sign (the "key confusion" attack, RFC 8725 §2.1, §3.1), and `none` is
 * no signature at all. A valid signature says who signed the token and that it was not changed; it
 * does not say the token is for you or still good, so `iss`, `exp` and `typ` are reported apart.
 */
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import type { Finding } from '$lib/exchange/types';
import { decodeJwt } from './jwt';
import * as F from './findings';

/** The algorithms a signature may use here: RS*, PS*, ES*, EdDSA (never `none`, never HS*). */
export const ASYMMETRIC_ALGS = [
	'RS256',
	'RS384',
	'RS512',
	'PS256',
	'PS384',
	'PS512',
	'ES256',
	'ES384',
	'ES512',
	'EdDSA',
	'Ed25519'
] as const;

const RFC7515 = 'RFC 7515 §5.2';
const RFC8725 = 'RFC 8725 §3.1';

export type SignatureVerdict =
	| { valid: true; kid?: string; alg: string }
	| { valid: false; code: string; kid?: string; alg?: string; detail: string };

/** The JWKS from a response body: a JSON object with a `keys` array, or why not. */
export function parseJwks(body: string): { ok: true; jwks: JSONWebKeySet } | { ok: false } {
	try {
		const parsed: unknown = JSON.parse(body);
		if (
			parsed !== null &&
			typeof parsed === 'object' &&
			Array.isArray((parsed as { keys?: unknown }).keys)
		)
			return { ok: true, jwks: parsed as JSONWebKeySet };
	} catch {
		// not JSON
	}
	return { ok: false };
}

function headerOf(token: string): { kid?: string; alg?: string } {
	const d = decodeJwt(token);
	if (!d.ok) return {};
	const { kid, alg } = d.header;
	return {
		...(typeof kid === 'string' ? { kid } : {}),
		...(typeof alg === 'string' ? { alg } : {})
	};
}

/** Verifies a compact JWS with the key set, asymmetric algorithms only. Never throws. */
export async function verifySignature(
	token: string,
	jwks: JSONWebKeySet
): Promise<SignatureVerdict> {
	const { kid, alg } = headerOf(token.trim());
	try {
		const keys = createLocalJWKSet(jwks);
		const { protectedHeader } = await compactVerify(token.trim(), keys, {
			algorithms: [...ASYMMETRIC_ALGS]
		});
		return { valid: true, kid: protectedHeader.kid, alg: protectedHeader.alg };
	} catch (e) {
		const code = (e as { code?: unknown }).code;
		return {
			valid: false,
			code: typeof code === 'string' ? code : 'ERR_UNKNOWN',
			...(kid !== undefined ? { kid } : {}),
			...(alg !== undefined ? { alg } : {}),
			detail: e instanceof Error ? e.message : String(e)
		};
	}
}

/** Names the key: `kid "test-1"`, or that the header named none. */
const keyName = (kid: string | undefined) => (kid ? `kid "${kid}"` : 'no kid in the header');

/** The signature verdict as one finding, naming the kid, the alg and the key set's URL. */
export function signatureFinding(v: SignatureVerdict, jwksUri: string): Finding {
	if (v.valid)
		return {
			level: 'info',
			code: F.JWT_SIGNATURE_VALID,
			message: `The signature is valid: ${v.alg}, made with the key ${keyName(v.kid)} of ${jwksUri}. This says who signed the token and that it was not changed; whether the token is meant for you and still good is in the findings below.`,
			ref: RFC7515
		};
	const named = `(${v.alg ?? 'no alg'}, ${keyName(v.kid)})`;
	switch (v.code) {
		case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
			return {
				level: 'error',
				code: F.JWT_SIGNATURE_INVALID,
				message: `The signature is invalid ${named}: the key of ${jwksUri} does not verify it, so the token was changed after signing, or was signed by someone else. Its claims (iss, exp) are not reported: nothing in it can be trusted.`,
				fix: 'Do not trust this token. Check the whole token was copied, and that it came from this issuer.',
				ref: RFC7515
			};
		case 'ERR_JWKS_NO_MATCHING_KEY':
			return {
				level: 'error',
				code: F.JWT_NO_MATCHING_KEY,
				message: `No key of ${jwksUri} matches the token ${named}: nothing could verify it.`,
				fix: 'The issuer may have rotated its keys (fetch again later), or the token was issued by another server, or the JWKS URL is not this issuer’s.',
				ref: 'RFC 7517 §4.5'
			};
		case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
			return {
				level: 'error',
				code: F.JWT_MULTIPLE_MATCHING_KEYS,
				message: `Several keys of ${jwksUri} match the token ${named}, and none of them verifies it.`,
				fix: 'The issuer should give each key its own kid and name it in the token header.',
				ref: 'RFC 7517 §4.5'
			};
		case 'ERR_JOSE_ALG_NOT_ALLOWED':
			return {
				level: 'error',
				code: F.JWT_ALG_NOT_ALLOWED,
				message: `The token's algorithm ${v.alg ?? '(none given)'} is refused: only asymmetric signatures (${ASYMMETRIC_ALGS.join(', ')}) can be checked against public keys. "none" is no signature, and an HS* token checked with a published key is the key-confusion attack.`,
				fix: 'A token signed with a shared secret (HS*) can only be checked by whoever holds the secret: the issuer itself.',
				ref: RFC8725
			};
		case 'ERR_JWKS_INVALID':
			return {
				level: 'error',
				code: F.JWKS_INVALID,
				message: `The key set of ${jwksUri} is not a valid JWKS.`,
				fix: 'The JWKS URL must give a JSON object with a "keys" array of JWKs.',
				ref: 'RFC 7517 §5'
			};
		default:
			return {
				level: 'error',
				code: F.JWT_MALFORMED,
				message: `The token could not be checked ${named}: ${v.detail}`,
				fix: 'A signed JWT is three base64url parts joined by dots: header, payload, signature.',
				ref: 'RFC 7515 §7.1'
			};
	}
}

/** What the page shows beside a token after a check: which token, and the outcome. */
export interface JwtCheckResult {
	/** The token checked, as the page shows it: the note "not checked" goes only for this one. */
	token: string;
	kind: ClaimContext['kind'];
	/** False when the keys could not be had: then nothing was verified. */
	verified: boolean;
	valid: boolean;
	kid?: string;
	alg?: string;
	jwks_uri: string;
	checked_at: number;
	/** The id of the key fetch's Exchange (in the transcript). */
	exchange_id: string;
	findings: Finding[];
}

export interface ClaimContext {
	/** The issuer the setup expects ('' when none is known). */
	issuer: string;
	/** Which token this is: an access token's `typ` should be `at+jwt` (RFC 9068 §2.1). */
	kind: 'access_token' | 'id_token' | 'refresh_token' | 'pasted';
	now: number;
}

/** `iss`, `exp` and `typ`, each apart from the signature: a valid signature is not a valid token. */
export function claimFindings(token: string, ctx: ClaimContext): Finding[] {
	const d = decodeJwt(token);
	if (!d.ok) return [];
	const out: Finding[] = [];
	const iss = d.payload.iss;
	if (!ctx.issuer)
		out.push({
			level: 'info',
			code: F.JWT_ISSUER_NOT_CHECKED,
			message: `The token's iss is ${typeof iss === 'string' ? `"${iss}"` : 'missing'}; the setup names no issuer to compare it with.`,
			fix: 'Enter the issuer in the setup (Advanced settings) to have it compared.',
			ref: 'RFC 7519 §4.1.1'
		});
	else if (iss === ctx.issuer)
		out.push({
			level: 'info',
			code: F.JWT_ISSUER_OK,
			message: `The token's iss is the expected issuer, "${ctx.issuer}".`,
			ref: 'RFC 7519 §4.1.1'
		});
	else
		out.push({
			level: 'error',
			code: F.JWT_ISSUER_MISMATCH,
			message: `The token's iss is ${typeof iss === 'string' ? `"${iss}"` : 'missing'}, not the expected issuer "${ctx.issuer}": a valid signature from these keys does not make it this issuer's token.`,
			ref: 'RFC 7519 §4.1.1; RFC 8725 §3.8'
		});
	const exp = d.payload.exp;
	if (typeof exp !== 'number')
		out.push({
			level: 'warning',
			code: F.JWT_NO_EXPIRY,
			message: 'The token has no exp claim: it never expires by itself.',
			ref: 'RFC 7519 §4.1.4'
		});
	else if (exp * 1000 <= ctx.now)
		out.push({
			level: 'warning',
			code: F.JWT_EXPIRED,
			message: `The token expired at ${new Date(exp * 1000).toISOString()}: the signature is still valid, the token is not.`,
			ref: 'RFC 7519 §4.1.4'
		});
	else
		out.push({
			level: 'info',
			code: F.JWT_NOT_EXPIRED,
			message: `The token has not expired (exp ${new Date(exp * 1000).toISOString()}).`,
			ref: 'RFC 7519 §4.1.4'
		});
	const typ = typeof d.header.typ === 'string' ? d.header.typ : undefined;
	const atJwt = typ !== undefined && /^(application\/)?at\+jwt$/i.test(typ);
	if (ctx.kind === 'access_token' && !atJwt)
		out.push({
			level: 'warning',
			code: F.JWT_TYP,
			message: `The access token's typ is ${typ ? `"${typ}"` : 'missing'}, not "at+jwt": a resource server following RFC 9068 refuses it, and it could be mistaken for another kind of JWT (an ID token).`,
			ref: 'RFC 9068 §2.1'
		});
	else if (ctx.kind !== 'access_token' && atJwt)
		out.push({
			level: ctx.kind === 'pasted' ? 'info' : 'warning',
			code: F.JWT_TYP,
			message: `The typ is "${typ}": this is a JWT access token (RFC 9068)${ctx.kind === 'pasted' ? '' : ', not what this field should hold'}.`,
			ref: 'RFC 9068 §2.1'
		});
	else
		out.push({
			level: 'info',
			code: F.JWT_TYP,
			message: `The typ is ${typ ? `"${typ}"` : 'not given'}${atJwt ? ': a JWT access token (RFC 9068)' : ''}.`,
			ref: 'RFC 9068 §2.1'
		});
	return out;
}
