/**
 * The abuse limit: how many outbound requests one client address may start per window, so a hosted
 * playground cannot be used as a request cannon. Each flow step that calls the service (exchange,
 * refresh, user-info, API) counts one attempt, whether or not the request then gets through.
 *
 * PLAYGROUND_RATE_LIMIT requests per PLAYGROUND_RATE_WINDOW seconds, per client address; IPv6
 * clients are counted per /64, since one machine usually holds a whole /64. Defaults: 60 per 60 s in
 * hosted mode, off in local mode unless PLAYGROUND_RATE_LIMIT is set; 0 turns it off.
 *
 * The counter is a fixed window per address (`fixed-window.server.ts`, rate-limiter-flexible): in this
 * process's memory, or with REDIS_URL on the shared server, so that every instance behind a proxy
 * counts into one window per address. While that server is unreachable each process counts on its
 * own (the insurance limiter), and the steps go on.
 */
import { fail, type RequestEvent } from '@sveltejs/kit';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '$lib/config.server.js';
import type { Base } from '$lib/base.server';
import { clientAddress } from '$lib/proxy.server';
import { NO_ADDRESS_MESSAGE, clientKey, fixedWindow, take } from '$lib/fixed-window.server';

export { clientKey };

export type Verdict = { ok: true; remaining: number } | { ok: false; retryAfterS: number };

export class AbuseCounter {
	constructor(
		readonly limit: number,
		readonly windowS: number,
		private readonly limiter: Promise<RateLimiterAbstract> = fixedWindow({
			prefix: 'abuse',
			points: limit,
			durationS: windowS
		})
	) {}

	/** Counts one attempt from `address`; says whether it may go ahead. */
	async hit(address: string): Promise<Verdict> {
		const t = await take(await this.limiter, clientKey(address));
		return t.allowed
			? { ok: true, remaining: this.limit - t.consumed }
			: { ok: false, retryAfterS: Math.max(1, Math.ceil(t.msBeforeNext / 1000)) };
	}
}

/**
 * The limits of one app: the abuse counter and the in-flight cap (each null when off), and the
 * proxy settings that say which address a request comes from.
 */
export interface Limits {
	readonly abuse: AbuseCounter | null;
	readonly inFlight: InFlight | null;
	readonly proxy: Config['proxy'];
}

/** Builds an app's limits from its configuration (the counter on the shared store, with REDIS_URL). */
export function createLimits({ config, redis }: Pick<Base, 'config' | 'redis'>): Limits {
	const { rateLimit, maxInFlight, proxy } = config;
	const abuse =
		rateLimit.limit > 0
			? new AbuseCounter(
					rateLimit.limit,
					rateLimit.windowS,
					Promise.resolve(redis).then((shared) =>
						fixedWindow({
							prefix: 'abuse',
							points: rateLimit.limit,
							durationS: rateLimit.windowS,
							redis: shared,
							insurance: true
						})
					)
				)
			: null;
	return { abuse, inFlight: maxInFlight > 0 ? new InFlight(maxInFlight) : null, proxy };
}

export function limitMessage(limit: number, windowS: number, retryAfterS: number): string {
	return `Too many requests from your address: ${limit} per ${windowS} s. Try again in ${retryAfterS} s.`;
}

/** For a form action that is about to call the service: a 429 failure when this client is over the limit. */
export async function overLimit(
	limits: Limits,
	event: Pick<RequestEvent, 'getClientAddress' | 'setHeaders'> &
		Partial<Pick<RequestEvent, 'platform'>>
) {
	const c = limits.abuse;
	if (!c) return undefined;
	const address = clientAddress(event, limits.proxy);
	if (address === undefined) return fail(400, { message: NO_ADDRESS_MESSAGE, exchanges: [] });
	const verdict = await c.hit(address);
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

function inFlightMessage(limit: number): string {
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
	limits: Limits,
	event: Pick<RequestEvent, 'getClientAddress'> & Partial<Pick<RequestEvent, 'platform'>>,
	run: () => Promise<T>
): Promise<{ ok: true; value: T } | { ok: false; failure: ReturnType<typeof fail> }> {
	const cap = limits.inFlight;
	const address = cap ? clientAddress(event, limits.proxy) : '';
	if (address === undefined)
		return { ok: false, failure: fail(400, { message: NO_ADDRESS_MESSAGE, exchanges: [] }) };
	const release = cap ? cap.take(address) : () => {};
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
