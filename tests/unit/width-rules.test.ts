/**
 * No CSS rule that applies at one screen size (or pointer) only sets a colour. The page's colours
 * are the same at every width, which is why phone.test.ts measures them (axe's colour rules, in
 * both themes) at the phone's width only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

/** Properties that change what colour text is drawn in, or on. */
const COLOURING =
	/^(color|background(-color|-image)?|opacity|filter|backdrop-filter|mix-blend-mode|-webkit-text-fill-color|text-shadow|text-decoration(-color)?|color-scheme)$/;

/** A custom property's value that is a colour (the theme's colours are custom properties). */
const A_COLOUR =
	/#[0-9a-f]{3,8}\b|\b(rgba?|hsla?|hwb|oklch|oklab|lab|lch|light-dark|color-mix|color)\(|\b(black|white|transparent|currentcolor)\b/i;

/** Whether a declaration changes a colour. */
const colouring = ([property, value]: [string, string]) =>
	COLOURING.test(property) || (property.startsWith('--') && A_COLOUR.test(value));

/** A media query about the screen's size or its pointer, which the phone and desktop differ in. */
const BY_SCREEN = /\b(width|height|pointer|hover|orientation|aspect-ratio)\b/;

function sources(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' })
		.filter((f) => f.endsWith('.css') || f.endsWith('.svelte'))
		.map((f) => join(dir, f));
}

/** Each `@media` block's prelude and body; comments removed; nested blocks found too. */
export function mediaBlocks(css: string): { prelude: string; body: string }[] {
	const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
	const out: { prelude: string; body: string }[] = [];
	for (let at = text.indexOf('@media'); at !== -1; at = text.indexOf('@media', at + 1)) {
		const open = text.indexOf('{', at);
		let depth = 1;
		let i = open + 1;
		for (; i < text.length && depth > 0; i++)
			depth += text[i] === '{' ? 1 : text[i] === '}' ? -1 : 0;
		out.push({ prelude: text.slice(at + 6, open).trim(), body: text.slice(open + 1, i - 1) });
	}
	return out;
}

/** The declarations in a block's body (after `{` or `;`): property and value. */
export function declared(body: string): [string, string][] {
	return [...body.matchAll(/(?:^|[{;])\s*(-{0,2}[a-zA-Z][-\w]*)\s*:(?!:)([^;{}]*)/g)].map((m) => [
		m[1] ?? '',
		(m[2] ?? '').trim()
	]);
}

describe('rules for one screen size set no colour', () => {
	test('the helpers find a colour in a width query, and nothing else', () => {
		const css = `a { color: red } @media (max-width: 600px) { .x:not(.y) { display: none; --pad: 1rem; --fg: #000 }
			@media (pointer: coarse) { b { min-height: 44px; background: white } } }
			@media (prefers-color-scheme: dark) { body { color: white } }`;
		const blocks = mediaBlocks(css);
		expect(blocks.map((b) => b.prelude)).toEqual([
			'(max-width: 600px)',
			'(pointer: coarse)',
			'(prefers-color-scheme: dark)'
		]);
		expect(declared(blocks[1]?.body ?? '')).toEqual([
			['min-height', '44px'],
			['background', 'white']
		]);
		const found = blocks
			.filter((b) => BY_SCREEN.test(b.prelude))
			.flatMap((b) => declared(b.body).filter(colouring))
			.map(([p]) => p);
		// The inner block is inside the outer one too: its background is found in both.
		expect(found).toEqual(['--fg', 'background', 'background']);
	});

	test('in src/', () => {
		const blocks = sources('src').flatMap((file) =>
			mediaBlocks(readFileSync(file, 'utf8'))
				.filter((b) => BY_SCREEN.test(b.prelude))
				.map((b) => ({ file, ...b }))
		);
		// app.css's phone and narrow-window rules, the transcript's, the JWT's, the callback's, ...
		expect(blocks.length).toBeGreaterThanOrEqual(8);
		const found = blocks.flatMap(({ file, ...b }) =>
			declared(b.body)
				.filter(colouring)
				.map(([p, v]) => `${file}: @media ${b.prelude} sets ${p}: ${v}`)
		);
		expect(found).toEqual([]);
	});
});
