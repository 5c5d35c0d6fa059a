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
		// No module state in src/lib outside the browser's ui/ (and its components): the composition
		// root (src/lib/app.server.ts) builds every service once per app, and what an import or an
		// export needs, it makes. A top-level `let`, or an empty Map/Set/WeakMap at the top of a
		// module, is state; each allowed one says why on its line (docs/architecture.md lists them).
		files: ['src/lib/**/*.ts', 'src/lib/**/*.js'],
		ignores: ['src/lib/ui/**'],
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
