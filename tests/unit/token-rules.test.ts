import { describe, expect, test } from 'vitest';
import { FORM_CONTENT_TYPE, parseTokenBody } from '$lib/oauth/token-endpoint';
import {
	EXPIRY_SKEW_MS,
	clockState,
	formatRemaining,
	fromResponse,
	isExpired,
	remainingMs,
	sameScope,
	scopeTokens,
	type TokenSet
} from '$lib/oauth/token-set';

const GOOD = { access_token: 'a', token_type: 'Bearer', expires_in: 60, refresh_token: 'r' };
const parse = (body: unknown, status = 200) =>
	parseTokenBody(status, typeof body === 'string' ? body : JSON.stringify(body));

describe('parseTokenBody', () => {
	test('token requests are sent as a form', () => {
		expect(FORM_CONTENT_TYPE).toBe('application/x-www-form-urlencoded');
	});
	test('any 2xx with the token fields is usable; the tokens come back as sent, extras apart', () => {
		for (const status of [200, 201, 299]) {
			const r = parse({ ...GOOD, scope: 'read', id_token: 'i', n: 1 }, status);
			expect(r).toEqual({
				ok: true,
				tokens: { ...GOOD, scope: 'read', id_token: 'i', n: 1 },
				extra: { id_token: 'i', n: 1 }
			});
		}
		expect(parse({ access_token: 'a', token_type: 'x' })).toEqual({
			ok: true,
			tokens: { access_token: 'a', token_type: 'x' },
			extra: {}
		});
	});
	test('outside 2xx, even the token fields are read as an error answer', () => {
		for (const status of [199, 300, 400, 500]) {
			const r = parse(GOOD, status);
			expect(r.ok).toBe(false);
			expect(r.ok === false && r.error).toBeUndefined();
		}
		const e = parse({ error: 'invalid_grant', error_description: 'd', error_uri: 'u' }, 400);
		expect(e).toMatchObject({
			ok: false,
			error: { error: 'invalid_grant', error_description: 'd', error_uri: 'u' }
		});
	});
	test('a 2xx carrying an error member is an error answer', () => {
		expect(parse({ ...GOOD, error: 'server_error' })).toMatchObject({
			ok: false,
			error: { error: 'server_error' }
		});
		const noString = parse({ ...GOOD, error: 5 });
		expect(noString.ok).toBe(false);
		expect(noString.ok === false && noString.error).toBeUndefined();
	});
	test('expires_in as a string of digits is taken as a number; any other string is not usable', () => {
		expect(parse({ ...GOOD, expires_in: '3600' })).toMatchObject({
			ok: true,
			tokens: { expires_in: 3600 }
		});
		for (const v of ['', '6.5', '60s', 'x60', ' 60', '-1'])
			expect(parse({ ...GOOD, expires_in: v }).ok, v).toBe(false);
		expect(parse({ ...GOOD, expires_in: 1.5 }).ok).toBe(false);
		expect(parse({ ...GOOD, expires_in: undefined })).toMatchObject({ ok: true });
	});
	test('what §2.3 promises must hold: a non-empty access_token, a token_type, string scope and refresh_token', () => {
		for (const bad of [
			{ ...GOOD, access_token: '' },
			{ ...GOOD, token_type: undefined },
			{ ...GOOD, refresh_token: '' },
			{ ...GOOD, scope: 1 },
			'[]',
			'null',
			'"token"',
			'7'
		])
			expect(parse(bad).ok, JSON.stringify(bad)).toBe(false);
		expect(parse('not json').ok).toBe(false);
		expect(parse('').ok).toBe(false);
	});
});

describe('scope words', () => {
	test('split on any white space, empties dropped', () => {
		expect(scopeTokens(undefined)).toEqual([]);
		expect(scopeTokens('')).toEqual([]);
		expect(scopeTokens('  read \t write\n')).toEqual(['read', 'write']);
	});
	test('compared as sets', () => {
		expect(sameScope(undefined, '')).toBe(true);
		expect(sameScope('read read', 'read')).toBe(true);
		expect(sameScope('read other', 'read write')).toBe(false);
		expect(sameScope('read', undefined)).toBe(false);
	});
});

