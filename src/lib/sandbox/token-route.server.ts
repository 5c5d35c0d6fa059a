/**
 * The token endpoint (RFC 6749 §3.2, the service's API docs §4.2 and §4.3): the authorization_code and refresh_token
 * grants. Every error is the JSON of RFC 6749 §5.2 with `Cache-Control: no-store`.
 *
 * - Client authentication (§2.3.1): client_id + client_secret in the body, or HTTP Basic with both
 *   form-urlencoded first. Never both at once (§2.3).
 * - Codes are single use (§4.1.2); a replay revokes what the code produced (§10.5).
 * - Refresh tokens rotate; a replayed old one revokes the family (RFC 9700 §4.14.2). With a reuse
 *   window (SANDBOX_REFRESH_REUSE_SECONDS, as Auth0's rotation overlap and Cognito's grace period),
 *   the previous one, sent less than that many seconds after it was replaced, is answered again, any
 *   number of times, with a new access token and a new refresh token of the family that stands beside
 *   the current one: either of them rotates next, and the other then becomes the previous one.
 * - A code or refresh token issued under another generation of the store (one that has since
 *   forgotten what was used) is refused with invalid_grant: its use cannot be checked.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { SandboxClient, SandboxScope } from './sandbox-config.server';
import { accessTtlFor, authenticateClient } from './clients.server';
import { DEMO_USER } from './demo.server';
import {
	isFormContentType,
	jsonResponse,
	MAX_BODY_BYTES,
	readBodyCapped,
	repeatedParameter
} from './http.server';
import { hasWrite } from './scope.server';
import {
	newId,
	signAccessToken,
	signRefreshToken,
	verifyCode,
	verifyRefreshToken
} from './signing.server';
import type { Sandbox } from './sandbox.server';
import { StoreUnavailable } from './store.server';

export type TokenErrorCode =
	| 'invalid_request'
	| 'invalid_client'
	| 'invalid_grant'
	| 'unauthorized_client'
	| 'unsupported_grant_type'
	| 'invalid_scope'
	// Not in RFC 6749 §5.2's list (it is §4.1.2.1's), the usual word for a 503 at the token endpoint.
	| 'temporarily_unavailable';

/** "1 second", "30 seconds": a number of seconds in the sandbox's words. */
const secondsWords = (n: number) => (n === 1 ? '1 second' : `${n} seconds`);

/** The answer while the sandbox's store cannot be reached: 503, the reason, and when to try again. */
function storeDown(e: StoreUnavailable): Response {
	return tokenError(503, 'temporarily_unavailable', `The sandbox cannot answer now: ${e.message}`, {
		'Retry-After': '2'
	});
}

/** RFC 6749 §5.2 error response. */
export function tokenError(
	status: number,
	error: TokenErrorCode,
	error_description: string,
	headers: Record<string, string> = {}
): Response {
	return jsonResponse(status, { error, error_description }, headers);
}

const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="sandbox"' };

type ClientAuth = { ok: true; client: SandboxClient } | { ok: false; response: Response };

/** RFC 6749 §2.3.1: `application/x-www-form-urlencoded` decoding of a Basic user-id or password. */
function formDecode(text: string): string {
	return decodeURIComponent(text.replace(/\+/g, ' '));
}

