/**
 * The server's configuration: `parseConfig` (config.js) of the environment SvelteKit hands the
 * server, parsed once, on first use. The init hook asks for it first, so a bad value stops the start.
 */
import { env } from '$env/dynamic/private';
import { parseConfig, type Config } from './config.js';

let current: Config | undefined;

export function config(): Config {
	current ??= parseConfig(env);
	return current;
}

/** Replaces the configuration, for tests: `useConfig(parseConfig({ … }))`. */
export function useConfig(next: Config): void {
	current = next;
}
