/**
 * A refused redirect URI from servers this project did not write, over real HTTP through "Check the
 * consent URL": oidc-provider with a client registered one trailing slash away, and a loopback
 * look-alike that answers the consent URL as each real server in tests/helpers/redirect-refusals.ts
 * does (its page, its JSON or its redirect, in its words). Every refusal names the difference from
 * "Redirect URI as registered" and the fix; no answer that merely mentions redirect_uri gets a
 * redirect-URI finding. The page warns of the difference right after Save. A server that asks for
 * a sign-in first (django-oauth-toolkit's login redirect, an express-oauth-server sign-in page) is
 * said to have judged nothing yet; one that sends an unknown client to an error page of its own
 * (Better Auth, eSignet) is said to have refused it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client } from '../helpers/client';
import { listen } from '../helpers/listen';
import { OIDC_CLIENT_ID, oidcClient, startOidcProvider, type OidcServer } from '../helpers/oidc';
import { NEGATIVES, POSITIVES, fill, type RefusalFixture } from '../helpers/redirect-refusals';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
let oidc: OidcServer;
let lookAlike: http.Server;
let lookAlikeUrl: string;
const FIXTURES = [...POSITIVES, ...NEGATIVES];
const ERROR_PAGES = [
	{
		server: 'Better Auth',
		path: '/api/auth/oauth2/authorize',
		location: '/api/auth/error?error=invalid_client&error_description=client_id%20is%20required',
		codes: ['unknown-client'],
		words:
			/^The service does not know client_id "nope"\. The service said: "client_id is required"\.$/
	},
	{
		server: 'eSignet',
		path: '/v1/esignet/oauth2/authorize',
		location: '/error?errorCode=server_error&errorMessage=Failed+to+process+authorization+request',
		codes: ['server_error'],
		words:
			/^The service refused the consent URL: it sends the browser to http:\/\/127\.0\.0\.1:\d+\/error, its own error page, with error "server_error"\. The service said: "Failed to process authorization request"\.$/
	}
];

beforeAll(async () => {
	const port = await freePort();
	oidc = await startOidcProvider({
		clients: [oidcClient([`http://127.0.0.1:${port}/callback/`])]
	});
	// The look-alike answers /authorize as the fixture whose index is the client_id.
	lookAlike = http.createServer((req, res) => {
		const u = new URL(req.url!, lookAlikeUrl);
		// Servers that ask for a sign-in before they judge the request, whatever it holds:
		// django-oauth-toolkit's LoginRequiredMixin (a redirect to LOGIN_URL with `next=`), and an
		// express-oauth-server app whose authorize route renders its sign-in form.
		if (u.pathname === '/o/authorize/') {
			const next = encodeURIComponent(u.pathname + u.search);
			res.writeHead(302, { location: `/accounts/login/?next=${next}` }).end();
			return;
		}
		if (u.pathname === '/oauth/authorize') {
			res
				.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
				.end(
					'<!DOCTYPE html><html><head><title>Login</title></head><body><h1>Login</h1><form method="post" action="/login"><input type="text" name="username"><input type="password" name="password"><button>Login</button></form></body></html>'
				);
			return;
		}
		// Servers that send an unknown client to an error page of their own: Better Auth (its
		// /api/auth/error, "client_id is required"), eSignet (its /error, errorCode and errorMessage).
		const errorPage = ERROR_PAGES.find((e) => e.path === u.pathname);
		if (errorPage) {
			res.writeHead(302, { location: errorPage.location }).end();
			return;
		}
		const f = FIXTURES[Number(u.searchParams.get('client_id'))];
		if (u.pathname !== '/authorize' || !f) {
			res.writeHead(404).end();
			return;
		}
		const values = {
			uri: u.searchParams.get('redirect_uri') ?? '',
			registered: `http://127.0.0.1:${port}/callback/`,
			origin: lookAlikeUrl
		};
		const headers: Record<string, string> = {};
		if (f.contentType) headers['content-type'] = f.contentType;
		if (f.location) headers.location = fill(f.location, values);
		res.writeHead(f.status, headers).end(f.body ? fill(f.body, values) : '');
	});
	lookAlikeUrl = (await listen(lookAlike)).url;
	srv = await startServer({}, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
	await new Promise((ok) => lookAlike?.close(ok));
});

/** Saves a setup for `authorization` with the registered URI one trailing slash away, and checks. */
async function checkAgainst(
	c: Client,
	authorization: string,
	clientId: string,
	registered = `${srv.url}/callback/`
): Promise<Exchange> {
	const saved = await c.action('setup', {
		base_url: new URL(authorization).origin,
		client_id: clientId,
		client_secret: 'any-secret',
		scope: 'openid',
		redirect_uri: `${srv.url}/callback`,
		registered_redirect_uri: registered,
		authorization_endpoint: authorization,
		token_endpoint: new URL('/token', authorization).href,
		auto_exchange: 'true'
	});
	expect(saved.type).toBe('success');
	const r = await c.action('check');
	return (r.data.exchanges as Exchange[])[0]!;
}

