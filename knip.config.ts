import type { KnipConfig } from 'knip';

/**
 * knip: files, exports and dependencies that nothing uses (`npm run check` runs it after
 * `svelte-kit sync`). Its SvelteKit plugin adds the routes and the hooks as entries and knows
 * `$lib`, `$app/*` and `$env/*`; the entries below are the rest of what runs: the scripts, the
 * tests, and the mutation run's configuration and plugins.
 */
const config: KnipConfig = {
	entry: [
		'scripts/**/*.js',
		'tests/**/*.ts',
		'stryker*.mjs',
		'vitest.redact.config.ts',
		'vitest.unit.config.ts'
	],
	project: ['src/**/*.{ts,js,svelte}', 'scripts/**/*.js', 'tests/**/*.ts'],
	// The e2e tests load axe-core's script file into the page (tests/helpers/axe.ts reads
	// axe.min.js by path), which no import shows.
	// TypeScript 7 (under the alias svelte-check looks for) is run by `svelte-check --tsgo`, which
	// finds it by that name: no import shows it.
	ignoreDependencies: ['axe-core', '@typescript/native'],
	// Debian's packages, which scripts/test-needs.js installs for the tests.
	ignoreBinaries: ['redis-server', 'openssl']
};

export default config;
