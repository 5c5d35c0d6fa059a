import { sveltekit } from '@sveltejs/kit/vite';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// vitest's default is one worker fewer than the cores: one on a 2-core machine, so every suite ran
// a file at a time. The unit files are CPU-bound: one worker per core, in threads (they start
// faster than forks). The integration files mostly wait on the servers they start: one more worker
// than the cores. The e2e files run one per core, each with its own server: with
// Chromium's headless build two files side by side took 197 s for the suite against about 240 s
// one by one (docs/history.md). Under that load a page may take longer than expect.poll's default
// second to get where a test waits for it, so their polls wait up to 5 s (they end as soon as the
// condition holds).
const cores = availableParallelism();

// The files of every suite share their workers' module cache (`isolate: false`): importing the
// app's modules (or playwright-core) afresh for each file was most of the unit suite's time and a
// tenth of the others' (docs/history.md). A file that replaces a module (`vi.mock`) or a global
// (`vi.stubGlobal`) would leak it into the files after it, so those run in a project of their own,
// isolated as before. Each integration and e2e file still starts and stops its own servers; the
// e2e files a worker runs share its Chromium (tests/helpers/fixtures.ts), each test's pages in
// browser contexts of their own.
const UNIT = 'tests/unit/';
const replacesSomething = /\bvi\.(mock|doMock|stubGlobal|stubEnv)\(/;
const replacers = (dir: string) =>
	readdirSync(dir)
		.filter((f) => f.endsWith('.test.ts'))
		.filter((f) => replacesSomething.test(readFileSync(dir + f, 'utf8')))
		.map((f) => dir + f);
const isolatedUnits = replacers(UNIT);
const INTEGRATION = 'tests/integration/';
const isolatedIntegration = replacers(INTEGRATION);

export default defineConfig({
	plugins: [sveltekit()],
	server: { host: '127.0.0.1', port: 5173 },
	// Non-ASCII characters in the output are escaped: a script holding one beyond Latin-1 (29 of the
	// 67 did: typographic quotes, other alphabets) is decoded into a two-byte string, which the
	// browser decodes and compiles more slowly. The HAR import's worker, compiled afresh for each
	// file, read a 20 KB file about 6 ms sooner of 140 (docs/history.md); the first load's gzip size
	// did not grow.
	build: { rolldownOptions: { output: { charset: 'ascii' } } },
	// The highlighter's worker loads shiki in chunks, on first use: a module worker can.
	worker: { format: 'es', rolldownOptions: { output: { charset: 'ascii' } } },
	test: {
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['tests/unit/**/*.test.ts'],
					exclude: isolatedUnits,
					environment: 'node',
					pool: 'threads',
					isolate: false,
					maxWorkers: cores
				}
			},
			{
				extends: true,
				test: {
					name: 'unit-isolated',
					include: isolatedUnits,
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
					exclude: isolatedIntegration,
					environment: 'node',
					isolate: false,
					maxWorkers: cores + 1,
					testTimeout: 30_000,
					hookTimeout: 60_000
				}
			},
			{
				extends: true,
				test: {
					name: 'integration-isolated',
					include: isolatedIntegration,
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
					isolate: false,
					maxWorkers: cores,
					expect: { poll: { timeout: 5_000 } },
					testTimeout: 90_000,
					hookTimeout: 90_000
				}
			}
		]
	}
});
