// The unit tests alone, for StrykerJS (`npm run mutate`): its vitest runner loads every project of
// the config it is given, and vitest refuses to run projects with different `maxWorkers` side by side.
import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
	plugins: [sveltekit()],
	test: {
		include: ['**/*.test.ts'],
		environment: 'node'
	}
});
