/**
 * The stored token set and its expiry math (the service's API docs §4.2: store access token, refresh token and
 * the expiry moment, now + expires_in; §4.3 and §5 step 6: check expiry before each request).
 */
// Only the type: the page imports this module, and token-endpoint.ts would bring zod into its
// first load (tokensFromExchange, which parses, lives in token-endpoint.ts).
import type { TokenResponse } from './token-endpoint';

export interface TokenSet {
	access_token: string;
	token_type: string;
	refresh_token?: string;
	/** As the service sent it, seconds. */
	expires_in?: number;
	/** Epoch ms when the tokens were received. */
	obtained_at: number;
	/** Epoch ms; absent when the service gave no expires_in. */
	expires_at?: number;
	granted_scope?: string;
	requested_scope: string;
	/** Fields of the token response beyond the service's API docs §2.3, shown as they came. */
	extra: Record<string, unknown>;
	/** Set after a refresh: did the service send a new refresh token? */
	refresh?: { rotated: boolean; kept_old: boolean };
	/** A token of this set that revocation (step 8) proved no longer works. New tokens start without it. */
	revoked?: { access?: true; refresh?: true };
}

/** The scope-tokens of a scope string, split on white space (RFC 6749 §3.3). */
export function scopeTokens(scope: string | undefined): string[] {
	return (scope ?? '').split(/\s+/).filter(Boolean);
}

/** Scope sets compared as sets: "write read" equals "read write" (RFC 6749 §3.3: order does not matter). */
export function sameScope(a: string | undefined, b: string | undefined): boolean {
	const x = new Set(scopeTokens(a));
	const y = new Set(scopeTokens(b));
	return x.size === y.size && [...x].every((w) => y.has(w));
}

export function fromResponse(
	res: TokenResponse,
	extra: Record<string, unknown>,
	requestedScope: string,
	now: number,
	previous?: TokenSet
): TokenSet {
	const expiresIn = typeof res.expires_in === 'number' ? res.expires_in : undefined;
	const set: TokenSet = {
		access_token: res.access_token,
		token_type: res.token_type,
		refresh_token: res.refresh_token ?? previous?.refresh_token,
		expires_in: expiresIn,
		obtained_at: now,
		expires_at: expiresIn !== undefined ? now + expiresIn * 1000 : undefined,
		// RFC 6749 §5.1: scope may be omitted when it equals the requested one.
		granted_scope: res.scope ?? previous?.granted_scope,
		requested_scope: requestedScope,
		extra
	};
	if (previous)
		set.refresh = {
			rotated: !!res.refresh_token && res.refresh_token !== previous.refresh_token,
			kept_old: !res.refresh_token
		};
	return set;
}

/** Treat a token as expired a little before its moment (5 s, or a tenth of a short lifetime), so it does not expire in flight. */
export const EXPIRY_SKEW_MS = 5_000;

export function isExpired(
	tokens: Pick<TokenSet, 'expires_at' | 'obtained_at'>,
	now: number,
	skewMs = EXPIRY_SKEW_MS
): boolean {
	if (tokens.expires_at === undefined) return false;
	const skew = Math.min(skewMs, Math.max(0, (tokens.expires_at - tokens.obtained_at) / 10));
	return now >= tokens.expires_at - skew;
}

export function remainingMs(tokens: Pick<TokenSet, 'expires_at'>, now: number): number | undefined {
	return tokens.expires_at === undefined ? undefined : tokens.expires_at - now;
}

/** "1 h 02 min", "4 min 05 s", "12 s", "expired 3 s ago". */
export function formatRemaining(ms: number): string {
	const past = ms < 0;
	let s = Math.floor(Math.abs(ms) / 1000);
	const h = Math.floor(s / 3600);
	s -= h * 3600;
	const m = Math.floor(s / 60);
	s -= m * 60;
	const pad = (n: number) => String(n).padStart(2, '0');
	const text = h ? `${h} h ${pad(m)} min` : m ? `${m} min ${pad(s)} s` : `${s} s`;
	return past ? `expired ${text} ago` : text;
}

export type ClockState = 'unknown' | 'valid' | 'soon' | 'expired';

/** The token clock: amber ("soon") in the last 10% of the lifetime, red ("expired") after it. */
export function clockState(
	tokens: Pick<TokenSet, 'expires_at' | 'obtained_at'>,
	now: number
): ClockState {
	if (tokens.expires_at === undefined) return 'unknown';
	const left = tokens.expires_at - now;
	if (left <= 0) return 'expired';
	return left < (tokens.expires_at - tokens.obtained_at) * 0.1 ? 'soon' : 'valid';
}
