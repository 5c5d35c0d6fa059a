/**
 * Valid JSON highlighted without shiki (src/lib/highlight-json.ts) looks exactly as shiki's JSON
 * grammar draws it in the page's two themes: every character in the same colours, on random JSON
 * of every shape, indented as the page pretty-prints it, minified, and with odd strings (escapes,
 * quotes, backslashes, any Unicode). Shiki here is loaded on its own, as highlight.ts loads it.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import type { HighlighterCore } from 'shiki/core';
import { toLines, highlight, type Line } from '../../src/lib/highlight';
import { jsonLines } from '../../src/lib/highlight-json';

let shiki: HighlighterCore;
beforeAll(async () => {
	const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, json, light, dark] =
		await Promise.all([
			import('shiki/core'),
			import('shiki/engine/javascript'),
			import('@shikijs/langs/json'),
			import('@shikijs/themes/github-light-high-contrast'),
			import('@shikijs/themes/github-dark-high-contrast')
		]);
	shiki = await createHighlighterCore({
		engine: createJavaScriptRegexEngine(),
		langs: [json.default],
		themes: [light.default, dark.default]
	});
});

/** Shiki's lines for `code`, as highlight.ts makes them (the theme's foreground unstyled). */
function byShiki(code: string): Line[] {
	const { tokens, fg } = shiki.codeToTokens(code, {
		lang: 'json',
		themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
		defaultColor: false
	});
	return toLines(tokens, fg);
}

/** Each line as its characters, each with the style it is drawn in ('' for the block's own). */
const drawn = (lines: Line[]) =>
	lines.map((l) => l.flatMap((t) => [...t.content].map((c) => `${c}\u0000${t.style ?? ''}`)));

/** Strings a body may hold: escapes, quotes and backslashes, and any Unicode. */
const text = fc.oneof(
	fc.string(),
	fc.string({ unit: 'binary' }),
	fc.constantFrom('"', '\\', '/', '\\"', '\u0000\u001f', '\ud83d\ude00', '\u2028', 'a\nb\tc')
);
const value = fc.letrec<{ v: unknown }>((tie) => ({
	v: fc.oneof(
		{ depthSize: 'small' },
		text,
		fc.double({ noNaN: true, noDefaultInfinity: true }),
		fc.integer(),
		fc.constantFrom(true, false, null),
		fc.array(tie('v'), { maxLength: 4 }),
		fc.dictionary(text, tie('v'), { maxKeys: 4 })
	)
})).v;

describe('jsonLines', () => {
	test('random JSON, pretty-printed or minified: every character in the colours shiki draws it', () => {
		fc.assert(
			fc.property(value, fc.constantFrom(2, 0, '\t', 4), (v, indent) => {
				const code = JSON.stringify(v, null, indent);
				expect(drawn(jsonLines(code)!)).toEqual(drawn(byShiki(code)));
			}),
			{ seed: 20261207, numRuns: 300 }
		);
	});

	test('a reading-list answer, as the service sends it: the same colours, the same text', () => {
		const code = JSON.stringify(
			{
				id: 'user/-/state/com.google/reading-list',
				updated: 1700000000,
				items: [
					{
						id: 'tag:google.com,2005:reader/item/00000000000000ff',
						title: 'A "quoted" title \u00e9 \\ back',
						published: -1.5e-7,
						canonical: [{ href: 'https://example.com/a?b=1&c=<d>' }],
						starred: false,
						score: null,
						categories: []
					}
				]
			},
			null,
			2
		);
		const lines = jsonLines(code)!;
		expect(drawn(lines)).toEqual(drawn(byShiki(code)));
		expect(lines.map((l) => l.map((t) => t.content).join('')).join('\n')).toBe(code);
		// Keys, strings, escapes and constants each have a colour; punctuation has none.
		const styles = new Set(lines.flat().map((t) => t.style));
		expect(styles.size).toBe(5);
	});

	test('white space JSON allows, carriage returns and tabs included, stays as it was', () => {
		const code = '{\r\n\t"a" :\t[ 1 ,2 ] ,\r\n  "b":{ }\r\n}\r\n';
		const lines = jsonLines(code)!;
		expect(lines.map((l) => l.map((t) => t.content).join('')).join('\n')).toBe(code);
		expect(drawn(lines)).toEqual(
			drawn(byShiki(code.replaceAll('\r', ''))).map((l, i) =>
				// shiki drops the "\r" of each line; highlight.ts puts it back, unstyled.
				i < 4 ? [...l, '\r\u0000'] : l
			)
		);
	});

	test('what JSON.parse refuses is left to shiki, whose grammar marks what is wrong', async () => {
		for (const code of ['{"a": tru}', '{"a": 1,}', '{"a": "x\ry"}', '// c\n{}', '{"a": 1', ''])
			expect(jsonLines(code)).toBeUndefined();
		const lines = await highlight('{"a": tru}', 'json');
		expect(lines!.flat().some((t) => t.style?.includes('font-style:italic'))).toBe(true);
	});
});
