import { describe, expect, test } from 'vitest';
import { parseConfig } from '$lib/config.server.js';
import { parseKey } from '$lib/keys.server';
import { createBase } from '$lib/base.server';
import type { Session } from '$lib/server/session/session';

/** 32-byte keys named by labels: `keys('new,old')` is two keys, comma-separated. */
const keys = (labels: string) =>
	labels
		.split(',')
		.map((l) => Buffer.alloc(32, l).toString('base64url'))
		.join(',');

/** Seal and open with the keys of an app configured with these labels' keys. */
async function freshModules(labels: string) {
	const m = await import('$lib/server/session/session');
	const ring = { ...createBase(parseConfig({ PLAYGROUND_SESSION_KEY: keys(labels) })) };
	return {
		seal: (session: Session, flow: string) => m.seal(session, flow, ring),
		open: (token: string, flow: string) => m.open(token, flow, ring)
	};
}

describe('sealed session', () => {
	test('round-trips, and the sealed text shows nothing of the secret', async () => {
		const { seal, open } = await freshModules('unit-key-one');
		const sealed = await seal({ v: 1, client_secret: 'very-secret-value' }, 'unitTestFlow-003');
		expect(sealed).not.toContain('very-secret-value');
		expect(sealed.split('.')).toHaveLength(5); // compact JWE
		const opened = await open(sealed, 'unitTestFlow-003');
		expect(opened).toEqual({ ok: true, session: { v: 1, client_secret: 'very-secret-value' } });
	});

	test('a tampered cookie is no session, with a reason', async () => {
		const { seal, open } = await freshModules('unit-key-one');
		const sealed = await seal({ v: 1 }, 'unitTestFlow-003');
		const parts = sealed.split('.');
		parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith('AA') ? 'BB' : 'AA');
		const opened = await open(parts.join('.'), 'unitTestFlow-003');
		expect(opened.ok).toBe(false);
		if (!opened.ok) expect(opened.reason).toMatch(/could not be read/);
		expect((await open('not-a-jwe', 'unitTestFlow-003')).ok).toBe(false);
	});

	test('a cookie sealed with another key is no session', async () => {
		const a = await freshModules('unit-key-one');
		const sealed = await a.seal({ v: 1 }, 'unitTestFlow-003');
		const b = await freshModules('unit-key-two');
		expect((await b.open(sealed, 'unitTestFlow-003')).ok).toBe(false);
	});

	test('key rotation: old keys listed after the new one still open', async () => {
		const a = await freshModules('unit-key-old');
		const sealed = await a.seal({ v: 1, client_secret: 'x' }, 'unitTestFlow-003');
		const b = await freshModules('unit-key-new,unit-key-old');
		expect(await b.open(sealed, 'unitTestFlow-003')).toMatchObject({
			ok: true,
			session: { client_secret: 'x' }
		});
		const resealed = await b.seal({ v: 1 }, 'unitTestFlow-003');
		const c = await freshModules('unit-key-new');
		expect((await c.open(resealed, 'unitTestFlow-003')).ok).toBe(true);
	});
});

describe('keys', () => {
	const KEY = Buffer.alloc(32, 7);
	const OPENSSL = 'Mb7At/iHwT/f90bD9sGOLUSwJ171hlshWZE3z/wLVo0='; // openssl rand -base64 32

	test('a 32-byte key in base64url or standard base64, padded or not, is used as its 32 bytes', () => {
		for (const text of [
			KEY.toString('base64url'),
			KEY.toString('base64'),
			` ${KEY.toString('base64')} `
		])
			expect(Buffer.from(parseKey(text)).equals(KEY), text).toBe(true);
		expect(Buffer.from(parseKey(OPENSSL)).equals(Buffer.from(OPENSSL, 'base64'))).toBe(true);
		const long = Buffer.alloc(64, 3);
		expect(parseKey(long.toString('base64'))).toHaveLength(32);
		expect(Buffer.from(parseKey(long.toString('base64'))).equals(long.subarray(0, 32))).toBe(false);
	});

	test('weak key: PLAYGROUND_SESSION_KEY=a (or any key under 32 bytes) is refused at start, naming the variable', () => {
		for (const short of ['a', 'short', Buffer.alloc(31, 1).toString('base64')])
			expect(() => parseConfig({ PLAYGROUND_SESSION_KEY: short }), short).toThrow(
				/PLAYGROUND_SESSION_KEY: the key is \d+ bytes?, at least 32 are needed; generate one with `openssl rand -base64 32`/
			);
		expect(() =>
			parseConfig({ PLAYGROUND_SESSION_KEY: 'a passphrase that is not base64 at all' })
		).toThrow('PLAYGROUND_SESSION_KEY: the key is not base64 or base64url');
		// A mix of both alphabets, bad padding, an impossible length.
		for (const bad of [
			`${OPENSSL.slice(0, 20)}-_${OPENSSL.slice(22)}`,
			`${OPENSSL}=`,
			`${OPENSSL.slice(0, -1)}AA`
		])
			expect(() => parseConfig({ PLAYGROUND_SESSION_KEY: bad }), bad).toThrow(/not base64/);
		expect(() =>
			parseConfig({ PLAYGROUND_SESSION_KEY: `${KEY.toString('base64')},old-and-short` })
		).toThrow('PLAYGROUND_SESSION_KEY: key 2 of 2 is');
		expect(() => parseKey('a')).toThrow(/at least 32 bytes/);
	});

	test('the message never quotes the key', () => {
		const secretish = 'hunter2hunter2';
		expect(() => parseConfig({ PLAYGROUND_SESSION_KEY: secretish })).toThrow(
			expect.objectContaining({ message: expect.not.stringContaining(secretish) })
		);
	});

	test('an empty key list is an error', () => {
		expect(() => parseConfig({ PLAYGROUND_SESSION_KEY: ' , ' })).toThrow(
			'PLAYGROUND_SESSION_KEY is set but holds no key'
		);
	});
});