function authenticate(sandbox: Sandbox, request: Request, params: URLSearchParams): ClientAuth {
	const header = request.headers.get('authorization');
	if (header !== null) {
		const [scheme, value = ''] = header.trim().split(/\s+/, 2);
		if (scheme?.toLowerCase() !== 'basic') {
			return {
				ok: false,
				response: tokenError(
					401,
					'invalid_client',
					'Only HTTP Basic client authentication is supported in the Authorization header',
					BASIC_CHALLENGE
				)
			};
		}
		if (params.has('client_secret')) {
			return {
				ok: false,
				response: tokenError(
					400,
					'invalid_request',
					'The client authenticated twice (HTTP Basic and client_secret in the body): use only one method'
				)
			};
		}
		const decoded = Buffer.from(value, 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		let id: string;
		let secret: string;
		try {
			if (colon === -1) throw new Error('no colon');
			id = formDecode(decoded.slice(0, colon));
			secret = formDecode(decoded.slice(colon + 1));
		} catch {
			return {
				ok: false,
				response: tokenError(
					401,
					'invalid_client',
					'The HTTP Basic credentials are malformed: expected base64 of client_id:client_secret',
					BASIC_CHALLENGE
				)
			};
		}
		const bodyId = params.get('client_id');
		if (bodyId !== null && bodyId !== id) {
			return {
				ok: false,
				response: tokenError(
					400,
					'invalid_request',
					'The client_id in the body differs from the one in the HTTP Basic credentials'
				)
			};
		}
		const client = authenticateClient(sandbox.settings, id, secret);
		if (!client) {
			return {
				ok: false,
				response: tokenError(
					401,
					'invalid_client',
					'Client authentication failed: unknown client_id or wrong client_secret',
					BASIC_CHALLENGE
				)
			};
		}
		return { ok: true, client };
	}
	const id = params.get('client_id');
	const secret = params.get('client_secret');
	if (!id || secret === null) {
		return {
			ok: false,
			response: tokenError(
				401,
				'invalid_client',
				'Client authentication is missing: send client_id and client_secret in the body, or HTTP Basic'
			)
		};
	}
	const client = authenticateClient(sandbox.settings, id, secret);
	if (!client)
		return {
			ok: false,
			response: tokenError(
				401,
				'invalid_client',
				'Client authentication failed: unknown client_id or wrong client_secret'
			)
		};
	return { ok: true, client };
}

/** A read-only registration never gets write, whatever a code or token claims. */
function clampScope(client: SandboxClient, scope: SandboxScope): SandboxScope {
	return client.default_scope === 'read' && hasWrite(scope) ? 'read' : scope;
}

/**
 * The token response of the service's API docs §2.3: exactly these five fields. `rot`: the jti of
 * the current refresh token the new one stands beside (an answer within the reuse window).
 */
async function issueTokens(
	sandbox: Sandbox,
	client: SandboxClient,
	fam: string,
	scope: SandboxScope,
	refreshJti: string,
	origin: string,
	now: number,
	gen: string,
	rot?: string
): Promise<Response> {
	const { refreshTtl } = sandbox.settings;
	const expires_in = accessTtlFor(sandbox.settings, client);
	const access = await signAccessToken(
		sandbox,
		{
			iss: `${origin}/sandbox`,
			sub: DEMO_USER.userId,
			aud: client.client_id,
			client_id: client.client_id,
			scope,
			fam
		},
		expires_in,
		now
	);
	const refresh = await signRefreshToken(
		sandbox,
		{ client_id: client.client_id, scope, fam, gen, jti: refreshJti, ...(rot && { rot }) },
		refreshTtl,
		now
	);
	return jsonResponse(200, {
		access_token: access.token,
		token_type: 'Bearer',
		expires_in,
		refresh_token: refresh.token,
		scope
	});
}

/** Until when a family must be remembered: its newest refresh token or access token, whichever lasts longer. */
function familyUntil({ settings }: Sandbox, client: SandboxClient, now: number): number {
	return Math.floor(now / 1000) + Math.max(settings.refreshTtl, accessTtlFor(settings, client));
}

/** Why a credential of another store generation is refused: its use cannot be checked. */
function forgotten(what: 'authorization code' | 'refresh token'): string {
	return `The ${what} was issued before the sandbox's store was emptied or replaced, so whether it was already used is not known: start a new consent`;
}

/** RFC 7636 §4.6, compared in constant time. */
function verifierMatches(verifier: string | null, cc: string, ccm: 'S256' | 'plain'): boolean {
	if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
	const derived =
		ccm === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
	const a = Buffer.from(derived);
	const b = Buffer.from(cc);
	return a.length === b.length && timingSafeEqual(a, b);
}

async function authorizationCodeGrant(
	sandbox: Sandbox,
	client: SandboxClient,
	params: URLSearchParams,
	origin: string,
	now: number
): Promise<Response> {
	const code = params.get('code');
	const redirect_uri = params.get('redirect_uri');
	if (!code) return tokenError(400, 'invalid_request', 'The code parameter is missing');
	if (!redirect_uri)
		return tokenError(
			400,
			'invalid_request',
			'The redirect_uri parameter is missing: send the same one as in the consent request'
		);
	const verified = await verifyCode(sandbox, code, now);
	if (!verified.ok) {
		return verified.reason === 'expired'
			? tokenError(
					400,
					'invalid_grant',
					`The authorization code has expired (codes are valid for ${secondsWords(sandbox.settings.codeTtl)}): exchange it at once`
				)
			: tokenError(400, 'invalid_grant', 'The authorization code is invalid');
	}
	const claims = verified.claims;
	const grants = await sandbox.store();
	const gen = await grants.generation();
	if (claims.gen !== gen) return tokenError(400, 'invalid_grant', forgotten('authorization code'));
	const until = familyUntil(sandbox, client, now);
	const used = await grants.usedCode(claims.jti);
	if (used) {
		await grants.revoke(used, until);
		return tokenError(
			400,
			'invalid_grant',
			'The authorization code has already been used; the tokens issued from it are now revoked'
		);
	}
	if (claims.client_id !== client.client_id)
		return tokenError(400, 'invalid_grant', 'The authorization code was issued to another client');
	if (claims.redirect_uri !== redirect_uri)
		return tokenError(
			400,
			'invalid_grant',
			'The redirect_uri does not match the one used in the consent request'
		);
	// PKCE (RFC 7636 §4.6), when the consent carried a challenge: the verifier must match it.
	if (
		claims.cc &&
		claims.ccm &&
		!verifierMatches(params.get('code_verifier'), claims.cc, claims.ccm)
	)
		return tokenError(
			400,
			'invalid_grant',
			params.get('code_verifier')
				? 'PKCE verification failed: the code_verifier does not match the code_challenge'
				: 'PKCE verification failed: the code_verifier is missing'
		);
	// Redeemed atomically (in the store): of two racing requests with one code, one wins; the
	// other is told the code was used, and the family's tokens are revoked as for any second use.
	const refreshJti = newId();
	const redeemed = await grants.redeemCode(
		{ jti: claims.jti, exp: claims.exp, fam: claims.fam, client_id: client.client_id },
		refreshJti,
		until
	);
	if (!redeemed) {
		await grants.revoke(claims.fam, until);
		return tokenError(
			400,
			'invalid_grant',
			'The authorization code has already been used; the tokens issued from it are now revoked'
		);
	}
	return issueTokens(
		sandbox,
		client,
		claims.fam,
		clampScope(client, claims.scope),
		refreshJti,
		origin,
		now,
		gen
	);
}

async function refreshTokenGrant(
	sandbox: Sandbox,
	client: SandboxClient,
	params: URLSearchParams,
	origin: string,
	now: number
): Promise<Response> {
	const token = params.get('refresh_token');
	if (!token) return tokenError(400, 'invalid_request', 'The refresh_token parameter is missing');
	const verified = await verifyRefreshToken(sandbox, token, now);
	if (!verified.ok) {
		return tokenError(
			400,
			'invalid_grant',
			verified.reason === 'expired'
				? 'The refresh token has expired: start a new consent'
				: 'The refresh token is invalid'
		);
	}
	const claims = verified.claims;
	if (claims.client_id !== client.client_id)
		return tokenError(400, 'invalid_grant', 'The refresh token was issued to another client');
	const grants = await sandbox.store();
	const gen = await grants.generation();
	if (claims.gen !== gen) return tokenError(400, 'invalid_grant', forgotten('refresh token'));
	const nextJti = newId();
	const window = sandbox.settings.refreshReuseWindow;
	// A token answered within the reuse window is tracked as the current one it stands beside.
	const rotated = await grants.rotate(
		claims.fam,
		client.client_id,
		claims.rot ?? claims.jti,
		nextJti,
		familyUntil(sandbox, client, now),
		window
	);
	if (rotated === 'revoked')
		return tokenError(400, 'invalid_grant', 'The refresh token has been revoked');
	if (rotated === 'reused') {
		return tokenError(
			400,
			'invalid_grant',
			window > 0
				? `The refresh token was already used and is older than the previous one (refresh tokens rotate; only the previous one is accepted again, for ${secondsWords(window)} after it was replaced); every token of this grant is now revoked`
				: 'The refresh token was already used (refresh tokens rotate); every token of this grant is now revoked'
		);
	}
	if (rotated === 'late') {
		return tokenError(
			400,
			'invalid_grant',
			`The refresh token was already used and replaced ${secondsWords(window)} ago or more (refresh tokens rotate; the previous one is accepted again only for ${secondsWords(window)} after it was replaced); every token of this grant is now revoked`
		);
	}
	return issueTokens(
		sandbox,
		client,
		claims.fam,
		clampScope(client, claims.scope),
		nextJti,
		origin,
		now,
		gen,
		rotated === 'ok' ? undefined : rotated.beside
	);
}

/** Handles `POST /sandbox/oauth2/token`. `origin` is the service's origin (for the `iss` claim). */
export async function tokenEndpoint(
	sandbox: Sandbox,
	request: Request,
	origin: string
): Promise<Response> {
	const now = sandbox.clock();
	if (!isFormContentType(request.headers.get('content-type'))) {
		const sent = request.headers.get('content-type');
		return tokenError(
			400,
			'invalid_request',
			`The Content-Type header must be application/x-www-form-urlencoded (${sent ? `got ${JSON.stringify(sent.slice(0, 100))}` : 'it is missing'})`
		);
	}
	const body = await readBodyCapped(request, MAX_BODY_BYTES);
	if (!body.ok)
		return tokenError(
			413,
			'invalid_request',
			`The request body is larger than ${MAX_BODY_BYTES} bytes`
		);
	const params = new URLSearchParams(body.text);
	const repeated = repeatedParameter(params);
	if (repeated) return tokenError(400, 'invalid_request', `The ${repeated} parameter is repeated`);

	const auth = authenticate(sandbox, request, params);
	if (!auth.ok) return auth.response;

	const grant_type = params.get('grant_type');
	if (!grant_type) return tokenError(400, 'invalid_request', 'The grant_type parameter is missing');
	try {
		if (grant_type === 'authorization_code')
			return await authorizationCodeGrant(sandbox, auth.client, params, origin, now);
		if (grant_type === 'refresh_token')
			return await refreshTokenGrant(sandbox, auth.client, params, origin, now);
	} catch (e) {
		if (e instanceof StoreUnavailable) return storeDown(e);
		throw e;
	}
	return tokenError(
		400,
		'unsupported_grant_type',
		`Grant type ${JSON.stringify(grant_type.slice(0, 100))} is not supported: use authorization_code or refresh_token`
	);
}

export function tokenMethodNotAllowed(): Response {
	return tokenError(405, 'invalid_request', 'The token endpoint only accepts POST', {
		Allow: 'POST'
	});
}
