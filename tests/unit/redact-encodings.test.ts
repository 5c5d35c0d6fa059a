/**
 * The client secret, echoed by a service in every encoding redaction covers and in every place an
 * Exchange has, reaches no view: not the redacted Exchange, not the token panel's data, not the
 * Markdown, HAR or curl exports. The encodings are computed here independently of redact.ts.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { REDACTED, createRedactor, createRedactors, prepareForExport } from '$lib/exchange/redact';
import { redactExchange, redactText } from '../helpers/redact';
import { toMarkdown } from '$lib/exchange/markdown';
import { toHar } from '$lib/exchange/har/export';
import { toCurlScript } from '$lib/exchange/curl';
import type { Exchange } from '$lib/exchange/types';
import { receiveTokens } from '$lib/server/flow/tokens';

import {
	b64,
	b64url,
	concat,
	copies,
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
	lowerHex,
	percentTwice,
	percentTwiceAll,
	utf8
} from '../helpers/copies';

/** Every form a service echoes: whole texts, base64 with bytes around it, HTTP Basic. */
function echoes(secret: string, prefix: Uint8Array, suffix: Uint8Array, id: string): string[] {
	const pct = encodeURIComponent(secret);
	const out = [
		secret,
		pct,
		lowerHex(pct),
		pct.replace(/%20/g, '+'),
		form(secret),
		lowerHex(form(secret)),
		json(secret),
		jsonU(secret),
		jsonU(secret, true)
	];
	for (const text of [secret, form(secret)]) {
		const whole = b64(concat(prefix, utf8(text), suffix));
		out.push(whole, whole.replace(/=+$/, ''), b64url(whole), b64url(whole).replace(/=+$/, ''));
		const alone = b64(utf8(text));
		out.push(alone, alone.replace(/=+$/, ''), b64url(alone));
	}
	out.push(`Basic ${b64(utf8(`${form(id)}:${form(secret)}`))}`);
	out.push(...reencoded(secret).map(([, f]) => f));
	return out;
}

/** The re-encoded forms: hex, HTML character references, percent-encoding twice, JSON in JSON. */
const reencoded = (secret: string): [string, string][] => [
	['hex', hex(secret)],
	['hex, upper case', hex(secret, 'upper')],
	['hex, mixed case', hex(secret, 'mixed')],
	['HTML-escaped', htmlEscape(secret)],
	['HTML decimal references', htmlRefs(secret, 'decimal')],
	['HTML hex references', htmlRefs(secret, 'HEX')],
	['HTML references with leading zeros', htmlRefs(secret, 'zeros')],
	['HTML references, mixed', htmlMixed(secret)],
	['HTML decimal references without ;', htmlBare(secret)],
	['HTML hex references without ;', htmlBare(secret, 'HEX')],
	['HTML-escaped without ;', htmlEscapeBare(secret)],
	['percent twice', percentTwice(secret)],
	['percent twice, lower case', percentTwice(secret, true)],
	['form twice', form(form(secret))],
	['percent twice, every byte', percentTwiceAll(secret)],
	['JSON in JSON', jsonTwice(secret)],
	['JSON \\u in JSON', json(jsonU(secret))]
];

/** A form as it can stand inside a JSON string: the JSON forms are already escaped. */
const inJson = (e: string, secret: string) =>
	[
		json(secret),
		jsonU(secret),
		jsonU(secret, true),
		jsonTwice(secret),
		json(jsonU(secret))
	].includes(e)
		? e
		: json(e);

