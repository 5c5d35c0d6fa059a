/**
 * Auto-refresh before expiry (the switch under the tokens): off by default; each refresh is a
 * normal, shown exchange. It is due 30 s before the access token expires, or, for a lifetime under
 * 150 s, when a fifth of it is left.
 */
import type { TokenSet } from '$lib/oauth/token-set';

export type RefreshTiming = Pick<TokenSet, 'refresh_token' | 'expires_at' | 'obtained_at'>;

/** When the refresh is due (ms since the epoch); null without a refresh token or an expiry. */
export function refreshDueAt(t: RefreshTiming): number | null {
	if (!t.refresh_token || t.expires_at === undefined) return null;
	const lifetime = t.expires_at - t.obtained_at;
	return t.expires_at - Math.min(30_000, lifetime * 0.2);
}

/**
 * Calls `fire` once, when the refresh is due (at once if it is overdue); returns the cancel. `now`
 * is the page's clock (clock.svelte.ts), the one its expiry displays read.
 */
export function scheduleRefresh(
	t: RefreshTiming,
	fire: () => void,
	now: () => number = Date.now
): () => void {
	const at = refreshDueAt(t);
	if (at === null) return () => {};
	const timer = setTimeout(fire, Math.max(0, at - now()));
	return () => clearTimeout(timer);
}

/**
 * In a component: while `tokens()` gives a token set (null while the switch is off), its refresh
 * is scheduled; new tokens or the switch turned off cancel it.
 */
export function autoRefresh(
	tokens: () => RefreshTiming | null | undefined,
	fire: () => void,
	now: () => number = Date.now
): void {
	$effect(() => {
		const t = tokens();
		if (!t) return;
		return scheduleRefresh(t, fire, now);
	});
}
