/**
 * A store that forgets: real servers of the test's own, redis-server on a loopback port without
 * persistence and the built playground, driven over HTTP.
 *
 * What the sandbox remembers (used codes, consent decisions, refresh families) can vanish: a server
 * without persistence restarts empty, a FLUSHALL empties it. The codes, tickets and refresh tokens
 * it issued carry the store's generation, a random id the store keeps; an emptied store has a new
 * one, so whatever was issued before is refused rather than redeemed a second time.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { Redis } from 'ioredis';
import type { TestServer } from '../helpers/server';
import { NO_PERSISTENCE_FLAGS, type TestRedis } from '../helpers/redis';
import {
	exchangeFields,
	expectOAuthError,
	getCode,
	getConsent,
	openConsent,
	postDecision,
	postToken,
	refreshFields,
	storeTestbed,
	tokensFor
} from './sandbox-helpers';

const { clients, redisWith, sandboxOn } = storeTestbed();

describe('a store that restarts empty (redis-server without persistence, emptied by FLUSHALL)', () => {
	let redis: TestRedis;
	let srv: TestServer;
	let admin: Redis;

	beforeAll(async () => {
		redis = await redisWith(NO_PERSISTENCE_FLAGS);
		srv = await sandboxOn({ REDIS_URL: redis.url });
		admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
		// The last test restarts the server: this client reconnects by itself, quietly.
		admin.on('error', () => undefined);
		clients.push(admin);
	});

	/** What a restart of a server without persistence leaves: nothing. */
	const emptyTheStore = async () => expect(await admin.flushall()).toBe('OK');

	test('replayed code: a code redeemed before the store was emptied is not redeemed again', async () => {
		const { code } = await getCode(srv);
		expect((await postToken(srv, exchangeFields(srv, code))).res.status).toBe(200);
		await emptyTheStore();
		expectOAuthError(
			await postToken(srv, exchangeFields(srv, code)),
			400,
			'invalid_grant',
			/store was emptied or replaced/
		);
	});

	test('a code issued before the store was emptied is refused: invalid_grant', async () => {
		const { code } = await getCode(srv);
		await emptyTheStore();
		expectOAuthError(
			await postToken(srv, exchangeFields(srv, code)),
			400,
			'invalid_grant',
			/store was emptied or replaced/
		);
	});

	test('replayed ticket: a consent decided before the store was emptied mints no new code', async () => {
		const { ticket } = await openConsent(srv);
		expect((await postDecision(srv, 'authorize', { ticket })).status).toBe(303);
		await emptyTheStore();
		const replay = await postDecision(srv, 'authorize', { ticket });
		expect(replay.headers.get('location')).toBeNull();
		expect(replay.status).toBe(400);
		expect(await replay.text()).toMatch(/Start again from the application/);
	});

	test('replayed refresh token: a rotated-away refresh token from before the store was emptied is refused', async () => {
		const t = await tokensFor(srv);
		const rotated = await postToken(srv, refreshFields('sandbox-rw', t.refresh_token));
		expect(rotated.res.status).toBe(200);
		await emptyTheStore();
		expectOAuthError(
			await postToken(srv, refreshFields('sandbox-rw', t.refresh_token)),
			400,
			'invalid_grant',
			/store was emptied or replaced/
		);
	});

	test('what is issued after the store was emptied works as before', async () => {
		await emptyTheStore();
		const t = await tokensFor(srv);
		expect((await postToken(srv, refreshFields('sandbox-rw', t.refresh_token))).res.status).toBe(
			200
		);
	});

	test('replayed code and ticket after redis-server restarted empty: both refused', async () => {
		const { code } = await getCode(srv);
		expect((await postToken(srv, exchangeFields(srv, code))).res.status).toBe(200);
		const { ticket } = await openConsent(srv);
		expect((await postDecision(srv, 'authorize', { ticket })).status).toBe(303);
		await redis.stop();
		await redis.start();
		// The sandbox answers 503 until its client has reconnected by itself: wait for that.
		await expect.poll(async () => (await getConsent(srv)).status, { timeout: 15_000 }).toBe(200);
		expectOAuthError(
			await postToken(srv, exchangeFields(srv, code)),
			400,
			'invalid_grant',
			/store was emptied or replaced/
		);
		const replay = await postDecision(srv, 'authorize', { ticket });
		expect(replay.headers.get('location')).toBeNull();
		expect(replay.status).toBe(400);
	});
});
