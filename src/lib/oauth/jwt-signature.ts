/**
 * A JWT's signature checked against the issuer's published keys (a JWKS, RFC 7517 §5), and what
 * the check means in plain words. No I/O: the keys are fetched elsewhere (server/steps/jwt-check.ts)
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
import { raise } from './catalogue/raise';
import * as jwt from './catalogue/signed-jwt';

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

/** The signature verdict as one finding, naming the kid, the alg and the key set's URL. */
export function signatureFinding(v: SignatureVerdict, jwksUri: string): Finding {
	if (v.valid) return raise(jwt.SIGNATURE_VALID, v.alg, v.kid, jwksUri);
	switch (v.code) {
		case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
			return raise(jwt.SIGNATURE_INVALID, v.alg, v.kid, jwksUri);
		case 'ERR_JWKS_NO_MATCHING_KEY':
			return raise(jwt.NO_MATCHING_KEY, v.alg, v.kid, jwksUri);
		case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
			return raise(jwt.MULTIPLE_MATCHING_KEYS, v.alg, v.kid, jwksUri);
		case 'ERR_JOSE_ALG_NOT_ALLOWED':
			return raise(jwt.ALG_NOT_ALLOWED, v.alg, ASYMMETRIC_ALGS);
		case 'ERR_JWKS_INVALID':
			return raise(jwt.JWKS_INVALID, jwksUri);
		default:
			return raise(jwt.MALFORMED, v.alg, v.kid, v.detail);
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
	if (!ctx.issuer) out.push(raise(jwt.ISSUER_NOT_CHECKED, iss));
	else if (iss === ctx.issuer) out.push(raise(jwt.ISSUER_OK, ctx.issuer));
	else out.push(raise(jwt.ISSUER_MISMATCH, iss, ctx.issuer));
	const exp = d.payload.exp;
	if (typeof exp !== 'number') out.push(raise(jwt.NO_EXPIRY));
	else if (exp * 1000 <= ctx.now) out.push(raise(jwt.EXPIRED, exp));
	else out.push(raise(jwt.NOT_EXPIRED, exp));
	const typ = typeof d.header.typ === 'string' ? d.header.typ : undefined;
	const atJwt = typ !== undefined && /^(application\/)?at\+jwt$/i.test(typ);
	if (ctx.kind === 'access_token' && !atJwt) out.push(raise(jwt.ACCESS_TOKEN_TYP, typ));
	else if (ctx.kind !== 'access_token' && atJwt)
		out.push(raise(ctx.kind === 'pasted' ? jwt.AT_JWT_PASTED : jwt.AT_JWT_IN_ANOTHER_FIELD, typ));
	else out.push(raise(jwt.TYP_SHOWN, typ, atJwt));
	return out;
}
