/**
 * File names written in two folders of src/lib (SvelteKit's `+` files apart): two `par.ts` make a
 * reader open the wrong one. `npm run check` fails on any (scripts/check-imports.js); a module is
 * named for what it holds instead.
 */
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

/**
 * @param {string[]} files paths under one root
 * @returns {Map<string, string[]>} each repeated name and the files that carry it
 */
export function sameNames(files) {
	/** @type {Map<string, string[]>} */
	const byName = new Map();
	for (const file of files) {
		const name = basename(file);
		if (name.startsWith('+')) continue;
		byName.set(name, [...(byName.get(name) ?? []), file]);
	}
	return new Map([...byName].filter(([, paths]) => paths.length > 1));
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
