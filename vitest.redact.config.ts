// The unit tests of redaction that `stryker.redact.mjs` runs (paths relative to tests/unit).
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	test: {
		include: [
			'**/redact.test.ts',
			'**/redact-tokens.test.ts',
			'**/redact-basic.test.ts',
			'**/redact-cache.test.ts',
			'**/redact-reencoded.test.ts'
		],
		environment: 'node'
	}
});
