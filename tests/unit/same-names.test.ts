/** The import check refuses a file name written in two folders of src/lib (scripts/same-names.js). */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder, sameNames } from '../../scripts/same-names.js';

describe('file names in two folders', () => {
	it('names each repeated file with every folder that holds it, and passes SvelteKit’s + files', () => {
		const found = sameNames([
			'src/lib/oauth/par.ts',
			'src/lib/server/par.ts',
			'src/lib/ui/Step.svelte',
			'src/routes/+page.svelte',
			'src/routes/link/+page.svelte'
		]);
		expect([...found]).toEqual([['par.ts', ['src/lib/oauth/par.ts', 'src/lib/server/par.ts']]]);
	});

	it('finds none in src/lib as it stands', () => {
		const root = resolve(import.meta.dirname, '../..');
		const files = filesUnder(root, 'src/lib');
		expect(files.length).toBeGreaterThan(100);
		expect([...sameNames(files)]).toEqual([]);
	});
});
