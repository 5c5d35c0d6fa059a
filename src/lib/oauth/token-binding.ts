/**
 * Tokens belong to the API they were issued for (RFC 6750 §5.3: "don't pass bearer tokens to
 * other resources"). When tokens are issued, the flow records the origins that receive the access
 * token: the API's (the service's `/reader/api/0/` base, from the base URL) and the user-info
 * endpoint's. A save that moves either to another origin asks first; without a yes the tokens are
 * dropped. Before any call that sends the access token, the sender checks the URL's origin against
 * the recorded ones. The shape follows the secret's binding (secret-binding.ts).
 */
import { listChanges } from './secret-binding';
import { endpoints, type EndpointFields } from './endpoints';
import type { Setup } from './setup';
import type { MetadataValues } from './metadata';
import {
	METADATA_FIELDS,
	TOKEN_RECEIVERS,
	endpointKey,
	fieldWords,
	type TokenReceiverName
} from './setup-fields';

export interface TokenDestination {
	key: 'api' | Exclude<TokenReceiverName, 'base_url'>;
	/** What it is, in words ("user-info endpoint"). */
	label: string;
	/** Its origin, or the URL as given when it does not parse. */
	origin: string;
}

const originOf = (u: string) => (URL.canParse(u) ? new URL(u).origin : u);

/**
 * Where the access token goes with this setup: the origin of each field the table of setup fields
 * marks so (setup-fields.ts): the API's (below the base URL) and the user-info endpoint's.
 */
export function tokenDestinations(setup: EndpointFields): TokenDestination[] {
	const e = endpoints(setup);
	return TOKEN_RECEIVERS.map((name) =>
		name === 'base_url'
			? { key: 'api', label: 'API', origin: originOf(e.api) }
			: { key: name, label: fieldWords(name), origin: originOf(e[endpointKey(name)]) }
	);
}

/** What tokens are bound to: the origins that may receive them, and who issued them. */
export interface TokenBinding {
	origins: string[];
	/** The setup's issuer when they were issued ('' for none). */
	issuer: string;
	/** The token endpoint that issued them (WHATWG-normalized). */
	token_endpoint: string;
}

/** The binding of tokens issued with this setup. */
export function bindTokens(setup: EndpointFields & Pick<Setup, 'issuer'>): TokenBinding {
	const e = endpoints(setup);
	return {
		origins: [...new Set(tokenDestinations(setup).map((d) => d.origin))],
		issuer: setup.issuer ?? '',
		token_endpoint: URL.canParse(e.token) ? new URL(e.token).href : e.token
	};
}

/** The same tokens, bound to this setup's origins as well (after a yes, or origins the issuer vouches for). */
export function rebindTokens(binding: TokenBinding, setup: EndpointFields): TokenBinding {
	const origins = new Set([...binding.origins, ...tokenDestinations(setup).map((d) => d.origin)]);
	return { ...binding, origins: [...origins] };
}

/**
 * The destinations of this setup whose origin the tokens are not bound to, and that `vouched`
 * does not name: empty when the tokens may go with it. No binding at all moves every destination.
 */
export function tokenMoves(
	binding: TokenBinding | undefined,
	setup: EndpointFields,
	vouched: string[] = []
): TokenDestination[] {
	const known = new Set([...(binding?.origins ?? []), ...vouched]);
	return tokenDestinations(setup).filter((d) => !known.has(d.origin));
}

/** The new origins the moves name, once each, in order: what a yes confirms. */
export function movedOrigins(moves: TokenDestination[]): string[] {
	return [...new Set(moves.map((d) => d.origin))];
}

/** A yes is for exactly these origins: the confirmed list is the moved one. */
export function confirmedMoves(
	moves: TokenDestination[],
	confirmed: string[] | undefined
): boolean {
	const origins = movedOrigins(moves);
	return (
		!!confirmed &&
		origins.length > 0 &&
		confirmed.length === origins.length &&
		origins.every((o) => confirmed.includes(o))
	);
}

