/**
 * What the user-info call and the other `/reader/api/0/` calls may be answered (RFC 6750 §3.1 and
 * the service's API docs §5): the token expired or refused, the call outside the granted scope, the
 * credentials refused, the rate limit reached, a user record without its usual field.
 * `diagnose.ts` decides which applies.
 */
import { STEPS } from '$lib/steps/registry';
import { API_DOCS, apiDocs } from '../docs';
import { entry, scopesOf } from './raise';

const BEARER_ERRORS = 'RFC 6750 §3.1';

/** A 401 on a call made after the access token had expired. */
export const TOKEN_EXPIRED = entry({
	code: 'invalid_token',
	level: 'error',
	message: 'The access token had expired when this request was sent (401).',
	fix: `Refresh the token (step ${STEPS.refresh.n}), then call again.`,
	ref: BEARER_ERRORS
});

/** A scope with `openid` first, the rest as they were. */
const openidScope = (scope: string) => ['openid', ...scope.split(/\s+/).filter(Boolean)].join(' ');

/**
 * A 401 on a call with an access token that had not expired: invalid, revoked, or sent in the wrong
 * place.
 */
export const TOKEN_REFUSED = entry({
	code: 'invalid_token',
	level: 'error',
	message: (saidInvalidToken: boolean) =>
		`The service refused the access token (401${saidInvalidToken ? ', invalid_token' : ''}).`,
	fix: 'The token may be expired, revoked, or sent in the wrong place. Refresh it, or check where the token goes (header or query).',
	ref: BEARER_ERRORS
});

/**
 * An OpenID Connect user-info endpoint (the one the metadata named) refused a token granted no
 * `openid`: certain when it says it wants that scope, likely for a bare 401. The fix asks for the
 * same scope with `openid` (the metadata lists it in scopes_supported).
 */
export const OPENID_SCOPE_MISSING = entry({
	code: 'openid-scope-missing',
	level: 'error',
	message: (scope: string, says: boolean) =>
		`${says ? 'The' : 'Most likely, the'} user-info endpoint is OpenID Connect's (the metadata named it, and lists openid in scopes_supported), and it answers only an access token granted the openid scope: this one was granted "${scope}".`,
	fix: (scope: string) =>
		`Ask for the scope "${openidScope(scope)}" and authorize again; the user-info endpoint is the right one.`,
	ref: 'OpenID Connect Core 1.0 §5.3',
	suggest: (scope: string) => ({ field: 'scope', value: openidScope(scope) })
});

/**
 * A 403 that names insufficient_scope: the token lacks the scope the call needs (a zone-2 call with
 * read only).
 */
export const INSUFFICIENT_SCOPE = entry({
	code: 'insufficient_scope',
	level: 'error',
	message: (_ask: string) =>
		'This call needs write permission: it is a zone-2 call, and the token was granted "read" only (403).',
	fix: (ask: string) =>
		`Ask for scope "${ask}" at consent and authorize again, with a registration that is not "Read only" (${API_DOCS} §5 step 7).`,
	ref: BEARER_ERRORS,
	suggest: (ask: string) => ({ field: 'scope', value: ask })
});

/**
 * The same 403 for a token whose consent asked for write and was granted read only: the
 * registration can only read, so asking again would be refused too; the fix names the registration.
 */
export const INSUFFICIENT_SCOPE_READ_ONLY = entry({
	code: 'insufficient_scope',
	level: 'error',
	message: (requested: string, granted: string) =>
		`This call needs write permission: it is a zone-2 call, and the token was granted "${granted}" though the consent asked for "${requested}" (403). The registration most likely can only read.`,
	fix: `Set the registration to "Read and write" in the service's developer settings, then ask for "read write" again; asking again with a registration set to "Read only" is refused (${API_DOCS} §5 step 7).`,
	ref: BEARER_ERRORS
});

/** A 403 from the API: zone 2 needs read write, or the application's credentials were refused. */
export const FORBIDDEN = entry({
	code: 'forbidden',
	level: 'error',
	message:
		'The service refused the call (403). For this service that means the application credentials were rejected, or the call needs "read write" (zone 2).',
	fix: 'Check the registration and the granted scope.',
	ref: apiDocs('§5 step 7')
});

/**
 * A 403 that names insufficient_scope, from a server other than the feed-reader service: the token
 * lacks a scope the call needs; the scope the server asks for (its challenge's `scope`), when it
 * names one, and the scopes its metadata lists, when the flow has its metadata.
 */
export const INSUFFICIENT_SCOPE_ELSEWHERE = entry({
	code: 'insufficient_scope',
	level: 'error',
	message: (wanted: string | undefined, _scopes?: readonly string[], _ask?: string) =>
		`The token was not granted a scope this call needs (403 insufficient_scope)${wanted ? `: the server asks for "${wanted}"` : ''}.`,
	fix: (wanted: string | undefined, scopes?: readonly string[], _ask?: string) =>
		`Ask for ${wanted ? `"${wanted}"` : 'the scope this call needs'} at consent, and authorize again (${scopesOf(scopes)}).`,
	ref: BEARER_ERRORS,
	// The scope to ask for: the one the server's challenge names (RFC 6750 §3.1).
	suggest: (_wanted: string | undefined, _scopes?: readonly string[], ask?: string) =>
		ask ? { field: 'scope', value: ask } : undefined
});