function exchanges(secret: string, forms: string[]): Exchange[] {
	const body = `code=abc&client_id=app&client_secret=${form(secret)}&scope=&${forms
		.map((f, i) => `echo${i}=${f}`)
		.join('&')}`;
	const request = {
		method: 'POST',
		url: `https://svc.test/oauth2/token?${forms.map((f, i) => `q${i}=${f}`).join('&')}`,
		httpVersion: '1.1',
		headers: [
			['Host', 'svc.test'],
			['Content-Type', 'application/x-www-form-urlencoded'],
			['Content-Length', String(utf8(body).length)],
			...forms.map((f, i): [string, string] => [`X-Echo-${i}`, f])
		] as [string, string][],
		body
	};
	const tokenBody = `{"access_token":"at-0123456789abcdef","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-0123456789abcdef","client_secret":"${json(secret)}",${forms
		.map((f, i) => `"extra_${i}":"${inJson(f, secret)}"`)
		.join(',')},"nested":{"echo":["${json(secret)}"]}}`;
	const ok: Exchange = {
		id: '1',
		step: 'exchange',
		startedAt: '2026-01-01T00:00:00.000Z',
		request,
		response: {
			status: 200,
			statusText: `OK ${forms.join(' ')}`,
			httpVersion: '1.1',
			headers: [
				['Content-Type', 'application/json'],
				...forms.map((f, i): [string, string] => [`X-Echo-${i}`, f])
			],
			body: tokenBody,
			truncated: false
		},
		timing: { total: 1 },
		findings: [{ level: 'info', code: 'echo', message: `The service said ${forms.join(' ')}` }]
	};
	const failed: Exchange = {
		...ok,
		id: '2',
		step: 'refresh',
		response: undefined,
		failure: { kind: 'network', message: `The service broke off: ${forms.join(' | ')}` }
	};
	return [ok, failed];
}

/** Every string inside a value, and the value as JSON: what a view can show or carry. */
function texts(value: unknown): string[] {
	const out: string[] = [JSON.stringify(value)];
	const walk = (v: unknown) => {
		if (typeof v === 'string') out.push(v);
		else if (v && typeof v === 'object')
			for (const [k, x] of Object.entries(v)) {
				out.push(k);
				walk(x);
			}
	};
	walk(value);
	return out;
}

function expectNoCopy(secret: string, views: Record<string, unknown>) {
	const found: string[] = [];
	const all = copies(secret);
	for (const [view, value] of Object.entries(views))
		for (const t of texts(value))
			for (const c of all) if (c.text && t.includes(c.text)) found.push(`${c.name} in ${view}`);
	expect(found, `secret ${JSON.stringify(secret)}`).toEqual([]);
}

// Quotes, backslashes, %, +, spaces, non-ASCII (2, 3 and 4 UTF-8 bytes) and controls, among letters.
const special = fc.constantFrom(
	'"',
	'\\',
	'\n',
	'<',
	'>',
	'%',
	'+',
	' ',
	'/',
	'&',
	'=',
	"'",
	'é',
	'€',
	'\u2028',
	'😀',
	'\u0001',
	'\t',
	'\u001f',
	'\u007f'
);
const letter = fc.constantFrom(...'abcXYZ0189-._~'.split(''));
const secretArb = fc
	.string({ unit: fc.oneof(special, letter), minLength: 8, maxLength: 40 })
	.filter((s) => utf8(s).length >= 8);
const bytesArb = fc.uint8Array({ minLength: 0, maxLength: 5 });

