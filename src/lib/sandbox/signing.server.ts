/**
 * The sandbox's self-contained credentials, all HS256 JWTs signed with `sandboxKey()`, a key derived
 * from the session key (the one thing the sandbox shares with the playground, `$lib/keys.server`):
 * - the consent decision ticket (hidden in the consent form, binds the decision to the checked request);
 * - the authorization code (RFC 6749 §4.1.2);
 * - the refresh token (§6) and the access token (RFC 9068 shape, `typ: at+jwt`).
 * Each kind has its own `typ` header, so one kind can never be passed off as another.
 * Because the key comes from PLAYGROUND_SESSION_KEY, a restart keeps their signatures valid. The
 * ticket, the code and the refresh token also carry `gen`, the generation of the store that
 * remembers their use (store.server.ts): redeemed under another generation, they are refused.
 */
import { SignJWT, jwtVerify, errors } from 'jose';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { derivedKey, sessionKeys } from '$lib/keys.server';
import { config } from '$lib/env.server';

const TYP = {
	ticket: 'sandbox-ticket+jwt',
	code: 'sandbox-code+jwt',
	refresh: 'sandbox-refresh+jwt',
	access: 'at+jwt'
} as const;

type Kind = keyof typeof TYP;

/** The sandbox's signing key. The purpose string is part of the key: changing it voids every token. */
function sandboxKey(): Uint8Array {
	return derivedKey(sessionKeys(config().sessionKeys), 'sandbox signing key v1');
}

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
		gen
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

export type TicketClaims = z.infer<typeof schemas.ticket>;
export type CodeClaims = z.infer<typeof schemas.code>;
export type RefreshClaims = z.infer<typeof schemas.refresh>;
export type AccessClaims = z.infer<typeof schemas.access>;
type ClaimsOf<K extends Kind> = z.infer<(typeof schemas)[K]>;
type Input<K extends Kind> = Omit<ClaimsOf<K>, 'jti' | 'exp' | 'iat'> & { jti?: string };

export type Verified<T> = { ok: true; claims: T } | { ok: false; reason: 'expired' | 'invalid' };

// Imported once: jose would otherwise import the raw key into WebCrypto on every sign and verify.
// eslint-disable-next-line no-restricted-syntax -- left to move into the app's sandbox
let key: Promise<CryptoKey> | undefined;
function signingKey(): Promise<CryptoKey> {
	return (key ??= crypto.subtle.importKey(
		'raw',
		sandboxKey() as Uint8Array<ArrayBuffer>,
		{ name: 'HMAC', hash: 'SHA-256' },
		false,
		['sign', 'verify']
	));
}

/** A random identifier (jti, family id): 128 bits, base64url. */
export function newId(): string {
	return randomBytes(16).toString('base64url');
}

async function sign<K extends Kind>(
	kind: K,
	input: Input<K>,
	ttlSeconds: number,
	now = Date.now()
): Promise<{ token: string; jti: string; exp: number }> {
	const iat = Math.floor(now / 1000);
	const exp = iat + ttlSeconds;
	const jti = input.jti ?? newId();
	const token = await new SignJWT({ ...input, jti })
		.setProtectedHeader({ alg: 'HS256', typ: TYP[kind] })
		.setIssuedAt(iat)
		.setExpirationTime(exp)
		.sign(await signingKey());
	return { token, jti, exp };
}

async function verify<K extends Kind>(
	kind: K,
	token: string,
	now = Date.now()
): Promise<Verified<ClaimsOf<K>>> {
	if (!token || token.length > 4096) return { ok: false, reason: 'invalid' };
	try {
		const { payload } = await jwtVerify(token, await signingKey(), {
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

export const signTicket = (c: Input<'ticket'>, now?: number) => sign('ticket', c, TICKET_TTL, now);
export const verifyTicket = (token: string, now?: number) => verify('ticket', token, now);

export const signCode = (c: Input<'code'>, ttl: number, now?: number) => sign('code', c, ttl, now);
export const verifyCode = (token: string, now?: number) => verify('code', token, now);

export const signRefreshToken = (c: Input<'refresh'>, ttl: number, now?: number) =>
	sign('refresh', c, ttl, now);
export const verifyRefreshToken = (token: string, now?: number) => verify('refresh', token, now);

export const signAccessToken = (c: Input<'access'>, ttl: number, now?: number) =>
	sign('access', c, ttl, now);
export const verifyAccessToken = (token: string, now?: number) => verify('access', token, now);
