import { sveltekit } from '@sveltejs/kit/vite';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// vitest's default is one worker fewer than the cores: one on a 2-core machine, so every suite ran
// a file at a time. The unit files are CPU-bound: one worker per core, in threads (they start
// faster than forks). The integration files mostly wait on the servers they start: one more worker
// than the cores. The e2e files stay one at a time: Chromium already keeps both cores busy, and two
// files side by side took as long in all (595 s against 668 s) with one test timing out
// (docs/testing.md).
const cores = availableParallelism();

export default defineConfig({
	plugins: [sveltekit()],
	server: { host: '127.0.0.1', port: 5173 },
	// The highlighter's worker loads shiki in chunks, on first use: a module worker can.
	worker: { format: 'es' },
	test: {
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['tests/unit/**/*.test.ts'],
					environment: 'node',
					pool: 'threads',
					maxWorkers: cores
				}
			},
			{
				extends: true,
				test: {
					name: 'integration',
					include: ['tests/integration/**/*.test.ts'],
					environment: 'node',
					maxWorkers: cores + 1,
					testTimeout: 30_000,
					hookTimeout: 60_000
				}
			},
			{
				extends: true,
				test: {
					name: 'e2e',
					include: ['tests/e2e/**/*.test.ts'],
					environment: 'node',
					fileParallelism: false,
					testTimeout: 90_000,
					hookTimeout: 90_000
				}
			}
		]
	}
});