describe('echo: a service that echoes the client secret in any encoding', () => {
	test('echo: the secret in every encoding and every place reaches no view (property)', () => {
		fc.assert(
			fc.property(
				secretArb,
				bytesArb,
				bytesArb,
				fc.string({ unit: letter, minLength: 1, maxLength: 9 }),
				(secret, prefix, suffix, id) => {
					const raw = exchanges(secret, echoes(secret, prefix, suffix, id));
					const redactor = createRedactor([{ name: 'client_secret', value: secret }]);
					const shown = raw.map((ex) => redactor.exchange(ex));
					const session = { v: 1 as const, client_secret: secret };
					const tokens = receiveTokens(
						createRedactors(),
						session,
						raw[0]!,
						shown[0]!,
						'read',
						0
					)?.tokens;
					expect(tokens?.extra).toHaveProperty('client_secret', REDACTED);
					expectNoCopy(secret, {
						'the redacted Exchange': shown,
						'the token panel': redactor.value(tokens),
						Markdown: toMarkdown(shown),
						HAR: toHar(shown),
						curl: toCurlScript(shown)
					});
					// The true sent size stays, the real length is noted, and a second pass changes nothing.
					expect(shown[0]!.request.headers[2]).toEqual(raw[0]!.request.headers[2]);
					expect(shown[0]!.redactions?.[0]?.length).toBe(utf8(secret).length);
					expect(shown.map((ex) => redactor.exchange(ex))).toEqual(shown);
				}
			),
			{ seed: 20261123, numRuns: 200 }
		);
	}, 60_000);

	test('echo: the exports find the secret by its field in a record the server did not redact (property)', () => {
		fc.assert(
			fc.property(secretArb, bytesArb, bytesArb, (secret, prefix, suffix) => {
				const raw = exchanges(secret, echoes(secret, prefix, suffix, 'app'));
				expectNoCopy(secret, {
					Markdown: toMarkdown(raw),
					HAR: toHar(raw),
					curl: toCurlScript(raw)
				});
			}),
			{ seed: 20261124, numRuns: 40 }
		);
	}, 60_000);

	test('re-encoded: any secret as hex, HTML references in any mix (with or without `;`), percent-encoded twice or JSON in JSON, inside any text, does not survive; a text without it is unchanged (property)', () => {
		// Text around the copy, with the characters the re-encoded forms are made of.
		const near = fc.constantFrom(...'&#;xX%25\\u0amp'.split(''));
		const text = fc.string({ unit: fc.oneof(special, letter, near), maxLength: 24 });
		/**
		 * HTML references (with or without their `;`) or percent-encoding twice, chosen character by
		 * character from `picks`; `after` is the text that follows the copy. A reference without `;`
		 * gets one where the text after it starts with a digit it would run into.
		 */
		const mixed = (secret: string, picks: number[], after: string) => {
			const parts = [...secret].map((ch, i) => {
				const pick = picks[i % picks.length]!;
				const b = [...utf8(ch)];
				return [
					ch,
					htmlEscape(ch),
					htmlRefs(ch, pick % 2 ? 'HEX' : 'zeros'),
					htmlEscapeBare(ch),
					`&#${'0'.repeat(pick % 3)}${ch.codePointAt(0)};`,
					b.map((x) => `%25${x.toString(16).padStart(2, '0')}`).join(''),
					percentTwice(ch, pick % 2 === 0),
					`&#${'0'.repeat(pick % 3)}${ch.codePointAt(0)}`,
					htmlBare(ch, pick % 2 ? 'HEX' : 'hex')
				][pick % 9]!;
			});
			return parts
				.map((part, i) => {
					const next = parts[i + 1] ?? after;
					const digits = /^&#[xX]/.test(part) ? /^[0-9a-f]/i : /^[0-9]/;
					return /^&#[xX]?[0-9a-fA-F]+$/.test(part) && digits.test(next) ? `${part};` : part;
				})
				.join('');
		};
		fc.assert(
			fc.property(
				secretArb,
				text,
				text,
				fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
				fc.nat(),
				(secret, before, after, picks, which) => {
					const redactor = createRedactor([{ name: 'client_secret', value: secret }]);
					fc.pre(copiesIn(secret, `${before}${after}`).length === 0);
					expect(redactor.text(`${before}${after}`)).toBe(`${before}${after}`);
					const forms = [
						...reencoded(secret).filter(([name]) => !/references without ;$/.test(name)),
						['HTML decimal references without ;', htmlBare(secret, 'decimal', after)],
						['HTML hex references without ;', htmlBare(secret, 'HEX', after)],
						['HTML and percent twice, mixed', mixed(secret, picks, after)]
					];
					const [name, copy] = forms[which % forms.length]!;
					const out = redactor.text(`${before}${copy}${after}`);
					expect(copiesIn(secret, out), `${name} of ${JSON.stringify(secret)}`).toEqual([]);
					expect(out).toContain(REDACTED);
				}
			),
			{ seed: 20261127, numRuns: 150 }
		);
	}, 60_000);

	test('echo: the real tokens stay with the server when a token itself holds the secret', () => {
		const secret = 'echo-Secret-1234';
		const [ex] = exchanges(secret, []);
		ex!.response!.body = JSON.stringify({
			access_token: `at-${secret}-x`,
			token_type: 'Bearer',
			refresh_token: `rt-${secret}-y`
		});
		const secrets = [{ name: 'client_secret', value: secret }];
		const next = receiveTokens(
			createRedactors(),
			{ v: 1, client_secret: secret },
			ex!,
			redactExchange(ex!, secrets),
			'',
			0
		);
		expect(next?.tokens?.access_token).toBe(`at-${REDACTED}-x`);
		expect(next?.tokens?.refresh_token).toBe(`rt-${REDACTED}-y`);
		expect(next?.token_values).toEqual({
			access_token: `at-${secret}-x`,
			refresh_token: `rt-${secret}-y`
		});
	});
});