describe('the token set', () => {
	const now = 1_700_000_000_000;
	test('the first set: no refresh record, scope and tokens as sent, expiry from expires_in', () => {
		const t = fromResponse({ ...GOOD, scope: 'read' }, { x: 1 }, 'read write', now);
		expect(t).toEqual({
			access_token: 'a',
			token_type: 'Bearer',
			refresh_token: 'r',
			expires_in: 60,
			obtained_at: now,
			expires_at: now + 60_000,
			granted_scope: 'read',
			requested_scope: 'read write',
			extra: { x: 1 }
		});
		expect(fromResponse({ ...GOOD, expires_in: 0 }, {}, '', now).expires_at).toBe(now);
		const bare = fromResponse({ access_token: 'a', token_type: 'Bearer' }, {}, '', now);
		expect(bare.expires_at).toBeUndefined();
		expect(bare.expires_in).toBeUndefined();
		expect(bare.refresh_token).toBeUndefined();
		expect(bare.granted_scope).toBeUndefined();
	});
	test('a refresh keeps what the answer leaves out, and records whether the refresh token rotated', () => {
		const first = fromResponse({ ...GOOD, scope: 'read' }, {}, 'read', now);
		const same = fromResponse({ ...GOOD, access_token: 'b' }, {}, 'read', now + 1, first);
		expect(same.granted_scope).toBe('read');
		expect(same.refresh).toEqual({ rotated: false, kept_old: false });
		const rotated = fromResponse(
			{ ...GOOD, refresh_token: 'r2', scope: 'x' },
			{},
			'read',
			0,
			first
		);
		expect(rotated.refresh).toEqual({ rotated: true, kept_old: false });
		expect(rotated.granted_scope).toBe('x');
		expect(rotated.refresh_token).toBe('r2');
	});
});

describe('expiry', () => {
	const set = (
		obtained_at: number,
		expires_at?: number
	): Pick<TokenSet, 'obtained_at' | 'expires_at'> => ({
		obtained_at,
		expires_at
	});
	test('a long-lived token counts as expired from 5 s before its moment', () => {
		const t = set(0, 3_600_000);
		expect(EXPIRY_SKEW_MS).toBe(5_000);
		expect(isExpired(t, 3_600_000 - 5_001)).toBe(false);
		expect(isExpired(t, 3_600_000 - 5_000)).toBe(true);
		expect(isExpired(t, 3_600_000 - 1_000, 1_000)).toBe(true);
		expect(isExpired(t, 3_600_000 - 1_001, 1_000)).toBe(false);
	});
	test('a short-lived token, from a tenth of its lifetime before', () => {
		const t = set(0, 20_000);
		expect(isExpired(t, 17_999)).toBe(false);
		expect(isExpired(t, 18_000)).toBe(true);
	});
	test('no expiry is never expired; an expiry before issue has no skew', () => {
		expect(isExpired(set(0), Number.MAX_SAFE_INTEGER)).toBe(false);
		expect(isExpired(set(10_000, 5_000), 4_999)).toBe(false);
		expect(isExpired(set(10_000, 5_000), 5_000)).toBe(true);
	});
	test('remaining time', () => {
		expect(remainingMs(set(0), 5)).toBeUndefined();
		expect(remainingMs(set(0, 5_000), 1_000)).toBe(4_000);
		expect(remainingMs(set(0, 5_000), 6_000)).toBe(-1_000);
	});
	test('remaining time in words, whole units rounded down', () => {
		expect(formatRemaining(0)).toBe('0 s');
		expect(formatRemaining(59_999)).toBe('59 s');
		expect(formatRemaining(60_000)).toBe('1 min 00 s');
		expect(formatRemaining(3_599_999)).toBe('59 min 59 s');
		expect(formatRemaining(3_600_000)).toBe('1 h 00 min');
		expect(formatRemaining(36_000_000 + 600_000)).toBe('10 h 10 min');
		expect(formatRemaining(-1)).toBe('expired 0 s ago');
		expect(formatRemaining(-61_000)).toBe('expired 1 min 01 s ago');
	});
	test('the clock: amber strictly inside the last tenth, red from the moment on', () => {
		const t = set(0, 100_000);
		expect(clockState(t, 90_000)).toBe('valid');
		expect(clockState(t, 90_001)).toBe('soon');
		expect(clockState(t, 99_999)).toBe('soon');
		expect(clockState(t, 100_000)).toBe('expired');
		expect(clockState(t, 100_001)).toBe('expired');
		expect(clockState(set(50_000, 100_000), 94_999)).toBe('valid');
		expect(clockState(set(50_000, 100_000), 95_001)).toBe('soon');
	});
});
