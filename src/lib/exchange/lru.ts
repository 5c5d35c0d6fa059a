/**
 * A memo bounded by the total weight of what it keeps, the least recently used dropped first: for
 * values that cost more to make than to keep, made again once dropped. Whoever needs one makes it,
 * and it goes with its maker (redact.ts: an app's redactors keep the matchers of the secrets it
 * redacted lately).
 */
export interface Lru<K, V> {
	/** The value kept for `key`, now the most recently used; or else `make()`'s, then kept. */
	get(key: K, make: () => V): V;
}

/** A memo that keeps at most `maxWeight` in all, each value weighing `weight(value)`. */
export function createLru<K, V>(maxWeight: number, weight: (value: V) => number): Lru<K, V> {
	/** Newest last: a Map keeps the order of insertion. */
	const kept = new Map<K, V>();
	let total = 0;
	return {
		get(key, make) {
			if (kept.has(key)) {
				const hit = kept.get(key)!;
				kept.delete(key);
				kept.set(key, hit);
				return hit;
			}
			const value = make();
			kept.set(key, value);
			total += weight(value);
			for (const [k, old] of kept) {
				if (total <= maxWeight) break;
				kept.delete(k);
				total -= weight(old);
			}
			return value;
		}
	};
}
