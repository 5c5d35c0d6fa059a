/**
 * File stems written in two folders of src/lib (SvelteKit's `+` files apart): two `par.ts` make a
 * reader open the wrong one, and so do `undo.ts` and `undo.svelte.ts`. A stem is the name up to its
 * first dot. `npm run check` fails on any (scripts/check-imports.js); a module is named for what it
 * holds instead. A worker beside its module (`highlight.worker.ts` next to `highlight.ts`) is that
 * module's other half, not another module of the same name.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

/**
 * @param {string[]} files paths under one root
 * @returns {Map<string, string[]>} each repeated stem and the files that carry it
 */
export function sameNames(files) {
	/** @type {Map<string, string[]>} */
	const byStem = new Map();
	for (const file of files) {
		const name = basename(file);
		if (name.startsWith('+')) continue;
		const [stem = name] = name.split('.');
		const worker = /\.worker\.[jt]s$/.test(name);
		// A worker beside its module: same folder, same stem.
		if (worker && (byStem.get(stem) ?? []).some((f) => dirname(f) === dirname(file))) continue;
		const kept = (byStem.get(stem) ?? []).filter(
			(f) => !(/\.worker\.[jt]s$/.test(basename(f)) && dirname(f) === dirname(file))
		);
		byStem.set(stem, [...kept, file]);
	}
	return new Map([...byStem].filter(([, paths]) => paths.length > 1));
}

/**
 * Every file under `dir`, relative to `root`.
 * @param {string} root
 * @param {string} dir
 * @returns {string[]}
 */
export function filesUnder(root, dir) {
	return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile())
		.map((e) => relative(root, join(e.parentPath, e.name)));
}
