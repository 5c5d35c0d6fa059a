/**
 * The sandbox's reuse window for refresh tokens (SANDBOX_REFRESH_REUSE_SECONDS), as Auth0's
 * rotation overlap and Cognito's grace period have one: the immediately previous refresh token,
 * sent less than W seconds after it was replaced, is accepted any number of times, each time with a
 * new access token and a new refresh token of the same grant, and the current refresh token stays
 * valid beside it. An older one, or the previous one W seconds or more after it was replaced,
 * revokes every token of the grant as with no window (the default, 0).
 *
 * Three levels: the store's contract on both backends (this process's memory, and a real Redis
 * server of the test's own, two clients standing for two instances), each with a clock the test
 * moves; the token endpoint of a sandbox built in this process with that clock, on both backends;
 * and the built server over HTTP, where the setting reaches the sandbox. Nothing waits: time is
 * the injected clock's.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseConfig } from '$lib/config.server.js';
import { createBase, type Clock } from '$lib/base.server';
import { connectRedis } from '$lib/redis.server';
import {
	checkAuthorizationRequest,
	consentView,
	decideConsent
} from '$lib/sandbox/authorize.server';
import { readerApi } from '$lib/sandbox/api.server';
import { GrantStore } from '$lib/sandbox/grants.server';
import { RedisStore } from '$lib/sandbox/redis-store.server';
import { createSandbox, type Sandbox } from '$lib/sandbox/sandbox.server';
import { MemoryStore, type SandboxStore } from '$lib/sandbox/store.server';
import { tokenEndpoint } from '$lib/sandbox/token-route.server';
import { startRedis, type TestRedis } from '../helpers/redis';
import type { TestServer } from '../helpers/server';
import {
	expectOAuthError,
	jwtPayload,
	postToken,
	refreshFields,
	startSandbox,
	tokensFor
} from './sandbox-helpers';

let redis: TestRedis;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
	redis = await startRedis();
});
afterAll(async () => {
	await Promise.all(closers.map((close) => close()));
	await redis?.remove();
});

/** A clock that stands still until the test moves it, starting now (so Redis keys expire later, not before). */
function movableClock(): Clock & { advance(ms: number): void; sec(): number } {
	let t = Date.now();
	return Object.assign(() => t, {
		advance(ms: number) {
			t += ms;
		},
		sec: () => Math.floor(t / 1000)
	});
}

let n = 0;
/** Ids unique to each test, so the tests share one Redis server without meeting. */
const id = (label: string) => `${label}-${++n}-${Math.random().toString(36).slice(2)}`;

const W = 30;
const DAY = 24 * 3600;

describe('the setting', () => {
	const sandboxPart = (env: Record<string, string>) => parseConfig(env).sandbox;

	test('SANDBOX_REFRESH_REUSE_SECONDS is 0 by default (no window), and reads a whole number of seconds', () => {
		expect(sandboxPart({}).refreshReuseWindow).toBe(0);
		expect(sandboxPart({ SANDBOX_REFRESH_REUSE_SECONDS: '' }).refreshReuseWindow).toBe(0);
		expect(sandboxPart({ SANDBOX_REFRESH_REUSE_SECONDS: '0' }).refreshReuseWindow).toBe(0);
		expect(sandboxPart({ SANDBOX_REFRESH_REUSE_SECONDS: ' 60 ' }).refreshReuseWindow).toBe(60);
	});

	test('a bad value stops the configuration with a message naming the variable and the value', () => {
		for (const bad of ['-1', '1.5', 'soon', '1e3', '315360001']) {
			expect(() => parseConfig({ SANDBOX_REFRESH_REUSE_SECONDS: bad })).toThrow(
				`SANDBOX_REFRESH_REUSE_SECONDS must be a whole number of seconds from 0 to 315360000, got ${JSON.stringify(bad)}`
			);
		}
		// With the sandbox off, its variables are not read.
		expect(
			parseConfig({ SANDBOX: 'off', SANDBOX_REFRESH_REUSE_SECONDS: 'soon' }).sandbox.enabled
		).toBe(false);
	});
});

/** Two "instances" of a store on one clock: for memory, one process's store seen twice; for Redis, two clients. */
const backends: [string, (clock: Clock) => Promise<[SandboxStore, SandboxStore]>][] = [
	[
		'memory',
		async (clock) => {
			const m = new MemoryStore(new GrantStore(clock), clock);
			return [m, m];
		}
	],
	[
		'redis',
		async (clock) => {
			const pair: [RedisStore, RedisStore] = [
				new RedisStore(await connectRedis(redis.url), clock),
				new RedisStore(await connectRedis(redis.url), clock)
			];
			for (const s of pair) closers.push(() => s.close());
			return pair;
		}
	]
];

