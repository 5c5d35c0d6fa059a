/**
 * The sandbox's self-contained credentials, all HS256 JWTs signed with the sandbox's signing key
 * (sandbox.server.ts), a key derived from the session key (the one thing the sandbox shares with the playground, `$lib/keys.server`):
 * - the consent decision ticket (hidden in the consent form, binds the decision to the checked request);
 * - the authorization code (RFC 6749 §4.1.2);
 * - the refresh token (§6) and the access token (RFC 9068 shape, `typ: at+jwt`).
 * Each kind has its own `typ` header, so one kind can never be passed off as another.
 * Because the key comes from PLAYGROUND_SESSION_KEY, a restart keeps their signatures valid. The
 * ticket, the code and the refresh token also carry `gen`, the generation of the store that
 * remembers their use (store.server.ts): redeemed under another generation, they are refused.
 * A refresh token answered within the reuse window (token-route.server.ts) carries `rot` besides
 * its own `jti`: the jti of the current refresh token it stands beside, which the store tracks for it.
 */
import { SignJWT, jwtVerify, errors } from 'jose';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Signer } from './sandbox.server';

const TYP = {
	ticket: 'sandbox-ticket+jwt',
	code: 'sandbox-code+jwt',
	refresh: 'sandbox-refresh+jwt',
	access: 'at+jwt'
} as const;

type Kind = keyof typeof TYP;

const scopeSchema = z.enum(['read', 'read write']);
const base = { jti: z.string().min(1), exp: z.number(), iat: z.number() };
/** The store generation a single-use credential was issued under. */
const gen = z.string().min(1);

const schemas = {
	ticket: z.object({
		...base,
		client_id: z.string(),
		redirect_uri: z.string(),
		scope: scopeSchema,
		state: z.string(),
		gen,
		cc: z.string().optional(),
		ccm: z.enum(['S256', 'plain']).optional()
	}),
	code: z.object({
		...base,
		client_id: z.string(),
		redirect_uri: z.string(),
		scope: scopeSchema,
		fam: z.string().min(1),
		gen,
		cc: z.string().optional(),
		ccm: z.enum(['S256', 'plain']).optional()
	}),
	refresh: z.object({
		...base,
		client_id: z.string(),
		scope: scopeSchema,
		fam: z.string().min(1),
		gen,
		rot: z.string().min(1).optional()
	}),
	access: z.object({
		...base,
		iss: z.string(),
		sub: z.string(),
		aud: z.string(),
		client_id: z.string(),
		scope: scopeSchema,
		fam: z.string().min(1)
	})
};

export type AccessClaims = z.infer<typeof schemas.access>;
type ClaimsOf<K extends Kind> = z.infer<(typeof schemas)[K]>;
type Input<K extends Kind> = Omit<ClaimsOf<K>, 'jti' | 'exp' | 'iat'> & { jti?: string };

export type Verified<T> = { ok: true; claims: T } | { ok: false; reason: 'expired' | 'invalid' };

/** A random identifier (jti, family id): 128 bits, base64url. */
export function newId(): string {
	return randomBytes(16).toString('base64url');
}

async function sign<K extends Kind>(
	signer: Signer,
	kind: K,
	input: Input<K>,
	ttlSeconds: number,
	now = signer.clock()
): Promise<{ token: string; jti: string; exp: number }> {
	const iat = Math.floor(now / 1000);
	const exp = iat + ttlSeconds;
	const jti = input.jti ?? newId();
	const token = await new SignJWT({ ...input, jti })
		.setProtectedHeader({ alg: 'HS256', typ: TYP[kind] })
		.setIssuedAt(iat)
		.setExpirationTime(exp)
		.sign(await signer.signingKey());
	return { token, jti, exp };
}

async function verify<K extends Kind>(
	signer: Signer,
	kind: K,
	token: string,
	now = signer.clock()
): Promise<Verified<ClaimsOf<K>>> {
	if (!token || token.length > 4096) return { ok: false, reason: 'invalid' };
	try {
		const { payload } = await jwtVerify(token, await signer.signingKey(), {
			algorithms: ['HS256'],
			typ: TYP[kind],
			currentDate: new Date(now)
		});
		const parsed = schemas[kind].safeParse(payload);
		return parsed.success
			? { ok: true, claims: parsed.data as ClaimsOf<K> }
			: { ok: false, reason: 'invalid' };
	} catch (e) {
		return { ok: false, reason: e instanceof errors.JWTExpired ? 'expired' : 'invalid' };
	}
}

/** How long a consent page may stay open before its decision is refused. */
export const TICKET_TTL = 600;

export const signTicket = (s: Signer, c: Input<'ticket'>, now?: number) =>
	sign(s, 'ticket', c, TICKET_TTL, now);
export const verifyTicket = (s: Signer, token: string, now?: number) =>
	verify(s, 'ticket', token, now);

export const signCode = (s: Signer, c: Input<'code'>, ttl: number, now?: number) =>
	sign(s, 'code', c, ttl, now);
export const verifyCode = (s: Signer, token: string, now?: number) => verify(s, 'code', token, now);

export const signRefreshToken = (s: Signer, c: Input<'refresh'>, ttl: number, now?: number) =>
	sign(s, 'refresh', c, ttl, now);
export const verifyRefreshToken = (s: Signer, token: string, now?: number) =>
	verify(s, 'refresh', token, now);

export const signAccessToken = (s: Signer, c: Input<'access'>, ttl: number, now?: number) =>
	sign(s, 'access', c, ttl, now);
export const verifyAccessToken = (s: Signer, token: string, now?: number) =>
	verify(s, 'access', token, now);
