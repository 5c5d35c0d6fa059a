// Mutation testing: `npm run mutate` (not part of `npm test`). See docs/testing.md, "Mutation testing".
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'vitest',
	vitest: { configFile: 'vitest.unit.config.ts', dir: 'tests/unit' },
	plugins: [
		'@stryker-mutator/vitest-runner',
		'./scripts/stryker/user-facing-text.js',
		'./scripts/stryker/equivalent-forms.js'
	],
	ignorers: ['user-facing-text', 'equivalent-forms'],
	mutate: [
		'src/lib/oauth/**/*.ts',
		'src/lib/exchange/**/*.ts',
		'src/lib/steps/**/*.ts',
		'src/lib/server/outbound/guard.ts',
		'src/lib/server/session/csrf.ts',
		'src/lib/server/session/session.ts',
		'src/lib/server/session/jwe.ts'
	],
	coverageAnalysis: 'perTest',
	incremental: true,
	incrementalFile: 'reports/stryker-incremental.json',
	reporters: ['clear-text', 'progress', 'html', 'json'],
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	concurrency: 2,
	thresholds: { high: 90, low: 85, break: 85 },
	tempDirName: '.stryker-tmp'
};