describe.each(backends)('the store, %s backend', (_name, pair) => {
	/** A family whose first refresh token is `r1`, redeemed now. */
	async function family(s: SandboxStore, clock: ReturnType<typeof movableClock>) {
		const fam = id('fam');
		const code = { jti: id('code'), exp: clock.sec() + 60, fam, client_id: 'x' };
		expect(await s.redeemCode(code, 'r1', clock.sec() + DAY)).toBe(true);
		return fam;
	}

	test('within the window the previous token is accepted any number of times beside the current one, which still rotates', async () => {
		const clock = movableClock();
		const [a, b] = await pair(clock);
		const fam = await family(a, clock);
		const until = clock.sec() + DAY;
		expect(await a.rotate(fam, 'x', 'r1', 'r2', until, W)).toBe('ok');
		clock.advance(10_000);
		expect(await b.rotate(fam, 'x', 'r1', 'unused-1', until, W)).toEqual({ beside: 'r2' });
		clock.advance(W * 1000 - 10_001);
		// 29.999 s after r1 was replaced: still inside.
		expect(await a.rotate(fam, 'x', 'r1', 'unused-2', until, W)).toEqual({ beside: 'r2' });
		expect(await b.isRevoked(fam)).toBe(false);
		// The current one rotates as before; r2 is then the previous one, r1 two back.
		expect(await b.rotate(fam, 'x', 'r2', 'r3', until, W)).toBe('ok');
		expect(await a.rotate(fam, 'x', 'r2', 'unused-3', until, W)).toEqual({ beside: 'r3' });
		expect(await a.rotate(fam, 'x', 'r1', 'unused-4', until, W)).toBe('reused');
		expect(await b.isRevoked(fam)).toBe(true);
		expect(await b.rotate(fam, 'x', 'r3', 'r4', until, W)).toBe('revoked');
	});

	test('the previous token W seconds after it was replaced revokes the family ("late"), and the current one is then refused', async () => {
		const clock = movableClock();
		const [a, b] = await pair(clock);
		const fam = await family(a, clock);
		const until = clock.sec() + DAY;
		expect(await a.rotate(fam, 'x', 'r1', 'r2', until, W)).toBe('ok');
		clock.advance(W * 1000);
		expect(await b.rotate(fam, 'x', 'r1', 'unused', until, W)).toBe('late');
		expect(await a.isRevoked(fam)).toBe(true);
		expect(await a.rotate(fam, 'x', 'r2', 'r3', until, W)).toBe('revoked');
	});

	test('with no window (0, the default) the previous token revokes the family at once', async () => {
		const clock = movableClock();
		const [a, b] = await pair(clock);
		for (const window of [0, undefined]) {
			const fam = await family(a, clock);
			const until = clock.sec() + DAY;
			expect(await a.rotate(fam, 'x', 'r1', 'r2', until, window)).toBe('ok');
			expect(await b.rotate(fam, 'x', 'r1', 'unused', until, window)).toBe('reused');
			expect(await a.rotate(fam, 'x', 'r2', 'r3', until, window)).toBe('revoked');
		}
	});

	test('two rotations of the current token at once with a window: one rotates, the other is answered beside the new current one', async () => {
		const clock = movableClock();
		const [a, b] = await pair(clock);
		const fam = await family(a, clock);
		const until = clock.sec() + DAY;
		const both = await Promise.all([
			a.rotate(fam, 'x', 'r1', 'r2a', until, W),
			b.rotate(fam, 'x', 'r1', 'r2b', until, W)
		]);
		const won = both.indexOf('ok');
		expect(won).not.toBe(-1);
		expect(both[1 - won]).toEqual({ beside: won === 0 ? 'r2a' : 'r2b' });
		expect(await a.isRevoked(fam)).toBe(false);
	});
});

const ORIGIN = 'http://127.0.0.1:5173';
const CB = `${ORIGIN}/callback`;
const RW = { client_id: 'sandbox-rw', client_secret: 'sandbox-rw-secret' };

/** A sandbox built in this process on the test's clock, with its own store (REDIS_URL for Redis). */
function sandboxOn(clock: Clock, env: Record<string, string>): Sandbox {
	const sandbox = createSandbox(
		createBase(
			parseConfig({
				PLAYGROUND_SESSION_KEY: Buffer.alloc(32, 'refresh-reuse-window-tests').toString(
					'base64url'
				),
				...env
			}),
			clock
		)
	);
	closers.push(async () => (await sandbox.store()).close());
	return sandbox;
}

