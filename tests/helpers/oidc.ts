/**
 * An authorization server this project did not write: panva's `oidc-provider` (a devDependency),
 * run in the test process on a free loopback port, with an issuer that has a path
 * (`http://127.0.0.1:PORT/oidc`). The suites meet it besides the built-in sandbox, so that the
 * playground is shown to work with a standard RFC 6749 / OpenID Connect server too.
 *
 * The configuration is deliberately small and is all in `baseConfiguration` below; later tests
 * extend it through `startOidcProvider({ clients, configuration })`. Its choices, each one because
 * of what the playground does today:
 *
 * - clients authenticate with `client_secret_post`: the playground sends `client_id` and
 *   `client_secret` in the form body of the token request (the service's API docs §4.2);
 * - `scopes` lists `read` and `write` (the service's own scope words) besides `openid` and
 *   `offline_access`; a scope word the provider does not know is dropped from the grant;
 * - `pkce.required` is false: the playground does not send a `code_challenge` yet;
 * - `issueRefreshToken` gives a refresh token to every client allowed the `refresh_token` grant.
 *   The provider's default also wants `offline_access`, which it keeps only with `prompt=consent`,
 *   and the playground's consent URL has no `prompt`;
 * - `features.devInteractions` is on: the provider's own sign-in and consent pages (any login name,
 *   any password), which `signInAndConsent` below fills over HTTP and the e2e tests click;
 * - `findAccount` knows every account id: its claims are `sub` (the login name), and `name` with
 *   the `profile` scope;
 * - `clientBasedCORS` is off for every origin: the playground calls the provider from its server;
 * - `ttl` is explicit, so a test can read the lifetimes here.
 *
 * `rotateRefreshToken` stays the provider's default, under which a confidential client gets the
 * same refresh token back for most of its life; `rotatingRefreshTokens` below makes it rotate on
 * every use for the clients it names.
 *
 * oidc-provider answers at `/auth`, `/token`, `/me` (user-info, needs the `openid` scope), `/jwks`
 * and `/.well-known/openid-configuration`, all under the issuer's path, and adds `iss` to the
 * redirect back (RFC 9207).
 */
import http from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import Provider, { type ClientMetadata, type Configuration, type JWK } from 'oidc-provider';
import type { Client } from './client';
import { listen } from './listen';

/** The path the provider is mounted on, and the issuer's path. */
export const OIDC_PATH = '/oidc';

export const OIDC_CLIENT_ID = 'playground-app';
export const OIDC_CLIENT_SECRET = 'oidc-Secret-4Rt7-pLq2';
/** What the playground's Scope field holds for this server: `openid` makes the user-info call work. */
export const OIDC_SCOPE = 'openid read write';

export interface OidcServer {
	/** `http://127.0.0.1:PORT/oidc`, the base URL to enter in the playground. */
	issuer: string;
	/** `http://127.0.0.1:PORT`, for a cookie jar of the provider's pages. */
	origin: string;
	port: number;
	endpoints: {
		authorization: string;
		token: string;
		userinfo: string;
		jwks: string;
		discovery: string;
	};
	provider: Provider;
	/** Closes the listener and every open connection. */
	stop: () => Promise<void>;
}

/** A confidential client the playground can use as it is: secret in the body, code and refresh grants. */
export function oidcClient(
	redirectUris: string[],
	overrides: Partial<ClientMetadata> = {}
): ClientMetadata {
	return {
		client_id: OIDC_CLIENT_ID,
		client_secret: OIDC_CLIENT_SECRET,
		redirect_uris: redirectUris,
		grant_types: ['authorization_code', 'refresh_token'],
		response_types: ['code'],
		token_endpoint_auth_method: 'client_secret_post',
		...overrides
	};
}

function signingKeys(): { keys: JWK[] } {
	const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
	return {
		keys: [{ ...(privateKey.export({ format: 'jwk' }) as JWK), use: 'sig', kid: 'test-1' }]
	};
}

/** The configuration every test starts from; see the header of this file for the reasons. */
export function baseConfiguration(): Configuration {
	return {
		scopes: ['openid', 'offline_access', 'read', 'write'],
		claims: { openid: ['sub'], profile: ['name'] },
		pkce: { required: () => false },
		issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
		features: {
			devInteractions: { enabled: true },
			userinfo: { enabled: true },
			revocation: { enabled: false },
			introspection: { enabled: false }
		},
		async findAccount(_ctx, sub) {
			return { accountId: sub, claims: async () => ({ sub, name: `Test user ${sub}` }) };
		},
		clientBasedCORS: () => false,
		ttl: {
			AccessToken: 3600,
			AuthorizationCode: 60,
			IdToken: 3600,
			RefreshToken: 24 * 3600,
			Interaction: 600,
			Session: 3600,
			Grant: 24 * 3600
		},
		cookies: { keys: ['oidc-test-cookie-key-0123456789abcdef'] },
		jwks: signingKeys()
	};
}

