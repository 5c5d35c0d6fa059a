/**
 * The server's configuration: `parseConfig` (config.js) of the environment SvelteKit hands the
 * server, parsed once, on first use. The init hook asks for it first, so a bad value stops the start.
 */
import { env } from '$env/dynamic/private';
import { parseConfig, type Config } from './config.server.js';

let source: Record<string, string | undefined> = env;
let current: Config | undefined;

export function config(): Config {
	current ??= parseConfig(source);
	return current;
}

/**
 * Replaces the environment the configuration is parsed from, for tests: parsed again on next use,
 * so a bad value fails where it fails at start-up (the init hook).
 */
export function useEnv(next: Record<string, string | undefined>): void {
	source = next;
	current = undefined;
}

/** Replaces the configuration, for tests: `useConfig(parseConfig({ … }))`. */
export function useConfig(next: Config): void {
	current = next;
}
