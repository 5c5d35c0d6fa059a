/** The import check refuses a file stem written in two folders of src/lib (scripts/same-names.js). */
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
		expect([...found]).toEqual([['par', ['src/lib/oauth/par.ts', 'src/lib/server/par.ts']]]);
	});

	it('compares stems: a name with its extensions (.server, .svelte, .js) off is the same name', () => {
		const found = sameNames([
			'src/lib/config.server.js',
			'src/lib/sandbox/config.server.ts',
			'src/lib/server/undo.ts',
			'src/lib/ui/undo.svelte.ts',
			'src/lib/ui/Undo.svelte'
		]);
		expect([...found]).toEqual([
			['config', ['src/lib/config.server.js', 'src/lib/sandbox/config.server.ts']],
			['undo', ['src/lib/server/undo.ts', 'src/lib/ui/undo.svelte.ts']]
		]);
	});

	it('lets a worker sit beside its module, and nowhere else', () => {
		expect([
			...sameNames(['src/lib/highlight.ts', 'src/lib/highlight.worker.ts', 'src/lib/ui/x.ts'])
		]).toEqual([]);
		expect([...sameNames(['src/lib/highlight.ts', 'src/lib/ui/highlight.worker.ts'])]).toEqual([
			['highlight', ['src/lib/highlight.ts', 'src/lib/ui/highlight.worker.ts']]
		]);
	});

	it('finds none in src/lib as it stands', () => {
		const root = resolve(import.meta.dirname, '../..');
		const files = filesUnder(root, 'src/lib');
		expect(files.length).toBeGreaterThan(100);
		expect([...sameNames(files)]).toEqual([]);
	});
});