/** The question a save asks before the tokens go to new origins. */
export function tokenQuestion(moves: TokenDestination[]): string {
	return `Send this flow's tokens to ${movedOrigins(moves).join(' and ')}?`;
}

/** Why a save dropped the tokens, naming what moved where. */
export function tokensDroppedMessage(moves: TokenDestination[]): string {
	const what = listChanges(moves.map((d) => `${d.label} moved to ${d.origin}`));
	return `The tokens were dropped because ${what}, which they were not issued for: an access token goes only to the API it was issued for (RFC 6750 §5.3), and the save did not confirm the new origin. Undo brings them back with the setup as it was; or run the flow again for the new setup.`;
}

/**
 * The origins the issuer's own metadata names (its issuer and every endpoint it lists), when that
 * metadata was verified (its `issuer` was the one it was fetched for, RFC 8414 §3.3).
 */
export function metadataOrigins(values: MetadataValues): string[] {
	const urls = [values.issuer, ...METADATA_FIELDS.map((name) => values[name])].filter(
		(u): u is string => !!u && URL.canParse(u)
	);
	return [...new Set(urls.map((u) => new URL(u).origin))];
}

/** What a verified metadata document names: its issuer, its token endpoint and the origins it names. */
export interface VouchedOrigins {
	issuer: string;
	token_endpoint: string;
	origins: string[];
	/** The client authentication methods the token endpoint takes, as the metadata lists them. */
	auth_methods?: string[];
	/** The scopes the metadata lists (`scopes_supported`), for the words of a scope refusal (advice.ts). */
	scopes?: string[];
	/**
	 * The user-info endpoint the metadata named, when it lists `openid` in scopes_supported: an
	 * OpenID Connect user-info endpoint, which answers only a token granted `openid`.
	 */
	openid_userinfo?: string;
}

/** What metadata vouches for the flow's tokens: the issuer it speaks for, and the origins it names. */
export interface Vouch {
	issuer: string;
	origins: string[];
}

/**
 * What the verified metadata vouches for these tokens: the origins it names, only when it is the
 * metadata of the issuer the tokens are bound to (a non-empty issuer, the same string). A document
 * counts as verified once its `issuer` is the URL it was fetched for (RFC 8414 §3.3), which any
 * host can arrange for itself, and it may name any token endpoint: naming the one that issued the
 * tokens proves nothing, so tokens issued with no issuer set are vouched for by no metadata.
 */
export function vouchFor(
	binding: TokenBinding | undefined,
	metadata: VouchedOrigins | undefined
): Vouch | null {
	if (!binding?.issuer || !metadata || metadata.issuer !== binding.issuer) return null;
	return { issuer: metadata.issuer, origins: metadata.origins };
}

/**
 * The origins a save may send the tokens to without a question, for a setup that names `issuer`:
 * the vouch's, while the setup still names the issuer it speaks for; none otherwise. The server's
 * save (server/flow/tokens.ts) and the form's question (ui/setup/TokenQuestion.svelte) both ask this.
 */
export function vouchedOrigins(vouch: Vouch | null | undefined, issuer: string): string[] {
	return vouch && issuer === vouch.issuer ? vouch.origins : [];
}

/**
 * The check before sending: the access token goes only to an origin it is bound to. A URL that
 * does not parse, or tokens without a binding, are refused.
 */
export function tokenMayGo(
	binding: TokenBinding | undefined,
	url: string
): { ok: true } | { ok: false; message: string } {
	const origin = URL.canParse(url) ? new URL(url).origin : undefined;
	if (binding && origin && binding.origins.includes(origin)) return { ok: true };
	return {
		ok: false,
		message: binding
			? `The access token was not sent: ${origin ?? url} is not an origin it was issued for (${binding.origins.join(', ')}). A bearer token goes only to the API it was issued for (RFC 6750 §5.3); save the setup again, or run the flow for this API.`
			: 'The access token was not sent: these tokens are not bound to the API they were issued for. Run the flow again to get tokens for this setup.'
	};
}
