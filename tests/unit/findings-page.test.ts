/**
 * docs/findings.md is made from the findings catalogue by scripts/findings-docs.js: the page is
 * what the script makes of the catalogue as it is, and what it makes says each entry's code, level
 * and reference as the entry does.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CATALOGUE } from '$lib/oauth/catalogue';
import type { Entry } from '$lib/oauth/catalogue/raise';
import {
	PAGE,
	catalogueSource,
	entryComments,
	findingsPage,
	findingsSections
} from '../../scripts/findings-docs.js';

const sections = () => findingsSections(CATALOGUE, catalogueSource);

describe('docs/findings.md', () => {
	test('is what scripts/findings-docs.js makes of the catalogue (run it with --write when this fails)', () => {
		expect(readFileSync(PAGE, 'utf8')).toBe(findingsPage(sections()));
	});

	test('has a row for every entry, in its file’s section, with its code, level and reference', () => {
		const made = sections();
		expect(made.map((s) => s.file)).toEqual(Object.keys(CATALOGUE));
		for (const { file, rows } of made) {
			const entries = Object.entries(CATALOGUE[file as keyof typeof CATALOGUE]) as [
				string,
				Entry<never>
			][];
			expect(rows.map(([name]) => name).sort(), file).toEqual(
				entries.map(([name]) => `\`${name}\``).sort()
			);
			for (const [name, e] of entries) {
				const [, code, level, what, ref] = rows.find(([n]) => n === `\`${name}\``)!;
				expect(level, name).toBe(e.level);
				expect(ref, name).toBe(e.ref ?? 'none');
				expect(what, name).not.toBe('');
				if (typeof e.code === 'string') expect(code, name).toBe(`\`${e.code}\``);
				else expect(code, name).toMatch(/^the service's `error`/);
			}
		}
	});

	test('an entry without a doc comment stops the page, naming the entry', () => {
		const catalogue = { token: { UNSAID: { code: 'x', level: 'info', ref: undefined } } };
		const source = "export const UNSAID = entry({ code: 'x' });";
		expect(() => findingsSections(catalogue, () => source)).toThrow(
			/token\.UNSAID has no doc comment/
		);
	});

	test('a doc comment’s first paragraph, on one line, is what the page says of its entry', () => {
		const source = [
			'/**',
			' * The first line',
			' * and its second.',
			' *',
			' * Notes for the code only.',
			' */',
			'export const A = entry({});',
			'/** One line. */',
			'export const B = entry({});'
		].join('\n');
		expect([...entryComments(source)]).toEqual([
			['A', 'The first line and its second.'],
			['B', 'One line.']
		]);
	});
});
