import { describe, expect, test, vi } from 'vitest';
import { parseConfig } from '$lib/config.server.js';

async function freshModules(key: string) {
	vi.resetModules();
	const { useConfig } = await import('$lib/env.server');
	useConfig(parseConfig({ PLAYGROUND_SESSION_KEY: key }));
	return import('$lib/server/session');
}

describe('sealed session', () => {
	test('round-trips, and the sealed text shows nothing of the secret', async () => {
		const { seal, open } = await freshModules('unit-key-one');
		const sealed = await seal({ v: 1, client_secret: 'very-secret-value' });
		expect(sealed).not.toContain('very-secret-value');
		expect(sealed.split('.')).toHaveLength(5); // compact JWE
		const opened = await open(sealed);
		expect(opened).toEqual({ ok: true, session: { v: 1, client_secret: 'very-secret-value' } });
	});

	test('a tampered cookie is no session, with a reason', async () => {
		const { seal, open } = await freshModules('unit-key-one');
		const sealed = await seal({ v: 1 });
		const parts = sealed.split('.');
		parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith('AA') ? 'BB' : 'AA');
		const opened = await open(parts.join('.'));
		expect(opened.ok).toBe(false);
		if (!opened.ok) expect(opened.reason).toMatch(/could not be read/);
		expect((await open('not-a-jwe')).ok).toBe(false);
	});

	test('a cookie sealed with another key is no session', async () => {
		const a = await freshModules('unit-key-one');
		const sealed = await a.seal({ v: 1 });
		const b = await freshModules('unit-key-two');
		expect((await b.open(sealed)).ok).toBe(false);
	});

	test('key rotation: old keys listed after the new one still open', async () => {
		const a = await freshModules('unit-key-old');
		const sealed = await a.seal({ v: 1, client_secret: 'x' });
		const b = await freshModules('unit-key-new,unit-key-old');
		expect(await b.open(sealed)).toMatchObject({ ok: true, session: { client_secret: 'x' } });
		const resealed = await b.seal({ v: 1 });
		const c = await freshModules('unit-key-new');
		expect((await c.open(resealed)).ok).toBe(true);
	});
});

describe('keys', () => {
	test('a 43-character base64url key is used as its 32 bytes; anything else is hashed', async () => {
		const { parseKey } = await import('$lib/keys.server');
		const raw = Buffer.alloc(32, 7).toString('base64url');
		expect(Buffer.from(parseKey(raw)).equals(Buffer.alloc(32, 7))).toBe(true);
		expect(parseKey('short')).toHaveLength(32);
		expect(Buffer.from(parseKey('short')).equals(Buffer.from(parseKey('other')))).toBe(false);
	});
	test('an empty key list is an error', () => {
		expect(() => parseConfig({ PLAYGROUND_SESSION_KEY: ' , ' })).toThrow(
			'PLAYGROUND_SESSION_KEY is set but holds no key'
		);
	});
});
