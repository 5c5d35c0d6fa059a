// The matchers of recent secrets are kept (redaction runs on every step with the same secret), and
// texts too short to hold a copy are not searched: neither may let a copy through.
import { describe, expect, test } from 'vitest';
import {
	MAX_SECRET_LENGTH,
	REDACTED,
	SecretTooLong,
	createRedactor,
	createRedactors
} from '$lib/exchange/redact';
import { redactExchange, redactText } from '../helpers/redact';
import type { Exchange } from '$lib/exchange/types';
import { hex, htmlRefs, jsonTwice, percentTwice } from '../helpers/copies';

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('a text no longer than a copy of the secret', () => {
	test.each([
		['ASCII, long', 'sandbox-rw-secret'],
		['ASCII, 8 bytes', 'abcd1234'],
		['short', 'xyz'],
		['two-byte characters', 'ééééééééé'],
		['astral characters', '😀😀😀😀😀😀']
	])('%s: the secret alone, raw or JSON-escaped, is redacted', (_, secret) => {
		const s = [{ name: 'client_secret', value: secret }];
		expect(redactText(secret, s)).toBe(REDACTED);
		const escaped = JSON.stringify(secret).slice(1, -1);
		expect(redactText(escaped, s)).toBe(REDACTED);
		const percent = encodeURIComponent(secret);
		expect(redactText(percent, s)).toBe(REDACTED);
	});

	test('a short secret alone in base64, unpadded, is redacted', () => {
		const s = [{ name: 'client_secret', value: 'xyz' }];
		expect(redactText(b64(utf8('xyz')).replace(/=+$/, ''), s)).toBe(REDACTED);
	});

	test('only the characters of a base64 copy that are its own, at every alignment and length, are found', () => {
		for (let n = 8; n <= 40; n++) {
			const secret = Array.from({ length: n }, (_, i) => 'aZ9.~-_q'[(i * 7 + n) % 8]).join('');
			const bytes = utf8(secret);
			for (const align of [0, 1, 2]) {
				const padded = new Uint8Array(align + bytes.length);
				padded.set(bytes, align);
				const full = b64(padded);
				const own = full.slice(Math.ceil((8 * align) / 6), Math.floor((8 * (align + n)) / 6));
				const out = redactText(own, [{ name: 'client_secret', value: secret }]);
				expect(out, `${n} bytes at alignment ${align}`).toBe(REDACTED);
			}
		}
	});

	test('inside a longer base64 text, the copy and its mixed characters are masked, and nothing around them', () => {
		const around = utf8('pre-text, and more');
		for (let n = 8; n <= 20; n++) {
			const secret = Array.from({ length: n }, (_, i) => 'aZ9.~-_q'[(i * 7 + n) % 8]).join('');
			for (const before of [9, 10, 11]) {
				const bytes = new Uint8Array([...around.slice(0, before), ...utf8(secret), ...around]);
				const full = b64(bytes);
				const from = Math.floor((8 * before) / 6);
				const to = Math.ceil((8 * (before + n)) / 6);
				const out = redactText(full, [{ name: 'client_secret', value: secret }]);
				const where = `${n} bytes after ${before}`;
				expect(out, where).toBe(`${full.slice(0, from)}${REDACTED}${full.slice(to)}`);
			}
		}
	});
});

function exchange(body: string): Exchange {
	return {
		id: '1',
		step: 'userinfo',
		startedAt: '2026-01-01T00:00:00Z',
		request: { method: 'GET', url: 'https://reader.test/', httpVersion: '1.1', headers: [], body },
		timing: { total: 0 },
		findings: []
	};
}

describe('what the search finds, and what is noted', () => {
	test('a short secret found only inside a word: nothing replaced, nothing noted', () => {
		const out = redactExchange(exchange('response_type=code'), [
			{ name: 'client_secret', value: 'y' }
		]);
		expect(out.request.body).toBe('response_type=code');
		expect(out.redactions).toBeUndefined();
	});

	test('a text already holding <redacted> and another copy: the copy is replaced and noted', () => {
		const value = 'a-secret-seen-twice';
		const out = redactExchange(exchange(`a=${REDACTED}&b=${value}`), [
			{ name: 'client_secret', value }
		]);
		expect(out.request.body).toBe(`a=${REDACTED}&b=${REDACTED}`);
		expect(out.redactions).toEqual([{ what: 'client_secret', length: value.length }]);
	});
});

describe('the longest secret searched for', () => {
	test('is the setup limit; one character more is refused, not searched for in part', () => {
		expect(MAX_SECRET_LENGTH).toBe(1024);
		const fits = 'é'.repeat(MAX_SECRET_LENGTH);
		expect(redactText(`<${fits}>`, [{ name: 'client_secret', value: fits }])).toBe(`<${REDACTED}>`);
		const over = `${fits}é`;
		expect(() => redactText('x', [{ name: 'client_secret', value: over }])).toThrow(
			new SecretTooLong(1025)
		);
		expect(new SecretTooLong(1025).message).toBe(
			'A client secret of 1025 characters is longer than the 1024 that redaction can search for in every encoding.'
		);
	});

	test('a secret of the setup limit made of the characters with the most forms is found in every form, re-encoded ones included', () => {
		for (const ch of ['😀', '"', '&']) {
			const value = ch.repeat(MAX_SECRET_LENGTH / ch.length);
			const redactor = createRedactor([{ name: 'client_secret', value }]);
			for (const copy of [
				value,
				hex(value, 'mixed'),
				htmlRefs(value, 'zeros'),
				percentTwice(value),
				jsonTwice(value)
			])
				expect(redactor.text(`<${copy}>`)).toBe(`<${REDACTED}>`);
		}
	});
});

describe('an app’s redactors, which keep the matchers of the secrets used lately', () => {
	test('one secret under two names is noted under each', () => {
		const redactors = createRedactors();
		const value = 'one-value-two-names';
		const first = redactors.of([{ name: 'client_secret', value }]).exchange(exchange(value));
		const second = redactors.of([{ name: 'other_secret', value }]).exchange(exchange(value));
		expect(first.redactions?.map((r) => r.what)).toEqual(['client_secret']);
		expect(second.redactions?.map((r) => r.what)).toEqual(['other_secret']);
	});

	test('a secret is found again after many others, the longest ones, were used since (its matcher dropped and built again)', () => {
		const redactors = createRedactors();
		// The longest secrets, with the largest patterns (over 150,000 characters): a few fit.
		const big = (tail: string) => ({ name: 'client_secret', value: `${'😀'.repeat(511)}${tail}` });
		const [a, b] = [big('a'), big('b')];
		expect(redactors.of([a]).text(`key=${a.value}&`)).toBe(`key=${REDACTED}&`);
		expect(redactors.of([b]).text(`key=${b.value}&`)).toBe(`key=${REDACTED}&`);
		for (let i = 0; i < 8; i++) redactors.of([big(String(i))]).text('x');
		expect(redactors.of([b, a]).text(`${a.value} ${b.value}`)).toBe(`${REDACTED} ${REDACTED}`);
		expect(redactors.of([a]).text(`key=${b.value}&`)).toBe(`key=${b.value}&`);
	});
});
