/**
 * The HAR import's thread: the file is read, checked, redacted and diagnosed here
 * (`importHar`, oauth/imported.ts), off the page's main thread, which only draws the progress and
 * then the result. A file of 5 MB with 16 secrets of 1,024 characters takes seconds of redaction;
 * on the page that was seconds without a frame drawn or a key answered. The page starts a worker
 * for each file and ends it after (har-import-client.ts), so nothing of one file, its secrets'
 * patterns included, outlives its import.
 */
import { sizeRefusal, type ImportResult } from '$lib/exchange/har/import';
import { importHar } from '$lib/oauth/imported';

/** What the page sends: the file, which is read here. */
export interface ImportRequest {
	file: Blob;
}

/** What this thread sends back: how far it is, then the result (once). */
export type ImportAnswer = { progress: [done: number, total: number] } | { result: ImportResult };

/** Progress is sent at most this often (ms), and at the end: the page redraws on each. */
const PROGRESS_EVERY = 100;

const scope = self as unknown as {
	addEventListener(type: 'message', fn: (e: MessageEvent<ImportRequest>) => void): void;
	postMessage(message: ImportAnswer): void;
};

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
	scope.postMessage({ result });
});
