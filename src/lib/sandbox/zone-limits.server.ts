/**
 * Rate limits of the reader API, as the real service shows them: two zones (zone 1 reads, zone 2
 * writes), each counted per client in a fixed window that starts with that zone's first counted
 * call. Every API response carries the X-Reader-* headers; over the limit the answer is 429 with
 * Retry-After.
 *
 * The counters are rate-limiter-flexible's (`fixed-window.server.ts`): in this process's memory, or
 * with REDIS_URL on the shared server, so that every instance counts into the same windows. A
 * store error becomes StoreUnavailable: the sandbox answers 503 rather than count nothing.
 */
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { fixedWindow, peekWindow, take } from '$lib/fixed-window.server';
import { StoreUnavailable } from './store.server';

export type Zone = 1 | 2;

export interface Limits {
	zone1: number;
	zone2: number;
}

export interface Usage {
	zone1Usage: number;
	zone1Limit: number;
	zone2Usage: number;
	zone2Limit: number;
	/** Whole seconds until the window resets. */
	resetAfter: number;
}

type Window = { consumed: number; msBeforeNext: number } | undefined;

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class RateLimiter {
	private limiters = new Map<string, Promise<RateLimiterAbstract>>();

	/** `redis`: the shared store's client, or undefined for counters in this process's memory. */
	constructor(private readonly redis: () => Promise<Redis | undefined>) {}

	/** The zone's counter for a limit and window; one per combination, all on the same keys. */
	private limiter(zone: Zone, points: number, windowSeconds: number): Promise<RateLimiterAbstract> {
		const id = `${zone}:${points}:${windowSeconds}`;
		let l = this.limiters.get(id);
		if (!l) {
			l = this.redis().then((redis) =>
				fixedWindow({
					prefix: `sandbox-zone${zone}-${windowSeconds}`,
					points,
					durationS: windowSeconds,
					redis
				})
			);
			this.limiters.set(id, l);
		}
		return l;
	}

	private async window(zone: Zone, key: string, limits: Limits, windowSeconds: number) {
		const limit = zone === 1 ? limits.zone1 : limits.zone2;
		return peekWindow(await this.limiter(zone, limit, windowSeconds), key);
	}

	private usage(z1: Window, z2: Window, limits: Limits, windowSeconds: number, resetMs?: number) {
		const live = [z1, z2].filter((w) => w !== undefined).map((w) => w.msBeforeNext);
		return {
			zone1Usage: Math.min(z1?.consumed ?? 0, limits.zone1),
			zone1Limit: limits.zone1,
			zone2Usage: Math.min(z2?.consumed ?? 0, limits.zone2),
			zone2Limit: limits.zone2,
			resetAfter:
				resetMs !== undefined
					? seconds(resetMs)
					: live.length
						? seconds(Math.max(...live))
						: windowSeconds
		};
	}

	/** The usage without counting anything (for answers that are not counted, and for unknown callers). */
	async peek(key: string | undefined, limits: Limits, windowSeconds: number): Promise<Usage> {
		if (!key) return this.usage(undefined, undefined, limits, windowSeconds);
		try {
			const [z1, z2] = await Promise.all([
				this.window(1, key, limits, windowSeconds),
				this.window(2, key, limits, windowSeconds)
			]);
			return this.usage(z1, z2, limits, windowSeconds);
		} catch (e) {
			throw new StoreUnavailable(e);
		}
	}

	/** Counts one call in a zone; over the zone's limit it is refused. */
	async take(
		key: string,
		zone: Zone,
		limits: Limits,
		windowSeconds: number
	): Promise<{ allowed: boolean; usage: Usage }> {
		try {
			const limit = zone === 1 ? limits.zone1 : limits.zone2;
			const [taken, other] = await Promise.all([
				this.limiter(zone, limit, windowSeconds).then((l) => take(l, key)),
				this.window(zone === 1 ? 2 : 1, key, limits, windowSeconds)
			]);
			const mine = { consumed: taken.consumed, msBeforeNext: taken.msBeforeNext };
			const [z1, z2] = zone === 1 ? [mine, other] : [other, mine];
			return {
				allowed: taken.allowed,
				usage: this.usage(z1, z2, limits, windowSeconds, taken.msBeforeNext)
			};
		} catch (e) {
			throw new StoreUnavailable(e);
		}
	}
}

/** The X-Reader-* headers for a usage. */
export function usageHeaders(u: Usage): Record<string, string> {
	return {
		'X-Reader-Zone1-Usage': String(u.zone1Usage),
		'X-Reader-Zone1-Limit': String(u.zone1Limit),
		'X-Reader-Zone2-Usage': String(u.zone2Usage),
		'X-Reader-Zone2-Limit': String(u.zone2Limit),
		'X-Reader-Limits-Reset-After': String(u.resetAfter)
	};
}
