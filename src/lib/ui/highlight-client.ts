/**
 * The page's side of highlighting: one Web Worker (highlight.worker.ts), started on first use, so
 * tokenizing a large body never holds up the page. Where the browser has no Worker, it highlights
 * on this thread, as before. When the worker fails to start or breaks, the code stays plain text:
 * the text is always the truth, the colours are a help.
 */
import { CHUNK_LINES, MAX_HIGHLIGHT, toChunks, type Chunks, type Lang } from '$lib/highlight';
import type { HighlightRequest } from '$lib/highlight.worker';
import { nextTask } from './next-task';

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

/**
 * How long one task may spend drawing highlighted code, all the page's code blocks together: short
 * enough that a key or a click waits at most this long, and the browser draws a frame in between.
 */
const TASK_BUDGET_MS = 8;

/** The code blocks waiting to draw a step, first come first served; `live` false once stopped. */
const drawing: { step: () => boolean; live: boolean }[] = [];
let scheduled = false;

function schedule() {
	if (scheduled) return;
	scheduled = true;
	void nextTask().then(drawTask);
}

function drawTask() {
	scheduled = false;
	const start = performance.now();
	try {
		while (drawing.length && performance.now() - start < TASK_BUDGET_MS) {
			const job = drawing[0]!;
			// A step may start others (appended) or stop this one (then it is dropped next time
			// round); one that throws is dropped, and the others go on in the next task.
			let more = false;
			try {
				more = job.live && job.step();
			} finally {
				if (!more) drawing.shift();
			}
		}
	} finally {
		if (drawing.length) schedule();
	}
}

/**
 * Runs `step` in tasks of the page's event loop until it returns false, with one budget per task
 * for every code block of the page: each block had a budget of its own, and the hundred blocks of
 * 25 imported exchanges, highlighted at once, drew in one frame of 45 ms. A task follows the one
 * before it (`nextTask`), not the next animation frame: waiting for frames left the page idle for
 * half of each one, and a 100 KB body's colours came about 40 ms later, cold and warm (bench (f)).
 * The browser still draws between two tasks when a frame is due. Returns the function that stops it.
 */
export function drawInTasks(step: () => boolean): () => void {
	const job = { step, live: true };
	drawing.push(job);
	schedule();
	return () => {
		job.live = false;
	};
}