async function token(sandbox: Sandbox, fields: Record<string, string>) {
	const res = await tokenEndpoint(
		sandbox,
		new Request(`${ORIGIN}/sandbox/oauth2/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams(fields)
		}),
		ORIGIN
	);
	return { res, body: (await res.json()) as Record<string, string> };
}

/** Consent and exchange at `sandbox`: the first access and refresh token of a new grant. */
async function firstTokens(sandbox: Sandbox) {
	const params = { client_id: RW.client_id, redirect_uri: CB, response_type: 'code', state: 's' };
	const check = checkAuthorizationRequest(sandbox.settings, new URLSearchParams(params), ORIGIN);
	if (check.kind !== 'consent') throw new Error(check.kind);
	const decided = await decideConsent(
		sandbox,
		(await consentView(sandbox, check)).ticket,
		'authorize'
	);
	if (!decided.ok) throw new Error(decided.message);
	const code = new URL(decided.location).searchParams.get('code')!;
	const answer = await token(sandbox, {
		grant_type: 'authorization_code',
		code,
		redirect_uri: CB,
		...RW
	});
	expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
	return answer.body;
}

async function refresh(sandbox: Sandbox, refresh_token: string) {
	return token(sandbox, { grant_type: 'refresh_token', refresh_token, ...RW });
}

/** A refresh that succeeded: its access and refresh token. */
async function refreshed(sandbox: Sandbox, refresh_token: string) {
	const answer = await refresh(sandbox, refresh_token);
	expect(answer.res.status, JSON.stringify(answer.body)).toBe(200);
	return answer.body as { access_token: string; refresh_token: string };
}

async function refusal(sandbox: Sandbox, refresh_token: string) {
	const { res, body } = await refresh(sandbox, refresh_token);
	expect(res.status).toBe(400);
	expect(res.headers.get('cache-control')).toBe('no-store');
	return body;
}

async function userInfoStatus(sandbox: Sandbox, access_token: string): Promise<number> {
	const url = new URL(`${ORIGIN}/sandbox/reader/api/0/user-info`);
	const res = await readerApi(
		sandbox,
		new Request(url, { headers: { authorization: `Bearer ${access_token}` } }),
		url,
		'user-info'
	);
	await res.arrayBuffer();
	return res.status;
}

const REUSED =
	'The refresh token was already used (refresh tokens rotate); every token of this grant is now revoked';
const REVOKED = 'The refresh token has been revoked';

describe.each([
	['memory', () => ({})],
	['redis', () => ({ REDIS_URL: redis.url })]
])('the token endpoint, %s backend', (_name, storeEnv) => {
	test('default (no window): the replaced refresh token revokes the grant at once, as always', async () => {
		const clock = movableClock();
		const sandbox = sandboxOn(clock, storeEnv());
		const first = await firstTokens(sandbox);
		const second = await refreshed(sandbox, first.refresh_token!);
		clock.advance(1);
		expect(await refusal(sandbox, first.refresh_token!)).toEqual({
			error: 'invalid_grant',
			error_description: REUSED
		});
		expect(await refusal(sandbox, second.refresh_token)).toEqual({
			error: 'invalid_grant',
			error_description: REVOKED
		});
		expect(await userInfoStatus(sandbox, second.access_token)).toBe(401);
	});

	test('a window of W s: the previous refresh token is accepted again and again, each time with new tokens of the same grant, and the current one stays valid', async () => {
		const clock = movableClock();
		const sandbox = sandboxOn(clock, {
			...storeEnv(),
			SANDBOX_REFRESH_REUSE_SECONDS: String(W)
		});
		const first = await firstTokens(sandbox);
		const current = await refreshed(sandbox, first.refresh_token!);
		clock.advance(5_000);
		const again = await refreshed(sandbox, first.refresh_token!);
		clock.advance(W * 1000 - 5_001);
		const andAgain = await refreshed(sandbox, first.refresh_token!);
		// Each answer is new: another access token and another refresh token, of the same grant.
		const refreshTokens = [first.refresh_token, current.refresh_token, again.refresh_token];
		refreshTokens.push(andAgain.refresh_token);
		expect(new Set(refreshTokens).size).toBe(4);
		expect(new Set([current, again, andAgain].map((t) => t.access_token)).size).toBe(3);
		const fam = jwtPayload(first.access_token!).fam;
		for (const t of [current, again, andAgain]) {
			expect(jwtPayload(t.access_token).fam).toBe(fam);
			expect(jwtPayload(t.refresh_token).fam).toBe(fam);
			expect(await userInfoStatus(sandbox, t.access_token)).toBe(200);
		}
		// The current refresh token still rotates...
		const next = await refreshed(sandbox, current.refresh_token);
		// ...and so would a token answered beside it: it stands in the current one's place, so it is
		// now the previous one, accepted within the window.
		clock.advance(1_000);
		const beside = await refreshed(sandbox, again.refresh_token);
		expect(await userInfoStatus(sandbox, beside.access_token)).toBe(200);
		expect(await userInfoStatus(sandbox, next.access_token)).toBe(200);
	});

	test('a window of W s: an older refresh token (two back) revokes the grant, and the current one is then refused', async () => {
		const clock = movableClock();
		const sandbox = sandboxOn(clock, {
			...storeEnv(),
			SANDBOX_REFRESH_REUSE_SECONDS: String(W)
		});
		const first = await firstTokens(sandbox);
		const second = await refreshed(sandbox, first.refresh_token!);
		const third = await refreshed(sandbox, second.refresh_token);
		clock.advance(1_000);
		expect(await refusal(sandbox, first.refresh_token!)).toEqual({
			error: 'invalid_grant',
			error_description:
				'The refresh token was already used and is older than the previous one (refresh tokens rotate; only the previous one is accepted again, for 30 seconds after it was replaced); every token of this grant is now revoked'
		});
		expect(await refusal(sandbox, third.refresh_token)).toEqual({
			error: 'invalid_grant',
			error_description: REVOKED
		});
		expect(await userInfoStatus(sandbox, third.access_token)).toBe(401);
	});

	test('a window of W s: the previous refresh token W s after it was replaced revokes the grant, and the current one is then refused', async () => {
		const clock = movableClock();
		const sandbox = sandboxOn(clock, {
			...storeEnv(),
			SANDBOX_REFRESH_REUSE_SECONDS: String(W)
		});
		const first = await firstTokens(sandbox);
		const second = await refreshed(sandbox, first.refresh_token!);
		clock.advance(W * 1000);
		expect(await refusal(sandbox, first.refresh_token!)).toEqual({
			error: 'invalid_grant',
			error_description:
				'The refresh token was already used and replaced 30 seconds ago or more (refresh tokens rotate; the previous one is accepted again only for 30 seconds after it was replaced); every token of this grant is now revoked'
		});
		expect(await refusal(sandbox, second.refresh_token)).toEqual({
			error: 'invalid_grant',
			error_description: REVOKED
		});
		expect(await userInfoStatus(sandbox, second.access_token)).toBe(401);
	});

	test('a window of 1 s is said in the singular: "1 second"', async () => {
		const clock = movableClock();
		const sandbox = sandboxOn(clock, { ...storeEnv(), SANDBOX_REFRESH_REUSE_SECONDS: '1' });
		const first = await firstTokens(sandbox);
		await refreshed(sandbox, first.refresh_token!);
		clock.advance(1_000);
		expect(await refusal(sandbox, first.refresh_token!)).toEqual({
			error: 'invalid_grant',
			error_description:
				'The refresh token was already used and replaced 1 second ago or more (refresh tokens rotate; the previous one is accepted again only for 1 second after it was replaced); every token of this grant is now revoked'
		});
	});
});

describe('the built server over HTTP', () => {
	let srv: TestServer;
	beforeAll(async () => {
		srv = await startSandbox({ SANDBOX_REFRESH_REUSE_SECONDS: '600' });
	});
	afterAll(() => srv?.stop());

	test('SANDBOX_REFRESH_REUSE_SECONDS reaches the sandbox: the previous refresh token is accepted again, and the current one still refreshes', async () => {
		const t = await tokensFor(srv);
		const rotated = await postToken(srv, refreshFields('sandbox-rw', t.refresh_token));
		expect(rotated.res.status).toBe(200);
		const again = await postToken(srv, refreshFields('sandbox-rw', t.refresh_token));
		expect(again.res.status, JSON.stringify(again.body)).toBe(200);
		expect(again.body.refresh_token).not.toBe(rotated.body.refresh_token);
		expect(again.res.headers.get('cache-control')).toBe('no-store');
		const current = await postToken(
			srv,
			refreshFields('sandbox-rw', rotated.body.refresh_token as string)
		);
		expect(current.res.status, JSON.stringify(current.body)).toBe(200);
		// The first refresh token is now two back: the grant is revoked.
		expectOAuthError(
			await postToken(srv, refreshFields('sandbox-rw', t.refresh_token)),
			400,
			'invalid_grant',
			/older than the previous one/
		);
	});
});
