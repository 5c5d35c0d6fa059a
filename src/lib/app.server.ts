/**
 * The composition root: the one place that builds the server's services from one configuration and
 * a clock. `src/hooks.server.ts` builds the app once at start and hands it to every request as
 * `event.locals.app`; every action, `load` and `+server.ts` takes what it needs from there. Nothing
 * in `src/lib` keeps a service in a module variable, so two apps built from two configurations (the
 * unit tests build several) share nothing.
 *
 * It is the one module of `src/lib` that knows both the playground (`server/`) and the built-in
 * sandbox (`sandbox/`): it hands the playground what it offers of the sandbox, so that neither
 * imports the other.
 */
import type { Config } from './config.server.js';
import { createBase, type Clock } from './base.server';
import { playgroundOn, type Playground } from './server/playground';
import { createSandbox, type Sandbox } from './sandbox/sandbox.server';
import { builtinClients, redirectUrisOf } from './sandbox/clients.server';
import { sandboxApiExamples } from './sandbox/examples.server';

export interface App extends Playground {
	/** The built-in sandbox, built from the same base; absent when it is off (SANDBOX=off). */
	readonly sandbox?: Sandbox;
}

/** Builds every service of one app. A bad setting (a key, a preset) throws, so the start fails. */
export function createPlayground(config: Config, clock: Clock = Date.now): App {
	const base = createBase(config, clock);
	const sandbox = config.sandbox.enabled ? createSandbox(base) : undefined;
	// The playground offers the sandbox's built-in clients as presets, reads its redirect-URI
	// registrations (to name a near miss, redirect-uri.ts) and its working API calls.
	const playground = playgroundOn(base, {
		...(sandbox && {
			clients: builtinClients(),
			registrations: (client_id: string, origin: string) =>
				redirectUrisOf(sandbox.settings, client_id, origin)
		}),
		apiExamples: sandboxApiExamples()
	});
	return { ...playground, ...(sandbox && { sandbox }) };
}
