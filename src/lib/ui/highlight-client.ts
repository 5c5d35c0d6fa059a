/**
 * The page's side of highlighting: one Web Worker (highlight.worker.ts), started on first use, so
 * tokenizing a large body never holds up the page. Where the browser has no Worker, it highlights
 * on this thread, as before. When the worker fails to start or breaks, the code stays plain text:
 * the text is always the truth, the colours are a help.
 */
import { CHUNK_LINES, MAX_HIGHLIGHT, toChunks, type Chunks, type Lang } from '$lib/highlight';
import type { HighlightRequest } from '$lib/highlight.worker';

type Answer = { id: number; chunks?: Chunks };

/** The worker; null where the browser has none; 'broken' once it failed (no retry: it would again). */
let worker: Worker | null | 'broken' | undefined;
let nextId = 0;
const waiting = new Map<number, (c: Chunks | undefined) => void>();

function settleAll() {
	for (const done of waiting.values()) done(undefined);
	waiting.clear();
}

function start(): Worker | null {
	if (typeof Worker === 'undefined') return null;
	try {
		const w = new Worker(new URL('../highlight.worker.ts', import.meta.url), {
			type: 'module',
			name: 'highlighter'
		});
		w.addEventListener('message', (e: MessageEvent<Answer>) => {
			const done = waiting.get(e.data.id);
			waiting.delete(e.data.id);
			done?.(e.data.chunks);
		});
		w.addEventListener('error', () => {
			// It could not load, or it broke: the code blocks waiting on it stay plain.
			w.terminate();
			worker = 'broken';
			settleAll();
		});
		return w;
	} catch {
		return null;
	}
}

/** The code highlighted, in chunks; undefined when it stays plain (too large, or no highlighter). */
export async function highlightChunks(code: string, lang: Lang): Promise<Chunks | undefined> {
	if (code.length > MAX_HIGHLIGHT) return undefined;
	worker ??= start();
	if (worker === 'broken') return undefined;
	if (worker === null) {
		const { highlight } = await import('$lib/highlight');
		const lines = await highlight(code, lang);
		return lines && toChunks(lines, CHUNK_LINES);
	}
	const id = nextId++;
	const w = worker;
	return new Promise((resolve) => {
		waiting.set(id, resolve);
		w.postMessage({ id, code, lang } satisfies HighlightRequest);
	});
}
