// Builds the production server when build/ is missing or older than the sources. The build's own
// output (bundler timings, "Run npm run preview…", which is not how this app starts) is kept back:
// the user sees one line, and the whole output only when the build fails.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const inputs = ['src', 'static', 'svelte.config.js', 'vite.config.ts', 'package.json'];

/** The build itself: Vite, through npx so the project's own copy runs. */
const VITE_BUILD = ['npx', 'vite', 'build', '--logLevel', 'warn'];

/** @param {string} path @returns {number} */
function newest(path) {
	if (!existsSync(path)) return 0;
	const st = statSync(path);
	if (!st.isDirectory()) return st.mtimeMs;
	let max = st.mtimeMs;
	for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
	return max;
}

/**
 * Runs the build quietly. Returns whether it succeeded; on failure, everything it printed has been
 * passed to `print`.
 * @param {{ command?: string[], first: boolean, print?: (text: string) => void }} options
 */
export function runBuild({ command = VITE_BUILD, first, print = (t) => console.log(t) }) {
	print(
		first
			? 'First start: building the playground once (about 30 seconds)…'
			: 'The sources changed since the last build: building again (about 30 seconds)…'
	);
	const [program = '', ...args] = command;
	const run = spawnSync(program, args, {
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...process.env, FORCE_COLOR: '0' },
		maxBuffer: 64 * 1024 * 1024
	});
	if (run.status === 0) return true;
	const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trimEnd();
	if (output) print(output);
	print(
		run.error
			? `The build failed: ${run.error.message}`
			: `The build failed (exit code ${run.status ?? run.signal}); its whole output is above.`
	);
	return false;
}

/** Builds when needed; exits the process when the build fails. Returns whether it built. */
export function ensureBuild() {
	const marker = 'build/index.js';
	const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
	const source = Math.max(...inputs.map(newest));
	if (built > source) return false;
	if (!runBuild({ first: !built })) process.exit(1);
	return true;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();
