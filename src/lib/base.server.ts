/**
 * What the playground and its built-in sandbox share, built once from one configuration by the
 * composition root (src/lib/app.server.ts): the configuration itself, the clock, the session keys
 * and the connection to the shared store (REDIS_URL). None of it is module state, so two apps built
 * from two configurations share nothing.
 */
import type { Redis } from 'ioredis';
import type { Config } from './config.server.js';
import { sessionKeys } from './keys.server';
import { connectRedis } from './redis.server';

/** Milliseconds since the epoch: `Date.now` in the server, a hand-moved clock in unit tests. */
export type Clock = () => number;

export interface Base {
	readonly config: Config;
	readonly clock: Clock;
	/** The session keys, the current one first (keys.server.ts). */
	readonly keys: readonly Uint8Array[];
	/** The shared store's client, or undefined without REDIS_URL (the memory backends then). */
	readonly redis: Promise<Redis> | undefined;
}

/** Reads the keys (a bad one throws, so the start fails) and opens the shared store's connection. */
export function createBase(config: Config, clock: Clock = Date.now): Base {
	const url = config.store.redisUrl;
	return {
		config,
		clock,
		keys: sessionKeys(config.sessionKeys),
		redis: url ? connectRedis(url) : undefined
	};
}
