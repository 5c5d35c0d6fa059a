/**
 * The ignore-plugins' rules (scripts/stryker): each skips the mutants it can prove change nothing,
 * and leaves to run the ones that would (a look-alike that is not the same case).
 */
import { describe, expect, test } from 'vitest';
import { ignoredMutants } from '../../scripts/stryker/ignored.js';

/** The ignored mutants of one snippet, as `mutator replacement` on the line given. */
async function ignored(code: string) {
	const list = await ignoredMutants([{ name: 'snippet.ts', content: code }]);
	return list.map((m) => `${m.line} ${m.mutator} ${m.replacement}`);
}

describe('equivalent forms', () => {
	test('a catch that returns undefined at the end of its function', async () => {
		const last = `function f(t: string) {\n\ttry {\n\t\treturn JSON.parse(t);\n\t} catch {\n\t\treturn undefined;\n\t}\n}`;
		expect(await ignored(last)).toEqual(['4 BlockStatement {}']);
		// Something follows the try: emptying the catch would run it.
		const more = `function f(t: string) {\n\ttry {\n\t\treturn JSON.parse(t);\n\t} catch {\n\t\treturn undefined;\n\t}\n\treturn 1;\n}`;
		expect(await ignored(more)).toEqual([]);
		// The catch returns a value.
		const value = `function f(t: string) {\n\ttry {\n\t\treturn JSON.parse(t);\n\t} catch {\n\t\treturn null;\n\t}\n}`;
		expect(await ignored(value)).toEqual([]);
	});

	test("a fallback only tested by patterns that answer the same for '' and the mutant's text", async () => {
		expect(await ignored(`export const f = (v?: string) => /html/i.test(v ?? '');`)).toEqual([
			'1 StringLiteral "Stryker was here!"'
		]);
		expect(
			await ignored(
				`export function f(v?: string) {\n\tconst ct = v ?? '';\n\treturn /html/.test(ct) || /^</.test(String(ct));\n}`
			)
		).toEqual(['2 StringLiteral "Stryker was here!"']);
		// A pattern the mutant's text matches ("here"), one that '' matches, and a use that is no test.
		expect(await ignored(`export const f = (v?: string) => /here/.test(v ?? '');`)).toEqual([]);
		expect(await ignored(`export const f = (v?: string) => /^$/.test(v ?? '');`)).toEqual([]);
		expect(
			await ignored(
				`export function f(v?: string) {\n\tconst ct = v ?? '';\n\treturn /html/.test(ct) ? ct.length : 0;\n}`
			)
		).toEqual([]);
		// exec gives the match itself: alike only when neither text matches.
		expect(await ignored(`export const f = (v?: string) => /%\\d/.exec(v ?? '');`)).toEqual([
			'1 StringLiteral "Stryker was here!"'
		]);
		expect(await ignored(`export const f = (v?: string) => /\\w*/.exec(v ?? '');`)).toEqual([]);
	});

	test('the default of the first item of a split', async () => {
		expect(
			await ignored(
				`export function f(v: string) {\n\tconst [a = '', ...b] = v.split(';');\n\treturn [a, b];\n}`
			)
		).toEqual(['2 StringLiteral "Stryker was here!"']);
		// The second item may be missing: its default is used.
		expect(
			await ignored(
				`export function f(v: string) {\n\tconst [a, b = ''] = v.split(';');\n\treturn [a, b];\n}`
			)
		).toEqual([]);
	});
});

describe('user-facing text', () => {
	test('a text, or a function giving one, used only inside a message', async () => {
		const said = `export function f(d?: string) {\n\tconst said = d !== undefined ? \` (\${d})\` : '';\n\treturn { code: 'x', message: \`Refused.\${said}\` };\n}`;
		expect((await ignored(said)).filter((m) => m.startsWith('2 '))).toEqual([
			'2 ConditionalExpression true',
			'2 ConditionalExpression false',
			'2 EqualityOperator d === undefined',
			'2 StringLiteral ``',
			'2 StringLiteral "Stryker was here!"'
		]);
		const whence = `const whence = (m: boolean) => (m ? 'the metadata' : 'the setup');\nexport const f = (m: boolean) => ({ code: 'x', message: \`From \${whence(m)}.\` });`;
		expect((await ignored(whence)).filter((m) => m.startsWith('1 '))).toEqual([
			'1 ArrowFunction () => undefined',
			'1 StringLiteral ""',
			'1 StringLiteral ""'
		]);
	});

	test('keeps the mutants of a value that is used elsewhere, or is no text', async () => {
		// `said` also decides the code.
		const used = `export function f(d?: string) {\n\tconst said = d !== undefined ? \` (\${d})\` : '';\n\treturn { code: said ? 'y' : 'x', message: \`Refused.\${said}\` };\n}`;
		expect((await ignored(used)).filter((m) => m.startsWith('2 '))).toEqual([]);
		// A flag that picks one message or another is logic, not wording.
		const flag = `export function f(a: number, b: number) {\n\tconst late = a >= b;\n\treturn { code: 'x', message: late ? 'Expired.' : 'Refused.' };\n}`;
		expect((await ignored(flag)).filter((m) => m.startsWith('2 '))).toEqual([]);
	});
});
