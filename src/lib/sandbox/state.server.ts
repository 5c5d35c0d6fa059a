/**
 * The sandbox's state: the store of codes, grants, consent decisions and demo data (in this
 * process, or on a Redis-protocol server when REDIS_URL is set; see store.server.ts), and the
 * rate-limit windows (zone-limits.server.ts). All of it is bounded and expires with what it guards.
 */
import { sharedRedis } from '$lib/redis.server';
import { RateLimiter } from './zone-limits.server';
import { config } from '$lib/env.server';
import { ReaderState } from './demo.server';
import { MemoryStore, StoreUnavailable, type SandboxStore } from './store.server';

export const limiter = new RateLimiter();

// eslint-disable-next-line no-restricted-syntax -- left to move into the app's sandbox
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

/**
 * Where a token's demo data and zone budgets live. Local mode: its client, as the service's API
 * docs describe per-client limits. Hosted mode: its grant (one sign-in), so that visitors sharing
 * a built-in client can neither spend nor change each other's.
 */
export function namespaceOf(claims: { client_id: string; fam: string }): string {
	return config().policy.mode === 'hosted' ? `grant:${claims.fam}` : `client:${claims.client_id}`;
}

/** The demo data of a namespace (the demo's starting state until something changed it). */
export async function loadReader(ns: string): Promise<ReaderState> {
	return ReaderState.from(await (await store()).readState(ns));
}

/**
 * Changes a namespace's demo data: `change` runs on the current state and, when it says ok and
 * changed something, the new state replaces the old one by compare-and-set, so that two instances
 * changing the same namespace at once lose neither change (the loser runs again on the winner's
 * state). The data lives until `until` (Unix seconds), the end of the grant.
 */
export async function updateReader<T extends { ok: boolean }>(
	ns: string,
	until: number,
	change: (state: ReaderState) => T
): Promise<T> {
	const s = await store();
	for (let attempt = 0; attempt < 8; attempt++) {
		const before = await s.readState(ns);
		const state = ReaderState.from(before);
		const result = change(state);
		const after = JSON.stringify(state);
		if (!result.ok || after === (before ?? JSON.stringify(new ReaderState()))) return result;
		if (await s.writeState(ns, before, after, until)) return result;
	}
	throw new StoreUnavailable(new Error('the demo data kept changing under this write'));
}
