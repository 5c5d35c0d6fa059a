/**
 * The bench's summary of its last three runs (scripts/bench/runs.js) names the commit each run
 * measured, so a figure can be tied to the build it came from; a run recorded before the commit
 * was kept (or outside a git checkout) is listed by its date alone.
 */
import { expect, test } from 'vitest';
import { summary } from '../../scripts/bench/runs.js';

const run = (date: string, commit?: string) => ({
	environment: { date, commit, quick: false, loadAverageAtStart: [1.5, 1, 0.5] },
	results: {}
});

test('the summary names the commit of each run that has one', () => {
	const [first] = summary([run('2026-12-07T03:00:00Z'), run('2026-12-07T03:08:00Z', 'a884b44')]);
	expect(first).toBe(
		'Last 2 runs: 2026-12-07T03:00:00Z (load average 1.5 1 0.5); 2026-12-07T03:08:00Z at a884b44 (load average 1.5 1 0.5)'
	);
});

test("(d) is summed up with the V8 heap in use beside the RSS: what the sessions keep, without the allocator's spread", () => {
	const withMemory = (rss: number, heap: number) => ({
		...run('2026-12-07T09:00:00Z', 'db8ecd1'),
		memory: { rssGrowthMiB: rss, heapUsedGrowthMiB: heap }
	});
	const lines = summary([
		withMemory(22.77, 11.8),
		withMemory(17.63, 11.7),
		withMemory(21.78, 11.8)
	]);
	expect(lines).toContain('  (d) RSS growth, MB: 21.78 median (17.63–22.77; 22.77, 17.63, 21.78)');
	expect(lines).toContain(
		'  (d) V8 heap in use growth, MB: 11.8 median (11.7–11.8; 11.8, 11.7, 11.8)'
	);
});
