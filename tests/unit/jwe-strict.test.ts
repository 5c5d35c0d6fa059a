import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { openJwe, sealJwe } from '$lib/server/session/jwe';

const key = new Uint8Array(32).map((_, i) => 255 - i);
const payload = new TextEncoder().encode('{"v":1}');
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : undefined);
const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/**
 * A compact JWE whose ciphertext authenticates under `key` with the given protected header text
 * as AAD, whatever that header says: so only the header checks can refuse it.
 */
function craft(
	headerJson: string,
	opts: { ivLength?: number; tagLength?: number; iv?: Uint8Array } = {}
): string {
	const header = Buffer.from(headerJson).toString('base64url');
	const iv = opts.iv ?? randomBytes(opts.ivLength ?? 12);
	const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: opts.tagLength ?? 16 });
	cipher.setAAD(Buffer.from(header, 'ascii'));
	const ct = Buffer.concat([cipher.update(payload), cipher.final()]);
	return `${header}..${b64(iv)}.${b64(ct)}.${b64(cipher.getAuthTag())}`;
}

describe('openJwe refuses what it was not made for, even when the ciphertext authenticates', () => {
	test('the crafted tokens are otherwise good: a dir/A256GCM header opens, extra members allowed', () => {
		expect(text(openJwe(craft('{"alg":"dir","enc":"A256GCM"}'), key))).toBe('{"v":1}');
		expect(text(openJwe(craft('{"enc":"A256GCM","alg":"dir","kid":"k1"}'), key))).toBe('{"v":1}');
	});

	test.each([
		['not JSON', '{alg:dir}'],
		['JSON null', 'null'],
		['a number', '1'],
		['a string', '"dir"'],
		['an array', '["dir","A256GCM"]'],
		['no alg', '{"enc":"A256GCM"}'],
		['a key-wrapping alg', '{"alg":"A256KW","enc":"A256GCM"}'],
		['no enc', '{"alg":"dir"}'],
		['another enc', '{"alg":"dir","enc":"A128GCM"}'],
		['a crit member', '{"alg":"dir","enc":"A256GCM","crit":["exp"],"exp":1}'],
		['a zip member', '{"alg":"dir","enc":"A256GCM","zip":"DEF"}']
	])('a header that is %s', (_, header) => {
		expect(openJwe(craft(header), key)).toBeUndefined();
	});

	test('an IV other than 96 bits, or a tag shorter than 128 bits', () => {
		expect(openJwe(craft('{"alg":"dir","enc":"A256GCM"}', { ivLength: 16 }), key)).toBeUndefined();
		expect(openJwe(craft('{"alg":"dir","enc":"A256GCM"}', { ivLength: 8 }), key)).toBeUndefined();
		expect(openJwe(craft('{"alg":"dir","enc":"A256GCM"}', { tagLength: 12 }), key)).toBeUndefined();
	});

	test('a part in anything but unpadded base64url, though Buffer would decode it to the same bytes', () => {
		// This IV's base64url text holds '-' and '_', which standard base64 spells '+' and '/'.
		const iv = new Uint8Array([0xfb, 0xff, 0xbe, 0xfb, 0xff, 0xbe, 1, 2, 3, 4, 5, 6]);
		const token = craft('{"alg":"dir","enc":"A256GCM"}', { iv });
		expect(text(openJwe(token, key))).toBe('{"v":1}');
		const parts = token.split('.');
		const [h, , ivText, ct, tag] = parts as [string, string, string, string, string];
		expect(ivText).toMatch(/-/);
		const variants = [
			[h, '', ivText, ct, tag + '=='],
			[h, '', ivText + '=', ct, tag],
			[h, '', ivText, ct.slice(0, 4) + ' ' + ct.slice(4), tag],
			[h, '', ivText, ct, tag.slice(0, 8) + '\n' + tag.slice(8)],
			[h, '', ivText.replaceAll('-', '+').replaceAll('_', '/'), ct, tag]
		];
		for (const v of variants) {
			for (const i of [2, 3, 4])
				expect(Buffer.from(v[i]!, 'base64url').equals(Buffer.from(parts[i]!, 'base64url'))).toBe(
					true
				);
			expect(openJwe(v.join('.'), key), v.join('.')).toBeUndefined();
		}
	});
});

describe('key length', () => {
	test('sealing needs a 32-byte key; opening with any other key length is no plaintext, not an exception', () => {
		expect(() => sealJwe(payload, new Uint8Array(16))).toThrow(RangeError);
		expect(() => sealJwe(payload, new Uint8Array(64))).toThrow(RangeError);
		const token = sealJwe(payload, key);
		expect(openJwe(token, key.slice(0, 16))).toBeUndefined();
		expect(openJwe(token, new Uint8Array([...key, ...key]))).toBeUndefined();
	});
});
