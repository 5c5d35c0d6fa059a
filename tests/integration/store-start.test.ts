/**
 * The start-up check of the store REDIS_URL names: real servers of the test's own, redis-server on
 * a loopback port (without persistence, with append-only, with snapshots only, with `CONFIG`
 * renamed away as managed servers do) and the built playground, whose start is refused, warned
 * about or quiet. Hosted mode refuses a store that can forget used codes unless
 * PLAYGROUND_STORE_UNSAFE=accept; local mode warns.
 */
import { describe, expect, test } from 'vitest';
import { Redis } from 'ioredis';
import { freePort } from '../helpers/server';
import {
	NO_CONFIG_FLAGS,
	NO_PERSISTENCE_FLAGS,
	PERSISTENCE_FLAGS,
	type TestRedis
} from '../helpers/redis';
import { readStoreSettings } from '$lib/sandbox/store-check.server';
import { getCode, storeTestbed } from './sandbox-helpers';

const { clients, redisWith, sandboxOn } = storeTestbed();

describe('the start-up check of the store REDIS_URL names', () => {
	const hosted = (redis: TestRedis, env: Record<string, string> = {}) => ({
		PLAYGROUND_MODE: 'hosted',
		REDIS_URL: redis.url,
		...env
	});

	test('hosted mode refuses to start on a store without persistence, saying why', async () => {
		const redis = await redisWith(NO_PERSISTENCE_FLAGS);
		const start = sandboxOn(hosted(redis));
		await expect(start).rejects.toThrow(
			/The playground cannot start: .*REDIS_URL.*appendonly is off.*PLAYGROUND_STORE_UNSAFE=accept/s
		);
	});

	test('with PLAYGROUND_STORE_UNSAFE=accept it starts on that store, with a warning', async () => {
		const redis = await redisWith(NO_PERSISTENCE_FLAGS);
		const srv = await sandboxOn(hosted(redis, { PLAYGROUND_STORE_UNSAFE: 'accept' }));
		expect(srv.logs()).toMatch(/Warning: .*REDIS_URL.*appendonly is off/s);
		expect((await getCode(srv)).code).toBeTruthy();
	});

	test('appendonly yes with noeviction starts quietly', async () => {
		const redis = await redisWith(PERSISTENCE_FLAGS);
		const srv = await sandboxOn(hosted(redis));
		expect(srv.logs()).not.toMatch(/REDIS_URL|Warning/);
	});

	test('local mode starts on a store without persistence, with a warning', async () => {
		const redis = await redisWith(NO_PERSISTENCE_FLAGS);
		const srv = await sandboxOn({ REDIS_URL: redis.url });
		expect(srv.logs()).toMatch(/Warning: .*REDIS_URL.*appendonly is off/s);
	});

	test('CONFIG renamed away: the settings are read from INFO, and a good store starts quietly', async () => {
		const redis = await redisWith([...PERSISTENCE_FLAGS, ...NO_CONFIG_FLAGS]);
		const srv = await sandboxOn(hosted(redis));
		expect(srv.logs()).not.toMatch(/REDIS_URL|Warning/);
	});

	test('CONFIG renamed away on a store without persistence: refused, and the reason says INFO told', async () => {
		const redis = await redisWith([...NO_PERSISTENCE_FLAGS, ...NO_CONFIG_FLAGS]);
		await expect(sandboxOn(hosted(redis))).rejects.toThrow(
			/The playground cannot start: .*appendonly is off.*read with INFO/s
		);
	});
});

describe('a store that cannot be reached at start', () => {
	test('hosted mode refuses to start: nothing could be read, so nothing is known', async () => {
		const port = await freePort(); // nothing listens there
		await expect(
			sandboxOn({ PLAYGROUND_MODE: 'hosted', REDIS_URL: `redis://127.0.0.1:${port}` })
		).rejects.toThrow(
			/The playground cannot start: .*its settings could not be read \(unreachable: no connection within/s
		);
	});
});

describe('reading the settings', () => {
	async function settingsOf(flags: string[]) {
		const redis = await redisWith(flags);
		const client = new Redis(redis.url, { maxRetriesPerRequest: 0 });
		clients.push(client);
		return readStoreSettings(client);
	}

	test('CONFIG GET: append-only, snapshots and the eviction policy', async () => {
		expect(await settingsOf(PERSISTENCE_FLAGS)).toEqual({
			source: 'config',
			appendonly: true,
			snapshots: false,
			evictionPolicy: 'noeviction'
		});
		expect(await settingsOf(['--save', '3600 1', '--maxmemory-policy', 'allkeys-lru'])).toEqual({
			source: 'config',
			appendonly: false,
			snapshots: true,
			evictionPolicy: 'allkeys-lru'
		});
	});

	test('INFO where CONFIG is refused: append-only and the eviction policy, snapshots unknown', async () => {
		expect(await settingsOf([...NO_CONFIG_FLAGS, '--maxmemory-policy', 'volatile-lru'])).toEqual({
			source: 'info',
			appendonly: false,
			evictionPolicy: 'volatile-lru'
		});
	});
});
