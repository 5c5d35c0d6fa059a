import { describe, expect, test } from 'vitest';
import { exchangeBody, parseTokenBody, refreshBody } from '$lib/oauth/token-endpoint';
import {
	clockState,
	formatRemaining,
	fromResponse,
	isExpired,
	sameScope
} from '$lib/oauth/token-set';

describe('token request bodies (the service’s API docs §4.2, §4.3)', () => {
	test('the exchange body has the seed fields in order, scope sent empty', () => {
		const body = exchangeBody({
			code: 'c/1',
			redirect_uri: 'http://x/cb',
			client_id: 'id',
			client_secret: 's&='
		});
		expect(body).toBe(
			'code=c%2F1&redirect_uri=http%3A%2F%2Fx%2Fcb&client_id=id&client_secret=s%26%3D&scope=&grant_type=authorization_code'
		);
	});
	test('the refresh body has the seed fields in order', () => {
		expect(refreshBody({ client_id: 'id', client_secret: 's', refresh_token: 'r+1' })).toBe(
			'client_id=id&client_secret=s&grant_type=refresh_token&refresh_token=r%2B1'
		);
	});
});

describe('parseTokenBody', () => {
	test('accepts the seed shape and keeps extra fields apart', () => {
		const r = parseTokenBody(
			200,
			JSON.stringify({
				access_token: 'a',
				token_type: 'Bearer',
				expires_in: 3600,
				refresh_token: 'r',
				scope: 'read',
				id_token: 'x'
			})
		);
		expect(r.ok).toBe(true);
		if (r.ok) {
			expect(r.tokens.access_token).toBe('a');
			expect(r.extra).toEqual({ id_token: 'x' });
		}
	});
	test('accepts expires_in as a numeric string', () => {
		const r = parseTokenBody(200, '{"access_token":"a","token_type":"bearer","expires_in":"60"}');
		expect(r.ok && r.tokens.expires_in).toBe(60);
	});
	test('an RFC 6749 §5.2 error object', () => {
		const r = parseTokenBody(400, '{"error":"invalid_grant","error_description":"used"}');
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.error?.error).toBe('invalid_grant');
	});
	test('HTML is not JSON', () => {
		const r = parseTokenBody(200, '<html>oops</html>');
		expect(r).toMatchObject({ ok: false, problem: expect.stringMatching(/JSON/) });
	});
	test('a missing access_token is not usable', () => {
		expect(parseTokenBody(200, '{"token_type":"Bearer"}').ok).toBe(false);
	});
});

describe('the token set', () => {
	const now = 1_700_000_000_000;
	test('expiry is now + expires_in', () => {
		const t = fromResponse(
			{
				access_token: 'a',
				token_type: 'Bearer',
				expires_in: 60,
				refresh_token: 'r',
				scope: 'read'
			},
			{},
			'read',
			now
		);
		expect(t.expires_at).toBe(now + 60_000);
		expect(isExpired(t, now + 54_000)).toBe(false);
		expect(isExpired(t, now + 56_000)).toBe(true);
		const short = fromResponse(
			{ access_token: 'a', token_type: 'Bearer', expires_in: 5 },
			{},
			'read',
			now
		);
		expect(isExpired(short, now + 4_000)).toBe(false);
		expect(isExpired(short, now + 4_600)).toBe(true);
	});
	test('a refresh without refresh_token keeps the old one and says so', () => {
		const first = fromResponse(
			{ access_token: 'a', token_type: 'Bearer', expires_in: 60, refresh_token: 'r1' },
			{},
			'read',
			now
		);
		const second = fromResponse(
			{ access_token: 'b', token_type: 'Bearer', expires_in: 60 },
			{},
			'read',
			now + 1,
			first
		);
		expect(second.refresh_token).toBe('r1');
		expect(second.refresh).toEqual({ rotated: false, kept_old: true });
		const third = fromResponse(
			{ access_token: 'c', token_type: 'Bearer', refresh_token: 'r2' },
			{},
			'read',
			now + 2,
			second
		);
		expect(third.refresh).toEqual({ rotated: true, kept_old: false });
		expect(third.expires_at).toBeUndefined();
		expect(isExpired(third, now + 1e12)).toBe(false);
	});
	test('scopes compare as sets', () => {
		expect(sameScope('read write', 'write read')).toBe(true);
		expect(sameScope('read', 'read write')).toBe(false);
	});
	test('remaining time reads well', () => {
		expect(formatRemaining(3_725_000)).toBe('1 h 02 min');
		expect(formatRemaining(65_000)).toBe('1 min 05 s');
		expect(formatRemaining(-3_000)).toBe('expired 3 s ago');
	});
});

test('the token clock turns amber in the last 10% of the lifetime and red after it', () => {
	const t = { obtained_at: 0, expires_at: 100_000 };
	expect(clockState(t, 0)).toBe('valid');
	expect(clockState(t, 89_999)).toBe('valid');
	expect(clockState(t, 90_001)).toBe('soon');
	expect(clockState(t, 100_000)).toBe('expired');
	expect(clockState({ obtained_at: 0 }, 1)).toBe('unknown');
});
