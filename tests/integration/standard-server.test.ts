/**
 * Beyond the sandbox: a plain RFC 6749 server that adds `iss` to the callback, orders scope words
 * differently, says "bearer" in lower case, and puts extra fields in the token response. The flow
 * must go through, with the extras shown and nothing fatal.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import http from 'node:http';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';
import { listen } from '../helpers/listen';

let srv: TestServer;
let provider: http.Server;
let providerUrl: string;
const seen: { path: string; body: string; auth?: string }[] = [];

beforeAll(async () => {
	provider = http.createServer((req, res) => {
		let body = '';
		req.on('data', (d) => (body += d));
		req.on('end', () => {
			const u = new URL(req.url!, 'http://x');
			seen.push({ path: u.pathname, body, auth: req.headers.authorization });
			if (u.pathname === '/oauth2/auth') {
				const back = new URL(u.searchParams.get('redirect_uri')!);
				back.searchParams.set('code', 'std-code-1');
				back.searchParams.set('state', u.searchParams.get('state')!);
				back.searchParams.set('iss', providerUrl);
				res.writeHead(302, { location: back.toString() }).end();
			} else if (u.pathname === '/oauth2/token') {
				const f = new URLSearchParams(body);
				const ok =
					f.get('client_secret') === 'std-secret' &&
					(f.get('code') === 'std-code-1' || f.get('grant_type') === 'refresh_token');
				res.writeHead(ok ? 200 : 400, {
					'content-type': 'application/json;charset=UTF-8',
					'cache-control': 'no-store'
				});
				res.end(
					JSON.stringify(
						ok
							? {
									access_token: 'std-access-' + seen.length,
									token_type: 'bearer',
									expires_in: 3600,
									scope: 'write read',
									id_token: 'not-a-jwt',
									issued_token_type: 'urn:x',
									refresh_token: 'std-refresh-' + seen.length
								}
							: { error: 'invalid_grant' }
					)
				);
			} else if (u.pathname === '/reader/api/0/user-info') {
				res.writeHead(req.headers.authorization?.startsWith('Bearer std-access-') ? 200 : 401, {
					'content-type': 'application/json'
				});
				res.end(JSON.stringify({ userId: '7', userName: 'Std', extraField: true }));
			} else res.writeHead(404).end();
		});
	});
	providerUrl = (await listen(provider)).url;
	srv = await startServer();
});
afterAll(async () => {
	await srv?.stop();
	await new Promise<void>((ok) => provider.close(() => ok()));
});

test('the whole flow against a standard server with extras', async () => {
	const c = new Client(srv.url);
	const saved = await c.action('setup', {
		base_url: providerUrl,
		client_id: 'std-app',
		client_secret: 'std-secret',
		scope: 'read write',
		redirect_uri: `${srv.url}/callback`,
		auto_exchange: 'true'
	});
	expect(saved.type).toBe('success');
	const consent = await c.fetch(consentUrlFrom(await c.page()));
	expect(consent.res.status).toBe(302);
	await c.fetch(consent.res.headers.get('location')!);
	const page = await c.page();
	expect(page).toContain('data-verdict="code"');
	expect(page).toContain('Issuer identifier (RFC 9207)');

	const ex = await c.action('exchange');
	const [tokenEx] = ex.data.exchanges as Exchange[];
	expect(tokenEx!.response!.status).toBe(200);
	const codes = tokenEx!.findings.map((f) => f.code);
	expect(codes).not.toContain('scope-differs');
	expect(codes).toContain('extra-fields');
	expect(tokenEx!.findings.filter((f) => f.level === 'error')).toEqual([]);
	const withTokens = await c.page();
	expect(withTokens).toContain('id_token');
	expect(withTokens).toContain('issued_token_type');
	expect(withTokens).not.toContain('data-testid="scope-differs"');

	const ui = await c.action('userinfo');
	expect((ui.data.exchanges as Exchange[])[0]!.response!.status).toBe(200);
	const rf = await c.action('refresh');
	expect((rf.data.exchanges as Exchange[])[0]!.response!.status).toBe(200);
	// The seed's form fields went to the standard server, secret included, scope empty.
	const tokenBody = new URLSearchParams(seen.find((s) => s.path === '/oauth2/token')!.body);
	expect([...tokenBody.keys()]).toEqual([
		'code',
		'redirect_uri',
		'client_id',
		'client_secret',
		'scope',
		'grant_type'
	]);
	expect(tokenBody.get('scope')).toBe('');
	for (const s of c.seen) expect(s.body).not.toContain('std-secret');
});
