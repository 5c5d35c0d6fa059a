/**
 * The authorization endpoint (RFC 6749 §4.1.1, the service's API docs §4.1): checks the consent request and turns
 * the user's decision into the redirect back to the application.
 *
 * - Unknown client, or redirect_uri missing or not matching: an error page at the service, never a
 *   redirect (RFC 6749 §4.1.2.1 first paragraph, §3.1.2.4).
 * - Every other problem is redirected back with `error` (+ `error_description`, + `state`).
 * - The decision form carries a signed, short-lived ticket; the decision reads nothing else. A
 *   ticket of another store generation (a store that has forgotten its decisions) is refused.
 */
import type { SandboxClient, SandboxConfig, SandboxScope } from './sandbox-config.server';
import { findClient, redirectUriMatches } from './clients.server';
import { DEMO_USER } from './demo.server';
import { parseScope, permissionWords } from './scope.server';
import { newId, signCode, signTicket, verifyTicket } from './signing.server';
import type { Sandbox } from './sandbox.server';
import { NO_ADDRESS_MESSAGE, clientKey, fixedWindow, take } from '$lib/fixed-window.server';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { StoreUnavailable } from './store.server';

/** The service's API docs §4.1 and §8: `state` is at most 500 bytes. */
export const MAX_STATE_BYTES = 500;

const REDIRECT_URI_ERROR_URI = 'https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2';
const AUTH_ERROR_URI = 'https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1';

export interface FatalError {
	kind: 'fatal';
	error: 'invalid_client' | 'redirect_uri_mismatch' | 'invalid_request';
	error_description: string;
	error_uri: string;
}

export interface ConsentRequest {
	kind: 'consent';
	client: SandboxClient;
	redirect_uri: string;
	scope: SandboxScope;
	/** True when `scope` was empty and the registration's default was used. */
	scopeWasDefault: boolean;
	state: string;
	/** PKCE (RFC 7636), for a registration that requires it: the challenge and its method. */
	pkce?: { cc: string; ccm: 'S256' | 'plain' };
}

export type AuthorizationCheck =
	FatalError | { kind: 'redirect'; location: string } | ConsentRequest;

const PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state'] as const;

function repeated(params: URLSearchParams, name: string): boolean {
	return params.getAll(name).length > 1;
}

/**
 * The checks that must end at the service: client_id known, redirect_uri registered (exact match).
 * Returns the fatal error, or the client and redirect URI to send every later answer to.
 */
export function checkClientAndRedirect(
	settings: SandboxConfig,
	params: URLSearchParams,
	requestOrigin: string
): FatalError | { kind: 'ok'; client: SandboxClient; redirect_uri: string } {
	for (const name of ['client_id', 'redirect_uri']) {
		if (repeated(params, name)) {
			return {
				kind: 'fatal',
				error: 'invalid_request',
				error_description: `The ${name} parameter is repeated`,
				error_uri: AUTH_ERROR_URI
			};
		}
	}
	const client_id = params.get('client_id');
	if (!client_id) {
		return {
			kind: 'fatal',
			error: 'invalid_client',
			error_description: 'The client_id parameter is missing',
			error_uri: AUTH_ERROR_URI
		};
	}
	const client = findClient(settings, client_id);
	if (!client) {
		return {
			kind: 'fatal',
			error: 'invalid_client',
			error_description: `Unknown client_id ${JSON.stringify(client_id.slice(0, 100))}`,
			error_uri: AUTH_ERROR_URI
		};
	}
	const redirect_uri = params.get('redirect_uri');
	if (!redirect_uri || !redirectUriMatches(settings, client, redirect_uri, requestOrigin)) {
		return {
			kind: 'fatal',
			error: 'redirect_uri_mismatch',
			error_description: 'The redirect URI provided is missing or does not match',
			error_uri: REDIRECT_URI_ERROR_URI
		};
	}
	return { kind: 'ok', client, redirect_uri };
}

/**
 * Adds parameters to a redirect URI, keeping its own query exactly as registered
 * (RFC 6749 §3.1.2: "MUST retain" the query component).
 */
export function redirectWith(
	redirect_uri: string,
	params: Record<string, string | undefined>
): string {
	const added = new URLSearchParams();
	for (const [name, value] of Object.entries(params))
		if (value !== undefined) added.append(name, value);
	const hash = redirect_uri.indexOf('#');
	const base = hash === -1 ? redirect_uri : redirect_uri.slice(0, hash);
	const sep = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
	return base + sep + added.toString();
}

