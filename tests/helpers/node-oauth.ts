/**
 * A second authorization server this project did not write: @node-oauth/oauth2-server 5.3 behind
 * @node-oauth/express-oauth-server 4.2 on express 5 (devDependencies), run in the test process on a
 * free loopback port, as tests/helpers/oidc.ts runs oidc-provider. The suites meet it besides the
 * sandbox and oidc-provider, so that the playground's diagnoses are tried against a server that
 * asks the user to sign in before it judges anything.
 *
 * The library leaves the user to the application: its authorize handler needs an authenticated
 * user (`authenticateHandler`), so an express-oauth-server app shows its own sign-in page first.
 * This one does what such apps do, and nothing the library does is written here by hand:
 *
 * - `GET /oauth/authorize` answers 200 with a sign-in page (a user name and a password field, no
 *   consent words), whatever the request holds: the client id, the redirect URI and the scope are
 *   not looked at yet;
 * - `POST /oauth/authorize` (the sign-in form, the consent request's query kept in its action)
 *   checks the user name and the password, shows the page again on a wrong one, and then runs the
 *   library's authorize handler with the signed-in user. Its answers are the library's: a 302 to
 *   the redirect URI with `code` and `state`; a 400 JSON `invalid_client` for an unknown client or
 *   a redirect URI not registered (it checks them before it knows where to send the browser); and
 *   for a refusal it could send back (a scope the client may not have, a Deny), a 400 JSON whose
 *   `Location` header points at the redirect URI with `error=`, which a browser does not follow;
 * - `POST /oauth/token`: the library's token handler (client id and secret in the body or with
 *   HTTP Basic; a wrong secret in the body is a 400 `invalid_client`, with Basic a 401), the code
 *   and refresh grants, refresh tokens rotated on every use (the library's default
 *   `alwaysIssueNewRefreshToken`), PKCE when the consent request carried a `code_challenge` (S256;
 *   the library does not require it);
 * - `GET /api/me`: a protected resource standing in for user-info, behind the library's
 *   `authenticate()` middleware (a bad token is a 401 `invalid_token`; express-oauth-server drops
 *   the library's `WWW-Authenticate` header on that path).
 *
 * The model is in memory, one per server: clients (id, secret, redirect URIs, grants, the scopes
 * they may have), codes, access tokens and refresh tokens. Codes live 60 seconds, access tokens an
 * hour. The library reads the time from `Date`, in this process: a test moves it with
 * `vi.useFakeTimers({ toFake: ['Date'] })`.
 */
import http from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import ExpressOAuthServer from '@node-oauth/express-oauth-server';
import type OAuth2Server from '@node-oauth/oauth2-server';
import type { Client } from './client';
import { listen } from './listen';

const NODE_OAUTH_AUTHORIZE = '/oauth/authorize';
const NODE_OAUTH_TOKEN = '/oauth/token';
const NODE_OAUTH_ME = '/api/me';

/** Codes live 60 seconds, as the issue's trial server had them. */
export const CODE_LIFETIME_S = 60;

/** The one user, and the password the sign-in form takes. */
const NODE_OAUTH_USER = { username: 'alice', password: 'alice-Passw0rd' } as const;

interface NodeOAuthClient {
	id: string;
	/** Empty for a public client (PKCE only). */
	secret: string;
	redirectUris: string[];
	grants: string[];
	/** The scopes this client may be given; any other is refused with `invalid_scope`. */
	scopes: string[];
}

export interface NodeOAuthServer {
	/** `http://127.0.0.1:PORT`, the base URL to enter in the playground. */
	origin: string;
	port: number;
	endpoints: { authorization: string; token: string; userinfo: string };
	/** Every code the authorize handler saved, as saved (with any PKCE challenge). */
	codes: OAuth2Server.AuthorizationCode[];
	/** Closes the listener and every open connection. */
	stop: () => Promise<void>;
}

interface User {
	id: string;
	username: string;
}

/** A confidential client for the code and refresh grants, allowed `read` and `write`. */
export function nodeOAuthClient(
	id: string,
	secret: string,
	redirectUris: string[],
	overrides: Partial<NodeOAuthClient> = {}
): NodeOAuthClient {
	return {
		id,
		secret,
		redirectUris,
		grants: ['authorization_code', 'refresh_token'],
		scopes: ['read', 'write'],
		...overrides
	};
}

