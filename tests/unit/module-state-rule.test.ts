/**
 * The module-state rule (eslint.config.js, `no-restricted-syntax`): no module-level mutable state in
 * src/lib outside ui/, where what depends on an app is made by its owner and handed down. ESLint's
 * own Node API lints a text as if it were a file at the path given, with the project's config.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint();

// The first lint loads the project's config and its parsers: seconds on a busy machine, paid here
// once rather than inside the first test's time limit.
beforeAll(() => eslint.lintText('', { filePath: 'src/lib/oauth/made-up.ts' }), 60_000);

/** The module-state messages ESLint gives `code` as the file at `filePath`. */
async function refusals(code: string, filePath: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath });
	return result!.messages
		.filter((m) => m.ruleId === 'no-restricted-syntax')
		.map((m) => `${m.line}: ${m.message}`);
}

const STATE = `let count = 0;
export let last = '';
const seen = new Map<string, number>();
export const names = new Set<string>();
const held = new WeakMap<object, number>();

export function note(name: string): number {
	names.add(name);
	last = name;
	seen.set(name, ++count);
	return count;
}
`;

describe('module state', () => {
	test('refused outside ui/: a module-level let, and an empty Map, Set or WeakMap, exported or not', async () => {
		for (const file of [
			'src/lib/oauth/made-up.ts',
			'src/lib/exchange/made-up.ts',
			'src/lib/made-up.ts',
			'src/lib/server/made-up.ts',
			'src/lib/sandbox/made-up.server.ts'
		]) {
			const found = await refusals(STATE, file);
			expect(
				found.map((f) => f.split(':')[0]),
				file
			).toEqual(['1', '2', '3', '4', '5']);
			expect(found[0]).toMatch(/No module state in src\/lib outside ui\//);
		}
	});

	test('allowed: state in a function, a true constant, and per-tab state in the browser’s ui/', async () => {
		const constants = `const KNOWN = new Set(['access_token', 'token_type']);
export const LIMIT = 1024;
export function counter() {
	let n = 0;
	const seen = new Map<string, number>();
	return (k: string) => seen.set(k, ++n).get(k);
}
export const known = (k: string) => KNOWN.has(k) && k.length < LIMIT;
`;
		expect(await refusals(constants, 'src/lib/oauth/made-up.ts')).toEqual([]);
		expect(await refusals(STATE, 'src/lib/ui/made-up.ts')).toEqual([]);
	});
});
