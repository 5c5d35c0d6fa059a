import { describe, expect, test } from 'vitest';
import { SignJWT } from 'jose';
import { decodeJwt, relativeTime } from '$lib/oauth/jwt';

const key = new TextEncoder().encode('a test key that is at least 32 bytes long');
const b64u = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

describe('decodeJwt', () => {
	test('decodes a real HS256 JWT: header, payload and its times', async () => {
		const token = await new SignJWT({ scope: 'read write', sub: 'user-1' })
			.setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
			.setIssuedAt(1_700_000_000)
			.setNotBefore(1_700_000_000)
			.setExpirationTime(1_700_003_600)
			.sign(key);
		const d = decodeJwt(token);
		expect(d.ok).toBe(true);
		if (!d.ok) return;
		expect(d.header).toEqual({ alg: 'HS256', typ: 'JWT' });
		expect(d.payload).toMatchObject({ scope: 'read write', sub: 'user-1', exp: 1_700_003_600 });
		expect(d.times).toEqual([
			{ name: 'exp', value: 1_700_003_600, date: '2023-11-14T23:13:20.000Z' },
			{ name: 'iat', value: 1_700_000_000, date: '2023-11-14T22:13:20.000Z' },
			{ name: 'nbf', value: 1_700_000_000, date: '2023-11-14T22:13:20.000Z' }
		]);
	});

	test('lists only the time claims that are usable numbers', () => {
		const token = `${b64u('{"alg":"HS256"}')}.${b64u('{"exp":"tomorrow","nbf":1e20,"iat":1000}')}.sig`;
		const d = decodeJwt(token);
		expect(d.ok && d.times).toEqual([
			{ name: 'iat', value: 1_000, date: '1970-01-01T00:16:40.000Z' }
		]);
	});

	test('ignores whitespace around the token', async () => {
		const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).sign(key);
		expect(decodeJwt(`  ${token}\n`).ok).toBe(true);
	});

	test.each([
		['an opaque token', 'x7Yq2mZ9pL0aB3cD4eF5gH6iJ'],
		['an empty string', ''],
		['garbage with dots', 'not.a.jwt'],
		['garbage in base64url', `${b64u('{"alg":"HS256"')}.${b64u('{}')}.sig`],
		['a payload that is not JSON', `${b64u('{"alg":"HS256"}')}.${b64u('hello, world')}.sig`],
		['a payload that is JSON but not an object', `${b64u('{"alg":"HS256"}')}.${b64u('[1,2]')}.sig`],
		['a header that is not JSON', `${b64u('alg=HS256')}.${b64u('{"sub":"a"}')}.sig`],
		['a JWE (five parts)', `${b64u('{"alg":"dir","enc":"A256GCM"}')}..iv.ciphertext.tag`],
		['two parts', `${b64u('{"alg":"HS256"}')}.${b64u('{}')}`]
	])('%s is not a JWT', (_name, token) => {
		expect(decodeJwt(token)).toEqual({ ok: false });
	});
});

describe('relativeTime', () => {
	const now = 1_700_000_000_000;
	test.each([
		[now + 59 * 60_000 + 30_000, 'in 59 min'],
		[now - 3_000, '3 s ago'],
		[now + 400, 'now'],
		[now - 59_999, '59 s ago'],
		[now + 60_000, 'in 1 min'],
		[now + 2 * 3600_000 + 5 * 60_000, 'in 2 h 5 min'],
		[now - 3600_000, '1 h ago'],
		[now + 30 * 86400_000, 'in 30 days']
	])('%d → %s', (at, text) => {
		expect(relativeTime(at, now)).toBe(text);
	});
});
