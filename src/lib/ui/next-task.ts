/**
 * Resolves in a later task of the page's event loop, so the work after it does not lengthen the
 * task before it: the browser can draw and answer input in between (a task over 50 ms is one the
 * user feels). `scheduler.yield()` where the browser has it, which keeps this work ahead of other
 * queued tasks; a zero-delay timer elsewhere.
 */
export function nextTask(): Promise<void> {
	const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
	return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}
