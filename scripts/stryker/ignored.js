// The mutants Stryker would not run, and why: those of a `// Stryker disable` comment and those the
// ignore-plugins (user-facing-text.js, equivalent-forms.js) recognise. It runs Stryker's own
// instrumenter, so what it lists is what `npm run mutate` skips. `node scripts/stryker/ignored.js
// <file.ts>…` prints one line per mutant: file:line:column mutator, then the reason.
import { readFileSync } from 'node:fs';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { strykerPlugins as text } from './user-facing-text.js';
import { strykerPlugins as forms } from './equivalent-forms.js';

const quiet = () => {};
/** Stryker's logger, with everything but warnings and errors dropped. */
const logger = {
	trace: quiet,
	debug: quiet,
	info: quiet,
	warn: console.warn,
	error: console.error,
	fatal: console.error,
	isTraceEnabled: () => false,
	isDebugEnabled: () => false,
	isInfoEnabled: () => false,
	isWarnEnabled: () => true,
	isErrorEnabled: () => true,
	isFatalEnabled: () => true
};

/**
 * @typedef {{ file: string, line: number, column: number, mutator: string, replacement: string, reason: string }} Ignored
 */

/**
 * Every mutant of the given sources that Stryker would not run (lines and columns from 1).
 * @param {{ name: string, content: string }[]} sources
 * @returns {Promise<Ignored[]>}
 */
export async function ignoredMutants(sources) {
	const ignorers = [...text, ...forms].map((p) => /** @type {any} */ (p).value);
	const { mutants } = await new Instrumenter(/** @type {any} */ (logger)).instrument(
		sources.map((s) => ({ ...s, mutate: true })),
		{ plugins: null, ignorers, excludedMutations: [] }
	);
	return mutants
		.filter((m) => m.status)
		.map((m) => ({
			file: m.fileName,
			line: m.location.start.line + 1,
			column: m.location.start.column + 1,
			mutator: m.mutatorName,
			replacement: m.replacement,
			reason: m.statusReason ?? ''
		}));
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const files = process.argv.slice(2);
	const list = await ignoredMutants(
		files.map((name) => ({ name, content: readFileSync(name, 'utf8') }))
	);
	for (const m of list) console.log(`${m.file}:${m.line}:${m.column} ${m.mutator}  ${m.reason}`);
}