const TRAILING_SLASH = () =>
	`It was registered with a trailing slash: \`${srv.url}/callback/\`; send exactly that, or add \`${srv.url}/callback\` to the registration.`;

describe('oidc-provider, the redirect URI one trailing slash away', () => {
	test('the check names the difference and the fix, for certain (its invalid_redirect_uri page)', async () => {
		const ex = await checkAgainst(
			new Client(srv.url),
			oidc.endpoints.authorization,
			OIDC_CLIENT_ID
		);
		expect(ex.response!.status).toBe(400);
		expect(ex.response!.body).toContain('invalid_redirect_uri');
		expect(ex.findings.filter((f) => f.level === 'error')).toHaveLength(1);
		const [f] = ex.findings;
		expect(f).toMatchObject({ level: 'error', code: 'redirect_uri_mismatch' });
		expect(f!.message).toContain('with the error invalid_redirect_uri');
		expect(f!.fix).toBe(TRAILING_SLASH());
	});

	test('right after Save, the page warns that the URI sent is not the one registered', async () => {
		const c = new Client(srv.url);
		await checkAgainst(c, oidc.endpoints.authorization, OIDC_CLIENT_ID);
		const html = await c.page();
		const warning = /<p[^>]*data-testid="redirect-refusal"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1];
		expect(warning).toContain('the service will most likely show an error page');
		expect(warning).toContain(`<code>${srv.url}/callback/</code>`);
	});

	test('no warning when the two are the same', async () => {
		const c = new Client(srv.url);
		await checkAgainst(c, oidc.endpoints.authorization, OIDC_CLIENT_ID, `${srv.url}/callback`);
		expect(await c.page()).not.toContain('data-testid="redirect-refusal"');
	});
});

describe('look-alikes of other real servers', () => {
	const cases = (list: RefusalFixture[]) =>
		list.map((f) => [f.server, FIXTURES.indexOf(f)] as const);

	test.each(cases(POSITIVES))('%s: the refusal names the difference and the fix', async (_, i) => {
		const f = FIXTURES[i]!;
		const ex = await checkAgainst(new Client(srv.url), `${lookAlikeUrl}/authorize`, String(i));
		const errors = ex.findings.filter((x) => x.level === 'error');
		expect(errors).toHaveLength(1);
		expect(errors[0]!.code).toBe(
			f.expect!.strength === 'certain' ? 'redirect_uri_mismatch' : 'redirect-uri-likely-refused'
		);
		expect(errors[0]!.fix).toContain(TRAILING_SLASH());
	});

	test.each(cases(NEGATIVES))('%s: no redirect-URI finding', async (_, i) => {
		const ex = await checkAgainst(new Client(srv.url), `${lookAlikeUrl}/authorize`, String(i));
		expect(ex.response).toBeDefined();
		expect(ex.findings.map((x) => x.code)).not.toContain('redirect_uri_mismatch');
		expect(ex.findings.map((x) => x.code)).not.toContain('redirect-uri-likely-refused');
	});
});

describe('a server that sends an unknown client to an error page of its own', () => {
	test.each(ERROR_PAGES.map((e) => [e.server, e] as const))(
		'%s: refused, never "accepted"',
		async (_, e) => {
			const ex = await checkAgainst(
				new Client(srv.url),
				new URL(e.path, lookAlikeUrl).href,
				'nope'
			);
			const errors = ex.findings.filter((f) => f.level === 'error');
			expect(errors.map((f) => f.code)).toEqual(e.codes);
			expect(errors[0]!.message).toMatch(e.words);
			expect(JSON.stringify(ex.findings)).not.toContain('accepted');
		}
	);
});

describe('a server that asks for a sign-in before it judges the request', () => {
	test.each([
		['django-oauth-toolkit (a redirect to its login URL)', '/o/authorize/'],
		['an express-oauth-server app (its sign-in page)', '/oauth/authorize']
	])('%s: not judged yet, never "accepted", for an unknown client', async (_, path) => {
		const ex = await checkAgainst(
			new Client(srv.url),
			new URL(path, lookAlikeUrl).href,
			'dot-nope'
		);
		expect(ex.findings.map((f) => [f.code, f.level])).toEqual([['sign-in-first', 'warning']]);
		expect(ex.findings[0]!.message).toContain(
			`Not judged yet: ${new URL(lookAlikeUrl).host} asks the user to sign in first`
		);
		expect(JSON.stringify(ex.findings)).not.toContain('accepted');
	});
});
