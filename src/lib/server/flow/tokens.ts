/**
 * Tokens received: the page sees the set built from the redacted token response, so the client
 * secret echoed in any field (extra fields included) reaches it only as `<redacted>`; the server
 * keeps the real access and refresh token for its own requests when redaction changed them.
 */
import { outward, type Redactors } from './way-out';
import type { Exchange } from '$lib/exchange/types';
import type { TokenSet } from '$lib/oauth/token-set';
import { tokensFromExchange } from '$lib/oauth/token-endpoint';
import {
	bindTokens,
	confirmedMoves,
	rebindTokens,
	tokenMoves,
	tokensDroppedMessage,
	vouchedOrigins,
	vouchFor
} from '$lib/oauth/token-binding';
import type { Setup } from '$lib/oauth/setup';
import type { Session } from '../session/session';

/** The token set with the real tokens: what the server sends to the service. */
export function realTokens(session: Session): TokenSet | undefined {
	return session.tokens && { ...session.tokens, ...session.token_values };
}

/**
 * The session after a token response: `tokens` from `shown` (the Exchange after present()), `token_values`
 * from the real one when they differ, and `tokens_for`, the origins they are issued for
 * (oauth/token-binding.ts): the setup's, or, after a refresh, the ones the grant was already bound to.
 * Undefined when the response carries no tokens. `redactors` are the app's, for a set that redaction
 * left unreadable.
 */
export function receiveTokens(
	redactors: Redactors,
	session: Session,
	raw: Exchange,
	shown: Exchange,
	requestedScope: string,
	now: number,
	refresh = false
): Session | undefined {
	const real = tokensFromExchange(
		raw,
		requestedScope,
		now,
		refresh ? realTokens(session) : undefined
	);
	if (!real) return undefined;
	// From the redacted response; when redaction left it unreadable, the real set redacted field by field.
	const page =
		tokensFromExchange(shown, requestedScope, now, refresh ? session.tokens : undefined) ??
		outward(redactors, real, session);
	// Whether the refresh token rotated is a fact about the real tokens.
	if (real.refresh) page.refresh = real.refresh;
	const differs =
		page.access_token !== real.access_token || page.refresh_token !== real.refresh_token;
	// The refresh token a rotation replaced: the one sent, kept in full for its replay; the one
	// before it is dropped (the cookie budget is shared by every flow). New tokens from a code
	// start a new grant, with none.
	const sent = refresh ? realTokens(session)?.refresh_token : undefined;
	const previous_refresh = !refresh
		? undefined
		: real.refresh?.rotated && sent
			? { value: sent, replaced_at: now, by: shown.id, setup_id: session.setup_id }
			: session.previous_refresh;
	return {
		...session,
		previous_refresh,
		tokens: page,
		tokens_for:
			refresh && session.tokens_for
				? session.tokens_for
				: session.setup
					? bindTokens(session.setup)
					: undefined,
		token_note: undefined,
		token_values: differs
			? { access_token: real.access_token, refresh_token: real.refresh_token }
			: undefined
	};
}

/** The token fields of a session, all four given (undefined drops one), to spread over it. */
export interface TokenFields {
	tokens: TokenSet | undefined;
	token_values: Session['token_values'];
	tokens_for: Session['tokens_for'];
	token_note: string | undefined;
}

/**
 * The tokens after a setup is saved (oauth/token-binding.ts). They stay while every origin the
 * access token would go to is one they were issued for, or one named by the verified metadata of
 * the issuer they are bound to (while the setup names that issuer), or one the user confirmed (`confirmed`, the exact list of new origins); then they are
 * bound to the new origins as well. Otherwise (or when `dropAll`: another client or token
 * endpoint) they are dropped, and `dropped` says so, with the note naming what moved where.
 */
export function tokensAfterSave(
	session: Session,
	setup: Setup,
	confirmed: string[] | undefined,
	dropAll = false
): { fields: TokenFields; dropped: boolean } {
	const { tokens, token_values, tokens_for, token_note } = session;
	const kept = { tokens, token_values, tokens_for, token_note };
	if (!tokens) return { fields: kept, dropped: false };
	const none = { tokens: undefined, token_values: undefined, tokens_for: undefined };
	if (dropAll) return { fields: { ...none, token_note: undefined }, dropped: false };
	const vouch = vouchFor(tokens_for, session.metadata_for);
	const moves = tokenMoves(tokens_for, setup, vouchedOrigins(vouch, setup.issuer));
	if (tokens_for && (!moves.length || confirmedMoves(moves, confirmed)))
		return { fields: { ...kept, tokens_for: rebindTokens(tokens_for, setup) }, dropped: false };
	return {
		fields: { ...none, token_note: tokensDroppedMessage(tokenMoves(tokens_for, setup)) },
		dropped: true
	};
}
