/**
 * "Fill from metadata" through the built playground: oidc-provider's document (found at OpenID
 * Connect Discovery's URL after RFC 8414's answers 404), the sandbox (no metadata: the documented
 * endpoints stay), a document whose issuer is another (refused, nothing filled, no fallback), a
 * discover post that carries a client secret (not read, not sent), and a document that echoes the
 * saved secret (redacted before the values that fill the form leave the server).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import http from 'node:http';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client } from '../helpers/client';
import {
	OIDC_CLIENT_ID,
	OIDC_CLIENT_SECRET,
	oidcClient,
	startOidcProvider,
	type OidcServer
} from '../helpers/oidc';
import type { Exchange } from '../../src/lib/exchange/types';
import { listen } from '../helpers/listen';

let srv: TestServer;
let oidc: OidcServer;

beforeAll(async () => {
	const port = await freePort();
	oidc = await startOidcProvider({ clients: [oidcClient([`http://127.0.0.1:${port}/callback`])] });
	srv = await startServer({}, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
});

const exchanges = (r: { data: Record<string, unknown> }): Exchange[] =>
	(r.data.exchanges as Exchange[]) ?? [];

/** A metadata server that answers every GET with the JSON `doc(origin)`. */
function documentServer(doc: (origin: string) => object, seen: string[] = []) {
	return http.createServer((req, res) => {
		seen.push(req.url ?? '');
		const body = JSON.stringify(doc(`http://${req.headers.host}`));
		res
			.writeHead(200, {
				'Content-Type': 'application/json',
				'Content-Length': Buffer.byteLength(body)
			})
			.end(body);
	});
}

test('oidc-provider: RFC 8414’s URL answers 404, OpenID Connect’s gives the document, and the values fill the form', async () => {
	const c = new Client(srv.url);
	const r = await c.action('discover', { base_url: oidc.issuer, issuer: '' });
	expect(r.type).toBe('success');
	const [first, second] = exchanges(r);
	expect(first!.step).toBe('discovery');
	expect(first!.request.url).toBe(`${oidc.origin}/.well-known/oauth-authorization-server/oidc`);
	expect(first!.response!.status).toBe(404);
	expect(second!.request.url).toBe(oidc.endpoints.discovery);
	expect(second!.response!.status).toBe(200);
	expect(second!.findings.map((f) => f.code)).toContain('metadata-found');
	expect(r.data.discovery).toMatchObject({
		outcome: 'found',
		values: {
			issuer: oidc.issuer,
			authorization_endpoint: oidc.endpoints.authorization,
			token_endpoint: oidc.endpoints.token,
			userinfo_endpoint: oidc.endpoints.userinfo,
			jwks_uri: oidc.endpoints.jwks,
			token_endpoint_auth_method: 'client_secret_post',
			pkce: 'S256'
		},
		issParam: true
	});
	expect((r.data.discovery as { scopes: string[] }).scopes).toEqual(
		expect.arrayContaining(['openid', 'read'])
	);
});

test('the sandbox publishes no metadata: one line says so, and nothing is filled', async () => {
	const c = new Client(srv.url);
	const r = await c.action('discover', { base_url: `${srv.url}/sandbox`, issuer: '' });
	expect(r.type).toBe('success');
	expect(r.data.discovery).toEqual({ outcome: 'none' });
	const all = exchanges(r);
	expect(all).toHaveLength(2);
	expect(all.at(-1)!.findings.map((f) => f.code)).toEqual(
		expect.arrayContaining(['metadata-none'])
	);
});

test('a document whose issuer is another is refused: nothing filled, and the second URL is not tried', async () => {
	const seen: string[] = [];
	const fake = documentServer(
		() => ({ issuer: 'https://evil.test', token_endpoint: 'https://evil.test/token' }),
		seen
	);
	const fakeAt = await listen(fake);
	try {
		const base = `${fakeAt.url}/as`;
		const r = await new Client(srv.url).action('discover', { base_url: base, issuer: '' });
		expect(r.data.discovery).toEqual({ outcome: 'refused' });
		const all = exchanges(r);
		expect(all).toHaveLength(1);
		expect(all[0]!.findings.map((f) => f.code)).toContain('metadata-issuer-mismatch');
		expect(seen).toEqual(['/.well-known/oauth-authorization-server/as']);
	} finally {
		await new Promise<void>((ok) => fake.close(() => ok()));
	}
});

test('a discover post that carries a client secret: it is not read, not sent, and nothing is saved', async () => {
	const c = new Client(srv.url);
	const before = await c.page();
	const r = await c.action('discover', {
		base_url: oidc.issuer,
		issuer: '',
		client_secret: OIDC_CLIENT_SECRET,
		client_id: OIDC_CLIENT_ID
	});
	expect(r.type).toBe('success');
	for (const ex of exchanges(r)) {
		expect(JSON.stringify(ex.request)).not.toContain(OIDC_CLIENT_SECRET);
		expect(ex.request.headers.some(([n]) => n.toLowerCase() === 'authorization')).toBe(false);
	}
	const after = await c.page();
	expect(after).not.toContain('A secret is set');
	expect(before).not.toContain('A secret is set');
});

test('a document that echoes the saved client secret: the values that fill the form carry it redacted, never in the answer', async () => {
	const secret = 'metadata-echo-secret-4711';
	const fake = documentServer((origin) => ({
		issuer: `${origin}/as`,
		authorization_endpoint: `${origin}/authorize`,
		token_endpoint: `${origin}/token`,
		userinfo_endpoint: `${origin}/userinfo/${secret}`
	}));
	const fakeAt = await listen(fake);
	try {
		const c = new Client(srv.url);
		const base = `${fakeAt.url}/as`;
		const saved = await c.action('setup', {
			base_url: base,
			client_id: 'echo-app',
			client_secret: secret,
			scope: 'read',
			redirect_uri: `${srv.url}/callback`
		});
		expect(saved.type, JSON.stringify(saved.data)).toBe('success');
		c.seen.length = 0;
		const r = await c.action('discover', { base_url: base, issuer: '' });
		expect(r.type).toBe('success');
		expect(r.data.discovery).toMatchObject({
			outcome: 'found',
			values: { userinfo_endpoint: `${fakeAt.url}/userinfo/<redacted>` }
		});
		expect(c.seen.map((s) => s.body).join('\n')).not.toContain(secret);
	} finally {
		await new Promise<void>((ok) => fake.close(() => ok()));
	}
});

test('without a base URL or an issuer: a 400 naming the field', async () => {
	const r = await new Client(srv.url).action('discover', { base_url: '', issuer: '' });
	expect(r.type).toBe('failure');
	expect(r.status).toBe(400);
	expect(r.data.field).toBe('base_url');
});
