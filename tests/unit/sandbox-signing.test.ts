import { describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import {
	newId,
	signAccessToken,
	signCode,
	signRefreshToken,
	signTicket,
	verifyAccessToken,
	verifyCode,
	verifyRefreshToken,
	verifyTicket
} from '$lib/sandbox/signing.server';
import { testClock, testSandbox } from './test-app';

const clock = testClock(Date.UTC(2025, 0, 1));
// The signing key is derived from this session key.
const sb = testSandbox(
	{
		PLAYGROUND_SESSION_KEY: Buffer.alloc(32, 'unit-test-sandbox-signing-key').toString('base64url')
	},
	clock
);

const code = {
	client_id: 'sandbox-rw',
	redirect_uri: 'http://127.0.0.1:5173/callback',
	scope: 'read write' as const,
	fam: 'fam-1',
	gen: 'generation-1'
};

describe('sandbox signed codes and tokens', () => {
	it('signs and verifies an authorization code with its claims', async () => {
		const now = Date.UTC(2025, 0, 1);
		clock.set(now);
		const { token, jti, exp } = await signCode(sb, code, 60);
		expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'sandbox-code+jwt' });
		expect(exp).toBe(now / 1000 + 60);
		clock.set(now + 59_000);
		const v = await verifyCode(sb, token);
		expect(v).toEqual({ ok: true, claims: { ...code, jti, iat: now / 1000, exp } });
	});

	it('reports an expired code as expired', async () => {
		const now = Date.UTC(2025, 0, 1);
		clock.set(now);
		const { token } = await signCode(sb, code, 60);
		clock.set(now + 60_000);
		expect(await verifyCode(sb, token)).toEqual({ ok: false, reason: 'expired' });
	});

	it('refuses a tampered token and one signed with another key', async () => {
		const { token } = await signCode(sb, code, 60);
		const [h, p, s] = token.split('.');
		const forgedPayload = Buffer.from(
			JSON.stringify({ ...decodeJwt(token), scope: 'read write', client_id: 'sandbox-ro' })
		).toString('base64url');
		expect(await verifyCode(sb, `${h}.${forgedPayload}.${s}`)).toEqual({
			ok: false,
			reason: 'invalid'
		});
		// The signature's first character carries six whole bits of it (its last one only four, so
		// writing over the end can give the same bytes back): a different one is a different signature.
		const tampered = `${s![0] === 'A' ? 'B' : 'A'}${s!.slice(1)}`;
		expect(await verifyCode(sb, `${h}.${p}.${tampered}`)).toEqual({
			ok: false,
			reason: 'invalid'
		});
		const foreign = await new SignJWT({ ...code, jti: 'x' })
			.setProtectedHeader({ alg: 'HS256', typ: 'sandbox-code+jwt' })
			.setIssuedAt()
			.setExpirationTime('1m')
			.sign(new TextEncoder().encode('another key, not the sandbox one, 32+ bytes long'));
		expect(await verifyCode(sb, foreign)).toEqual({ ok: false, reason: 'invalid' });
		expect(await verifyCode(sb, '')).toEqual({ ok: false, reason: 'invalid' });
		expect(await verifyCode(sb, 'not.a.jwt')).toEqual({ ok: false, reason: 'invalid' });
	});

	it('never accepts one kind of credential as another', async () => {
		const c = (await signCode(sb, code, 60)).token;
		const t = (
			await signTicket(sb, {
				client_id: 'sandbox-rw',
				redirect_uri: code.redirect_uri,
				scope: 'read',
				state: 's',
				gen: 'g'
			})
		).token;
		const r = (
			await signRefreshToken(sb, { client_id: 'sandbox-rw', scope: 'read', fam: 'f', gen: 'g' }, 60)
		).token;
		const a = (
			await signAccessToken(
				sb,
				{
					iss: 'x/sandbox',
					sub: '1001',
					aud: 'sandbox-rw',
					client_id: 'sandbox-rw',
					scope: 'read',
					fam: 'f'
				},
				60
			)
		).token;
		expect((await verifyTicket(sb, c)).ok).toBe(false);
		expect((await verifyTicket(sb, t)).ok).toBe(true);
		expect((await verifyCode(sb, t)).ok).toBe(false);
		expect((await verifyRefreshToken(sb, a)).ok).toBe(false);
		expect((await verifyRefreshToken(sb, r)).ok).toBe(true);
		expect((await verifyAccessToken(sb, r)).ok).toBe(false);
		expect((await verifyAccessToken(sb, c)).ok).toBe(false);
		expect((await verifyAccessToken(sb, a)).ok).toBe(true);
	});

	it('puts the RFC 9068 claims in the access token', async () => {
		const now = Date.UTC(2025, 0, 1);
		const { token } = await signAccessToken(
			sb,
			{
				iss: 'http://127.0.0.1:5173/sandbox',
				sub: '1001',
				aud: 'sandbox-rw',
				client_id: 'sandbox-rw',
				scope: 'read',
				fam: 'f'
			},
			5,
			now
		);
		expect(decodeProtectedHeader(token).typ).toBe('at+jwt');
		const claims = decodeJwt(token);
		expect(claims).toMatchObject({
			iss: 'http://127.0.0.1:5173/sandbox',
			sub: '1001',
			aud: 'sandbox-rw',
			client_id: 'sandbox-rw',
			scope: 'read',
			fam: 'f'
		});
		expect(claims.exp! - claims.iat!).toBe(5);
		expect(typeof claims.jti).toBe('string');
	});

	it('makes random, unique ids', () => {
		const ids = new Set(Array.from({ length: 100 }, () => newId()));
		expect(ids.size).toBe(100);
		for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
	});
});
