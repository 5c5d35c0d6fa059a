/**
 * The HAR import's thread: the file is read, checked, redacted and diagnosed here
 * (`importHar`, oauth/imported.ts), off the page's main thread, which only draws the progress and
 * then the result. A file of 5 MB with 16 secrets of 1,024 characters takes seconds of redaction;
 * on the page that was seconds without a frame drawn or a key answered. The page starts a worker
 * for each file and ends it after (har-import-client.ts), so nothing of one file, its secrets'
 * patterns included, outlives its import.
 *
 * The exchanges go back in parts, a message each (`PART_CHARS`, `PART_EXCHANGES`), then the rest
 * of the result: the page takes each message in a task of its own, where one message of 5 MB was
 * one task of 40 ms on an idle machine, and several times that on a busy one.
 */
import { sizeRefusal, type ImportResult } from '$lib/exchange/har/import';
import type { Exchange } from '$lib/exchange/types';
import { importHar } from '$lib/oauth/imported';

/** What the page sends: the file, which is read here. */
export interface ImportRequest {
	file: Blob;
}

type Imported = Extract<ImportResult, { ok: true }>;

/**
 * What this thread sends back: how far it is; then, for a file imported, its exchanges in parts,
 * in order; then the result, once, whose exchanges are those of the parts before it.
 */
export type ImportAnswer =
	| { progress: [done: number, total: number] }
	| { exchanges: Exchange[] }
	| { result: Exclude<ImportResult, Imported> | Omit<Imported, 'exchanges'> };

/** Progress is sent at most this often (ms), and at the end: the page redraws on each. */
const PROGRESS_EVERY = 100;
/**
 * A part of the exchanges holds at most this many characters of them (as JSON) and this many
 * exchanges: the page takes a part in a few milliseconds. An exchange larger than that goes alone.
 */
const PART_CHARS = 256 * 1024;
const PART_EXCHANGES = 100;

const scope = self as unknown as {
	addEventListener(type: 'message', fn: (e: MessageEvent<ImportRequest>) => void): void;
	postMessage(message: ImportAnswer): void;
};

/** Sends `exchanges` in parts, in order. */
function sendInParts(exchanges: Exchange[]): void {
	let part: Exchange[] = [];
	let chars = 0;
	for (const ex of exchanges) {
		const size = JSON.stringify(ex).length;
		if (part.length && (chars + size > PART_CHARS || part.length === PART_EXCHANGES)) {
			scope.postMessage({ exchanges: part });
			part = [];
			chars = 0;
		}
		part.push(ex);
		chars += size;
	}
	if (part.length) scope.postMessage({ exchanges: part });
}

scope.addEventListener('message', async ({ data: { file } }) => {
	// Said at once, so the page knows this thread runs (har-import-client.ts): nothing done yet.
	scope.postMessage({ progress: [0, 0] });
	// A file too large is refused before it is read.
	const tooLarge = sizeRefusal(file.size);
	if (tooLarge) return scope.postMessage({ result: tooLarge });
	let sent = -Infinity;
	let text: string;
	try {
		text = await file.text();
	} catch (err) {
		// The file changed or went away since it was chosen.
		const why = err instanceof Error ? err.message : String(err);
		scope.postMessage({
			result: { ok: false, reason: 'unreadable', message: `The file could not be read: ${why}` }
		});
		return;
	}
	const result = importHar(text, {
		onProgress(done, total) {
			const now = performance.now();
			if (now - sent < PROGRESS_EVERY && done < total) return;
			sent = now;
			scope.postMessage({ progress: [done, total] });
		}
	});
	if (!result.ok) return scope.postMessage({ result });
	const { exchanges, ...rest } = result;
	sendInParts(exchanges);
	scope.postMessage({ result: rest });
});
