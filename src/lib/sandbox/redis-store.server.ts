/**
 * The sandbox's store on a Redis-protocol server (Valkey or Redis 7), through `ioredis`, when
 * REDIS_URL is set. Every instance and worker that uses the same server shares what the sandbox
 * remembers. Each decision is one Lua script, which the server runs atomically:
 *
 * - `sandbox:code:<jti>` = the family the code started, until the code's own expiry;
 * - `sandbox:fam:<fam>` = a hash (client_id, refresh, revoked, until; and previous, replaced: the
 *   refresh token the current one replaced and when, in milliseconds of the sandbox's clock, for the
 *   reuse window), expiring at `until`, the expiry of the longest token the family holds: a
 *   revocation lives exactly as long as it matters;
 * - `sandbox:decision:<ticket jti>` = the first consent decision of a ticket, until the ticket expires;
 * - `sandbox:generation` = the store's generation (store.server.ts), a random id set once (SET NX)
 *   and never expiring: emptied, the server gets a new one, and what was issued before is refused;
 * - `sandbox:state:<namespace>` = the demo data of a client (or, hosted, of a grant), as JSON,
 *   replaced by compare-and-set and expiring with the grant.
 *
 * The client is `redis.server.ts`'s: it fails fast while the server is unreachable and
 * reconnects by itself, so the sandbox works again as soon as the server is back.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { whenReady } from '$lib/redis.server';
import { StoreUnavailable, type RotateResult, type SandboxStore } from './store.server';

const PREFIX = 'sandbox:';

const REDEEM = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EXAT', ARGV[2]) == false then return 0 end
local revoked = redis.call('HGET', KEYS[2], 'revoked') or '0'
local u = math.max(tonumber(redis.call('HGET', KEYS[2], 'until') or '0'), tonumber(ARGV[5]))
redis.call('HSET', KEYS[2], 'client_id', ARGV[3], 'refresh', ARGV[4], 'revoked', revoked, 'until', u)
redis.call('EXPIREAT', KEYS[2], u)
return 1`;

const REVOKE = `
local u = math.max(tonumber(redis.call('HGET', KEYS[1], 'until') or '0'), tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'revoked', '1', 'until', u)
redis.call('EXPIREAT', KEYS[1], u)
return 1`;

// ARGV: client_id, presented jti, next jti, until, now (ms), reuse window (ms; 0: none).
const ROTATE = `
local f = redis.call('HMGET', KEYS[1], 'revoked', 'refresh', 'until', 'previous', 'replaced')
if f[1] == '1' then return 'revoked' end
if f[2] and f[2] ~= ARGV[2] then
  local previous = tonumber(ARGV[6]) > 0 and f[4] == ARGV[2]
  if previous and tonumber(ARGV[5]) - tonumber(f[5]) < tonumber(ARGV[6]) then
    return 'beside:' .. f[2]
  end
  redis.call('HSET', KEYS[1], 'revoked', '1')
  if previous then return 'late' end
  return 'reused'
end
local u = math.max(tonumber(f[3] or '0'), tonumber(ARGV[4]))
redis.call('HSET', KEYS[1], 'client_id', ARGV[1], 'refresh', ARGV[3], 'previous', ARGV[2],
  'replaced', ARGV[5], 'revoked', '0', 'until', u)
redis.call('EXPIREAT', KEYS[1], u)
return 'ok'`;

/** The prefix of ROTATE's answer for the previous token within the reuse window, before the current jti. */
const BESIDE = 'beside:';

const DECIDE = `
local first = redis.call('GET', KEYS[1])
if first then return first end
redis.call('SET', KEYS[1], ARGV[1], 'EXAT', ARGV[2])
return ARGV[1]`;

const WRITE_STATE = `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EXAT', ARGV[3])
return 1`;

interface Scripts {
	sandboxWriteState(key: string, previous: string, next: string, until: number): Promise<number>;
	sandboxRedeem(code: string, fam: string, ...args: (string | number)[]): Promise<number>;
	sandboxRevoke(fam: string, until: number): Promise<number>;
	sandboxRotate(fam: string, ...args: (string | number)[]): Promise<string>;
	sandboxDecide(key: string, location: string, exp: number): Promise<string>;
}

export class RedisStore implements SandboxStore {
	readonly kind = 'redis' as const;
	private readonly redis: Redis & Scripts;