/** A 403 from a server other than the feed-reader service, without insufficient_scope. */
export const FORBIDDEN_ELSEWHERE = entry({
	code: 'forbidden',
	level: 'error',
	message:
		'The server refused the call (403): the token is valid, but not allowed this call (its scope, or the user’s or the client’s rights).',
	fix: 'Check the granted scope and what the client and the user may do on this server.',
	ref: 'RFC 9110 §15.5.4'
});

/** Whose budget a 429 spent, as far as the playground knows it. */
export type BudgetOwner = 'client' | 'sign-in' | undefined;

/** Whose budget it is, in words: the sandbox's own count, or what such services usually do. */
function whose(owner: BudgetOwner, clientId: string | undefined): string {
	const client = clientId ? `client id "${clientId}"` : 'this client id';
	if (owner === 'client')
		return ` The sandbox counts this budget per client: every user of ${client} spends the same one.`;
	if (owner === 'sign-in')
		return ' The hosted sandbox counts this budget per sign-in: only this sign-in spent it.';
	return ` Feed-reader services usually count limits per application, so every user of ${client} may be spending the same budget.`;
}

/**
 * The service answered 429: over its rate limit. Which budget ran out (a zone, or another
 * service's named one), when it resets and when the service asks to be called again (Retry-After),
 * and whose budget it is: the sandbox's own count (per client locally, per sign-in when hosted), or
 * for another service the likely one.
 */
export const RATE_LIMITED = entry({
	code: 'rate-limited',
	level: 'error',
	message: (
		spent: string | undefined,
		resetAfter: number | undefined,
		retryAfter: number | undefined,
		owner: BudgetOwner,
		clientId: string | undefined
	) =>
		`The service's rate limit is reached (429)${spent ? `: ${spent} is spent` : ''}.${resetAfter !== undefined ? ` It resets in ${resetAfter} s.` : ''}${retryAfter !== undefined ? ` The service asks to be called again in ${retryAfter} s (Retry-After).` : ''}${whose(owner, clientId)}`,
	fix: 'Wait for the reset, and spend fewer calls: read the reading list (stream/contents/user/-/state/com.google/reading-list) rather than feed by feed, and keep what was read. Zone 1 (reads) and zone 2 (writes) are counted apart.',
	// The status code's own definition: the API docs give no rate-limit figures (§8).
	ref: 'RFC 6585 §4'
});

/** The user record has no userId, which clients of this service usually read. */
export const USERINFO_FIELDS = entry({
	code: 'userinfo-fields',
	level: 'info',
	message: 'The user record has no userId field, which clients of this service usually read.',
	// The API docs do not list the user record's fields (§2.4): what clients read, not a rule.
	ref: undefined
});

/**
 * An item id refused (item-ids.ts decides). The service's API docs do not say what an item id
 * looks like; the forms are Google Reader's, which the built-in sandbox takes, and the ref says so.
 */
const ITEM_ID_CONVENTIONS =
	'Google Reader API conventions, as the built-in sandbox follows them (/sandbox)';

const ITEM_ID_FORMS =
	'the decimal id that stream/items/ids returns (itemRefs[].id, e.g. 1001), its 16-hex-digit form (00000000000003e9), or the long form tag:google.com,2005:reader/item/00000000000003e9 that stream/contents returns (items[].id)';

const WHERE_ITEM_IDS_COME_FROM =
	'GET stream/items/ids with s=user/-/state/com.google/reading-list lists the ids of the reading list';

const USE_AN_ITEM_ID = `Use ${ITEM_ID_FORMS}. ${WHERE_ITEM_IDS_COME_FROM}.`;

/** A 400 from the API over item ids that are not of an item id's form (edit-tag's i). */
export const ITEM_ID_MALFORMED = entry({
	code: 'bad-item-id',
	level: 'error',
	message: (shown: string[]) =>
		`The service refused the call (400): ${shown.join(', ')} ${shown.length > 1 ? 'are not item ids' : 'is not an item id'}.`,
	fix: USE_AN_ITEM_ID,
	ref: ITEM_ID_CONVENTIONS
});

/** A 400 from the API over a call that needs an item id and sent none. */
export const ITEM_ID_MISSING = entry({
	code: 'bad-item-id',
	level: 'error',
	message: 'The service refused the call (400): it needs at least one item id, i=….',
	fix: USE_AN_ITEM_ID,
	ref: ITEM_ID_CONVENTIONS
});

/** A 400 from the API over a well-formed item id the service does not know. */
export const ITEM_ID_UNKNOWN = entry({
	code: 'bad-item-id',
	level: 'error',
	message: (said: string) =>
		`The service refused the call (400): the item id is well-formed, but the service does not know it (it said ${said}).`,
	fix: `Take the ids from the account itself: ${WHERE_ITEM_IDS_COME_FROM}.`,
	ref: ITEM_ID_CONVENTIONS
});
