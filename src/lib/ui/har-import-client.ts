/**
 * The page's side of the HAR import: each file is imported in a Web Worker of its own
 * (har-import.worker.ts), started for it and ended after it, so the page keeps drawing and
 * answering while a large file is redacted, and no import's secrets outlive it. Where the browser
 * cannot start the worker (no module workers), the import runs on this thread, as it did before.
 * The worker sends the exchanges in parts, each taken in a task of its own, and they are put
 * together here when the rest of the result comes.
 */
import type { ImportResult } from '$lib/exchange/har/import';
import type { Exchange } from '$lib/exchange/types';
import type { ImportAnswer, ImportRequest } from './har-import.worker';

export interface RunningImport {
	/** The import's result; never rejects. Undefined when it was cancelled. */
	result: Promise<ImportResult | undefined>;
	/** Ends the import: its worker stops at once, and `result` is undefined. */
	cancel(): void;
}

/** Imports `file` off the page; `onProgress` is told how many of the file's entries are done. */
export function importFile(
	file: Blob,
	onProgress: (done: number, total: number) => void
): RunningImport {
	let cancel = () => {};
	const result = new Promise<ImportResult | undefined>((resolve) => {
		let worker: Worker;
		try {
			worker = new Worker(new URL('./har-import.worker.ts', import.meta.url), {
				type: 'module',
				name: 'har-import'
			});
		} catch {
			resolve(onThisThread(file));
			return;
		}
		let answered = false;
		const parts: Exchange[][] = [];
		const end = (value: ImportResult | undefined) => {
			worker.terminate();
			resolve(value);
		};
		cancel = () => end(undefined);
		worker.addEventListener('message', (e: MessageEvent<ImportAnswer>) => {
			answered = true;
			const answer = e.data;
			if ('progress' in answer) onProgress(...answer.progress);
			else if ('exchanges' in answer) parts.push(answer.exchanges);
			else if (answer.result.ok) end({ ...answer.result, exchanges: parts.flat() });
			else end(answer.result);
		});
		worker.addEventListener('error', () => {
			worker.terminate();
			// It could not load (no module workers): the import runs here. Once it has answered (it
			// does as soon as it has the file), an error is a defect in the import, and the file is
			// said to be unreadable rather than read again here.
			if (!answered) resolve(onThisThread(file));
			else
				resolve({
					ok: false,
					reason: 'unreadable',
					message: 'This file could not be read as a HAR: the import stopped.'
				});
		});
		worker.postMessage({ file } satisfies ImportRequest);
	});
	return { result, cancel: () => cancel() };
}

async function onThisThread(file: Blob): Promise<ImportResult> {
	const [{ sizeRefusal }, { importHar }] = await Promise.all([
		import('$lib/exchange/har/import'),
		import('$lib/oauth/imported')
	]);
	return sizeRefusal(file.size) ?? importHar(await file.text());
}
