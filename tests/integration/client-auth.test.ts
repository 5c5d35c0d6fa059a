/**
 * Client authentication (RFC 6749 §2.3.1) and PKCE (RFC 7636) through the built playground, against
 * oidc-provider, a server this project did not write: a client registered for HTTP Basic whose
 * secret needs form-encoding, a client that requires PKCE, and a public client. The wrong method,
 * and PKCE left off, get findings that say so; the public client completes with no secret anywhere
 * on the wire.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';
import {
	OIDC_SCOPE,
	oidcClient,
	signInAndConsent,
	startOidcProvider,
	type OidcServer
} from '../helpers/oidc';
import type { Exchange } from '../../src/lib/exchange/types';

/**
 * A secret that HTTP Basic must form-encode: `:`, `%`, `+`, a space, `/`, `=`, `~`. oidc-provider
 * holds only VSCHAR secrets (RFC 6749 Appendix A.2: %x20-7E), so non-ASCII is proven in the unit
 * tests instead.
 */
const BASIC_SECRET = 'b:a%s+i c/=~?';
const POST_SECRET = 'post-Secret-4Rt7';

let srv: TestServer;
let oidc: OidcServer;

beforeAll(async () => {
	const port = await freePort();
	const redirect = [`http://127.0.0.1:${port}/callback`];
	oidc = await startOidcProvider({
		clients: [
			oidcClient(redirect, {
				client_id: 'oidc-basic',
				client_secret: BASIC_SECRET,
				token_endpoint_auth_method: 'client_secret_basic'
			}),
			oidcClient(redirect, { client_id: 'oidc-pkce', client_secret: POST_SECRET }),
			oidcClient(redirect, {
				client_id: 'oidc-public',
				client_secret: undefined,
				token_endpoint_auth_method: 'none'
			})
		],
		configuration: {
			pkce: {
				required: (_ctx, client) =>
					client.clientId === 'oidc-pkce' || client.clientAuthMethod === 'none'
			}
		}
	});
	srv = await startServer({}, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
});

const exchanges = (r: { data: Record<string, unknown> }): Exchange[] =>
	(r.data.exchanges as Exchange[]) ?? [];
const codes = (ex: Exchange | undefined) => (ex?.findings ?? []).map((f) => f.code);

function setUp(c: Client, client_id: string, secret: string, fields: Record<string, string>) {
	return c.action('setup', {
		base_url: oidc.issuer,
		client_id,
		client_secret: secret,
		scope: OIDC_SCOPE,
		redirect_uri: `${srv.url}/callback`,
		authorization_endpoint: oidc.endpoints.authorization,
		token_endpoint: oidc.endpoints.token,
		userinfo_endpoint: oidc.endpoints.userinfo,
		...fields
	});
}

/** Setup, consent on the provider, back: the page then holds a code (or the error the provider sent). */
async function consented(c: Client, id: string, secret: string, fields: Record<string, string>) {
	const saved = await setUp(c, id, secret, fields);
	expect(saved.type).toBe('success');
	const back = await signInAndConsent(new Client(oidc.origin), consentUrlFrom(await c.page()));
	expect((await c.fetch(back)).res.status).toBe(303);
	return new URL(back);
}

test('client_secret_basic: the form-encoded secret is accepted, and the token works', async () => {
	const c = new Client(srv.url);
	await consented(c, 'oidc-basic', BASIC_SECRET, {
		token_endpoint_auth_method: 'client_secret_basic'
	});
	const [ex] = exchanges(await c.action('exchange'));
	expect(ex!.response!.status).toBe(200);
	const auth = ex!.request.headers.find(([n]) => n === 'Authorization');
	expect(auth?.[1]).toMatch(/^Basic /);
	expect(ex!.request.body).not.toContain('client_secret');
	expect(ex!.request.body).not.toContain('client_id');
	const [ui] = exchanges(await c.action('userinfo'));
	expect(ui!.response!.status).toBe(200);
	for (const s of c.seen) expect(s.body + s.headers).not.toContain(BASIC_SECRET);
});

test('the wrong method: a confidential client sent as public is named; a public client sent with a secret gets one finding, the refused client', async () => {
	// oidc-provider 9 takes client_secret_post and client_secret_basic for each other
	// (lib/shared/client_auth.js), so the methods it refuses are the confidential/public ones.
	const a = new Client(srv.url);
	await consented(a, 'oidc-basic', '', { token_endpoint_auth_method: 'none', pkce: 'S256' });
	const [none] = exchanges(await a.action('exchange'));
	expect(none!.response!.status).toBe(401);
	expect(JSON.parse(none!.response!.body)).toMatchObject({ error: 'invalid_client' });
	expect(codes(none)).toContain('public-client-refused');

	const b = new Client(srv.url);
	await consented(b, 'oidc-public', 'a-secret-for-a-public-client', {
		token_endpoint_auth_method: 'client_secret_basic',
		pkce: 'S256'
	});
	const [basic] = exchanges(await b.action('exchange'));
	expect(basic!.response!.status).toBe(401);
	// oidc-provider says only "client authentication failed", and its metadata lists Basic (for
	// other clients): nothing points to the method, so the one finding is the refused client,
	// whose fix names the registration's method last.
	const errors = basic!.findings.filter((x) => x.level === 'error');
	expect(errors.map((x) => x.code)).toEqual(['invalid_client']);
	expect(errors[0]!.fix).toContain('token_endpoint_auth_method, and whether it is a public client');
});

test('a client that requires PKCE: off, the consent is refused and the finding says to turn it on; S256 completes', async () => {
	const off = new Client(srv.url);
	const saved = await setUp(off, 'oidc-pkce', POST_SECRET, {});
	expect(saved.type).toBe('success');
	const back = new URL(
		await signInAndConsent(new Client(oidc.origin), consentUrlFrom(await off.page()))
	);
	expect(back.searchParams.get('error')).toBe('invalid_request');
	// The same redirect pasted back: its one error finding is the precise one, PKCE, alone.
	const pasted = new Client(srv.url);
	await setUp(pasted, 'oidc-pkce', POST_SECRET, {});
	const again = new URL(
		await signInAndConsent(new Client(oidc.origin), consentUrlFrom(await pasted.page()))
	);
	const [callback] = exchanges(await pasted.action('pasteback', { pasted: again.toString() }));
	expect(callback!.findings.filter((f) => f.level === 'error').map((f) => f.code)).toEqual([
		'pkce-required'
	]);
	await off.fetch(back.toString());
	expect(await off.page()).toContain('The server requires PKCE for this client');

	const on = new Client(srv.url);
	const ok = await consented(on, 'oidc-pkce', POST_SECRET, { pkce: 'S256' });
	expect(ok.searchParams.get('code')).toBeTruthy();
	const [ex] = exchanges(await on.action('exchange'));
	expect(ex!.response!.status).toBe(200);
	expect(new URLSearchParams(ex!.request.body).get('code_verifier')).toMatch(/^[\w-]{43}$/);
});

test('a public client (none, PKCE): completes, refreshes, and no secret is on the wire even when one was typed', async () => {
	const c = new Client(srv.url);
	await consented(c, 'oidc-public', 'typed-but-never-sent-1234', {
		token_endpoint_auth_method: 'none',
		pkce: 'S256'
	});
	const [ex] = exchanges(await c.action('exchange'));
	expect(ex!.response!.status).toBe(200);
	const body = new URLSearchParams(ex!.request.body);
	expect(body.get('client_id')).toBe('oidc-public');
	expect(body.has('client_secret')).toBe(false);
	expect(ex!.request.headers.some(([n]) => n === 'Authorization')).toBe(false);
	const [rf] = exchanges(await c.action('refresh'));
	expect(rf!.response!.status).toBe(200);
	expect(new URLSearchParams(rf!.request.body).has('client_secret')).toBe(false);
	for (const s of c.seen) expect(s.body + s.headers).not.toContain('typed-but-never-sent-1234');
});

test('a public client without PKCE is refused at save: RFC 9700 says it must use it', async () => {
	const c = new Client(srv.url);
	const r = await setUp(c, 'oidc-public', '', { token_endpoint_auth_method: 'none' });
	expect(r.type).toBe('failure');
	expect(r.status).toBe(400);
	expect(JSON.stringify(r.data)).toContain('must use PKCE');
});
