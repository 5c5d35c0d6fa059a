/**
 * The import rules of `npm run check` (scripts/check-imports.js with .dependency-cruiser.js), run on
 * a copy of the project with one import that breaks a rule (the protocol importing the sender; a
 * server module reading the request itself): it fails with the rule's name, and says how much it
 * saw. That the project as it is passes, `npm run check` shows on every run.
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

test(
	'the protocol importing the sender fails, naming the rule and the import',
	{ timeout: 60_000 },
	async () => {
		const consent = join(dir, 'src/lib/oauth/consent.ts');
		const original = readFileSync(consent, 'utf8');
		writeFileSync(
			consent,
			`${original}\nimport { send } from '$lib/server/outbound/send';\nvoid send;\n`
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
			expect(stderr).toContain('1 violation');
		} finally {
			writeFileSync(consent, original);
		}
	}
);

test(
	'a server module that reads the request itself ($app/server) fails: the app is handed down',
	{ timeout: 60_000 },
	async () => {
		const page = join(dir, 'src/lib/server/flow/page.ts');
		const original = readFileSync(page, 'utf8');
		writeFileSync(
			page,
			`${original}\nimport { getRequestEvent } from '$app/server';\nvoid getRequestEvent;\n`
		);
		try {
			const { code, stderr } = await run('scripts/check-imports.js');
			expect(code).toBe(1);
			expect(stderr).toContain('app-handed-down: src/lib/server/flow/page.ts → $app/server');
			expect(stderr).toContain('1 violation');
		} finally {
			writeFileSync(page, original);
		}
	}
);
