// Lists every `// Stryker disable` comment in the mutated modules, with its reason, as the rows of
// the table under "Mutation testing" in docs/testing.md. `node scripts/stryker/disabled.js` prints
// the table; `--write` puts it into docs/testing.md between its two markers. A unit test checks that
// the page's table is what this prints, so a disable without a reason, or a page that lags, fails
// the tests.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { mutatedFiles } from './parts.js';

const ROOT = 'src/lib';
/** The page that holds the table. */
export const PAGE = 'docs/testing.md';
const BEGIN = '<!-- stryker-disabled:begin -->';
const END = '<!-- stryker-disabled:end -->';
const COMMENT = /\/\/\s*Stryker disable(?: next-line)?\s+([\w,]+)(?::\s*(.*))?$/;

/**
 * Every disable comment: where (file under src/lib, and line), which mutators, and why.
 * @param {string[]} files
 * @returns {{ where: string, mutators: string, reason: string }[]}
 */
export function disabledMutants(files = mutatedFiles()) {
	return files.flatMap((file) =>
		readFileSync(file, 'utf8')
			.split('\n')
			.flatMap((line, i) => {
				const m = COMMENT.exec(line);
				if (!m) return [];
				return [
					{
						where: `${relative(ROOT, file)}:${i + 1}`,
						mutators: m[1] ?? '',
						reason: (m[2] ?? '').trim()
					}
				];
			})
	);
}

/**
 * The table, Markdown, as Prettier formats it.
 * @param {{ where: string, mutators: string, reason: string }[]} rows
 */
export function disabledTable(rows = disabledMutants()) {
	const head = ['where', 'mutator', 'why it cannot change behaviour'];
	const cells = rows.map((r) => [`\`${r.where}\``, r.mutators, r.reason || '(no reason given)']);
	const width = head.map((h, c) =>
		Math.max(h.length, 3, ...cells.map((row) => row[c]?.length ?? 0))
	);
	const line = (/** @type {string[]} */ row) =>
		`| ${row.map((cell, c) => cell.padEnd(width[c] ?? 0)).join(' | ')} |`;
	return [line(head), line(width.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/**
 * The page (docs/testing.md) with its table replaced by the current one.
 * @param {string} page
 */
export function pageWithTable(page, table = disabledTable()) {
	const a = page.indexOf(BEGIN);
	const b = page.indexOf(END);
	if (a < 0 || b < a) throw new Error(`${PAGE} has no ${BEGIN} … ${END} markers`);
	return `${page.slice(0, a + BEGIN.length)}\n\n${table}\n\n${page.slice(b)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	if (process.argv.includes('--write'))
		writeFileSync(PAGE, pageWithTable(readFileSync(PAGE, 'utf8')));
	else console.log(disabledTable());
}
