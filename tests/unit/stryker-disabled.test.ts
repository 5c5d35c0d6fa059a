/**
 * docs/testing.md lists every disabled mutant with its reason; this keeps that list true. When it fails,
 * run `node scripts/stryker/disabled.js --write` and read the diff.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
	disabledMutants,
	disabledTable,
	PAGE,
	pageWithTable
} from '../../scripts/stryker/disabled.js';

describe('the disabled mutants', () => {
	const rows = disabledMutants();

	test("docs/testing.md's table is the list the code gives", () => {
		const readme = readFileSync(PAGE, 'utf8');
		expect(pageWithTable(readme)).toBe(readme);
	});

	test('every disable says why', () => {
		expect(rows.filter((r) => !r.reason)).toEqual([]);
	});
});

describe('reading the comments', () => {
	const dir = mkdtempSync(join(tmpdir(), 'disabled-'));
	afterAll(() => rmSync(dir, { recursive: true }));
	const file = join(dir, 'mod.ts');
	writeFileSync(
		file,
		[
			'const a = 1;',
			'\t// Stryker disable next-line StringLiteral,Regex: the reason, with: a colon',
			'const b = 2;',
			'// Stryker disable all: whole block',
			'// Stryker restore all',
			'// Stryker disable BlockStatement',
			'// a comment that mentions Stryker disable in passing is not one'
		].join('\n')
	);

	test('each disable comment, with or without next-line, its mutators and its reason', () => {
		const found = disabledMutants([file]).map(({ mutators, reason, where }) => ({
			line: Number(where.split(':').at(-1)),
			mutators,
			reason
		}));
		expect(found).toEqual([
			{ line: 2, mutators: 'StringLiteral,Regex', reason: 'the reason, with: a colon' },
			{ line: 4, mutators: 'all', reason: 'whole block' },
			{ line: 6, mutators: 'BlockStatement', reason: '' }
		]);
	});

	test('a disable without a reason shows as such in the table', () => {
		expect(disabledTable(disabledMutants([file]))).toContain('(no reason given)');
	});

	test('a page without the markers is refused rather than rewritten', () => {
		expect(() => pageWithTable('# no table here\n')).toThrow(/markers/);
	});
});
