// The whole mutation list in parts, each short enough to run on its own (`stryker.parts.mjs`) and
// each with its own incremental file, so that a whole-list score can be measured over several
// sittings and summed by `node scripts/stryker/score.js`. The parts are cut by the time their
// mutants take: a static mutant (module-level code, such as the field table and the findings
// catalogue, or code a test file runs while it is collected) runs the whole unit suite, the others
// only the tests that cover them.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import config from '../../stryker.config.mjs';

/**
 * The files of the config's `mutate` globs (only `dir/**\/*.ts` and plain paths are used there).
 * @param {string[]} globs
 * @returns {string[]}
 */
export function mutatedFiles(globs = /** @type {string[]} */ (config.mutate)) {
	/** @param {string} dir @returns {string[]} */
	const walk = (dir) =>
		readdirSync(dir, { withFileTypes: true })
			.sort((a, b) => (a.name < b.name ? -1 : 1))
			.flatMap((e) =>
				e.isDirectory()
					? walk(join(dir, e.name))
					: e.name.endsWith('.ts')
						? [join(dir, e.name)]
						: []
			);
	return globs.flatMap((g) =>
		g.endsWith('/**/*.ts') ? walk(g.slice(0, -'/**/*.ts'.length)) : [g]
	);
}

const OAUTH = 'src/lib/oauth/';
const STEPS = 'src/lib/steps/';
const CATALOGUE = `${OAUTH}catalogue/`;
/** @param {string} dir @param {string[]} names @returns {(file: string) => boolean} */
const named = (dir, names) => (file) => names.some((n) => file === `${dir}${n}.ts`);

/** Each part's test, in order: a file belongs to the first part whose test it passes. */
const PARTS = [
	(/** @type {string} */ f) => f.startsWith('src/lib/exchange/'),
	named(OAUTH, ['setup-fields']),
	named(OAUTH, ['docs', 'redirect-uri']),
	named(CATALOGUE, ['token', 'signed-jwt', 'consent-url', 'transport', 'revocation-introspection']),
	(/** @type {string} */ f) => f.startsWith(CATALOGUE),
	// The step specs with the diagnosis that reads them: the same tests cover both.
	(/** @type {string} */ f) =>
		f.startsWith(STEPS) ||
		named(OAUTH, ['diagnose', 'wrong-endpoint', 'redirect-refusal', 'api-request'])(f),
	(/** @type {string} */ f) => f.startsWith(OAUTH),
	() => true
];

export const PART_COUNT = PARTS.length;

/**
 * The files of part `n` (1 to PART_COUNT). Every listed file is in exactly one part.
 * @param {number} n
 */
export const filesOf = (n) =>
	mutatedFiles().filter((f) => PARTS.findIndex((test) => test(f)) === n - 1);

/** @typedef {{ status: string, static?: boolean }} Mutant */
/** @typedef {{ Killed: number, Timeout: number, Survived: number, NoCoverage: number, Ignored: number, other: number, static: number, valid: number, score: number }} Tally */

/**
 * A part's (or the whole list's) counts and score, as Stryker scores: killed and timed out over
 * those plus the survivors and the uncovered; ignored mutants do not count.
 * @param {Mutant[]} mutants
 * @returns {Tally}
 */
export function tally(mutants) {
	const n = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, other: 0, static: 0 };
	for (const m of mutants) {
		const status = /** @type {keyof typeof n} */ (m.status);
		if (status in n && status !== 'other' && status !== 'static') n[status]++;
		else n.other++;
		if (m.static) n.static++;
	}
	const valid = n.Killed + n.Timeout + n.Survived + n.NoCoverage;
	return { ...n, valid, score: valid ? (100 * (n.Killed + n.Timeout)) / valid : NaN };
}
