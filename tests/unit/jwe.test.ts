import { expect, test } from 'vitest';
import { CompactEncrypt, compactDecrypt } from 'jose';
import { openJwe, sealJwe } from '$lib/server/session/jwe';

const key = new Uint8Array(32).map((_, i) => i * 7);
const other = new Uint8Array(32).fill(1);
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);

test('what it seals, jose opens', async () => {
	const token = sealJwe(new TextEncoder().encode('{"v":1,"secret":"x"}'), key);
	expect(token.split('.')).toHaveLength(5);
	const { plaintext, protectedHeader } = await compactDecrypt(token, key);
	expect(new TextDecoder().decode(plaintext)).toBe('{"v":1,"secret":"x"}');
	expect(protectedHeader).toEqual({ alg: 'dir', enc: 'A256GCM' });
});

test('what jose seals, it opens', async () => {
	const token = await new CompactEncrypt(new TextEncoder().encode('héllo'))
		.setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: 'k1' })
		.encrypt(key);
	expect(text(openJwe(token, key))).toBe('héllo');
});

test('each seal uses a fresh IV', () => {
	const a = sealJwe(new Uint8Array([1, 2, 3]), key);
	const b = sealJwe(new Uint8Array([1, 2, 3]), key);
	expect(a.split('.')[2]).not.toBe(b.split('.')[2]);
	expect(a).not.toBe(b);
});

test('a wrong key, a changed byte anywhere, or another algorithm: nothing opens', async () => {
	const token = sealJwe(new TextEncoder().encode('payload'), key);
	expect(openJwe(token, other)).toBeUndefined();
	const parts = token.split('.');
	for (const i of [0, 2, 3, 4]) {
		const p = [...parts];
		const s = p[i]!;
		p[i] = s.slice(0, -2) + (s.at(-2) === 'A' ? 'B' : 'A') + s.at(-1);
		expect(openJwe(p.join('.'), key), `part ${i}`).toBeUndefined();
	}
	const cbc = await new CompactEncrypt(new TextEncoder().encode('x'))
		.setProtectedHeader({ alg: 'dir', enc: 'A256CBC-HS512' })
		.encrypt(new Uint8Array(64));
	expect(openJwe(cbc, key)).toBeUndefined();
	for (const junk of ['', 'a.b.c', '....', 'a..b.c.d', token + '.x', token.replace('..', '.AAAA.')])
		expect(openJwe(junk, key)).toBeUndefined();
});