const ENTITIES: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&#39;'
};
/** HTML-escaped, as a template engine writes a value into the page. */
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** The sign-in page, as an express-oauth-server app renders it: no word of consent. */
function signInPage(action: string, error = ''): string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body><h1>Sign in</h1>${error ? `<p role="alert">${escape(error)}</p>` : ''}<form method="post" action="${escape(action)}"><label>User name <input type="text" name="username" autocomplete="username"></label><label>Password <input type="password" name="password" autocomplete="current-password"></label><button type="submit">Sign in</button><button type="submit" name="allowed" value="false">Cancel</button></form></body></html>`;
}

/** The in-memory model the library asks for its clients, codes and tokens. */
function memoryModel(clients: NodeOAuthClient[], codesSaved: OAuth2Server.AuthorizationCode[]) {
	const codes = new Map<string, OAuth2Server.AuthorizationCode>();
	const accessTokens = new Map<string, OAuth2Server.Token>();
	const refreshTokens = new Map<string, OAuth2Server.RefreshToken>();
	const registered = (id: string) => clients.find((c) => c.id === id);
	const model: OAuth2Server.AuthorizationCodeModel & OAuth2Server.RefreshTokenModel = {
		// The authorize handler looks a client up by its id alone (secret null); the token handler
		// with the secret it was given, or none for a PKCE request of a public client.
		async getClient(clientId: string, clientSecret: string | null) {
			const c = registered(clientId);
			if (!c) return undefined;
			if (clientSecret !== null && (clientSecret ?? '') !== c.secret) return undefined;
			return { id: c.id, redirectUris: c.redirectUris, grants: c.grants };
		},
		async validateScope(_user, client, scope) {
			const allowed = registered(client.id as string)?.scopes ?? [];
			if (!scope) return allowed;
			return scope.every((s) => allowed.includes(s)) ? scope : false;
		},
		async saveAuthorizationCode(code, client, user) {
			const saved = { ...code, client, user } as OAuth2Server.AuthorizationCode;
			codes.set(code.authorizationCode, saved);
			codesSaved.push(saved);
			return saved;
		},
		async getAuthorizationCode(code) {
			return codes.get(code);
		},
		async revokeAuthorizationCode(code) {
			return codes.delete(code.authorizationCode);
		},
		async saveToken(token, client, user) {
			const saved = { ...token, client, user };
			accessTokens.set(token.accessToken, saved);
			if (token.refreshToken)
				refreshTokens.set(token.refreshToken, {
					refreshToken: token.refreshToken,
					refreshTokenExpiresAt: token.refreshTokenExpiresAt,
					scope: token.scope,
					client,
					user
				});
			return saved;
		},
		async getAccessToken(accessToken) {
			return accessTokens.get(accessToken);
		},
		async getRefreshToken(refreshToken) {
			return refreshTokens.get(refreshToken);
		},
		async revokeToken(token) {
			return refreshTokens.delete(token.refreshToken);
		},
		async verifyScope() {
			return true;
		}
	};
	return model;
}

/** Starts the server on a free loopback port with the given client registrations. */
export async function startNodeOAuth(clients: NodeOAuthClient[]): Promise<NodeOAuthServer> {
	const codes: OAuth2Server.AuthorizationCode[] = [];
	const oauth = new ExpressOAuthServer({
		model: memoryModel(clients, codes),
		authorizationCodeLifetime: CODE_LIFETIME_S,
		accessTokenLifetime: 3600
	});
	const app = express();
	app.disable('x-powered-by');
	const form = express.urlencoded({ extended: false });

	app.get(NODE_OAUTH_AUTHORIZE, (req, res) => {
		res.type('html').send(signInPage(req.originalUrl));
	});
	// The sign-in: a wrong password shows the page again; a right one (or a Cancel, which the
	// library turns into access_denied) goes on to the library's authorize handler.
	app.post(
		NODE_OAUTH_AUTHORIZE,
		form,
		(req: Request, res: Response, next: NextFunction) => {
			const { username, password } = (req.body ?? {}) as Record<string, string | undefined>;
			if (username !== NODE_OAUTH_USER.username || password !== NODE_OAUTH_USER.password) {
				res
					.status(200)
					.type('html')
					.send(signInPage(req.originalUrl, 'Wrong user name or password.'));
				return;
			}
			// The library's Request copies the express request's own properties: `user` among them.
			Object.assign(req, { user: { id: 'user-1', username } satisfies User });
			next();
		},
		oauth.authorize({
			authenticateHandler: {
				handle: (request: OAuth2Server.Request) => (request as { user?: User }).user
			}
		})
	);
	app.post(NODE_OAUTH_TOKEN, form, oauth.token());
	app.get(NODE_OAUTH_ME, oauth.authenticate(), (_req, res) => {
		const token = (res.locals.oauth as { token: OAuth2Server.Token }).token;
		const user = token.user as User;
		res.json({ id: user.id, username: user.username, scope: token.scope?.join(' ') });
	});

	const server = http.createServer(app);
	const { url: origin, port } = await listen(server);
	return {
		origin,
		port,
		endpoints: {
			authorization: origin + NODE_OAUTH_AUTHORIZE,
			token: origin + NODE_OAUTH_TOKEN,
			userinfo: origin + NODE_OAUTH_ME
		},
		codes,
		stop: () =>
			new Promise<void>((ok) => {
				server.close(() => ok());
				server.closeAllConnections();
			})
	};
}

/** What the sign-in form's POST answered. */
interface SignInAnswer {
	status: number;
	location: string | undefined;
	contentType: string | undefined;
	body: string;
}

/**
 * Opens the consent URL as a browser would (the sign-in page), and posts its form with the user's
 * name and password (and `allowed=false` for Cancel). Returns the library's answer, unfollowed.
 */
export async function signIn(
	browser: Client,
	consentUrl: string,
	fields: Record<string, string> = NODE_OAUTH_USER
): Promise<SignInAnswer> {
	const page = await browser.fetch(consentUrl, { headers: { accept: 'text/html' } });
	if (page.res.status !== 200 || !/type="password"/.test(page.body))
		throw new Error(
			`no sign-in page at ${consentUrl} (${page.res.status}): ${page.body.slice(0, 300)}`
		);
	const action = /<form[^>]*action="([^"]+)"/.exec(page.body)?.[1];
	if (!action) throw new Error(`no form on the sign-in page: ${page.body.slice(0, 300)}`);
	// The consent request's query has only `&` to escape (its values are percent-encoded).
	const target = new URL(action.replaceAll('&amp;', '&'), consentUrl);
	const post = await browser.fetch(target.toString(), {
		method: 'POST',
		body: new URLSearchParams(fields),
		headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
	});
	return {
		status: post.res.status,
		location: post.res.headers.get('location') ?? undefined,
		contentType: post.res.headers.get('content-type') ?? undefined,
		body: post.body
	};
}
