/**
 * The little state the sandbox keeps in memory, per grant "family" (everything issued from one
 * authorization code):
 * - used authorization codes, so a code works once (RFC 6749 §4.1.2); a second use revokes the
 *   family (§4.1.2 "SHOULD revoke all tokens previously issued based on that authorization code");
 * - the current refresh token of each family, so refresh tokens rotate and a replayed old one
 *   revokes the family (OAuth 2.0 Security BCP, RFC 9700 §4.14.2); and the previous one with the
 *   time it was replaced, for the reuse window (SANDBOX_REFRESH_REUSE_SECONDS), within which the
 *   previous one is answered beside the current one instead.
 *
 * Entries are dropped once everything they guard has expired, and the store is capped: when it is
 * full the oldest families that are not revoked go first. A family the store does not know (after a
 * restart, or evicted) is trusted on its signature alone, so a restart with the same key loses
 * nothing but replay detection. This is the memory backend's part (`store.server.ts`); REDIS_URL
 * keeps the same state in a shared server instead.
 */

interface Family {
	client_id: string;
	/** The jti of the one refresh token that may be used next. */
	refreshJti: string;
	/** The jti of the refresh token it replaced, and when (milliseconds), for the reuse window. */
	previous?: { jti: string; at: number };
	revoked: boolean;
	/** Unix seconds after which nothing of this family is valid any more. */
	until: number;
}

/**
 * What using a refresh token did: `ok`, it was the current one and rotated; `revoked`, the family
 * was revoked already; `reused`, an older one, and the family is now revoked (with no reuse window,
 * the previous one too); `late`, the previous one, sent when its reuse window had ended, and the
 * family is now revoked; `{ beside }`, the previous one within its reuse window: nothing changes,
 * and the new token stands beside the current one, whose jti `beside` is.
 */
export type RotateResult = 'ok' | 'revoked' | 'reused' | 'late' | { beside: string };

const MAX_FAMILIES = 50_000;
const PRUNE_EVERY_MS = 60_000;

export class GrantStore {
	private usedCodes = new Map<string, { fam: string; exp: number }>();
	private families = new Map<string, Family>();
	private lastPrune = 0;

	constructor(
		private readonly now: () => number = Date.now,
		private readonly maxFamilies = MAX_FAMILIES
	) {}

	private seconds(): number {
		return Math.floor(this.now() / 1000);
	}

	/** Whether an authorization code was used already; when it was, the family it started. */
	usedCode(jti: string): { fam: string } | undefined {
		this.maybePrune();
		return this.usedCodes.get(jti);
	}

	/** Marks a code used and starts its family, whose first refresh token is `refreshJti`. */
	redeemCode(
		code: { jti: string; exp: number; fam: string; client_id: string },
		refreshJti: string,
		until: number
	): void {
		this.usedCodes.set(code.jti, { fam: code.fam, exp: code.exp });
		this.families.set(code.fam, { client_id: code.client_id, refreshJti, revoked: false, until });
		this.enforceCap();
	}

	isRevoked(fam: string): boolean {
		return this.families.get(fam)?.revoked ?? false;
	}

	/** Revokes every token of a family. The mark stays until `until`, or the family's own expiry if later. */
	revoke(fam: string, until: number): void {
		const family = this.families.get(fam);
		if (family) {
			family.revoked = true;
			family.until = Math.max(family.until, until);
		} else this.families.set(fam, { client_id: '', refreshJti: '', revoked: true, until });
	}

	/**
	 * Uses the refresh token `presentedJti` of a family and makes `nextJti` the current one.
	 * A token that is not the current one is a replay: the family is revoked. With a reuse window
	 * (`reuseSeconds` > 0), the previous one sent less than that long after it was replaced is no
	 * replay: it is answered beside the current one, and nothing changes.
	 */
	rotate(
		fam: string,
		client_id: string,
		presentedJti: string,
		nextJti: string,
		until: number,
		reuseSeconds = 0
	): RotateResult {
		this.maybePrune();
		const family = this.families.get(fam);
		if (family?.revoked) return 'revoked';
		const now = this.now();
		if (family && family.refreshJti !== presentedJti) {
			const previous = reuseSeconds > 0 ? family.previous : undefined;
			const isPrevious = previous?.jti === presentedJti;
			if (isPrevious && now - previous.at < reuseSeconds * 1000)
				return { beside: family.refreshJti };
			family.revoked = true;
			return isPrevious ? 'late' : 'reused';
		}
		const replaced = { jti: presentedJti, at: now };
		if (family) {
			family.refreshJti = nextJti;
			family.previous = replaced;
			family.until = Math.max(family.until, until);
		} else {
			this.families.set(fam, {
				client_id,
				refreshJti: nextJti,
				previous: replaced,
				revoked: false,
				until
			});
			this.enforceCap();
		}
		return 'ok';
	}

	/** Drops what has expired. Runs by itself at most once a minute; tests call it directly. */
	prune(): void {
		const now = this.seconds();
		this.lastPrune = this.now();
		for (const [jti, code] of this.usedCodes) if (code.exp <= now) this.usedCodes.delete(jti);
		for (const [fam, family] of this.families) if (family.until <= now) this.families.delete(fam);
	}

	private maybePrune(): void {
		if (this.now() - this.lastPrune >= PRUNE_EVERY_MS) this.prune();
	}

	/**
	 * Over the cap, the oldest families that are not revoked go first: such a family is then
	 * trusted on its signature alone (replay detection lost), but a revocation is never forgotten
	 * before the tokens it covers expire.
	 */
	private enforceCap(): void {
		if (this.families.size <= this.maxFamilies) return;
		this.prune();
		for (const [fam, family] of this.families) {
			if (this.families.size <= this.maxFamilies) break;
			if (!family.revoked) this.families.delete(fam);
		}
	}

	size(): { codes: number; families: number } {
		return { codes: this.usedCodes.size, families: this.families.size };
	}
}
