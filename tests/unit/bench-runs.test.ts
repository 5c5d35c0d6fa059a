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
