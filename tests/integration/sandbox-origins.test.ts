// Which redirect URIs the built-in clients have: /callback and /sandbox/landing on the request's
// origin and its loopback twin (same scheme, same port), and on the ORIGIN variable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { authUrl } from './sandbox-helpers';

function consent(srv: TestServer, redirect_uri: string, headers: Record<string, string> = {}) {
	return fetch(
		authUrl(srv, { client_id: 'sandbox-ro', redirect_uri, response_type: 'code', state: 's' }),
		{ redirect: 'manual', headers }
	);
}

describe('without ORIGIN: the origin of the request', () => {
	let srv: TestServer;
	let port: number;
	beforeAll(async () => {
		port = await freePort();
		// The test client stands for the proxy, whose protocol header is believed.
		srv = await startServer(
			{ PROTOCOL_HEADER: 'x-forwarded-proto', PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1' },
			port
		);
	});
	afterAll(() => srv?.stop());

	it('registers /callback and /sandbox/landing on the request origin and its twin', async () => {
		const http = { 'X-Forwarded-Proto': 'http' };
		for (const uri of [
			`http://127.0.0.1:${port}/callback`,
			`http://localhost:${port}/callback`,
			`http://127.0.0.1:${port}/sandbox/landing`,
			`http://localhost:${port}/sandbox/landing`
		]) {
			expect((await consent(srv, uri, http)).status, uri).toBe(200);
		}
	});

	it('keeps the scheme and the port', async () => {
		const http = { 'X-Forwarded-Proto': 'http' };
		for (const uri of [
			`https://127.0.0.1:${port}/callback`,
			`http://127.0.0.1:${port + 1}/callback`,
			`http://localhost/callback`
		]) {
			expect((await consent(srv, uri, http)).status, uri).toBe(400);
		}
		// The same request seen as https: only the https URIs are registered.
		const https = { 'X-Forwarded-Proto': 'https' };
		expect((await consent(srv, `https://localhost:${port}/callback`, https)).status).toBe(200);
		expect((await consent(srv, `http://localhost:${port}/callback`, https)).status).toBe(400);
	});
});

describe('with ORIGIN', () => {
	let srv: TestServer;
	beforeAll(async () => {
		// The test reaches it by its address, which is not ORIGIN's host name: serve that too.
		srv = await startServer({
			ORIGIN: 'https://playground.example.test',
			PLAYGROUND_SERVED_HOSTS: '127.0.0.1'
		});
	});
	afterAll(() => srv?.stop());

	it('registers the URIs on the ORIGIN variable', async () => {
		expect((await consent(srv, 'https://playground.example.test/callback')).status).toBe(200);
		expect((await consent(srv, 'https://playground.example.test/sandbox/landing')).status).toBe(
			200
		);
		expect((await consent(srv, 'http://playground.example.test/callback')).status).toBe(400);
		expect((await consent(srv, 'https://localhost/callback')).status).toBe(400);
	});
});
