/**
 * The post/Basic finding end to end: a loopback token endpoint that, like many servers, accepts only
 * the method the client is registered with (here client_secret_post) and answers 401 invalid_client
 * ("client authentication failed") to HTTP Basic; its metadata lists client_secret_post only. The
 * consent comes from the sandbox; the exchange goes to this endpoint. With the metadata fetched, the
 * finding names the method; without it, nothing points to the method, and the one finding is the
 * refused client.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import http from 'node:http';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';
import { listen } from '../helpers/listen';

let srv: TestServer;
let token: http.Server;
let tokenUrl: string;
let tokenAt: { url: string };
const seen: { auth?: string; body: string }[] = [];

beforeAll(async () => {
	srv = await startServer({}, await freePort());
	token = http.createServer((req, res) => {
		let body = '';
		req.on('data', (c: Buffer) => (body += c.toString('utf8')));
		req.on('end', () => {
			if (req.url === '/.well-known/oauth-authorization-server') {
				const doc = JSON.stringify({
					issuer: tokenAt.url,
					authorization_endpoint: `${tokenAt.url}/authorize`,
					token_endpoint: tokenUrl,
					token_endpoint_auth_methods_supported: ['client_secret_post']
				});
				res.writeHead(200, { 'Content-Type': 'application/json' }).end(doc);
				return;
			}
			seen.push({ auth: req.headers.authorization, body });
			const basic = !!req.headers.authorization;
			const answer = basic
				? { error: 'invalid_client', error_description: 'client authentication failed' }
				: { access_token: 'at-from-post-only', token_type: 'Bearer', expires_in: 60 };
			const text = JSON.stringify(answer);
			res
				.writeHead(basic ? 401 : 200, {
					'Content-Type': 'application/json',
					'Content-Length': Buffer.byteLength(text)
				})
				.end(text);
		});
	});
	tokenAt = await listen(token);
	tokenUrl = `${tokenAt.url}/token`;
});
afterAll(async () => {
	await srv?.stop();
	await new Promise<void>((ok) => token.close(() => ok()));
});

async function exchangeWith(method: string, { metadata = true } = {}): Promise<Exchange> {
	const c = new Client(srv.url);
	// "Fill from metadata" for the token endpoint's server: what it lists is kept with the flow.
	if (metadata)
		expect(
			(
				await c.action('discover', {
					base_url: tokenAt.url,
					token_endpoint_auth_method: 'client_secret_post',
					pkce: 'off'
				})
			).type
		).toBe('success');
	const saved = await c.action('setup', {
		base_url: `${srv.url}/sandbox`,
		client_id: 'sandbox-rw',
		client_secret: 'sandbox-rw-secret',
		scope: 'read',
		redirect_uri: `${srv.url}/callback`,
		token_endpoint: tokenUrl,
		token_endpoint_auth_method: method
	});
	expect(saved.type).toBe('success');
	await c.fetch(await decide(c, consentUrlFrom(await c.page())));
	return ((await c.action('exchange')).data.exchanges as Exchange[])[0]!;
}

test('Basic to a post-only server: 401 invalid_client, and the one error finding names Basic, the metadata, the encoding bug and post', async () => {
	const ex = await exchangeWith('client_secret_basic');
	expect(ex.response!.status).toBe(401);
	expect(seen.at(-1)!.auth).toMatch(/^Basic /);
	expect(ex.findings.filter((x) => x.level === 'error').map((x) => x.code)).toEqual([
		'client-auth-method'
	]);
	const f = ex.findings.find((x) => x.code === 'client-auth-method')!;
	expect(f.message).toContain('client_secret_basic');
	expect(f.message).toContain("the server's metadata lists client_secret_post");
	expect(f.message).toContain('form-encoded before base64');
	expect(f.fix).toContain('client_secret_post');
});

test('the same refusal without the metadata: nothing points to the method, and the one finding is the refused client', async () => {
	const ex = await exchangeWith('client_secret_basic', { metadata: false });
	expect(ex.response!.status).toBe(401);
	expect(ex.findings.filter((x) => x.level === 'error').map((x) => x.code)).toEqual([
		'invalid_client'
	]);
});

test('post to the same server: accepted, the secret in the body and no Authorization header', async () => {
	const ex = await exchangeWith('client_secret_post');
	expect(ex.response!.status).toBe(200);
	expect(seen.at(-1)!.auth).toBeUndefined();
	expect(new URLSearchParams(seen.at(-1)!.body).get('client_secret')).toBe('sandbox-rw-secret');
	expect(ex.findings.map((x) => x.code)).not.toContain('client-auth-method');
});
