// docs/configuration.md, made from the configuration schema (src/lib/config.server.js): each
// variable's default and meaning are written once, in its schema's `meta`, and this page is derived.
// `node scripts/config-docs.js` prints the page; `--write` writes it. A unit test checks that the page
// is what this prints, so a variable added without words, or a page that lags, fails the tests.
import { writeFileSync } from 'node:fs';
import { variables } from '../src/lib/config.server.js';

export const PAGE = 'docs/configuration.md';

/** Variables the server does not read, only the tests: [name, default, meaning]. @type {[string, string, string][]} */
const TESTS_ONLY = [
	[
		'CHROMIUM_PATH',
		'`/usr/bin/chromium-headless-shell`',
		'the browser the e2e tests drive (tests only)'
	]
];

/**
 * A variable's default as the page writes it: in words when it depends on something else.
 * @param {import('zod').ZodType} schema
 */
export function documentedDefault(schema) {
	const words = schema.meta()?.default;
	if (typeof words === 'string') return words;
	const value = schema.parse(undefined);
	const unset = value === undefined || (Array.isArray(value) && value.length === 0);
	return unset ? 'unset' : `\`${String(value)}\``;
}

/**
 * The rows: every variable of the schema, in its order, then the tests' own.
 * @param {Record<string, import('zod').ZodType>} shape
 */
export function configRows(shape = variables.shape) {
	const rows = Object.entries(shape).map(([name, schema]) => {
		const description = schema.meta()?.description;
		if (typeof description !== 'string' || !description)
			throw new Error(`${name} has no description in its schema's meta (src/lib/config.server.js)`);
		return [`\`${name}\``, documentedDefault(schema), description];
	});
	return [...rows, ...TESTS_ONLY.map(([n, d, m]) => [`\`${n}\``, d, m])];
}

/**
 * The page, Markdown, its table padded as Prettier formats it.
 * @param {string[][]} rows
 */
export function configPage(rows = configRows()) {
	const head = ['variable', 'default', 'meaning'];
	const width = head.map((h, c) => Math.max(h.length, 3, ...rows.map((r) => r[c]?.length ?? 0)));
	const line = (/** @type {string[]} */ row) =>
		`| ${row.map((cell, c) => cell.padEnd(width[c] ?? 0)).join(' | ')} |`;
	return [
		'# Configuration',
		'',
		'<!-- Made by `node scripts/config-docs.js --write` from the schema in src/lib/config.server.js: edit the words there. -->',
		'',
		'Every environment variable the server reads, and the one only the tests read. A bad value of any',
		'of them stops the start with a message that names it.',
		'',
		line(head),
		line(width.map((w) => '-'.repeat(w))),
		...rows.map(line),
		''
	].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
	if (process.argv.includes('--write')) writeFileSync(PAGE, configPage());
	else process.stdout.write(configPage());
}
