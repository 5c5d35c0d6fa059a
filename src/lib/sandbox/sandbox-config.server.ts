/**
 * Configuration of the sandbox service: lifetimes, rate limits and the client registrations
 * (the service's API docs §2.1: client id, client secret, redirect address, default scope setting).
 *
 * Everything comes from the environment, parsed with the rest of the server's configuration
 * (`$lib/config.server.js`, which also checks SANDBOX_CLIENTS); each sandbox holds its part as
 * `settings` (sandbox.server.ts).
 */
import type {
	SANDBOX_BUILTIN_CLIENT_IDS,
	SandboxClient,
	SandboxConfig,
	SandboxScope
} from '$lib/config.server.js';

export type { SandboxClient, SandboxConfig, SandboxScope };

/** The built-in clients' secrets. They are public on purpose: the sandbox is for practice. */
export const SANDBOX_CLIENT_SECRETS = {
	'sandbox-rw': 'sandbox-rw-secret',
	'sandbox-ro': 'sandbox-ro-secret',
	'sandbox-short': 'sandbox-short-secret'
} as const satisfies Record<(typeof SANDBOX_BUILTIN_CLIENT_IDS)[number], string>;

export type BuiltinClientId = keyof typeof SANDBOX_CLIENT_SECRETS;
