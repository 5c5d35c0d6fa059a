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

/**
 * The in-flight cap: how many outbound steps one client address (IPv6: its /64) may have waiting on
 * the service at once, so one visitor cannot hold the whole shared socket pool (64 per host) and
 * starve everyone else. PLAYGROUND_MAX_IN_FLIGHT; 4 in hosted mode, off in local mode unless set.
 * A slot is taken before the step starts and given back when it ends, however it ends.
 */
export class InFlight {
	private held = new Map<string, number>();

	constructor(readonly limit: number) {}

	/** Takes a slot for `address`, or says no when it already holds `limit`. */
	take(address: string): (() => void) | null {
		const key = clientKey(address);
		const now = this.held.get(key) ?? 0;
		if (now >= this.limit) return null;
		this.held.set(key, now + 1);
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const left = (this.held.get(key) ?? 1) - 1;
			if (left > 0) this.held.set(key, left);
			else this.held.delete(key);
		};
	}

	/** Slots held by `address` (its /64 for IPv6). */
	holding(address: string): number {
		return this.held.get(clientKey(address)) ?? 0;
	}

	/** Addresses holding a slot. */
	get size(): number {
		return this.held.size;
	}
}

let inFlight: { for: number; cap: InFlight | null } | undefined;

/** The server's in-flight cap (one per configured limit), or null when it is off. */
export function inFlightCap(cfg: Config = config()): InFlight | null {
	if (inFlight?.for !== cfg.maxInFlight)
		inFlight = {
			for: cfg.maxInFlight,
			cap: cfg.maxInFlight > 0 ? new InFlight(cfg.maxInFlight) : null
		};
	return inFlight.cap;
}

export function inFlightMessage(limit: number): string {
	return (
		`Your address already has ${limit} requests to services in progress, the most this playground ` +
		'runs at once for one address. Try again when one of them has finished.'
	);
}

/**
 * Runs an outbound step in one of this client's in-flight slots, given back in `finally` whatever
 * the outcome (answer, time-out, abort, error); a 429 failure instead when every slot is taken.
 */
export async function inSlot<T>(
	event: Pick<RequestEvent, 'getClientAddress'>,
	run: () => Promise<T>
): Promise<{ ok: true; value: T } | { ok: false; failure: ReturnType<typeof fail> }> {
	const cap = inFlightCap();
	const release = cap ? cap.take(event.getClientAddress()) : () => {};
	if (!release)
		return {
			ok: false,
			failure: fail(429, { message: inFlightMessage(cap!.limit), exchanges: [] })
		};
	try {
		return { ok: true, value: await run() };
	} finally {
		release();
	}
}
