/**
 * Fixed-window counters through `rate-limiter-flexible`: in this process's memory by default, on
 * the shared Redis-protocol server (REDIS_URL) when there is one, so that every instance counts
 * into the same window. A window starts with its key's first counted call and lasts `durationS`;
 * calls refused inside it do not extend it.
 *
 * With `insurance`, a limiter on Redis falls back to a memory limiter of this process while the
 * server is unreachable (the abuse limit keeps working per process); without it, the error goes
 * to the caller (the sandbox then answers 503).
 */
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';

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

/** Why a request without the proxy's address header is refused (a 400: nothing was sent on). */
export const NO_ADDRESS_MESSAGE =
	"This server counts each visitor by the address header its proxy adds (ADDRESS_HEADER), and this request has none: it did not come through that proxy. Nothing was sent on: open this page through the proxy's address.";

export interface WindowOptions {
	/** Names the counters: limiters with one prefix count into the same windows. */
	prefix: string;
	points: number;
	durationS: number;
	redis?: Redis;
	insurance?: boolean;
}

export async function fixedWindow(o: WindowOptions): Promise<RateLimiterAbstract> {
	const memory = () =>
		new RateLimiterMemory({ keyPrefix: o.prefix, points: o.points, duration: o.durationS });
	if (!o.redis) return memory();
	const { default: RateLimiterRedis } =
		await import('rate-limiter-flexible/lib/RateLimiterRedis.js');
	return new RateLimiterRedis({
		storeClient: o.redis,
		keyPrefix: o.prefix,
		points: o.points,
		duration: o.durationS,
		rejectIfRedisNotReady: true,
		...(o.insurance && { insuranceLimiter: memory() })
	});
}

export interface Taken {
	allowed: boolean;
	/** Calls counted in the window so far, this one included (refused ones too). */
	consumed: number;
	/** Until the window ends. */
	msBeforeNext: number;
}

/** Counts one call for `key`. A store error (no insurance) is thrown as it came. */
export async function take(limiter: RateLimiterAbstract, key: string): Promise<Taken> {
	try {
		const r = await limiter.consume(key);
		return { allowed: true, consumed: r.consumedPoints, msBeforeNext: r.msBeforeNext };
	} catch (e) {
		if (e instanceof RateLimiterRes)
			return { allowed: false, consumed: e.consumedPoints, msBeforeNext: e.msBeforeNext };
		throw e;
	}
}

/** The window of `key` without counting: undefined when none is running. */
export async function peekWindow(
	limiter: RateLimiterAbstract,
	key: string
): Promise<{ consumed: number; msBeforeNext: number } | undefined> {
	const r = await limiter.get(key);
	return r && r.msBeforeNext > 0
		? { consumed: r.consumedPoints, msBeforeNext: r.msBeforeNext }
		: undefined;
}