/** Checks a whole consent request (RFC 6749 §4.1.1 and the rules of the service's API docs). */
export function checkAuthorizationRequest(
	settings: SandboxConfig,
	params: URLSearchParams,
	requestOrigin: string
): AuthorizationCheck {
	const target = checkClientAndRedirect(settings, params, requestOrigin);
	if (target.kind === 'fatal') return target;
	const { client, redirect_uri } = target;
	const state = params.get('state') ?? undefined;
	const back = (error: string, error_description: string): AuthorizationCheck => ({
		kind: 'redirect',
		location: redirectWith(redirect_uri, { error, error_description, state: state || undefined })
	});

	for (const name of PARAMS)
		if (repeated(params, name)) return back('invalid_request', `The ${name} parameter is repeated`);

	const response_type = params.get('response_type');
	if (!response_type)
		return back(
			'invalid_request',
			'The response_type parameter is missing: send response_type=code'
		);
	if (response_type !== 'code')
		return back('unsupported_response_type', 'Only response_type=code is supported');

	if (!state) return back('invalid_request', 'The state parameter is required (CSRF protection)');
	const stateBytes = Buffer.byteLength(state, 'utf8');
	if (stateBytes > MAX_STATE_BYTES) {
		return back(
			'invalid_request',
			`The state parameter is ${stateBytes} bytes; at most ${MAX_STATE_BYTES} bytes are allowed`
		);
	}

	const scope = parseScope(params.get('scope'), client.default_scope);
	if (!scope.ok) return back(scope.error, scope.description);

	// PKCE only for a registration that asks for it (SANDBOX_CLIENTS `require_pkce`): the
	// service's API docs describe none, so the parameters are ignored otherwise.
	let pkce: ConsentRequest['pkce'];
	if (client.require_pkce) {
		const cc = params.get('code_challenge');
		const ccm = params.get('code_challenge_method') ?? 'plain';
		if (!cc)
			return back(
				'invalid_request',
				'This registration requires PKCE: send code_challenge and code_challenge_method (RFC 7636 §4.3)'
			);
		if (ccm !== 'S256' && ccm !== 'plain')
			return back('invalid_request', 'code_challenge_method must be S256 or plain (RFC 7636 §4.3)');
		if (!/^[A-Za-z0-9._~-]{43,128}$/.test(cc))
			return back(
				'invalid_request',
				'code_challenge must be 43 to 128 unreserved characters (RFC 7636 §4.2)'
			);
		pkce = { cc, ccm };
	}

	return {
		kind: 'consent',
		client,
		redirect_uri,
		scope: scope.scope,
		scopeWasDefault: !(params.get('scope') ?? '').trim(),
		state,
		...(pkce && { pkce })
	};
}

export interface ConsentView {
	ticket: string;
	appName: string;
	client_id: string;
	scope: SandboxScope;
	scopeWasDefault: boolean;
	permissions: string[];
	/** Where the browser goes after the decision (origin and path only). */
	returnTo: string;
	user: { name: string; email: string; userId: string };
}

/**
 * What the consent page shows, with the signed ticket for its form (issued under the store's
 * current generation). Throws StoreUnavailable when the store cannot be reached.
 */
export async function consentView(sandbox: Sandbox, request: ConsentRequest): Promise<ConsentView> {
	const { token } = await signTicket(sandbox, {
		client_id: request.client.client_id,
		redirect_uri: request.redirect_uri,
		scope: request.scope,
		state: request.state,
		gen: await (await sandbox.store()).generation(),
		...request.pkce
	});
	const target = new URL(request.redirect_uri);
	return {
		ticket: token,
		appName: request.client.name,
		client_id: request.client.client_id,
		scope: request.scope,
		scopeWasDefault: request.scopeWasDefault,
		permissions: permissionWords(request.scope),
		returnTo: target.origin + target.pathname,
		user: { name: DEMO_USER.userName, email: DEMO_USER.userEmail, userId: DEMO_USER.userId }
	};
}

export type Decision = 'authorize' | 'deny';
export type DecisionResult =
	{ ok: true; location: string } | { ok: false; status: 400 | 429 | 503; message: string };

/**
 * In hosted mode each sign-in (grant) gets demo data and budgets of its own, so grants are what a
 * visitor could multiply: one client address may start this many per hour. Counted at the consent
 * decision, the one sandbox request the visitor's browser makes itself (its address is theirs).
 */
export const HOSTED_GRANTS_PER_ADDRESS = 20;
export const HOSTED_GRANT_WINDOW_S = 3600;

/** The counter of grants per address, one window each (a sandbox makes it on first use). */
export function grantWindow(redis: Redis | undefined): Promise<RateLimiterAbstract> {
	return fixedWindow({
		prefix: 'sandbox-grants',
		points: HOSTED_GRANTS_PER_ADDRESS,
		durationS: HOSTED_GRANT_WINDOW_S,
		redis
	});
}

/** What the sandbox says while its store cannot be reached. */
export function unavailableMessage(e: StoreUnavailable): string {
	return `The sandbox cannot answer now: ${e.message}. Try again in a moment.`;
}

