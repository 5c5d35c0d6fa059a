/**
 * A service that echoes the client secret re-encoded: as hexadecimal of its UTF-8 bytes, as HTML
 * character references, percent-encoded twice, or as JSON inside a JSON string. Each is redacted,
 * by a redactor, as the server's (its text and exchange) and by the exports, which find the secret by its field.
 * The encodings are computed in tests/helpers/copies.ts, independently of redact.ts.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { REDACTED, createRedactor } from '$lib/exchange/redact';
import { redactText } from '../helpers/redact';
import { toMarkdown } from '$lib/exchange/markdown';
import { toHar } from '$lib/exchange/har/export';
import { toCurlScript } from '$lib/exchange/curl';
import type { Exchange } from '$lib/exchange/types';
import {
	copiesIn,
	form,
	hex,
	htmlBare,
	htmlEscape,
	htmlEscapeBare,
	htmlMixed,
	htmlRefs,
	json,
	jsonTwice,
	jsonU,
	percentTwice,
	percentTwiceAll
} from '../helpers/copies';

// Quote, apostrophe, backslash, space, & < >, %, +, /, a newline, and 2-, 3- and 4-byte UTF-8.
const BASE = `Ech"o\\ <sé'cret>&+%/ü\n€😀-42`;
// A new secret in each test, so that its patterns are built, and counted as its coverage, in it.
let SECRET = BASE;
let secrets = [{ name: 'client_secret', value: SECRET }];
/** A redactor of SECRET, the test's own. */
let redactor = createRedactor(secrets);
let n = 0;
beforeEach(() => {
	SECRET = `${BASE}-${++n}`;
	secrets = [{ name: 'client_secret', value: SECRET }];
	redactor = createRedactor(secrets);
});

/** The text with the copy between neighbours that are no delimiters, then the copy alone. */
function expectRedacted(copy: string) {
	expect(redactor.text(`id=${copy}&x=1`)).toBe(`id=${REDACTED}&x=1`);
	expect(redactor.text(copy)).toBe(REDACTED);
	expect(redactor.text(`zz${copy}zz`)).toBe(`zz${REDACTED}zz`);
}

