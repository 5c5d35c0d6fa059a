/**
 * The one connection to the Redis-protocol server named by REDIS_URL (Valkey or Redis 7), shared
 * by the sandbox's store and the rate limits. Commands fail fast instead of queueing while the
 * server is unreachable (no offline queue, one try, a command timeout), so no request waits past
 * `TIMEOUT_MS`; the client reconnects by itself, at most every 2 s. It logs one line when the
 * server goes away and one when it is back, and never the URL, which may hold a password.
 */
import type { Redis } from 'ioredis';

/** The longest a store operation may take, connecting included. */
const TIMEOUT_MS = 1_000;

/** A new client for `url` (ioredis is loaded only then); `log` gets the outage lines. */
export async function connectRedis(
	url: string,
	log: (line: string) => void = console.error
): Promise<Redis> {
	const { Redis } = await import('ioredis');
	const redis = new Redis(url, {
		enableOfflineQueue: false,
		maxRetriesPerRequest: 0,
		commandTimeout: TIMEOUT_MS,
		connectTimeout: TIMEOUT_MS,
		retryStrategy: (times) => Math.min(times * 100, 2_000)
	});
	let down = false;
	redis.on('error', (e: Error) => {
		if (down) return;
		down = true;
		log(`shared store: unreachable (${e.message}); the sandbox answers 503 until it is back`);
	});
	redis.on('ready', () => {
		if (!down) return;
		down = false;
		log('shared store: reachable again');
	});
	return redis;
}

/** Waits for the client's connection, up to `TIMEOUT_MS`. */
export function whenReady(redis: Redis): Promise<void> {
	if (redis.status === 'ready') return Promise.resolve();
	return new Promise((ok, fail) => {
		const timer = setTimeout(() => {
			redis.off('ready', onReady);
			fail(new Error(`no connection within ${TIMEOUT_MS} ms`));
		}, TIMEOUT_MS);
		const onReady = () => {
			clearTimeout(timer);
			ok();
		};
		redis.once('ready', onReady);
	});
}
