// docs/findings.md, made from the findings catalogue (src/lib/oauth/catalogue/): each finding's
// code, level and reference are written once, in its entry, with a doc comment that says what the
// finding is, and this page is derived from them. `node scripts/findings-docs.js` prints the page;
// `--write` writes it. A unit test checks that the page is what this prints, so an entry added
// without its doc comment, or a page that lags, fails the tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const PAGE = 'docs/findings.md';
const FOLDER = 'src/lib/oauth/catalogue';

/**
 * @typedef {{ code: string | ((...args: unknown[]) => string | undefined), level: string, ref: string | undefined }} Entry
 * @typedef {Record<string, Record<string, unknown>>} Catalogue each catalogue file's exports, by file
 * @typedef {{ file: string, about: string, rows: string[][] }} Section
 */

/**
 * The first paragraph of a doc comment's text (`/** … *\/`), on one line.
 * @param {string} body what is between the comment's opening and closing
 */
function firstParagraph(body) {
	const lines = body.split('\n').map((l) => l.replace(/^\s*\*? ?/, '').trimEnd());
	const start = lines.findIndex((l) => l.trim() !== '');
	const end = lines.findIndex((l, i) => i > start && l.trim() === '');
	return lines
		.slice(start, end === -1 ? undefined : end)
		.join(' ')
		.replace(/\s+/g, ' ')
		.trim();
}

/**
 * The doc comment of each `export const` of a catalogue file, by the constant's name: the first
 * paragraph, which says what the finding is.
 * @param {string} source
 * @returns {Map<string, string>}
 */
export function entryComments(source) {
	const found = new Map();
	for (const m of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const (\w+)\b/g))
		found.set(m[2], firstParagraph(m[1] ?? ''));
	return found;
}

/**
 * A catalogue file's own doc comment (the one it starts with), its first paragraph.
 * @param {string} source
 */
function fileComment(source) {
	const m = /^\/\*\*((?:(?!\*\/)[\s\S])*)\*\//.exec(source);
	return m ? firstParagraph(m[1] ?? '') : '';
}

/**
 * A value that is an entry of the catalogue (an object with a level), as opposed to another export.
 * @param {unknown} v
 * @returns {v is Entry}
 */
const isEntry = (v) => typeof v === 'object' && v !== null && 'level' in v;

/**
 * How the page writes an entry's code: the code; or, for an entry that carries the service's own
 * error, so, with the code its function gives when the service named none (it is called without
 * what was found).
 * @param {Entry} e
 */
function codeCell(e) {
	if (typeof e.code === 'string') return `\`${e.code}\``;
	const otherwise = e.code();
	return `the service's \`error\`${otherwise ? `, else \`${otherwise}\`` : ''}`;
}

/**
 * A table cell: one line, its pipes escaped.
 * @param {string} text
 */
const cell = (text) => text.replace(/\|/g, '\\|');

/**
 * The page's sections: one per catalogue file, in the catalogue's order, each with the file's own
 * words and one row per entry, in the file's order (entry, code, level, what it is, what it rests
 * on).
 * @param {Catalogue} catalogue
 * @param {(file: string) => string} sourceOf a catalogue file's source, by its name
 * @returns {Section[]}
 */
export function findingsSections(catalogue, sourceOf) {
	return Object.entries(catalogue).map(([file, exports]) => {
		const source = sourceOf(file);
		const comments = entryComments(source);
		// The file's order, which a module's exports do not keep.
		const order = [...comments.keys()];
		const rows = Object.entries(exports)
			.sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
			.flatMap(([name, e]) => {
				if (!isEntry(e)) return [];
				const what = comments.get(name);
				if (!what) throw new Error(`${file}.${name} has no doc comment (${FOLDER}/${file}.ts)`);
				return [[`\`${name}\``, codeCell(e), e.level, cell(what), cell(e.ref ?? 'none')]];
			});
		return { file, about: fileComment(source), rows };
	});
}

/**
 * A Markdown table padded as Prettier formats it.
 * @param {string[]} head
 * @param {string[][]} rows
 */
function table(head, rows) {
	const width = head.map((h, c) => Math.max(h.length, 3, ...rows.map((r) => r[c]?.length ?? 0)));
	const line = (/** @type {string[]} */ row) =>
		`| ${row.map((text, c) => text.padEnd(width[c] ?? 0)).join(' | ')} |`;
	return [line(head), line(width.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/**
 * The page, Markdown.
 * @param {Section[]} sections
 */
export function findingsPage(sections) {
	return [
		'# Findings',
		'',
		'<!-- Made by `node scripts/findings-docs.js --write` from the catalogue in src/lib/oauth/catalogue/: edit the words there. -->',
		'',
		'Every finding the playground attaches to an exchange, by the catalogue file of its concern. A',
		"finding's code, level, words, fix and the rule it rests on are written once, in its entry; its",
		'words and fix are made from what was found, so this page says what each finding is. Some codes',
		'have several entries, said differently where the case differs. "Rests on" is the RFC section or',
		"the section of the service's API docs; none where the finding is about the network or the",
		"playground itself, not a rule of the protocol. A finding that carries the service's own OAuth",
		'error has that error as its code.',
		'',
		...sections.flatMap((s) => [
			`## \`${s.file}.ts\``,
			'',
			...(s.about ? [s.about, ''] : []),
			...table(['entry', 'code', 'level', 'the finding', 'rests on'], s.rows),
			''
		])
	]
		.join('\n')
		.replace(/\n+$/, '\n');
}

/**
 * A catalogue file's source, by its name.
 * @param {string} file
 */
export const catalogueSource = (file) => readFileSync(resolve(FOLDER, `${file}.ts`), 'utf8');

if (import.meta.url === `file://${process.argv[1]}`) {
	// The catalogue is TypeScript with SvelteKit's $lib alias: Vite's module runner loads it.
	const { runnerImport } = await import('vite');
	const { module } = await runnerImport(resolve(FOLDER, 'index.ts'), {
		configFile: false,
		logLevel: 'silent',
		resolve: { alias: { $lib: resolve('src/lib') } }
	});
	const page = findingsPage(findingsSections(module.CATALOGUE, catalogueSource));
	if (process.argv.includes('--write')) writeFileSync(PAGE, page);
	else process.stdout.write(page);
}
