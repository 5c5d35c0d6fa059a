// Builds the production server when build/ is missing or older than the sources.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const inputs = ['src', 'static', 'svelte.config.js', 'vite.config.ts', 'package.json'];

/** @param {string} path @returns {number} */
function newest(path) {
	if (!existsSync(path)) return 0;
	const st = statSync(path);
	if (!st.isDirectory()) return st.mtimeMs;
	let max = st.mtimeMs;
	for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
	return max;
}

export function ensureBuild() {
	const marker = 'build/index.js';
	const built = existsSync(marker) ? statSync(marker).mtimeMs : 0;
	const source = Math.max(...inputs.map(newest));
	if (built > source) return false;
	console.log(
		built ? 'Sources changed since the last build: building…' : 'No build yet: building…'
	);
	execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
	return true;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();
