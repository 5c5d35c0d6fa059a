/**
 * The highlighter's thread: shiki tokenizes here, off the page's main thread, and the lines go back
 * as escaped HTML in chunks (highlight.ts). One request at a time, in the order they come.
 */
import { CHUNK_LINES, highlight, toChunks, type Lang } from './highlight';

export interface HighlightRequest {
	id: number;
	code: string;
	lang: Lang;
}

const scope = self as unknown as {
	addEventListener(type: 'message', fn: (e: MessageEvent<HighlightRequest>) => void): void;
	postMessage(message: unknown): void;
};

scope.addEventListener('message', async ({ data: { id, code, lang } }) => {
	try {
		const lines = await highlight(code, lang);
		scope.postMessage({ id, chunks: lines && toChunks(lines, CHUNK_LINES) });
	} catch {
		scope.postMessage({ id });
	}
});