	constructor(
		redis: Redis,
		private readonly now: () => number = Date.now
	) {
		redis.defineCommand('sandboxRedeem', { numberOfKeys: 2, lua: REDEEM });
		redis.defineCommand('sandboxRevoke', { numberOfKeys: 1, lua: REVOKE });
		redis.defineCommand('sandboxRotate', { numberOfKeys: 1, lua: ROTATE });
		redis.defineCommand('sandboxDecide', { numberOfKeys: 1, lua: DECIDE });
		redis.defineCommand('sandboxWriteState', { numberOfKeys: 1, lua: WRITE_STATE });
		this.redis = redis as Redis & Scripts;
	}

	/** Waits for the connection (up to the timeout), then runs `op`; any failure is StoreUnavailable. */
	private async run<T>(op: () => Promise<T>): Promise<T> {
		try {
			await whenReady(this.redis);
			return await op();
		} catch (e) {
			throw new StoreUnavailable(e);
		}
	}

	/** A key's expiry that is never in the past (the server would drop it at once). */
	private atLeastNow(unixSeconds: number): number {
		return Math.max(unixSeconds, Math.floor(this.now() / 1000) + 1);
	}

	generation(): Promise<string> {
		return this.run(async () => {
			// Atomic: of two instances making it at once, both get the one that was set first.
			const fresh = randomBytes(16).toString('base64url');
			return (await this.redis.set(PREFIX + 'generation', fresh, 'NX', 'GET')) ?? fresh;
		});
	}

	usedCode(jti: string): Promise<string | undefined> {
		return this.run(async () => (await this.redis.get(PREFIX + 'code:' + jti)) ?? undefined);
	}

	redeemCode(
		code: { jti: string; exp: number; fam: string; client_id: string },
		refreshJti: string,
		until: number
	): Promise<boolean> {
		return this.run(
			async () =>
				(await this.redis.sandboxRedeem(
					PREFIX + 'code:' + code.jti,
					PREFIX + 'fam:' + code.fam,
					code.fam,
					this.atLeastNow(code.exp),
					code.client_id,
					refreshJti,
					this.atLeastNow(until)
				)) === 1
		);
	}

	isRevoked(fam: string): Promise<boolean> {
		return this.run(async () => (await this.redis.hget(PREFIX + 'fam:' + fam, 'revoked')) === '1');
	}

	revoke(fam: string, until: number): Promise<void> {
		return this.run(async () => {
			await this.redis.sandboxRevoke(PREFIX + 'fam:' + fam, this.atLeastNow(until));
		});
	}

	rotate(
		fam: string,
		client_id: string,
		presentedJti: string,
		nextJti: string,
		until: number,
		reuseSeconds = 0
	): Promise<RotateResult> {
		return this.run(async () => {
			// The time comes from the sandbox's clock, as every other expiry here, not the server's.
			const answer = await this.redis.sandboxRotate(
				PREFIX + 'fam:' + fam,
				client_id,
				presentedJti,
				nextJti,
				this.atLeastNow(until),
				this.now(),
				reuseSeconds * 1000
			);
			return answer.startsWith(BESIDE)
				? { beside: answer.slice(BESIDE.length) }
				: (answer as Exclude<RotateResult, object>);
		});
	}

	decideOnce(ticketJti: string, location: string, exp: number): Promise<string> {
		return this.run(() =>
			this.redis.sandboxDecide(PREFIX + 'decision:' + ticketJti, location, this.atLeastNow(exp))
		);
	}

	decided(ticketJti: string): Promise<string | undefined> {
		return this.run(
			async () => (await this.redis.get(PREFIX + 'decision:' + ticketJti)) ?? undefined
		);
	}

	readState(ns: string): Promise<string | undefined> {
		return this.run(async () => (await this.redis.get(PREFIX + 'state:' + ns)) ?? undefined);
	}

	writeState(
		ns: string,
		previous: string | undefined,
		next: string,
		until: number
	): Promise<boolean> {
		return this.run(
			async () =>
				(await this.redis.sandboxWriteState(
					PREFIX + 'state:' + ns,
					previous ?? '',
					next,
					this.atLeastNow(until)
				)) === 1
		);
	}

	async close(): Promise<void> {
		this.redis.disconnect();
	}
}
