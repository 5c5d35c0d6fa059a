/**
 * The sandbox's state: the store of codes, grants and consent decisions (in this process, or on a
 * Redis-protocol server when REDIS_URL is set; see store.server.ts), the rate-limit windows, and
 * each client's copy of the demo read/starred/label state. All of it is bounded (see each class).
 */
import { sharedRedis } from '$lib/redis.server';
import { RateLimiter } from './ratelimit.server';
import { ReaderState } from './demo.server';
import { MemoryStore, type SandboxStore } from './store.server';

export const limiter = new RateLimiter();

let current: Promise<SandboxStore> | undefined;

/** The store the configuration names, made on first use (the Redis client is loaded only then). */
export function store(): Promise<SandboxStore> {
	current ??= (async () => {
		const redis = await sharedRedis();
		if (!redis) return new MemoryStore();
		const { RedisStore } = await import('./redis-store.server');
		return new RedisStore(redis);
	})();
	return current;
}

/** Replaces the store, for tests. */
export function useStore(next: SandboxStore): void {
	current = Promise.resolve(next);
}

const readerStates = new Map<string, ReaderState>();

/** The demo state as one client sees it. Keyed by registered client_id only, so the map stays small. */
export function readerState(client_id: string): ReaderState {
	let state = readerStates.get(client_id);
	if (!state) {
		state = new ReaderState();
		readerStates.set(client_id, state);
	}
	return state;
}
