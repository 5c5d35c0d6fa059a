/**
 * Apps for unit tests, built by the composition root from a configuration of the test's own: no
 * module state is shared between two of them.
 */
import { createPlayground, type App } from '$lib/app.server';
import { parseConfig } from '$lib/config.server.js';
import { createBase, type Clock } from '$lib/base.server';
import { createSandbox, type Sandbox } from '$lib/sandbox/sandbox.server';

/** A session key of 32 bytes of `fill`, in base64url, as PLAYGROUND_SESSION_KEY takes it. */
export const keyOf = (fill: number) => Buffer.alloc(32, fill).toString('base64url');

/** An app with session key `fill` (and any other settings); its clock reads the (maybe faked) Date. */
export function testApp(
	fill: number,
	env: Record<string, string | undefined> = {},
	clock: Clock = () => Date.now()
): App {
	return createPlayground(parseConfig({ PLAYGROUND_SESSION_KEY: keyOf(fill), ...env }), clock);
}

/**
 * A built-in sandbox built from a configuration of the test's own (session key 7 unless `env` names
 * one, so no key file is read), whatever SANDBOX says, with its own store and limits.
 */
export function testSandbox(
	env: Record<string, string | undefined> = {},
	clock: Clock = () => Date.now()
): Sandbox {
	return createSandbox(
		createBase(parseConfig({ PLAYGROUND_SESSION_KEY: keyOf(7), ...env }), clock)
	);
}

/** A clock that stands still until the test moves it. */
export function testClock(start: number): Clock & { set(ms: number): void } {
	let now = start;
	return Object.assign(() => now, {
		set(ms: number) {
			now = ms;
		}
	});
}
