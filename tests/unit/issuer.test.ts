/**
 * The `iss` check of RFC 9207 (oauth/issuer.ts): the expected issuer, the exact comparison, the
 * origin rule when no issuer is known, and what stops the flow. Each attack it stops is named.
 */
import { describe, expect, test } from 'vitest';
import { checkIssuer, expectedIssuer, issuerStops, MIX_UP_EXPLAINED } from '$lib/oauth/issuer';
import { issuerFinding } from '$lib/oauth/issuer-finding';

const AUTH = 'https://auth.reader.test/oauth2/auth?x=1';
const fromSetup = (issuer: string) => expectedIssuer(issuer);

describe('expectedIssuer', () => {
	test('the metadata issuer wins over the setup field; the setup field is used without it', () => {
		expect(expectedIssuer('https://a.test', { issuer: 'https://m.test' })).toEqual({
			issuer: 'https://m.test',
			from: 'metadata'
		});
		expect(expectedIssuer('https://a.test', {})).toEqual({
			issuer: 'https://a.test',
			from: 'setup'
		});
		expect(expectedIssuer('https://a.test')).toEqual({ issuer: 'https://a.test', from: 'setup' });
	});
	test('nothing known: no expected issuer (an empty field is none)', () => {
		expect(expectedIssuer('')).toBeUndefined();
		expect(expectedIssuer(undefined, { issuer: '' })).toBeUndefined();
	});
});

describe('checkIssuer with an expected issuer', () => {
	test('mix-up: an iss naming another server stops the flow', () => {
		const v = checkIssuer('https://evil.test', fromSetup('https://auth.reader.test'), AUTH);
		expect(v).toEqual({
			result: 'mismatch',
			expected: 'https://auth.reader.test',
			from: 'setup',
			returned: 'https://evil.test'
		});
		expect(issuerStops(v)).toBe(true);
	});
	test.each([
		['https://auth.reader.test/', 'a trailing slash'],
		['https://AUTH.reader.test', 'another case'],
		['https://auth.reader.test:443', 'a default port written out'],
		[' https://auth.reader.test', 'a leading space'],
		['', 'an empty iss']
	])('mix-up: %j is not the same issuer (%s): the comparison is exact, RFC 9207 §2.4', (iss) => {
		const v = checkIssuer(iss, fromSetup('https://auth.reader.test'), AUTH);
		expect(v.result).toBe('mismatch');
		expect(issuerStops(v)).toBe(true);
	});
	test('the same string is a match, whatever the authorization endpoint', () => {
		const v = checkIssuer('https://id.other.test/t', fromSetup('https://id.other.test/t'), AUTH);
		expect(v).toMatchObject({ result: 'match', returned: 'https://id.other.test/t' });
		expect(issuerStops(v)).toBe(false);
	});
	test('no iss sent: noted, and it stops only when the metadata says the server sends it', () => {
		const loose = checkIssuer(undefined, fromSetup('https://auth.reader.test'), AUTH);
		expect(loose).toEqual({
			result: 'not-sent',
			expected: 'https://auth.reader.test',
			from: 'setup',
			required: false
		});
		expect(issuerStops(loose)).toBe(false);
		const meta = {
			issuer: 'https://auth.reader.test',
			authorization_response_iss_parameter_supported: true
		};
		const strict = checkIssuer(undefined, expectedIssuer('', meta), AUTH, meta);
		expect(strict).toMatchObject({ result: 'not-sent', required: true, from: 'metadata' });
		expect(issuerStops(strict)).toBe(true);
	});
});

describe('checkIssuer with no issuer known', () => {
	test('an iss on the authorization endpoint’s origin is shown, not checked', () => {
		const v = checkIssuer('https://auth.reader.test/tenant', undefined, AUTH);
		expect(v).toEqual({ result: 'not-checked', returned: 'https://auth.reader.test/tenant' });
		expect(issuerStops(v)).toBe(false);
	});
	test.each([
		['https://evil.test', 'another host'],
		['http://auth.reader.test', 'another scheme'],
		['https://auth.reader.test:8443', 'another port'],
		['auth.reader.test', 'not a URL']
	])('mix-up: an iss of %j (%s) stops the flow', (iss) => {
		const v = checkIssuer(iss, undefined, AUTH);
		expect(v).toEqual({
			result: 'origin-mismatch',
			returned: iss,
			authorization_origin: 'https://auth.reader.test'
		});
		expect(issuerStops(v)).toBe(true);
	});
	test('no iss and no issuer: nothing to say', () => {
		const v = checkIssuer(undefined, undefined, AUTH);
		expect(v).toEqual({ result: 'not-sent', required: false });
		expect(issuerStops(v)).toBe(false);
		expect(issuerFinding(v)).toBeUndefined();
	});
	test('nothing to check stops nothing', () => {
		expect(issuerStops(undefined)).toBe(false);
	});
});

describe('issuerFinding', () => {
	test('a mismatch is an error that says what was expected, what came back, and that the code was not exchanged', () => {
		const f = issuerFinding(checkIssuer('https://evil.test', fromSetup('https://a.test'), AUTH))!;
		expect(f).toMatchObject({ level: 'error', code: 'issuer-mismatch', ref: 'RFC 9207 §2.4' });
		expect(f.message).toContain('"https://a.test"');
		expect(f.message).toContain('"https://evil.test"');
		expect(f.message).toMatch(/mix-up/);
		expect(f.message).toMatch(/not exchanged/);
		expect(f.fix).toContain(MIX_UP_EXPLAINED);
		expect(f.fix).toMatch(/Exchange anyway/);
	});
	test('another origin with no issuer known is the same error, naming both origins', () => {
		const f = issuerFinding(checkIssuer('https://evil.test/x', undefined, AUTH))!;
		expect(f).toMatchObject({ level: 'error', code: 'issuer-mismatch' });
		expect(f.message).toContain('https://auth.reader.test');
		expect(f.message).toContain('"https://evil.test/x"');
	});
	test('the rest are notes: match, not checked, not sent', () => {
		expect(
			issuerFinding(checkIssuer('https://a.test', fromSetup('https://a.test'), AUTH))
		).toMatchObject({ level: 'info', code: 'issuer-ok' });
		const unchecked = issuerFinding(checkIssuer('https://auth.reader.test', undefined, AUTH))!;
		expect(unchecked).toMatchObject({ level: 'info', code: 'issuer-not-checked' });
		expect(unchecked.message).toContain('not checked, no issuer known');
		expect(issuerFinding(checkIssuer(undefined, fromSetup('https://a.test'), AUTH))).toMatchObject({
			level: 'info',
			code: 'issuer-not-sent'
		});
		const meta = { issuer: 'https://a.test', authorization_response_iss_parameter_supported: true };
		expect(
			issuerFinding(checkIssuer(undefined, expectedIssuer('', meta), AUTH, meta))
		).toMatchObject({
			level: 'error',
			code: 'issuer-mismatch'
		});
	});
});
