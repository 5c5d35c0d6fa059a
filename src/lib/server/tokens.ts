/**
 * Tokens received: the page sees the set built from the redacted token response, so the client
 * secret echoed in any field (extra fields included) reaches it only as `<redacted>`; the server
 * keeps the real access and refresh token for its own requests when redaction changed them.
 */
import { redactValue, type Secret } from '$lib/exchange/redact';
import type { Exchange } from '$lib/exchange/types';
import type { TokenSet } from '$lib/oauth/token-set';
import { tokensFromExchange } from '$lib/oauth/token-endpoint';
import type { Session } from './session';

/** The secrets of these sessions, for redaction (the one before a step and the one after it). */
export function secretsOf(...sessions: (Session | undefined)[]): Secret[] {
	const values = new Set(sessions.map((s) => s?.client_secret).filter((v) => !!v) as string[]);
	return [...values].map((value) => ({ name: 'client_secret', value }));
}

/** The token set with the real tokens: what the server sends to the service. */
export function realTokens(session: Session): TokenSet | undefined {
	return session.tokens && { ...session.tokens, ...session.token_values };
}

/**
 * The session after a token response: `tokens` from `shown` (the Exchange after present()), `token_values`
 * from the real one when they differ. Undefined when the response carries no tokens.
 */
export function receiveTokens(
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
	const secrets = secretsOf(session);
	// From the redacted response; when redaction left it unreadable, the real set redacted field by field.
	const page =
		tokensFromExchange(shown, requestedScope, now, refresh ? session.tokens : undefined) ??
		redactValue(real, secrets);
	// Whether the refresh token rotated is a fact about the real tokens.
	if (real.refresh) page.refresh = real.refresh;
	const differs =
		page.access_token !== real.access_token || page.refresh_token !== real.refresh_token;
	return {
		...session,
		tokens: page,
		token_values: differs
			? { access_token: real.access_token, refresh_token: real.refresh_token }
			: undefined
	};
}