/** The API provider-sized access tokens are for (RFC 8707): the provider issues them as JWTs. */
export const TOKEN_RESOURCE = 'urn:feed-reader:api';
type Features = NonNullable<Configuration['features']>;

/**
 * Access tokens as JWTs for `TOKEN_RESOURCE` (RFC 8707), signed RS256 with the provider's key: for
 * every client, or for those `forClient` names.
 */
export function jwtAccessTokens(
	forClient: (clientId: string | undefined) => boolean = () => true
): Features['resourceIndicators'] {
	return {
		enabled: true,
		defaultResource: (_ctx, client) => (forClient(client?.clientId) ? TOKEN_RESOURCE : undefined),
		useGrantedResource: () => true,
		getResourceServerInfo: () => ({
			scope: 'read write',
			audience: TOKEN_RESOURCE,
			accessTokenFormat: 'jwt',
			jwt: { sign: { alg: 'RS256' } }
		})
	};
}

/** The base configuration's features with revocation (RFC 7009) and introspection (RFC 7662) on. */
export function adminFeatures(): Features {
	// @types/oidc-provider types `introspection` as a feature that can only be disabled.
	return {
		...baseConfiguration().features,
		revocation: { enabled: true },
		introspection: { enabled: true }
	} as unknown as Features;
}

/** Group ids in every access token, as an enterprise provider puts them there: about 1.8 KB in all. */
const GROUPS = Array.from(
	{ length: 22 },
	(_, i) => `${String(i).padStart(8, '0')}-7c1e-4b8a-9f3d-0a6b2c9e${String(1000 + i)}`
);

/** Configuration for provider-sized tokens: JWT access tokens of about 1.8 KB (the user's groups in them). */
export function providerSizedTokens(): Partial<Configuration> {
	return {
		features: {
			devInteractions: { enabled: true },
			userinfo: { enabled: true },
			revocation: { enabled: false },
			introspection: { enabled: false },
			resourceIndicators: jwtAccessTokens()
		},
		extraTokenClaims: () => ({ groups: GROUPS })
	};
}

/**
 * Configuration that makes the provider rotate the refresh token on every use for the clients
 * `clientIds` names, as the sandbox does: each refresh consumes the refresh token sent and answers
 * a new one, and a consumed one sent again revokes the grant (oidc-provider's `rotateRefreshToken`).
 * Without it the provider rotates a confidential client's refresh token only late in its life, so
 * such a client gets the same refresh token back. Every other client keeps that default policy,
 * restated from oidc-provider 9's documentation of the option: no rotation once the token has
 * lived a year in all; always for a public client whose tokens are not sender-constrained; else
 * only once 70% of the token's lifetime has passed. Spread it into `configuration`.
 */
export function rotatingRefreshTokens(
	clientIds: readonly string[]
): Pick<Configuration, 'rotateRefreshToken'> {
	return {
		rotateRefreshToken(ctx) {
			const { RefreshToken: token, Client: client } = ctx.oidc.entities;
			if (client && clientIds.includes(client.clientId)) return true;
			if (!token || token.totalLifetime() >= 365.25 * 24 * 60 * 60) return false;
			if (client?.clientAuthMethod === 'none' && !token.isSenderConstrained()) return true;
			return token.ttlPercentagePassed() >= 70;
		}
	};
}

/** The web font the provider's pages import (`lib/views/layout.js`, `lib/helpers/defaults.js`). */
const FONT_IMPORT = /@import url\(https:\/\/fonts\.googleapis\.com\/[^)]*\);?/g;

/** The provider's client registrations, and what its configuration changes. */
export interface OidcOptions {
	clients: ClientMetadata[];
	configuration?: Partial<Configuration>;
}

/**
 * Starts the provider on a free loopback port. `configuration` is merged over `baseConfiguration()`
 * at the top level (give a whole `features` object to change one feature).
 */
export async function startOidcProvider(
	options: OidcOptions = { clients: [] }
): Promise<OidcServer> {
	let handle: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_req, res) => {
		res.writeHead(503).end();
	};
	const server = http.createServer((req, res) => handle(req, res));
	const { url: origin, port } = await listen(server);
	const issuer = origin + OIDC_PATH;
	const provider = new Provider(issuer, {
		...baseConfiguration(),
		...options.configuration,
		clients: options.clients
	});
	// The provider's own pages @import a web font from fonts.googleapis.com: a browser on them would
	// leave this machine, or log the refused request as an error. The import goes; the rest of each
	// page's style stays.
	provider.use(async (ctx, next) => {
		await next();
		if (typeof ctx.body === 'string' && ctx.response.is('html'))
			ctx.body = ctx.body.replace(FONT_IMPORT, '');
	});
	const callback = provider.callback();
	// Mounted on the prefix as the provider's docs show for connect ("Mounting oidc-provider"): the
	// prefix moves from `url` to `originalUrl`, where the provider finds it for the URLs it builds.
	handle = (req, res) => {
		const url = req.url ?? '/';
		// A browser on the provider's pages asks for the icon at the origin's root: no 404 in its console.
		if (url === '/favicon.ico') {
			res.writeHead(204).end();
			return;
		}
		const rest = url.slice(OIDC_PATH.length);
		if (!url.startsWith(OIDC_PATH) || !['', '/', '?'].includes(rest.charAt(0))) {
			res.writeHead(404, { 'content-type': 'text/plain' }).end('not under ' + OIDC_PATH);
			return;
		}
		Object.assign(req, { originalUrl: url });
		req.url = rest.startsWith('/') ? rest : '/' + rest;
		void callback(req, res);
	};
	return {
		issuer,
		origin,
		port,
		endpoints: {
			authorization: `${issuer}/auth`,
			token: `${issuer}/token`,
			userinfo: `${issuer}/me`,
			jwks: `${issuer}/jwks`,
			discovery: `${issuer}/.well-known/openid-configuration`
		},
		provider,
		stop: () =>
			new Promise<void>((ok) => {
				server.close(() => ok());
				server.closeAllConnections();
			})
	};
}

