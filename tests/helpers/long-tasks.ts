/**
 * What a page's main thread spent, for the tests of work that must not hold it up: the long tasks
 * Chromium reports (PerformanceObserver 'longtask': every task over 50 ms, with its duration), and
 * the main thread's total task time (the DevTools protocol's `TaskDuration` metric, which counts the
 * page's main thread only, not its workers).
 */
import type { Page } from 'playwright-core';

export interface LongTask {
	/** When it started, in the page's performance.now() milliseconds. */
	start: number;
	/** How long it ran, in milliseconds. */
	ms: number;
}

/** Observes the page's long tasks from its first script on: call before the page is opened. */
export async function watchLongTasks(p: Page): Promise<void> {
	await p.addInitScript(() => {
		const seen: { start: number; ms: number }[] = [];
		const observer = new PerformanceObserver((list) => {
			for (const e of list.getEntries()) seen.push({ start: e.startTime, ms: e.duration });
		});
		observer.observe({ type: 'longtask', buffered: true });
		Object.assign(window, {
			__pgLongTasks: () => {
				for (const e of observer.takeRecords()) seen.push({ start: e.startTime, ms: e.duration });
				return seen;
			}
		});
	});
}

/** The page's time now (performance.now()), to count long tasks from. */
export const pageNow = (p: Page) => p.evaluate(() => performance.now());

/**
 * The long tasks that started at `from` or later, once the page has drawn a frame and run a task
 * after it (so the last one has ended and been reported).
 */
export async function longTasksSince(p: Page, from: number): Promise<LongTask[]> {
	await p.evaluate(
		() => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)))
	);
	const all = await p.evaluate(() =>
		(window as unknown as { __pgLongTasks: () => LongTask[] }).__pgLongTasks()
	);
	return all
		.filter((t) => t.start >= from)
		.map((t) => ({ start: Math.round(t.start), ms: Math.round(t.ms) }));
}

/** Reads the page's main-thread task time so far, in milliseconds (DevTools' TaskDuration). */
export async function mainThreadClock(p: Page): Promise<() => Promise<number>> {
	const cdp = await p.context().newCDPSession(p);
	await cdp.send('Performance.enable');
	return async () => {
		const { metrics } = await cdp.send('Performance.getMetrics');
		return 1000 * (metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN);
	};
}
