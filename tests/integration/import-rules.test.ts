/**
 * The import rules of `npm run check` (scripts/check-imports.js with .dependency-cruiser.js), run on
 * a copy of the project with two imports that each break a rule (the protocol importing the
 * sender; a server module reading the request itself): it fails with each rule's name, and says how
 * much it saw. That the project as it is passes, `npm run check` shows on every run.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const COPIED = [
	'src',
	'scripts/check-imports.js',
	'scripts/same-names.js',
	'.dependency-cruiser.js',
	'package.json',
	'svelte.config.js',
	'tsconfig.json'
];

let dir: string;

async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	try {
		const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: dir });
		return { code: 0, stdout, stderr };
	} catch (e) {
		const err = e as { code: number; stdout: string; stderr: string };
		return { code: err.code, stdout: err.stdout, stderr: err.stderr };
	}
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'import-rules-'));
	for (const path of COPIED) cpSync(join(root, path), join(dir, path), { recursive: true });
	symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
	// Writes .svelte-kit/tsconfig.json, where the check reads the $lib alias.
	const sync = await run('node_modules/@sveltejs/kit/svelte-kit.js', 'sync');
	expect(sync.code, sync.stderr).toBe(0);
});

afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

// Both rules broken in one copy, checked by one run: each violation is named with its rule and
// its import (a run of the check is most of this file's time).
test(
	'the protocol importing the sender, and a server module reading the request itself ($app/server): it fails, naming each rule and its import',
	{ timeout: 60_000 },
	async () => {
		const consent = join(dir, 'src/lib/oauth/consent.ts');
		const page = join(dir, 'src/lib/server/flow/page.ts');
		const originals = [consent, page].map((f) => readFileSync(f, 'utf8'));
		writeFileSync(
			consent,
			`${originals[0]}\nimport { send } from '$lib/server/outbound/send';\nvoid send;\n`
		);
		writeFileSync(
			page,
			`${originals[1]}\nimport { getRequestEvent } from '$app/server';\nvoid getRequestEvent;\n`
		);
		try {
			const { code, stdout, stderr } = await run('scripts/check-imports.js');
			expect(code).toBe(1);
			// It says how much it saw, so that an import it cannot follow does not go unnoticed.
			const counts = stdout.match(/(\d+) modules in src\/ and (\d+) imports between them/);
			expect(counts, stdout).not.toBeNull();
			expect(Number(counts![1])).toBeGreaterThan(50);
			expect(Number(counts![2])).toBeGreaterThan(100);
			expect(stderr).toContain(
				'oauth-imports-nothing-above-it: src/lib/oauth/consent.ts → src/lib/server/outbound/send.ts'
			);
			// The app is handed down: no server module reads the request itself.
			expect(stderr).toContain('app-handed-down: src/lib/server/flow/page.ts → $app/server');
			expect(stderr).toContain('2 violations');
		} finally {
			writeFileSync(consent, originals[0]!);
			writeFileSync(page, originals[1]!);
		}
	}
);
