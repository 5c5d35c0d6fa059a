// The sandbox's own pages (/sandbox and /sandbox/landing) and its start-up configuration check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { startSandbox } from './sandbox-helpers';

let srv: TestServer;
beforeAll(async () => {
	srv = await startSandbox({
		// A reuse window, so that the page is seen saying it (docs/sandbox.md).
		SANDBOX_REFRESH_REUSE_SECONDS: '90',
		SANDBOX_CLIENTS: JSON.stringify([
			{
				client_id: 'listed-app',
				client_secret: 'never-shown-secret',
				redirect_uris: ['https://app.example.test/cb'],
				default_scope: 'read'
			}
		])
	});
});
afterAll(() => srv?.stop());

describe('/sandbox', () => {
	it('describes the base URL, clients with secrets, scopes, lifetimes and endpoints, and links back', async () => {
		const res = await fetch(`${srv.url}/sandbox`);
		expect(res.status).toBe(200);
		const html = await res.text();
		expect(html).toContain(`${srv.url}/sandbox`);
		for (const s of [
			'sandbox-rw',
			'sandbox-rw-secret',
			'sandbox-ro',
			'sandbox-ro-secret',
			'sandbox-short',
			'sandbox-short-secret'
		])
			expect(html).toContain(s);
		expect(html).toContain(`${srv.url}/sandbox/oauth2/auth`);
		expect(html).toContain(`${srv.url}/sandbox/oauth2/token`);
		expect(html).toContain(`${srv.url}/sandbox/reader/api/0/`);
		expect(html).toContain('read write');
		expect(html).toContain('1 hour');
		expect(html).toContain('5 seconds');
		expect(html).toContain('user-info');
		expect(html).toContain('edit-tag');
		expect(html).toMatch(/<a href="\/"/);
		expect(html).toContain('listed-app');
		expect(html).not.toContain('never-shown-secret');
		// The refresh token's reuse window, as SANDBOX_REFRESH_REUSE_SECONDS sets it.
		expect(html.replace(/\s+/g, ' ')).toContain(
			'the one it replaced is accepted again for 90 seconds after it was replaced'
		);
	});
});

describe('/sandbox/landing', () => {
	it('shows the full URL and the parsed query parameters, escaped', async () => {
		const url = `${srv.url}/sandbox/landing?code=abc123&state=${encodeURIComponent('<script>alert(1)</script>')}`;
		const res = await fetch(url);
		expect(res.status).toBe(200);
		const html = await res.text();
		expect(html).toContain('Paste this URL back into the playground (paste-back mode).');
		expect(html).toMatch(/<textarea[^>]*readonly[^>]*>/);
		expect(html).toContain(url.replace(/&/g, '&amp;'));
		expect(html).toContain('<td><code>code</code></td><td><code>abc123</code></td>');
		expect(html).toContain(
			'<td><code>state</code></td><td><code>&lt;script>alert(1)&lt;/script></code></td>'
		);
		expect(html).not.toContain('<script>alert(1)');
		expect(html).toMatch(/<button[^>]*type="button"[^>]*>Copy URL<\/button>/);
	});

	it('says when there are no parameters', async () => {
		const html = await (await fetch(`${srv.url}/sandbox/landing`)).text();
		expect(html).toContain('The URL has no query parameters.');
	});
});

describe('start-up check of the sandbox configuration', () => {
	it('refuses to start on a bad SANDBOX_CLIENTS, naming the entry and the field', async () => {
		const bad = JSON.stringify([
			{ client_id: 'x', client_secret: 'y', redirect_uris: ['not-a-url'], default_scope: 'read' }
		]);
		await expect(startServer({ SANDBOX_CLIENTS: bad })).rejects.toThrow(
			/SANDBOX_CLIENTS \(inline JSON\): entry 0 \(client_id "x"\): field redirect_uris\[0\]/
		);
	});

	it('refuses to start on a bad number', async () => {
		await expect(startServer({ SANDBOX_ACCESS_TTL: 'ten' })).rejects.toThrow(
			/SANDBOX_ACCESS_TTL must be a positive whole number/
		);
	});
});