/** A token exchange whose response body and a response header echo `echoed`, as a service could. */
function echoing(echoed: string): Exchange {
	const body = `grant_type=authorization_code&code=abc&client_id=app&client_secret=${form(SECRET)}`;
	return {
		id: '1',
		step: 'exchange',
		startedAt: '2026-01-01T00:00:00.000Z',
		request: {
			method: 'POST',
			url: 'https://svc.test/oauth2/token',
			httpVersion: '1.1',
			headers: [
				['Content-Type', 'application/x-www-form-urlencoded'],
				['Content-Length', String(new TextEncoder().encode(body).length)]
			],
			body
		},
		response: {
			status: 400,
			statusText: 'Bad Request',
			httpVersion: '1.1',
			headers: [
				['Content-Type', 'application/json'],
				['X-Echo', echoed]
			],
			body: `{"error":"invalid_client","echo":"${echoed}"}`,
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

/** Neither the server's redaction nor any export (which finds the secret by its field) shows a copy. */
function expectNowhere(echoed: string) {
	const raw = echoing(echoed);
	const shown = redactor.exchange(raw);
	expect(shown.response!.body).toBe(`{"error":"invalid_client","echo":"${REDACTED}"}`);
	const views = {
		'the redacted Exchange': JSON.stringify(shown),
		Markdown: toMarkdown([raw]),
		HAR: JSON.stringify(toHar([raw])),
		curl: toCurlScript([raw])
	};
	const found = Object.entries(views).flatMap(([view, text]) =>
		copiesIn(SECRET, text).map((c) => `${c} in ${view}`)
	);
	expect(found).toEqual([]);
}

describe('attack: a service echoes the secret re-encoded', () => {
	test('a secret echoed as hex is redacted, in lower, upper and mixed case', () => {
		for (const letters of ['lower', 'upper', 'mixed'] as const) {
			expectRedacted(hex(SECRET, letters));
			// Inside a longer hex text, as a digest or a dump of bytes would hold it.
			expect(redactor.text(`00ff${hex(SECRET, letters)}ff00`)).toBe(`00ff${REDACTED}ff00`);
			expectNowhere(hex(SECRET, letters));
		}
	});

	test('a secret echoed as HTML character references is redacted: named, decimal, hex, leading zeros, any mix', () => {
		const forms = [
			htmlEscape(SECRET),
			SECRET.replace(/&/g, '&amp;').replace(/'/g, '&apos;'),
			htmlRefs(SECRET, 'decimal'),
			htmlRefs(SECRET, 'hex'),
			htmlRefs(SECRET, 'HEX'),
			htmlRefs(SECRET, 'zeros'),
			htmlMixed(SECRET),
			// Each character in turn decimal with zeros, named, raw, upper-case hex.
			[...SECRET]
				.map((ch, i) => {
					const cp = ch.codePointAt(0)!;
					const named = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[ch];
					return [`&#000${cp};`, named ?? ch, ch, `&#x${cp.toString(16).toUpperCase()};`][i % 4];
				})
				.join('')
		];
		for (const f of forms) {
			expectRedacted(f);
			expectNowhere(json(f));
		}
	});

	test('a secret echoed as numeric HTML references without the closing `;` (which browsers decode) is redacted: decimal, hex, leading zeros, mixed with closed ones', () => {
		const forms = [
			htmlBare(SECRET),
			htmlBare(SECRET, 'hex'),
			htmlBare(SECRET, 'HEX'),
			// Each character in turn: decimal with zeros and no `;` (unless a raw digit follows), raw,
			// hex with no `;`, decimal with `;`.
			[...SECRET]
				.map((ch, i, chars) => {
					const cp = ch.codePointAt(0)!;
					const end = /[0-9]/.test(chars[i + 1] ?? '') ? ';' : '';
					return [`&#00${cp}${end}`, ch, `&#x${cp.toString(16)}`, `&#${cp};`][i % 4];
				})
				.join('')
		];
		for (const f of forms) {
			expectRedacted(f);
			expectNowhere(json(f));
		}
		// The issue's own example: `s3` written `&#115&#51`, inside a longer secret.
		const s3 = [{ name: 'client_secret', value: 'secret-s3-0123456789' }];
		expect(redactText(`<p>${htmlBare(s3[0]!.value)}</p>`, s3)).toBe(`<p>${REDACTED}</p>`);
		expect(htmlBare('s3')).toBe('&#115&#51');
	});

	test('a secret echoed with the named references browsers read without `;` (`&amp &lt &gt &quot`, either case) is redacted', () => {
		expect(htmlEscapeBare(`a&b<c>d"e'f`)).toBe('a&ampb&ltc&gtd&quote&#39;f');
		for (const f of [
			htmlEscapeBare(SECRET),
			htmlEscapeBare(SECRET).replace(/&(amp|lt|gt|quot)/g, (m) => m.toUpperCase())
		]) {
			expectRedacted(f);
			expectNowhere(json(f));
		}
	});

	test('a reference without `;` that runs into the next digit is another character: `&#1151` is not `s` then `1`', () => {
		const s1 = [{ name: 'client_secret', value: 'abcdefs1' }];
		const bare = htmlBare('abcdefs');
		// The browser reads `&#1151` as U+047F, so this text does not hold the secret.
		for (const text of [`${bare}1`, `${htmlBare('abcdefs', 'hex')}1`])
			expect(redactText(`x=${text}!`, s1)).toBe(`x=${text}!`);
		// With the `;` the digit after it is a character of its own again.
		expect(redactText(`x=${htmlBare('abcdefs', 'decimal', '1')}1!`, s1)).toBe(`x=${REDACTED}!`);
		expect(redactText(`x=${htmlBare('abcdefs', 'hex', '1')}1!`, s1)).toBe(`x=${REDACTED}!`);
	});

	test('a secret echoed %-encoded twice is redacted: either case, + for a space, every byte', () => {
		for (const f of [
			percentTwice(SECRET),
			percentTwice(SECRET, true),
			form(form(SECRET)),
			percentTwiceAll(SECRET),
			percentTwiceAll(SECRET).toUpperCase()
		]) {
			expectRedacted(f);
			expectNowhere(f);
		}
		// A space form-encoded as `+` (found by the smaller pattern), then that encoded as `%2B`, in a
		// secret with nothing else to encode.
		const spaced = [{ name: 'client_secret', value: 'only letters and spaces' }];
		expect(redactText(`x=${form(spaced[0]!.value)}&y=1`, spaced)).toBe(`x=${REDACTED}&y=1`);
		expect(form(form(spaced[0]!.value))).toBe('only%2Bletters%2Band%2Bspaces');
		expect(redactText(`x=${form(form(spaced[0]!.value))}&y=1`, spaced)).toBe(`x=${REDACTED}&y=1`);
		// `A` → `%2541`: a character encoded gratuitously, then encoded again.
		const letters = [{ name: 'client_secret', value: 'ABCDEFGH' }];
		expect(redactText('x=%2541%2542%2543%2544%2545%2546%2547%2548&y=1', letters)).toBe(
			`x=${REDACTED}&y=1`
		);
	});

	test('a secret echoed as JSON inside a JSON string is redacted, with short and \\u escapes', () => {
		expect(jsonTwice('a"b\\c\nd\u00e9')).toBe('a\\\\\\"b\\\\\\\\c\\\\nd\u00e9');
		for (const f of [jsonTwice(SECRET), json(jsonU(SECRET)), json(jsonU(SECRET, true))]) {
			expectRedacted(f);
			expectNowhere(f);
		}
		// As a JSON body inside a JSON string field, the way an error page quotes a request.
		const inner = JSON.stringify({ client_secret: SECRET });
		const outer = JSON.stringify({ request: inner });
		expect(outer).toContain(jsonTwice(SECRET));
		expect(redactText(outer, secrets)).toBe(
			JSON.stringify({ request: JSON.stringify({ client_secret: REDACTED }) })
		);
	});

	test('a copy that ends in an escape is taken whole: no stray backslash escapes the closing quote, no `amp;` is left', () => {
		const tail = [{ name: 'client_secret', value: 'ends-in-a-backslash\\' }];
		const value = tail[0]!.value;
		expect(redactText(JSON.stringify({ s: value }), tail)).toBe(JSON.stringify({ s: REDACTED }));
		expect(redactText(JSON.stringify({ outer: JSON.stringify({ s: value }) }), tail)).toBe(
			JSON.stringify({ outer: JSON.stringify({ s: REDACTED }) })
		);
		const amp = [{ name: 'client_secret', value: 'ends-in-an-ampersand&' }];
		expect(redactText('<p>ends-in-an-ampersand&amp;</p>', amp)).toBe(`<p>${REDACTED}</p>`);
		expect(redactText('<p>ends-in-an-ampersand&#x26;</p>', amp)).toBe(`<p>${REDACTED}</p>`);
	});

	test('a secret echoed with \\u escapes of a character outside the BMP (a surrogate pair each) is redacted, once or twice JSON-escaped', () => {
		const astral = [{ name: 'client_secret', value: `astral-😀-𝄞-${n}` }];
		for (const f of [jsonU(astral[0]!.value), json(jsonU(astral[0]!.value, true))])
			expect(redactText(`{"s":"${f}"}`, astral)).toBe(`{"s":"${REDACTED}"}`);
	});

	test('near misses stay: the encodings of a secret one byte off are left as they are', () => {
		const other = `${SECRET.slice(0, -1)}3`;
		for (const text of [
			hex(other),
			htmlRefs(other, 'decimal'),
			htmlMixed(other),
			percentTwice(other),
			jsonTwice(other),
			// The secret's encodings without their last character.
			hex(SECRET).slice(0, -4),
			htmlRefs(SECRET, 'hex').replace(/&#x[0-9a-f]+;$/, ''),
			percentTwice(SECRET).slice(0, -6),
			jsonTwice(SECRET).slice(0, -1)
		])
			expect(redactText(`x=${text};`, secrets)).toBe(`x=${text};`);
	});
});
