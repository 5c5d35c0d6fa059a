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
import { parseConfig } from '$lib/config.server.js';
import { useConfig } from '$lib/env.server';

// The signing key is derived from this.
useConfig(
	parseConfig({
		PLAYGROUND_SESSION_KEY: Buffer.alloc(32, 'unit-test-sandbox-signing-key').toString('base64url')
	})
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
		const { token, jti, exp } = await signCode(code, 60, now);
		expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'sandbox-code+jwt' });
		expect(exp).toBe(now / 1000 + 60);
		const v = await verifyCode(token, now + 59_000);
		expect(v).toEqual({ ok: true, claims: { ...code, jti, iat: now / 1000, exp } });
	});

	it('reports an expired code as expired', async () => {
		const now = Date.UTC(2025, 0, 1);
		const { token } = await signCode(code, 60, now);
		expect(await verifyCode(token, now + 60_000)).toEqual({ ok: false, reason: 'expired' });
	});

	it('refuses a tampered token and one signed with another key', async () => {
		const { token } = await signCode(code, 60);
		const [h, p, s] = token.split('.');
		const forgedPayload = Buffer.from(
			JSON.stringify({ ...decodeJwt(token), scope: 'read write', client_id: 'sandbox-ro' })
		).toString('base64url');
		expect(await verifyCode(`${h}.${forgedPayload}.${s}`)).toEqual({
			ok: false,
			reason: 'invalid'
		});
		expect(await verifyCode(`${h}.${p}.${s!.slice(0, -2)}AA`)).toEqual({
			ok: false,
			reason: 'invalid'
		});
		const foreign = await new SignJWT({ ...code, jti: 'x' })
			.setProtectedHeader({ alg: 'HS256', typ: 'sandbox-code+jwt' })
			.setIssuedAt()
			.setExpirationTime('1m')
			.sign(new TextEncoder().encode('another key, not the sandbox one, 32+ bytes long'));
		expect(await verifyCode(foreign)).toEqual({ ok: false, reason: 'invalid' });
		expect(await verifyCode('')).toEqual({ ok: false, reason: 'invalid' });
		expect(await verifyCode('not.a.jwt')).toEqual({ ok: false, reason: 'invalid' });
	});

	it('never accepts one kind of credential as another', async () => {
		const c = (await signCode(code, 60)).token;
		const t = (
			await signTicket({
				client_id: 'sandbox-rw',
				redirect_uri: code.redirect_uri,
				scope: 'read',
				state: 's',
				gen: 'g'
			})
		).token;
		const r = (
			await signRefreshToken({ client_id: 'sandbox-rw', scope: 'read', fam: 'f', gen: 'g' }, 60)
		).token;
		const a = (
			await signAccessToken(
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
		expect((await verifyTicket(c)).ok).toBe(false);
		expect((await verifyTicket(t)).ok).toBe(true);
		expect((await verifyCode(t)).ok).toBe(false);
		expect((await verifyRefreshToken(a)).ok).toBe(false);
		expect((await verifyRefreshToken(r)).ok).toBe(true);
		expect((await verifyAccessToken(r)).ok).toBe(false);
		expect((await verifyAccessToken(c)).ok).toBe(false);
		expect((await verifyAccessToken(a)).ok).toBe(true);
	});

	it('puts the RFC 9068 claims in the access token', async () => {
		const now = Date.UTC(2025, 0, 1);
		const { token } = await signAccessToken(
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
