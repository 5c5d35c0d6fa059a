/**
 * The lint rule that keeps a step's behaviour in its spec (eslint.config.js, `no-restricted-syntax`):
 * outside `src/lib/steps/`, a step is never told by its name. ESLint runs on small snippets, as if
 * they were files of the project, with the project's own configuration.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { ESLint } from 'eslint';

let eslint: ESLint;
// The first lint loads the project's config and its parsers (the Svelte one too): seconds on a
// busy machine, paid here once rather than inside the first test's time limit.
beforeAll(async () => {
	eslint = new ESLint({ cwd: process.cwd() });
	await eslint.lintText('', { filePath: 'src/lib/exchange/lint-probe.ts' });
	await eslint.lintText('<p></p>', { filePath: 'src/lib/ui/LintProbe.svelte' });
}, 60_000);

/** The messages of the rules that refuse syntax, for `code` as the file `filePath`. */
async function refusals(code: string, filePath: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath });
	return result!.messages
		.filter((m) => m.ruleId === 'no-restricted-syntax' || m.fatal)
		.map((m) => m.message);
}

const TS = 'src/lib/exchange/lint-probe.ts';
const DECLARED = `declare const ex: { step: string; name: string };
declare const other: { step: string };
declare const step: string;
declare const d: { kind: string };
declare function specOf(s: string): { spends?: string; endpoint?: string };
`;

/** Each form that tells a step by its name. */
const FORBIDDEN: Record<string, string> = {
	'a .step compared with a name': `export const a = ex.step === 'exchange';`,
	'a .step compared with a name by !==': `export const a = ex.step !== 'consent';`,
	'a .step compared with a name by ==': `export const a = ex.step == 'consent';`,
	'the name on the left': `export const a = 'callback' === ex.step;`,
	'a name in backquotes': 'export const a = ex.step === `refresh`;',
	'an optional .step': `export const a = ex?.step === 'api';`,
	'a variable named step': `export const a = step === 'userinfo';`,
	'a case of a name in a switch on .step': `switch (ex.step) { case 'api': break; }`,
	'a case of a name in a switch on step': `switch (step) { case 'check': break; }`,
	'includes(x.step) on a list written out': `export const a = ['exchange', 'refresh'].includes(ex.step);`,
	'includes(step) on a named list': `const TOKEN_STEPS = ['exchange']; export const a = TOKEN_STEPS.includes(step);`
};

/** Forms that look alike and tell no step by its name. */
const ACCEPTED: Record<string, string> = {
	'a question to the spec': `export const a = specOf(ex.step).spends === 'code';`,
	'a question to the spec, by !==': `export const a = specOf(step).endpoint !== 'api';`,
	'two steps compared': `export const a = ex.step === other.step || ex.step === step;`,
	'another member with a step’s name': `export const a = ex.name === 'exchange' || d.kind === 'userinfo';`,
	'a switch on something else': `switch (d.kind) { case 'userinfo': break; }`,
	'includes of something else': `export const a = ['exchange'].includes(ex.name);`
};

describe('a step told by its name', () => {
	test.each(Object.entries(FORBIDDEN))('is refused: %s', async (_, code) => {
		const found = await refusals(DECLARED + code, TS);
		expect(found).toHaveLength(1);
		expect(found[0]).toMatch(/ask the step's spec/);
	});

	test.each(Object.entries(ACCEPTED))('is not what this is: %s', async (_, code) => {
		expect(await refusals(DECLARED + code, TS)).toEqual([]);
	});

	test('is refused in a component’s markup and script, and in every folder outside the specs', async () => {
		const svelte = `<script lang="ts">
	let { ex }: { ex: { step: string } } = $props();
	const shown = $derived(ex.step === 'consent');
</script>

{#if ex.step !== 'callback'}<p>{shown}</p>{/if}
`;
		expect(await refusals(svelte, 'src/lib/ui/LintProbe.svelte')).toHaveLength(2);
		const code = DECLARED + FORBIDDEN['a .step compared with a name'];
		for (const file of [
			'src/lib/oauth/lint-probe.ts',
			'src/lib/ui/lint-probe.svelte.ts',
			'src/lib/server/lint-probe.ts',
			'src/lib/server/steps/flow-steps.ts',
			'src/lib/server/steps/introspect-revoke.ts',
			'src/lib/sandbox/lint-probe.server.ts',
			'src/routes/lint-probe/+page.ts'
		])
			expect(await refusals(code, file), file).toHaveLength(1);
	});

	test('is where it belongs in the step specs and their registry', async () => {
		const code = DECLARED + Object.values(FORBIDDEN).join('\n');
		expect(await refusals(code, 'src/lib/steps/lint-probe-step.ts')).toEqual([]);
		expect(await refusals(code, 'src/lib/steps/registry.ts')).toEqual([]);
	});

	test('leaves the server’s rule against module state in force beside it', async () => {
		const code = `let count = 0;\nexport const next = () => ++count;\n`;
		for (const file of ['src/lib/server/lint-probe.ts', 'src/lib/server/steps/flow-steps.ts'])
			expect(await refusals(code, file), file).toEqual([
				expect.stringMatching(/^No module state in src\/lib/)
			]);
	});
});
