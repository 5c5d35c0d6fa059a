/**
 * The first `npm start` builds once. It says so in one line and prints only what a user needs: the
 * bundler's own chatter (timing blocks, "Run npm run preview…", the wrong command for this user) is
 * kept back, and shown in full only when the build fails. The build here is a small real process
 * standing in for `vite build`, so the test runs in milliseconds.
 */
import { describe, expect, test } from 'vitest';
import { runBuild } from '../../scripts/ensure-build.js';

const noisy = (code: number) => [
	process.execPath,
	'-e',
	`console.log('[PLUGIN_TIMINGS] callbacks ran for 7.1s'); console.log('Run npm run preview to preview your production build locally.'); console.error('a warning on stderr'); process.exit(${code})`
];

function captured() {
	const lines: string[] = [];
	return { lines, print: (text: string) => lines.push(text) };
}

describe('the build on first start', () => {
	test('a build that succeeds prints one line saying it builds once, and none of the bundler output', () => {
		const out = captured();
		expect(runBuild({ command: noisy(0), first: true, print: out.print })).toBe(true);
		const all = out.lines.join('\n');
		expect(all).toMatch(/building the playground once/i);
		expect(all).not.toContain('npm run preview');
		expect(all).not.toContain('PLUGIN_TIMINGS');
		expect(all).not.toContain('a warning on stderr');
	});

	test('a rebuild after a change says so, as quietly', () => {
		const out = captured();
		expect(runBuild({ command: noisy(0), first: false, print: out.print })).toBe(true);
		expect(out.lines.join('\n')).toMatch(/changed/i);
		expect(out.lines.join('\n')).not.toContain('npm run preview');
	});

	test("a build that fails prints the build's output in full, both streams, and reports the failure", () => {
		const out = captured();
		expect(runBuild({ command: noisy(3), first: true, print: out.print })).toBe(false);
		const all = out.lines.join('\n');
		expect(all).toContain('PLUGIN_TIMINGS');
		expect(all).toContain('a warning on stderr');
		expect(all).toMatch(/build failed/i);
	});
});
