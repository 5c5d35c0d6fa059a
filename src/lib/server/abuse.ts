/**
 * The abuse limit: how many outbound requests one client address may start per window, so a hosted
 * playground cannot be used as a request cannon. Each flow step that calls the service (exchange,
 * refresh, user-info, API) counts one attempt, whether or not the request then gets through.
 *
 * PLAYGROUND_RATE_LIMIT requests per PLAYGROUND_RATE_WINDOW seconds, per client address; IPv6
 * clients are counted per /64, since one machine usually holds a whole /64. Defaults: 60 per 60 s in
 * hosted mode, off in local mode unless PLAYGROUND_RATE_LIMIT is set; 0 turns it off.
 *
 * The counter is a fixed window per address. Memory is bounded: expired windows are pruned, and
 * past `maxClients` addresses the oldest window is dropped to make room.
 */
import { fail, type RequestEvent } from '@sveltejs/kit';
import ipaddr from 'ipaddr.js';
import type { Config, RateLimitConfig } from '$lib/config.server.js';
import { config } from '$lib/env.server';

export type { RateLimitConfig };

export type Verdict = { ok: true; remaining: number } | { ok: false; retryAfterS: number };

interface Bucket {
	start: number;
	count: number;
}

export const MAX_CLIENTS = 10_000;

/** The address a client is counted under: IPv4 as is (also when IPv4-mapped), IPv6 by its /64. */
export function clientKey(address: string): string {
	try {
		const ip = ipaddr.process(address.replace(/%.*$/, ''));
		if (ip.kind() === 'ipv4') return ip.toString();
		const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
		return `${parts.join(':')}::/64`;
	} catch {
		return address;
	}
}

export class AbuseCounter {
	private buckets = new Map<string, Bucket>();
	private lastPrune: number;
	private readonly windowMs: number;

	constructor(
		readonly limit: number,
		readonly windowS: number,
		private readonly now: () => number = Date.now,
		private readonly maxClients = MAX_CLIENTS
	) {
		this.windowMs = windowS * 1000;
		this.lastPrune = now();
	}

	/** Counts one attempt from `address`; says whether it may go ahead. */
	hit(address: string): Verdict {
		const t = this.now();
		if (t - this.lastPrune >= this.windowMs) this.prune(t);
		const key = clientKey(address);
		let bucket = this.buckets.get(key);
		if (!bucket || t - bucket.start >= this.windowMs) {
			if (bucket) this.buckets.delete(key);
			else if (this.buckets.size >= this.maxClients) this.prune(t);
			if (this.buckets.size >= this.maxClients)
				this.buckets.delete(this.buckets.keys().next().value!);
			bucket = { start: t, count: 0 };
			this.buckets.set(key, bucket); // insertion order = window start order: the first key is the oldest
		}
		if (bucket.count >= this.limit)
			return {
				ok: false,
				retryAfterS: Math.max(1, Math.ceil((bucket.start + this.windowMs - t) / 1000))
			};
		bucket.count++;
		return { ok: true, remaining: this.limit - bucket.count };
	}

	/** Addresses with a live window. */
	get size(): number {
		return this.buckets.size;
	}

	private prune(t: number): void {
		this.lastPrune = t;
		for (const [key, b] of this.buckets) {
			if (t - b.start < this.windowMs) break; // the rest started later
			this.buckets.delete(key);
		}
	}
}

let counter: { for: RateLimitConfig; counter: AbuseCounter | null } | undefined;

/** The server's counter (one per configuration), or null when the limit is off. */
export function abuseCounter(cfg: Config = config()): AbuseCounter | null {
	const { rateLimit } = cfg;
	if (counter?.for !== rateLimit)
		counter = {
			for: rateLimit,
			counter: rateLimit.limit > 0 ? new AbuseCounter(rateLimit.limit, rateLimit.windowS) : null
		};
	return counter.counter;
}

export function limitMessage(limit: number, windowS: number, retryAfterS: number): string {
	return `Too many requests from your address: ${limit} per ${windowS} s. Try again in ${retryAfterS} s.`;
}

/** For a form action that is about to call the service: a 429 failure when this client is over the limit. */
export function overLimit(event: Pick<RequestEvent, 'getClientAddress' | 'setHeaders'>) {
	const c = abuseCounter();
	if (!c) return undefined;
	const verdict = c.hit(event.getClientAddress());
	if (verdict.ok) return undefined;
	event.setHeaders({ 'retry-after': String(verdict.retryAfterS) });
	return fail(429, {
		message: limitMessage(c.limit, c.windowS, verdict.retryAfterS),
		exchanges: []
	});
}
