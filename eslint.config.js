import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import ts from 'typescript-eslint';
import svelteConfig from './svelte.config.js';

/** The selectors of module state, at the top of a module or exported from it. */
function moduleState() {
	const message =
		'No module state in src/lib outside ui/: make it in its owner (an app in the composition root, src/lib/app.server.ts; an import, an export) and pass it in. An allowance says why on its line and is listed in docs/architecture.md.';
	const container = 'NewExpression[callee.name=/^(Map|Set|WeakMap)$/][arguments.length=0]';
	return ['Program > ', 'Program > ExportNamedDeclaration > '].flatMap((top) => [
		{ selector: `${top}VariableDeclaration[kind="let"]`, message },
		{ selector: `${top}VariableDeclaration > VariableDeclarator > ${container}`, message }
	]);
}

/**
 * The selectors of a step told by its name, outside its spec: a `.step` (or a variable `step`)
 * compared with a string, a `case` of a string in a switch on one, and `includes` of one. Ask the
 * step's spec instead (`specOf(ex.step).spends === 'code'`, src/lib/steps/registry.ts).
 */
function stepNames() {
	const message =
		"A step is not told by its name outside src/lib/steps: ask the step's spec what it does (specOf(ex.step).spends, .grantType, .travels…), and add what it lacks to the spec (docs/architecture.md, How to add a step).";
	/** A step: a `.step` member (also in an optional chain) or a variable named `step`. */
	const steps = (at) => [
		`[${at}.type='MemberExpression'][${at}.property.name='step']`,
		`[${at}.type='ChainExpression'][${at}.expression.property.name='step']`,
		`[${at}.type='Identifier'][${at}.name='step']`
	];
	/** A string written out: a quoted literal, or backquotes without a placeholder. */
	const strings = (at) => [
		`[${at}.type='Literal'][${at}.raw=/^['"]/]`,
		`[${at}.type='TemplateLiteral'][${at}.expressions.length=0]`
	];
	const compared = [
		['left', 'right'],
		['right', 'left']
	].flatMap(([step, name]) =>
		steps(step).flatMap((s) =>
			strings(name).map((n) => `BinaryExpression[operator=/^[!=]==?$/]${s}${n}`)
		)
	);
	const cases = steps('discriminant').flatMap((s) =>
		strings('test').map((n) => `SwitchStatement${s} > SwitchCase${n}`)
	);
	const included = steps('arguments.0').map(
		(s) => `CallExpression[callee.property.name='includes']${s}`
	);
	return [...compared, ...cases, ...included].map((selector) => ({ selector, message }));
}

/** Every module of ours that may tell a step by its name: only the specs and their registry may. */
const SOURCES = ['src/**/*.ts', 'src/**/*.js', 'src/**/*.svelte'];
const LIB_OUTSIDE_UI = ['src/lib/**/*.ts', 'src/lib/**/*.js'];

export default defineConfig(
	{
		ignores: [
			'build/',
			'.svelte-kit/',
			'test-output/',
			'node_modules/',
			'reports/',
			'.stryker-tmp/'
		]
	},
	js.configs.recommended,
	...ts.configs.recommended,
	...svelte.configs.recommended,
	prettier,
	...svelte.configs.prettier,
	{
		languageOptions: { globals: { ...globals.browser, ...globals.node } },
		rules: {
			// TypeScript checks names itself (svelte-check runs in `npm run check`).
			'no-undef': 'off',
			// Escaping and validating wire text means matching control characters on purpose.
			'no-control-regex': 'off',
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' }
			]
		}
	},
	{
		// A step's behaviour is in its spec (src/lib/steps): no module tells a step by its name.
		files: SOURCES,
		ignores: ['src/lib/steps/**'],
		rules: {
			'no-restricted-syntax': ['error', ...stepNames()]
		}
	},
	{
		// No module state in src/lib outside the browser's ui/ (and its components): the composition
		// root (src/lib/app.server.ts) builds every service once per app, and what an import or an
		// export needs, it makes. A top-level `let`, or an empty Map/Set/WeakMap at the top of a
		// module, is state; each allowed one says why on its line (docs/architecture.md lists them).
		// A file has one list of restricted syntax (a later block's replaces an earlier one's), so
		// this one holds the step names' selectors too.
		files: LIB_OUTSIDE_UI,
		ignores: ['src/lib/ui/**', 'src/lib/steps/**'],
		rules: {
			'no-restricted-syntax': ['error', ...moduleState(), ...stepNames()]
		}
	},
	{
		files: ['src/lib/steps/**'],
		rules: {
			'no-restricted-syntax': ['error', ...moduleState()]
		}
	},
	{
		files: ['**/*.svelte'],
		rules: {
			// The app has no `paths.base`: root-relative links are already resolved.
			'svelte/no-navigation-without-resolve': 'off',
			// `{' '}` and `{'\n'}` keep a space or a line break that Prettier would otherwise move.
			'svelte/no-useless-mustaches': 'off'
		}
	},
	{
		files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
		languageOptions: {
			parserOptions: {
				extraFileExtensions: ['.svelte'],
				parser: ts.parser,
				svelteConfig
			}
		},
		rules: {
			// The one rule here that needs type information, and so a TypeScript program built for the
			// components (typescript-eslint's projectService): that cost 48 of ESLint's 76 CPU seconds,
			// on every run of `npm test`. What it finds, a declared prop that the component never
			// reads, is dead code and no error; svelte-check type-checks every component and every use.
			'svelte/no-unused-props': 'off'
		}
	}
);
