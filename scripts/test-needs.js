// The first thing `npm test` runs (and `npm run bench`, as `test-needs.js bench`): the Debian
// packages the suites and the bench need are there, or installed now when this user may install
// them (root, or sudo without a password), or the run stops at once, before any suite or figure,
// with the one command that installs them. chromium-headless-shell, Debian's build of Chromium without
// the desktop browser around it, drives the e2e tests (CHROMIUM_PATH may name another browser); redis-server backs the shared-store suites; curl and openssl run the exported
// commands and make the TLS faults.
import { spawnSync } from 'node:child_process';

/** Each package, and the program on the PATH that shows it is installed. @type {[string, string][]} */
const NEEDED = [
	['chromium-headless-shell', 'chromium-headless-shell'],
	['redis-server', 'redis-server'],
	['curl', 'curl'],
	['openssl', 'openssl']
];

/**
 * @typedef {object} Machine
 * @property {Record<string, string | undefined>} env
 * @property {(program: string) => boolean} has Whether the program is on the PATH.
 * @property {boolean} root
 * @property {boolean} sudo Whether `sudo` works without a password.
 * @property {(command: string[]) => boolean} run Runs a command; whether it succeeded.
 * @property {(text: string) => void} print
 * @property {'npm test' | 'npm run bench'} [command] What runs after the check (`npm test` unless told).
 */

/**
 * Installs what is missing when it may. Returns whether every package is there.
 * @param {Machine} m
 */
export function checkNeeds(m) {
	const missing = NEEDED.filter(
		([pkg, program]) =>
			!(pkg === 'chromium-headless-shell' && m.env.CHROMIUM_PATH) && !m.has(program)
	).map(([pkg]) => pkg);
	if (missing.length === 0) return true;
	const command = `sudo apt-get install -y ${missing.join(' ')}`;
	const again = m.command ?? 'npm test';
	const who = again === 'npm test' ? 'The tests' : 'The bench';
	if (!m.has('apt-get') || !(m.root || m.sudo)) {
		m.print(
			`${who} need${who === 'The bench' ? 's' : ''} ${missing.join(', ')}, which this machine lacks. Install them, then run ${again} again:\n\n  ${command}\n`
		);
		return false;
	}
	m.print(`Installing ${missing.join(' ')} for ${who.toLowerCase()}…`);
	const prefix = m.root ? [] : ['sudo'];
	const ok =
		m.run([...prefix, 'apt-get', 'update', '-qq']) &&
		m.run([...prefix, 'apt-get', 'install', '-y', '-qq', ...missing]);
	const still = NEEDED.filter(([pkg, program]) => missing.includes(pkg) && !m.has(program));
	if (ok && still.length === 0) return true;
	m.print(`Installing them failed. Try it by hand, then run ${again} again:\n\n  ${command}\n`);
	return false;
}

/** @param {string[]} command */
const succeeds = (command, quiet = true) => {
	const [program = '', ...args] = command;
	const r = spawnSync(program, args, {
		stdio: quiet ? 'ignore' : ['ignore', 'ignore', 'inherit'],
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
	});
	return r.status === 0;
};

if (import.meta.url === `file://${process.argv[1]}`) {
	const root = process.getuid?.() === 0;
	const ok = checkNeeds({
		env: process.env,
		has: (program) => succeeds(['sh', '-c', `command -v ${program}`]),
		root,
		sudo: !root && succeeds(['sudo', '-n', 'true']),
		run: (command) => succeeds(command, false),
		print: (text) => console.log(text),
		command: process.argv[2] === 'bench' ? 'npm run bench' : 'npm test'
	});
	if (!ok) process.exit(1);
}
