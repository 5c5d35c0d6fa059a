/**
 * PKCE offline: a SANDBOX_CLIENTS registration with `require_pkce: true`, driven through the built
 * playground. Off, the sandbox redirects back with invalid_request and the finding says to turn
 * PKCE on; S256 and plain complete; a code from another consent (another challenge) fails with
 * invalid_grant and the verifier finding. A built-in client still ignores PKCE, as the service does.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
const SECRET = 'pkce-client-secret';

beforeAll(async () => {
	const port = await freePort();
	srv = await startServer(
		{
			SANDBOX_CLIENTS: JSON.stringify([
				{
					client_id: 'pkce-app',
					client_secret: SECRET,
					redirect_uris: [`http://127.0.0.1:${port}/callback`],
					default_scope: 'read',
					require_pkce: true
				}
			])
		},
		port
	);
});
afterAll(() => srv?.stop());

const exchanges = (r: { data: Record<string, unknown> }): Exchange[] =>
	(r.data.exchanges as Exchange[]) ?? [];

function setUp(c: Client, pkce: string) {
	return c.action('setup', {
		base_url: `${srv.url}/sandbox`,
		client_id: 'pkce-app',
		client_secret: SECRET,
		scope: 'read',
		redirect_uri: `${srv.url}/callback`,
		pkce
	});
}

test('PKCE off: the consent comes back with invalid_request, and the finding says to turn it on', async () => {
	const c = new Client(srv.url);
	expect((await setUp(c, 'off')).type).toBe('success');
	const location = await c.fetch(consentUrlFrom(await c.page()));
	const back = location.res.headers.get('location') ?? '';
	expect(back).toContain('error=invalid_request');
	await c.fetch(back);
	expect(await c.page()).toContain('The server requires PKCE for this client');
});

test.each(['S256', 'plain'])(
	'%s: the flow completes, with the verifier in the exchange',
	async (method) => {
		const c = new Client(srv.url);
		expect((await setUp(c, method)).type).toBe('success');
		await c.fetch(await decide(c, consentUrlFrom(await c.page())));
		const [ex] = exchanges(await c.action('exchange'));
		expect(ex!.response!.status).toBe(200);
		expect(new URLSearchParams(ex!.request.body).get('code_verifier')).toMatch(/^[\w-]{43}$/);
	}
);

test('a code from another consent (another challenge): invalid_grant, and the finding names the verifier', async () => {
	const c = new Client(srv.url);
	expect((await setUp(c, 'S256')).type).toBe('success');
	// A second tab's consent, with its own challenge: its code lands on this flow by paste-back.
	const other = new Client(srv.url);
	expect((await setUp(other, 'S256')).type).toBe('success');
	const foreign = new URL(await decide(other, consentUrlFrom(await other.page())));
	const mine = new URL(consentUrlFrom(await c.page()));
	const pasted = `${srv.url}/callback?code=${foreign.searchParams.get('code')}&state=${mine.searchParams.get('state')}`;
	const p = await c.action('pasteback', { pasted });
	expect(p.type).toBe('success');
	const [ex] = exchanges(await c.action('exchange'));
	expect(ex!.response!.status).toBe(400);
	expect(JSON.parse(ex!.response!.body)).toMatchObject({ error: 'invalid_grant' });
	expect(ex!.findings.map((f) => f.code)).toContain('pkce-mismatch');
});

test('a built-in client ignores PKCE, as the service’s API docs describe none', async () => {
	const c = new Client(srv.url);
	await c.action('preset', { preset: 'sandbox-rw' });
	const url = new URL(consentUrlFrom(await c.page()));
	url.searchParams.set('code_challenge', 'x'.repeat(43));
	url.searchParams.set('code_challenge_method', 'S256');
	await c.fetch(await decide(c, url.toString()));
	const [ex] = exchanges(await c.action('exchange'));
	expect(ex!.response!.status).toBe(200);
});

test('metadata said the issuer sends iss (RFC 9207): a redirect back without it holds the code, and says why', async () => {
	const c = new Client(srv.url);
	const issuer = `${srv.url}/sandbox`;
	// What "Fill from metadata" posts with the setup when the document advertises the iss parameter.
	const saved = await c.action('setup', {
		base_url: issuer,
		client_id: 'sandbox-rw',
		client_secret: 'sandbox-rw-secret',
		scope: 'read',
		redirect_uri: `${srv.url}/callback`,
		issuer,
		iss_parameter_supported: issuer,
		auto_exchange: 'true'
	});
	expect(saved.type).toBe('success');
	await c.fetch(await decide(c, consentUrlFrom(await c.page())));
	const page = await c.page();
	expect(page).toContain('data-issuer="not-sent"');
	expect(page).toContain('The service’s metadata says it names itself on the redirect');
	const ex = await c.action('exchange');
	expect(ex.type).toBe('failure');
	expect(ex.status).toBe(409);

	// Without the metadata's word, the same redirect is only shown as not checked, and the code goes.
	const plain = new Client(srv.url);
	await plain.action('setup', {
		base_url: issuer,
		client_id: 'sandbox-rw',
		client_secret: 'sandbox-rw-secret',
		scope: 'read',
		redirect_uri: `${srv.url}/callback`,
		issuer
	});
	await plain.fetch(await decide(plain, consentUrlFrom(await plain.page())));
	expect((await plain.action('exchange')).type).toBe('success');
});
