// The whole mutation list in parts (scripts/stryker/parts.js): the parts' scores add up to the
// whole list's only if every listed file is in exactly one part and each part is scored as
// Stryker scores.
import { describe, expect, test } from 'vitest';
import { PART_COUNT, filesOf, mutatedFiles, tally } from '../../scripts/stryker/parts.js';

describe('the mutation list in parts', () => {
	test('every file of the list is in exactly one part, and no part is empty', () => {
		const parts = Array.from({ length: PART_COUNT }, (_, i) => filesOf(i + 1));
		for (const files of parts) expect(files.length).toBeGreaterThan(0);
		const inParts = parts.flat();
		expect(new Set(inParts).size).toBe(inParts.length);
		expect([...inParts].sort()).toEqual([...mutatedFiles()].sort());
	});

	test('a part is scored as Stryker scores: ignored mutants do not count, timeouts are kills', () => {
		const of = (status: string, n: number, isStatic = false) =>
			Array.from({ length: n }, () => ({ status, static: isStatic }));
		const t = tally([
			...of('Killed', 5, true),
			...of('Timeout', 1),
			...of('Survived', 1, true),
			...of('NoCoverage', 1),
			...of('Ignored', 4)
		]);
		expect(t).toMatchObject({ valid: 8, Killed: 5, Timeout: 1, Ignored: 4, static: 6 });
		expect(t.score).toBe(75);
		expect(tally([]).score).toBeNaN();
	});
});
