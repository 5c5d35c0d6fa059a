/**
 * What the sandbox must remember between requests, behind one small interface with two backends:
 * - `MemoryStore` (the default): this process's memory, nothing to install;
 * - `RedisStore` (`redis-store.server.ts`, when REDIS_URL is set): any Redis-protocol server
 *   (Valkey or Redis), shared by every process and instance that uses it.
 *
 * It holds the used authorization codes, the grant families (current refresh-token id, the previous
 * one and when it was replaced, revoked mark), the consent decisions and the demo data (read, starred, labels) of each namespace. Every operation that decides something is atomic in both
 * backends: a code is redeemed once even when two instances receive it in the same millisecond.
 * A revocation is kept until the longest token it covers has expired, never evicted early.
 *
 * Each store has a generation, a random id it keeps for as long as it keeps anything (in Redis,
 * `sandbox:generation`, set once with SET NX, no expiry; in memory, one per process). The codes,
 * consent tickets and refresh tokens the sandbox signs carry it, and a redemption whose generation
 * is not the store's current one is refused: a store that forgot everything (restarted empty,
 * flushed, replaced, or a new process's memory) has a new generation, so it fails closed instead
 * of letting a used code be used again.
 *
 * An operation the store cannot answer (the server is down or too slow) throws `StoreUnavailable`;
 * the sandbox answers 503 with the reason, and the playground's own steps are not affected.
 */
import { randomBytes } from 'node:crypto';
import { GrantStore, type RotateResult } from './grants.server';

export type { RotateResult };

export class StoreUnavailable extends Error {
	constructor(cause: unknown) {
		super(
			`the sandbox's store is unreachable (${cause instanceof Error ? cause.message : String(cause)})`
		);
		this.name = 'StoreUnavailable';
	}
}

export interface SandboxStore {
	/** Which backend, for the sandbox's page and the health check. */
	readonly kind: 'memory' | 'redis';
	/** The store's generation: made on first use, the same for as long as the store remembers. */
	generation(): Promise<string>;
	/** The family an authorization code started, when it was redeemed already. */
	usedCode(jti: string): Promise<string | undefined>;
	/**
	 * Redeems a code: marks it used until `exp` and starts its family, whose first refresh token is
	 * `refreshJti`, valid until `until`. Atomic: of two calls with one code, exactly one returns
	 * true; the other is told the code was used already (and nothing changes).
	 */
	redeemCode(
		code: { jti: string; exp: number; fam: string; client_id: string },
		refreshJti: string,
		until: number
	): Promise<boolean>;
	isRevoked(fam: string): Promise<boolean>;
	/** Revokes every token of a family, until `until` (Unix seconds) at least. */
	revoke(fam: string, until: number): Promise<void>;
	/**
	 * Uses refresh token `presentedJti` of a family; `nextJti` becomes the current one (atomic).
	 * With `reuseSeconds` > 0, the previous one, used less than that long after it was replaced (by
	 * the store's clock), is answered `{ beside }` the current one and changes nothing
	 * (grants.server.ts `RotateResult`).
	 */
	rotate(
		fam: string,
		client_id: string,
		presentedJti: string,
		nextJti: string,
		until: number,
		reuseSeconds?: number
	): Promise<RotateResult>;
	/**
	 * The consent decision of a ticket, made once: the first call stores `location` (the redirect
	 * with its code) until `exp` and returns it; every later call returns that same first answer,
	 * so a replayed ticket mints no second code.
	 */
	decideOnce(ticketJti: string, location: string, exp: number): Promise<string>;
	/** The first decision of a ticket, if it was decided already. */
	decided(ticketJti: string): Promise<string | undefined>;
	/** The demo data of a namespace as JSON (a client, or in hosted mode a grant); undefined: none yet. */
	readState(ns: string): Promise<string | undefined>;
	/**
	 * Replaces a namespace's demo data if it is still `previous` (undefined: none), until `until`
	 * (Unix seconds). Atomic compare-and-set: false when another write came first.
	 */
	writeState(
		ns: string,
		previous: string | undefined,
		next: string,
		until: number
	): Promise<boolean>;
	/** Closes the connection, if any. */
	close(): Promise<void>;
}

/** Namespaces of demo data the memory backend keeps at most; past it, the oldest start afresh. */
const MAX_STATES = 10_000;

/** The in-process backend: the grant store, and the consent decisions in a map pruned on use. */
export class MemoryStore implements SandboxStore {
	readonly kind = 'memory' as const;
	private decisions = new Map<string, { location: string; exp: number }>();
	private states = new Map<string, { json: string; until: number }>();
	private lastPrune = 0;
	private readonly gen = randomBytes(16).toString('base64url');

	constructor(
		private readonly grants = new GrantStore(),
		private readonly now: () => number = Date.now,
		private readonly maxStates = MAX_STATES
	) {}

	async generation(): Promise<string> {
		return this.gen;
	}

	async usedCode(jti: string): Promise<string | undefined> {
		return this.grants.usedCode(jti)?.fam;
	}

	async redeemCode(
		code: { jti: string; exp: number; fam: string; client_id: string },
		refreshJti: string,
		until: number
	): Promise<boolean> {
		// No await between the check and the mark: one event-loop turn, so atomic in this process.
		if (this.grants.usedCode(code.jti)) return false;
		this.grants.redeemCode(code, refreshJti, until);
		return true;
	}

	async isRevoked(fam: string): Promise<boolean> {
		return this.grants.isRevoked(fam);
	}

	async revoke(fam: string, until: number): Promise<void> {
		this.grants.revoke(fam, until);
	}

	async rotate(
		fam: string,
		client_id: string,
		presentedJti: string,
		nextJti: string,
		until: number,
		reuseSeconds = 0
	): Promise<RotateResult> {
		// One synchronous call: the check and the change are one step in this process.
		return this.grants.rotate(fam, client_id, presentedJti, nextJti, until, reuseSeconds);
	}

	async decideOnce(ticketJti: string, location: string, exp: number): Promise<string> {
		const seconds = Math.floor(this.now() / 1000);
		const first = this.decisions.get(ticketJti);
		if (first && first.exp > seconds) return first.location;
		// Expired decisions go at most once a minute; the map is bounded by the tickets' lifetime.
		if (this.now() - this.lastPrune >= 60_000) {
			this.lastPrune = this.now();
			for (const [jti, d] of this.decisions) if (d.exp <= seconds) this.decisions.delete(jti);
		}
		this.decisions.set(ticketJti, { location, exp });
		return location;
	}

	async decided(ticketJti: string): Promise<string | undefined> {
		const first = this.decisions.get(ticketJti);
		return first && first.exp > Math.floor(this.now() / 1000) ? first.location : undefined;
	}

	async readState(ns: string): Promise<string | undefined> {
		const kept = this.states.get(ns);
		if (!kept) return undefined;
		if (kept.until > Math.floor(this.now() / 1000)) return kept.json;
		this.states.delete(ns);
		return undefined;
	}

	async writeState(
		ns: string,
		previous: string | undefined,
		next: string,
		until: number
	): Promise<boolean> {
		// No await before the write: the check and the write are one step in this process.
		const kept = this.states.get(ns);
		const current = kept && kept.until > Math.floor(this.now() / 1000) ? kept.json : undefined;
		if (current !== previous) return false;
		// Re-inserted at the end: the map's order is the order of last writes, oldest first.
		this.states.delete(ns);
		this.states.set(ns, { json: next, until });
		for (const oldest of this.states.keys()) {
			if (this.states.size <= this.maxStates) break;
			this.states.delete(oldest);
		}
		return true;
	}

	async close(): Promise<void> {}
}
