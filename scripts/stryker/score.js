// The whole-list mutation score, summed from the parts' reports (`stryker.parts.mjs` writes
// reports/mutation/part-N.json). `node scripts/stryker/score.js` prints each part and the total,
// and names a part that is missing, or whose files or tests have changed since it ran (run it
// again: it is incremental, so only what changed runs).
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { PART_COUNT, filesOf, tally } from './parts.js';

/** @typedef {{ files: Record<string, { source: string, mutants: import('./parts.js').Mutant[] }>, testFiles?: Record<string, { source?: string }> }} Report */

/** @param {string} file @param {string | undefined} source */
const changed = (file, source) =>
	source !== undefined && (!existsSync(file) || readFileSync(file, 'utf8') !== source);

/** @type {[string, import('./parts.js').Tally][]} */
const rows = [];
/** @type {import('./parts.js').Mutant[]} */
const all = [];
/** @type {string[]} */
const problems = [];
for (let part = 1; part <= PART_COUNT; part++) {
	const path = `reports/mutation/part-${part}.json`;
	if (!existsSync(path)) {
		problems.push(`part ${part}: not run yet (PART=${part} npm run mutate:part)`);
		continue;
	}
	/** @type {Report} */
	const report = JSON.parse(readFileSync(path, 'utf8'));
	const files = Object.keys(report.files).map((f) => relative('.', resolve(f)));
	const want = filesOf(part);
	if (files.length !== want.length || want.some((f) => !files.includes(f))) {
		problems.push(`part ${part}: its report holds other files than the part now lists`);
	}
	const stale = [
		...Object.entries(report.files).filter(([f, d]) => changed(f, d.source)),
		...Object.entries(report.testFiles ?? {}).filter(([f, d]) => changed(f, d.source))
	].map(([f]) => relative('.', resolve(f)));
	if (stale.length)
		problems.push(
			`part ${part}: changed since it ran (PART=${part} npm run mutate:part again): ${stale.join(', ')}`
		);
	const mutants = Object.values(report.files).flatMap((d) => d.mutants);
	all.push(...mutants);
	rows.push([`part ${part}`, tally(mutants)]);
}
rows.push(['whole list', tally(all)]);

const pct = (/** @type {number} */ s) => (Number.isNaN(s) ? '-' : `${s.toFixed(2)}%`);
console.log('part        mutants  killed  timeout  survived  no-cover  ignored  static  score');
for (const [name, t] of rows) {
	console.log(
		[
			String(name).padEnd(10),
			String(t.valid).padStart(8),
			String(t.Killed).padStart(7),
			String(t.Timeout).padStart(8),
			String(t.Survived).padStart(9),
			String(t.NoCoverage).padStart(9),
			String(t.Ignored).padStart(8),
			String(t.static).padStart(7),
			pct(t.score).padStart(8)
		].join(' ')
	);
}
for (const p of problems) console.log(p);
process.exitCode = problems.length ? 1 : 0;
