/**
 * The highlighted lines as the page inserts them (src/lib/highlight.ts, toChunks): escaped HTML in
 * chunks, with their plain text beside them. Nothing in a body can become markup, and the chunks
 * joined are the text, in both forms.
 */
import { describe, expect, test } from 'vitest';
import { escapeHtml, highlight, toChunks, toLines, type Line } from '../../src/lib/highlight';

/** The text an HTML chunk shows: our spans removed, the five entities decoded. */
function shownText(html: string): string {
	return html
		.replace(/<span(?: style="[^"<>]*")?>|<\/span>/g, '')
		.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
}

describe('toChunks', () => {
	const lines: Line[] = Array.from({ length: 7 }, (_, i) => [
		{ content: `"k${i}"`, style: '--shiki-light:#032f62;--shiki-dark:#9ecbff' },
		{ content: ': ' },
		{ content: String(i) }
	]);

	test('size lines per chunk; joined, both forms are the lines joined by a line break', () => {
		const c = toChunks(lines, 3);
		expect(c.html).toHaveLength(3);
		expect(c.plain).toHaveLength(3);
		const text = lines.map((l) => l.map((t) => t.content).join('')).join('\n');
		expect(c.plain.join('')).toBe(text);
		expect(c.html.map(shownText).join('')).toBe(text);
		expect(c.plain.map((p) => p.split('\n').length)).toEqual([4, 4, 1]);
		expect(c.html[0]).toBe(
			'<span style="--shiki-light:#032f62;--shiki-dark:#9ecbff">&#34;k0&#34;</span>: 0\n' +
				'<span style="--shiki-light:#032f62;--shiki-dark:#9ecbff">&#34;k1&#34;</span>: 1\n' +
				'<span style="--shiki-light:#032f62;--shiki-dark:#9ecbff">&#34;k2&#34;</span>: 2\n'
		);
	});

	test('no line: no chunk; an empty line stays a line', () => {
		expect(toChunks([], 50)).toEqual({ html: [], plain: [] });
		expect(toChunks([[], [{ content: 'x' }], []], 2)).toEqual({
			html: ['\nx\n', ''],
			plain: ['\nx\n', '']
		});
	});

	test('a body that is markup, or a style that breaks out of its quotes, stays text', () => {
		const evil = '</span><script>alert(1)</script><img src=x onerror="alert(2)"> & \'q\'';
		const c = toChunks([[{ content: evil, style: '"><img src=x onerror=alert(3)>' }]], 50);
		const html = c.html.join('');
		// Only our own tags remain, and the style attribute holds no quote or bracket.
		expect(html.replace(/<span style="[^"<>]*">|<\/span>/g, '')).not.toMatch(/[<>"']/);
		expect(shownText(html)).toBe(evil);
		expect(escapeHtml(`<>&"'`)).toBe('&#60;&#62;&#38;&#34;&#39;');
	});

	test('a real JSON body: the chunks show exactly its text, every token styled or plain', async () => {
		const body = JSON.stringify({ a: '<b>&"x"</b>', n: [1, 2.5, true, null] }, null, 2);
		const lines = await highlight(body, 'json');
		const c = toChunks(lines!, 2);
		expect(c.plain.join('')).toBe(body);
		expect(c.html.map(shownText).join('')).toBe(body);
		expect(c.html.join('')).toContain('style="');
		// The theme's own foreground (punctuation, white space) is left to the block's colour.
		expect(c.html.join('')).not.toMatch(/--shiki-light:#0e1116/i);
		expect(lines!.flat().filter((t) => t.style === undefined).length).toBeGreaterThan(5);
	});

	test('a body with CRLF line ends keeps every carriage return, in both forms', async () => {
		const body = '{\r\n  "a": "x\ry",\r\n  "b": [1]\n}\r\n';
		const c = toChunks((await highlight(body, 'json'))!, 2);
		expect(c.plain.join('')).toBe(body);
		expect(c.html.map(shownText).join('')).toBe(body);
		// Written as a reference: a literal one would reach the page as a line feed.
		expect(c.html.join('')).not.toContain('\r');
		expect(escapeHtml('a\rb')).toBe('a&#13;b');
	});

	test("a token in the theme's foreground has no style, whatever the case of its colours", () => {
		const fg = '--shiki-light:#0e1116;--shiki-dark:#e1e4e8';
		const token = (c: string, light: string) =>
			({ content: c, htmlStyle: { '--shiki-light': light, '--shiki-dark': '#E1E4E8' } }) as never;
		expect(toLines([[token('{', '#0E1116'), token('1', '#023B95')]], fg)).toEqual([
			[{ content: '{' }, { content: '1', style: '--shiki-light:#023B95;--shiki-dark:#E1E4E8' }]
		]);
		expect(toLines([[token('{', '#0E1116')]])).toEqual([
			[{ content: '{', style: '--shiki-light:#0E1116;--shiki-dark:#E1E4E8' }]
		]);
	});
});