/**
 * The client registrations a standard server is tried with, one per way a client authenticates:
 * a confidential client that sends its secret in the body and must use PKCE; a client registered
 * for HTTP Basic only, whose secret needs form-encoding before base64 (RFC 6749 §2.3.1: `:`, `%`,
 * `+`, a space); and a public client (no secret, PKCE).
 */
export const MATRIX = [
	{ id: 'oidc-post-pkce', method: 'client_secret_post', secret: 'post-Secret-9Kd2' },
	{ id: 'oidc-basic', method: 'client_secret_basic', secret: 'b:a%s+i c/=&~?' },
	{ id: 'oidc-public', method: 'none', secret: '' }
] as const;
export type MatrixClient = (typeof MATRIX)[number];

/** Where the standard server answers besides the endpoints of `OidcServer`. */
export function adminEndpoints(oidc: OidcServer): {
	revocation: string;
	introspection: string;
	par: string;
} {
	return {
		revocation: `${oidc.issuer}/token/revocation`,
		introspection: `${oidc.issuer}/token/introspection`,
		par: `${oidc.issuer}/request`
	};
}

/**
 * The options of oidc-provider with everything its metadata can advertise that the playground uses: revocation
 * (RFC 7009), introspection (RFC 7662) and pushed authorization requests (RFC 9126) besides
 * discovery and the JWKS, PKCE required of every client, and the three `MATRIX` clients (the
 * confidential ones also allowed the refresh grant). The ID token it issues is the JWT whose
 * signature the playground checks against `jwks_uri`.
 */
export function standardServer(redirectUris: string[]): OidcOptions {
	return {
		clients: MATRIX.map((c) =>
			oidcClient(redirectUris, {
				client_id: c.id,
				client_secret: c.secret || undefined,
				token_endpoint_auth_method: c.method
			})
		),
		configuration: {
			pkce: { required: () => true },
			features: { ...adminFeatures(), pushedAuthorizationRequests: { enabled: true } }
		}
	};
}

function formAction(html: string): string {
	const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
	if (!action) throw new Error(`no form on the provider's page: ${html.slice(0, 300)}`);
	return action
		.replace(/&amp;/g, '&')
		.replace(/&#x2F;/g, '/')
		.replace(/&#47;/g, '/');
}

/**
 * Follows the provider's own pages over HTTP from the consent URL: the sign-in form (any login,
 * any password), then the consent form, until a redirect leaves the provider. Returns that
 * address (the playground's callback with `code`, `state` and `iss`, or with an error).
 * `browser` is a cookie jar whose base is the provider's origin.
 */
export async function signInAndConsent(
	browser: Client,
	consentUrl: string,
	login = 'alice'
): Promise<string> {
	const origin = new URL(consentUrl).origin;
	let next = consentUrl;
	for (let hop = 0; hop < 12; hop++) {
		const { res, body } = await browser.fetch(next, { headers: { accept: 'text/html' } });
		const location = res.headers.get('location');
		if (res.status >= 300 && res.status < 400 && location) {
			const target = new URL(location, next).toString();
			if (new URL(target).origin !== origin) return target;
			next = target;
			continue;
		}
		if (res.status !== 200)
			throw new Error(`the provider answered ${res.status} at ${next}: ${body.slice(0, 300)}`);
		const prompt = /name="prompt" value="(login|consent)"/.exec(body)?.[1];
		if (!prompt) throw new Error(`no sign-in or consent form at ${next}: ${body.slice(0, 300)}`);
		const fields: Record<string, string> =
			prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
		const post = await browser.fetch(new URL(formAction(body), next).toString(), {
			method: 'POST',
			body: new URLSearchParams(fields),
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
		});
		const after = post.res.headers.get('location');
		if (!after)
			throw new Error(`the ${prompt} form did not redirect (${post.res.status}): ${post.body}`);
		next = new URL(after, next).toString();
		if (new URL(next).origin !== origin) return next;
	}
	throw new Error('the provider kept redirecting');
}
