/**
 * Rate limits of the reader API, as the real service shows them: two zones (zone 1 reads, zone 2
 * writes), counted per client in a fixed window that starts with the client's first counted call.
 * Every API response carries the X-Reader-* headers; over the limit the answer is 429 with Retry-After.
 */

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

interface Window {
	start: number;
	zone1: number;
	zone2: number;
}

export class RateLimiter {
	private windows = new Map<string, Window>();

	constructor(private readonly now: () => number = Date.now) {}

	private current(client_id: string, windowSeconds: number): Window | undefined {
		const w = this.windows.get(client_id);
		if (w && this.now() - w.start >= windowSeconds * 1000) {
			this.windows.delete(client_id);
			return undefined;
		}
		return w;
	}

	private usage(w: Window | undefined, limits: Limits, windowSeconds: number): Usage {
		const resetAfter = w
			? Math.max(1, Math.ceil((w.start + windowSeconds * 1000 - this.now()) / 1000))
			: windowSeconds;
		return {
			zone1Usage: w?.zone1 ?? 0,
			zone1Limit: limits.zone1,
			zone2Usage: w?.zone2 ?? 0,
			zone2Limit: limits.zone2,
			resetAfter
		};
	}

	/** The usage without counting anything (for answers that are not counted, and for unknown callers). */
	peek(client_id: string | undefined, limits: Limits, windowSeconds: number): Usage {
		return this.usage(
			client_id ? this.current(client_id, windowSeconds) : undefined,
			limits,
			windowSeconds
		);
	}

	/** Counts one call in a zone, unless the zone's limit is reached already. */
	take(
		client_id: string,
		zone: Zone,
		limits: Limits,
		windowSeconds: number
	): { allowed: boolean; usage: Usage } {
		let w = this.current(client_id, windowSeconds);
		const limit = zone === 1 ? limits.zone1 : limits.zone2;
		const used = zone === 1 ? (w?.zone1 ?? 0) : (w?.zone2 ?? 0);
		if (used >= limit) return { allowed: false, usage: this.usage(w, limits, windowSeconds) };
		if (!w) {
			w = { start: this.now(), zone1: 0, zone2: 0 };
			this.windows.set(client_id, w);
		}
		if (zone === 1) w.zone1++;
		else w.zone2++;
		return { allowed: true, usage: this.usage(w, limits, windowSeconds) };
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
