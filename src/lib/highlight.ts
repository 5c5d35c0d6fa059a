/**
 * Syntax highlighting with shiki, fine-grained: only the `http` and `json` grammars (http embeds
 * shellscript and json, not xml or graphql), two themes, the JavaScript regex engine. Loaded lazily,
 * on first use, so the playground's first load carries none of it. In the browser it runs in a Web
 * Worker (highlight.worker.ts, through ui/highlight-client.ts), so a large body never holds up the
 * page; the lines come back as escaped HTML in chunks (`Chunks`), which the page inserts a few at a
 * time.
 */
import type { HighlighterCore, ThemedToken } from 'shiki/core';
import { jsonLines } from './highlight-json';

export type Lang = 'http' | 'json';
type Token = { content: string; style?: string };
export type Line = Token[];

// eslint-disable-next-line no-restricted-syntax -- the highlighter's loader: shiki loaded once per worker or tab, on first use, and the same for every block
let loading: Promise<HighlighterCore> | undefined;

function highlighter(): Promise<HighlighterCore> {
	loading ??= (async () => {
		const [
			{ createHighlighterCore },
			{ createJavaScriptRegexEngine },
			json,
			shellscript,
			http,
			light,
			dark
		] = await Promise.all([
			import('shiki/core'),
			import('shiki/engine/javascript'),
			import('@shikijs/langs/json'),
			import('@shikijs/langs/shellscript'),
			import('tm-grammars/grammars/http.json'),
			import('@shikijs/themes/github-light-high-contrast'),
			import('@shikijs/themes/github-dark-high-contrast')
		]);
		return createHighlighterCore({
			engine: createJavaScriptRegexEngine(),
			langs: [
				json.default,
				shellscript.default,
				{
					...(http.default as object),
					name: 'http',
					embeddedLangs: ['shellscript', 'json']
				} as never
			],
			themes: [light.default, dark.default]
		});
	})();
	return loading;
}

/** Bodies larger than this are shown plain: highlighting them would cost more than it helps. */
export const MAX_HIGHLIGHT = 200_000;

/** A token's inline style (`color:…;--shiki-dark:…`), as the page writes it. */
function styleText(style: Record<string, string> | undefined): string | undefined {
	if (!style) return undefined;
	// A loop, not entries/map/join: this runs for every token of a body, tens of thousands.
	let text = '';
	for (const k in style) text += `${text ? ';' : ''}${k}:${style[k]}`;
	return text || undefined;
}

/**
 * The lines as tokens; a token in the theme's own foreground (`fg`, shiki's `--shiki-light:…;
 * --shiki-dark:…` of the two themes) gets no style: it is drawn in the code block's own colour,
 * like the plain text before highlighting, and needs no element of its own.
 */
export function toLines(tokens: ThemedToken[][], fg?: string): Line[] {
	const plain = fg?.toLowerCase();
	// A body has a handful of distinct styles: each is compared with the foreground once.
	const isPlain = new Map<string, boolean>();
	return tokens.map((line) =>
		line.map((t) => {
			const style = styleText(t.htmlStyle);
			if (style === undefined) return { content: t.content };
			let same = isPlain.get(style);
			if (same === undefined) isPlain.set(style, (same = style.toLowerCase() === plain));
			return same ? { content: t.content } : { content: t.content, style };
		})
	);
}

/**
 * Text for HTML, as element content or a quoted attribute's value. A carriage return is written as
 * a reference too: the HTML parser turns a literal one into a line feed, and the text must stay
 * the bytes that were sent.
 */
export function escapeHtml(text: string): string {
	// Most tokens hold none of the six: they are returned as they are, without a replace.
	return /[&<>"'\r]/.test(text) ? text.replace(/[&<>"'\r]/g, (c) => `&#${c.charCodeAt(0)};`) : text;
}

/**
 * Highlighted lines as HTML, `size` lines per chunk, with each chunk's plain text beside it: what
 * the page inserts, a chunk per step, so a large body is drawn in frames of a few milliseconds. The
 * chunks joined are the code's lines joined by `\n`, in both forms; every token's text and style is
 * escaped, so nothing in a response body can become markup.
 */
export interface Chunks {
	html: string[];
	plain: string[];
}

export function toChunks(lines: Line[], size: number): Chunks {
	const html: string[] = [];
	const plain: string[] = [];
	// Built by concatenation, a token at a time: the worker does this for every token of a body.
	for (let from = 0; from < lines.length; from += size) {
		const to = Math.min(from + size, lines.length);
		let h = '';
		let p = '';
		for (let i = from; i < to; i++) {
			if (i > from) {
				h += '\n';
				p += '\n';
			}
			for (const t of lines[i]!) {
				const text = escapeHtml(t.content);
				h += t.style === undefined ? text : `<span style="${escapeHtml(t.style)}">${text}</span>`;
				p += t.content;
			}
		}
		const end = to < lines.length ? '\n' : '';
		html.push(h + end);
		plain.push(p + end);
	}
	return { html, plain };
}

/** Lines per chunk: small enough that inserting one takes the page well under a millisecond. */
export const CHUNK_LINES = 50;

export async function highlight(code: string, lang: Lang): Promise<Line[] | undefined> {
	if (code.length > MAX_HIGHLIGHT) return undefined;
	// Valid JSON in the grammar's colours, without loading shiki (highlight-json.ts).
	const fast = lang === 'json' ? jsonLines(code) : undefined;
	if (fast) return fast;
	const hl = await highlighter();
	const { tokens, fg } = hl.codeToTokens(code, {
		lang,
		themes: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' },
		defaultColor: false
	});
	const lines = toLines(tokens, fg);
	// shiki splits lines at "\r\n" as at "\n" and keeps neither: each "\r" goes back at the end of
	// its line, so the highlighted text is still the text that was sent.
	if (code.includes('\r\n'))
		code.split('\n').forEach((line, i) => {
			if (line.endsWith('\r')) lines[i]?.push({ content: '\r' });
		});
	return lines;
}