describe('short secrets: redacted only as a whole value', () => {
	const secrets = [{ name: 'client_secret', value: 'y' }];
	test('short secret: a one-letter secret leaves words that contain the letter alone', () => {
		const text =
			'response_type=code&client_secret=y&scope=read%20yearly&x=%79&j={"s":"y","t":"yy"}&k=y.y';
		expect(redactText(text, secrets)).toBe(
			`response_type=code&client_secret=${REDACTED}&scope=read%20yearly&x=${REDACTED}&j={"s":"${REDACTED}","t":"yy"}&k=y.y`
		);
	});

	test('short secret: found at the text’s ends, in Basic credentials and in base64 of its own', () => {
		expect(redactText('y', secrets)).toBe(REDACTED);
		expect(redactText('y y', secrets)).toBe(`${REDACTED} ${REDACTED}`);
		expect(redactText(`Basic ${btoa('my-app:y')}`, secrets)).toBe(`Basic ${REDACTED}`);
		expect(redactText(`Basic ${btoa('my-app:yy')}`, secrets)).toBe(`Basic ${btoa('my-app:yy')}`);
		expect(redactText('{"s":"eQ=="}', secrets)).toBe(`{"s":"${REDACTED}"}`);
		const seven = [{ name: 'client_secret', value: 'a+b c/d' }];
		expect(redactText('x=a%2Bb+c%2fd&y=za+b c/d', seven)).toBe(`x=${REDACTED}&y=za+b c/d`);
	});

	test('short secret: a 7-byte secret is whole-value only, an 8-byte one is found inside words', () => {
		expect(redactText('xabcdefgx abcdefg', [{ name: 's', value: 'abcdefg' }])).toBe(
			`xabcdefgx ${REDACTED}`
		);
		expect(redactText('xabcdefghx', [{ name: 's', value: 'abcdefgh' }])).toBe(`x${REDACTED}x`);
		// 4 characters, 8 bytes: long.
		expect(redactText('xééééx', [{ name: 's', value: 'éééé' }])).toBe(`x${REDACTED}x`);
	});

	test('short secret: the exports find a short secret by its field and redact it as a whole value', () => {
		const [ex] = exchanges('y', []);
		ex!.request.url = 'https://svc.test/oauth2/auth?response_type=code&state=y';
		const [out] = prepareForExport([ex!]);
		expect(out!.request.url).toBe(
			`https://svc.test/oauth2/auth?response_type=code&state=${REDACTED}`
		);
		expect(out!.request.body).toBe(`code=abc&client_id=app&client_secret=${REDACTED}&scope=&`);
	});
});
