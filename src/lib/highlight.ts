/**
 * Syntax highlighting with shiki, fine-grained: only the `http` and `json` grammars (http embeds
 * shellscript and json, not xml or graphql), two themes, the JavaScript regex engine. Loaded lazily,
 * on first use, so the playground's first load carries none of it.
 */
import type { HighlighterCore, ThemedToken } from 'shiki/core';

export type Lang = 'http' | 'json';
export type Line = { content: string; style?: Record<string, string> }[];

let loading: Promise<HighlighterCore> | undefined;

export function highlighter(): Promise<HighlighterCore> {
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
			import('@shikijs/themes/github-dark')
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

export function toLines(tokens: ThemedToken[][]): Line[] {
	return tokens.map((line) => line.map((t) => ({ content: t.content, style: t.htmlStyle })));
}

export async function highlight(code: string, lang: Lang): Promise<Line[] | undefined> {
	if (code.length > MAX_HIGHLIGHT) return undefined;
	const hl = await highlighter();
	const { tokens } = hl.codeToTokens(code, {
		lang,
		themes: { light: 'github-light-high-contrast', dark: 'github-dark' },
		defaultColor: false
	});
	return toLines(tokens);
}