/** The answer while the store cannot be reached: 503 with the reason. */
function unavailable(e: unknown): DecisionResult {
	if (!(e instanceof StoreUnavailable)) throw e;
	return { ok: false, status: 503, message: unavailableMessage(e) };
}

/** A grant for `address` in hosted mode: undefined when it may go ahead, else the refusal. */
async function overGrantCap(
	sandbox: Sandbox,
	address: () => string | undefined
): Promise<DecisionResult | undefined> {
	if (sandbox.mode !== 'hosted') return undefined;
	const from = address();
	if (from === undefined) return { ok: false, status: 400, message: NO_ADDRESS_MESSAGE };
	let taken;
	try {
		taken = await take(await sandbox.grantLimiter(), clientKey(from));
	} catch (e) {
		throw new StoreUnavailable(e);
	}
	if (taken.allowed) return undefined;
	const minutes = Math.max(1, Math.ceil(taken.msBeforeNext / 60_000));
	return {
		ok: false,
		status: 429,
		message: `Your address has signed in to the sandbox ${HOSTED_GRANTS_PER_ADDRESS} times this hour, the most this hosted playground allows one visitor (each sign-in gets demo data and rate limits of its own). Try again in ${minutes} min, or go on with the tokens you have.`
	};
}

/**
 * Turns the user's decision into the redirect back (RFC 6749 §4.1.2 and §4.1.2.1 `access_denied`).
 * Only the signed ticket is trusted: client, redirect URI, scope and state all come from it.
 */
export async function decideConsent(
	sandbox: Sandbox,
	ticket: string | undefined,
	decision: Decision,
	address: () => string | undefined = () => ''
): Promise<DecisionResult> {
	const now = sandbox.clock();
	if (!ticket)
		return {
			ok: false,
			status: 400,
			message: 'The consent form is missing its ticket. Start again from the application.'
		};
	const verified = await verifyTicket(sandbox, ticket, now);
	if (!verified.ok) {
		return {
			ok: false,
			status: 400,
			message:
				verified.reason === 'expired'
					? 'The consent form has expired. Start again from the application.'
					: 'The consent form was not issued by this service (bad ticket). Start again from the application.'
		};
	}
	const { client_id, redirect_uri, scope, state, cc, ccm } = verified.claims;
	const client = findClient(sandbox.settings, client_id);
	if (!client)
		return {
			ok: false,
			status: 400,
			message: 'The application of this consent form is no longer registered.'
		};
	// Its first decision is kept by the store of the ticket's generation; another generation's
	// store has forgotten it, so a replay there could mint a second code: refused.
	let gen: string;
	try {
		gen = await (await sandbox.store()).generation();
	} catch (e) {
		return unavailable(e);
	}
	if (verified.claims.gen !== gen)
		return {
			ok: false,
			status: 400,
			message:
				"The consent form was issued before the sandbox's store was emptied or replaced, so whether it was already used is not known. Start again from the application."
		};
	// A ticket decides once: a second post of the same form (a double click, a replay) gets the
	// first answer again, so it can mint no second code and cannot turn a denial into a grant.
	const once = async (location: string): Promise<DecisionResult> => {
		try {
			const jti = verified.claims.jti;
			return {
				ok: true,
				location: await (await sandbox.store()).decideOnce(jti, location, verified.claims.exp)
			};
		} catch (e) {
			return unavailable(e);
		}
	};
	if (decision === 'deny')
		return once(
			redirectWith(redirect_uri, {
				error: 'access_denied',
				error_description: 'The user denied the request',
				state
			})
		);
	// A replayed ticket gets its first answer without counting again.
	try {
		const first = await (await sandbox.store()).decided(verified.claims.jti);
		if (first) return { ok: true, location: first };
		const capped = await overGrantCap(sandbox, address);
		if (capped) return capped;
	} catch (e) {
		return unavailable(e);
	}
	const { token: code } = await signCode(
		sandbox,
		{ client_id, redirect_uri, scope, fam: newId(), gen, ...(cc && ccm && { cc, ccm }) },
		sandbox.settings.codeTtl,
		now
	);
	return once(redirectWith(redirect_uri, { code, state }));
}

/**
 * The decision must come from the consent page itself. SvelteKit's own origin check guards form
 * actions too; this one holds even if that check is turned off for the token endpoint's sake.
 * Under `Referrer-Policy: no-referrer` browsers send `Origin: null` on a form POST, so the browser's
 * `Sec-Fetch-Site` decides when present; otherwise `Origin` must name this origin.
 */
export function decisionIsSameOrigin(headers: Headers, origin: string): boolean {
	const sent = headers.get('origin');
	if (sent !== null && sent !== 'null' && sent !== origin) return false;
	const site = headers.get('sec-fetch-site');
	if (site !== null) return site === 'same-origin';
	return sent === origin;
}
