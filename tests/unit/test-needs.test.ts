/**
 * `npm test` on a fresh machine: before any suite runs, the Debian packages the suites need are
 * installed when this user may install them, and otherwise the run stops at once with the one
 * command that installs them (never a suite that fails half-way for want of a browser).
 */
import { describe, expect, test } from 'vitest';
import { checkNeeds } from '../../scripts/test-needs.js';

const all = new Set(['chromium-headless-shell', 'redis-server', 'curl', 'openssl', 'apt-get']);

function machine(has: Set<string>, { root = false, sudo = false, installs = true } = {}) {
	const ran: string[][] = [];
	const printed: string[] = [];
	return {
		ran,
		printed,
		env: {},
		has: (program: string) => has.has(program),
		root,
		sudo,
		run: (command: string[]) => {
			ran.push(command);
			if (installs && command.includes('install'))
				for (const p of command.slice(command.indexOf('install') + 1)) has.add(p);
			return installs;
		},
		print: (t: string) => printed.push(t)
	};
}

describe('what the tests need, before any suite runs', () => {
	test('nothing missing: nothing is installed or printed', () => {
		const m = machine(new Set(all));
		expect(checkNeeds(m)).toBe(true);
		expect(m.ran).toEqual([]);
		expect(m.printed).toEqual([]);
	});

	test('CHROMIUM_PATH stands for the chromium-headless-shell package', () => {
		const has = new Set(all);
		has.delete('chromium-headless-shell');
		const m = { ...machine(has), env: { CHROMIUM_PATH: '/opt/chrome/chrome' } };
		expect(checkNeeds(m)).toBe(true);
		expect(m.ran).toEqual([]);
	});

	test('missing packages are installed with apt-get by root, and says so', () => {
		const has = new Set(all);
		has.delete('chromium-headless-shell');
		has.delete('redis-server');
		const m = machine(has, { root: true });
		expect(checkNeeds(m)).toBe(true);
		expect(m.ran).toEqual([
			['apt-get', 'update', '-qq'],
			['apt-get', 'install', '-y', '-qq', 'chromium-headless-shell', 'redis-server']
		]);
		expect(m.printed.join('\n')).toContain('chromium-headless-shell redis-server');
	});

	test('for the bench: the same packages, and its own command to run again', () => {
		const has = new Set(all);
		has.delete('chromium-headless-shell');
		const m = { ...machine(has), command: 'npm run bench' as const };
		expect(checkNeeds(m)).toBe(false);
		expect(m.ran).toEqual([]);
		expect(m.printed.join('\n')).toBe(
			'The bench needs chromium-headless-shell, which this machine lacks. Install them, then run npm run bench again:\n\n  sudo apt-get install -y chromium-headless-shell\n'
		);
		const root = {
			...machine(new Set(['apt-get', 'redis-server', 'curl', 'openssl']), { root: true }),
			command: 'npm run bench' as const
		};
		expect(checkNeeds(root)).toBe(true);
		expect(root.printed).toEqual(['Installing chromium-headless-shell for the bench…']);
	});

	test('with passwordless sudo, through sudo', () => {
		const has = new Set(all);
		has.delete('curl');
		const m = machine(has, { sudo: true });
		expect(checkNeeds(m)).toBe(true);
		expect(m.ran.at(-1)).toEqual(['sudo', 'apt-get', 'install', '-y', '-qq', 'curl']);
	});

	test('a user who may not install gets the one command, and the run stops before any suite', () => {
		const has = new Set(all);
		has.delete('chromium-headless-shell');
		has.delete('openssl');
		const m = machine(has);
		expect(checkNeeds(m)).toBe(false);
		expect(m.ran).toEqual([]);
		expect(m.printed.join('\n')).toContain(
			'sudo apt-get install -y chromium-headless-shell openssl'
		);
	});

	test('an install that fails stops the run with the command to try', () => {
		const has = new Set(all);
		has.delete('redis-server');
		const m = machine(has, { root: true, installs: false });
		expect(checkNeeds(m)).toBe(false);
		expect(m.printed.join('\n')).toContain('apt-get install -y redis-server');
	});
});
