// Mutation testing of redaction alone, over its own unit tests (redact*.test.ts but the slow
// property tests of redact-encodings.test.ts): `npx stryker run stryker.redact.mjs`. A mutant
// these tests kill, the whole unit suite kills too, so the score is a floor. See docs/testing.md.
import base from './stryker.config.mjs';

export default {
	...base,
	mutate: ['src/lib/exchange/redact.ts'],
	vitest: { configFile: 'vitest.redact.config.ts', dir: 'tests/unit', related: false },
	incrementalFile: 'reports/stryker-redact-incremental.json',
	reporters: ['clear-text', 'progress', 'json'],
	jsonReporter: { fileName: 'reports/mutation-redact/mutation.json' },
	tempDirName: '.stryker-tmp',
	concurrency: 1
};
