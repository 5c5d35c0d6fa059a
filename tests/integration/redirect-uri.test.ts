/**
 * The redirect-URI near miss over real HTTP: a SANDBOX_CLIENTS client registered for one loopback
 * host only, and the playground opened on the other. The registration check's finding names the
 * localhost/127.0.0.1 difference and the fix; the form is prefilled with the sandbox's own
 * registration; and the sandbox's error body stays exactly the service's.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, unescapeHtml } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
let port: number;

beforeAll(async () => {
	port = await freePort();
	srv = await startServer(
		{
			SANDBOX_CLIENTS: JSON.stringify([
				{
					client_id: 'localhost-only',
					client_secret: 'localhost-only-secret',
					redirect_uris: [`http://localhost:${port}/callback`],
					default_scope: 'read'
				},
				{
					client_id: 'ip-only',
					client_secret: 'ip-only-secret',
					redirect_uris: [`http://127.0.0.1:${port}/callback`],
					default_scope: 'read'
				}
			])
		},
		port
	);
});
afterAll(() => srv?.stop());

async function checkWith(base: string, client_id: string): Promise<Exchange> {
	const c = new Client(base);
	const saved = await c.action('setup', {
		base_url: `${base}/sandbox`,
		client_id,
		client_secret: `${client_id}-secret`,
		scope: 'read',
		redirect_uri: `${base}/callback`,
		auto_exchange: 'true'
	});
	expect(saved.type).toBe('success');
	const r = await c.action('check');
	return (r.data.exchanges as Exchange[])[0]!;
}

describe('a client registered for one loopback host only', () => {
	test('registered for localhost, the playground on 127.0.0.1: the check names the difference and the fix', async () => {
		const ex = await checkWith(`http://127.0.0.1:${port}`, 'localhost-only');
		expect(ex.response!.status).toBe(400);
		const [f] = ex.findings;
		expect(f).toMatchObject({ level: 'error', code: 'redirect_uri_mismatch' });
		expect(f!.fix).toBe(
			`The sandbox registered it with localhost instead of 127.0.0.1: \`http://localhost:${port}/callback\`; open the playground at \`http://localhost:${port}\` so that it sends that one, or add \`http://127.0.0.1:${port}/callback\` to the registration.`
		);
	});

	test('the reverse: registered for 127.0.0.1, the playground on localhost', async () => {
		const ex = await checkWith(`http://localhost:${port}`, 'ip-only');
		expect(ex.findings[0]!.fix).toMatch(
			new RegExp(
				`^The sandbox registered it with 127\\.0\\.0\\.1 instead of localhost: \`http://127\\.0\\.0\\.1:${port}/callback\`; open the playground at \`http://127\\.0\\.0\\.1:${port}\``
			)
		);
	});

	test("the setup form is prefilled with the sandbox's own registration of the client", async () => {
		const base = `http://127.0.0.1:${port}`;
		const c = new Client(base);
		await c.action('setup', {
			base_url: `${base}/sandbox`,
			client_id: 'localhost-only',
			client_secret: 'localhost-only-secret',
			redirect_uri: `${base}/callback`
		});
		const html = await c.page();
		const input = /<input[^>]*id="registered_redirect_uri"[^>]*>/.exec(html)?.[0];
		expect(unescapeHtml(input ?? '')).toContain(`value="http://localhost:${port}/callback"`);
		// Before consent, the consent step says the sandbox will refuse it, and why.
		const refusal = /<p[^>]*data-testid="redirect-refusal"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1];
		// Its URIs are code elements, not between backticks.
		expect(refusal).toContain(`<code>http://localhost:${port}/callback</code>`);
		const words = unescapeHtml((refusal ?? '').replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ');
		expect(words).toContain(
			`error page instead of consent. The sandbox registered it with localhost instead of 127.0.0.1: http://localhost:${port}/callback;`
		);
	});

	test('a sandbox preset fills in the registered redirect URI', async () => {
		const base = `http://127.0.0.1:${port}`;
		const c = new Client(base);
		await c.action('preset', { preset: 'sandbox-rw' });
		const html = unescapeHtml(await c.page());
		expect(/<input[^>]*id="registered_redirect_uri"[^>]*>/.exec(html)?.[0]).toContain(
			`value="${base}/callback"`
		);
		// A registered redirect URI: no warning before consent.
		expect(html).not.toContain('data-testid="redirect-refusal"');
	});
});

describe('the registered value belongs to its service', () => {
	const field = async (c: Client) =>
		unescapeHtml(/<input[^>]*id="registered_redirect_uri"[^>]*>/.exec(await c.page())?.[0] ?? '');

	test("a preset's value does not follow the setup to another service; one typed anew does", async () => {
		const base = `http://127.0.0.1:${port}`;
		const c = new Client(base);
		await c.action('preset', { preset: 'sandbox-rw' });
		const moved = {
			base_url: 'https://reader.example.test',
			client_id: 'my-app',
			client_secret: 'my-app-secret',
			redirect_uri: `${base}/callback`,
			registered_redirect_uri: `${base}/callback`
		};
		expect((await c.action('setup', moved)).type).toBe('success');
		expect(await field(c)).toContain('value=""');
		await c.action('setup', { ...moved, registered_redirect_uri: 'https://app.test/cb/' });
		expect(await field(c)).toContain('value="https://app.test/cb/"');
	});
});

describe('paste-back: an error=redirect_uri_mismatch sent back to the application', () => {
	test("compared with the setup's value; the application's own /callback is not taken for the playground's", async () => {
		const c = new Client(`http://127.0.0.1:${port}`);
		await c.action('setup', {
			base_url: `http://127.0.0.1:${port}/sandbox`,
			client_id: 'nobody-here',
			client_secret: 'x-secret',
			redirect_uri: 'http://localhost:3000/callback',
			registered_redirect_uri: 'http://127.0.0.1:3000/callback'
		});
		const state = new URL(consentUrlFrom(await c.page())).searchParams.get('state')!;
		const r = await c.action('pasteback', {
			pasted: `http://localhost:3000/callback?error=redirect_uri_mismatch&state=${encodeURIComponent(state)}`
		});
		const [f] = (r.data.exchanges as Exchange[])[0]!.findings;
		expect(f).toMatchObject({ code: 'redirect_uri_mismatch' });
		expect(f!.fix).toBe(
			'It was registered with 127.0.0.1 instead of localhost: `http://127.0.0.1:3000/callback`; send exactly that, or add `http://localhost:3000/callback` to the registration.'
		);
	});
});

test("the sandbox's error body stays exactly the service's documented one", async () => {
	const url = new URL(`http://127.0.0.1:${port}/sandbox/oauth2/auth`);
	url.search = new URLSearchParams({
		client_id: 'localhost-only',
		redirect_uri: `http://127.0.0.1:${port}/callback`,
		response_type: 'code',
		state: 'st'
	}).toString();
	const res = await fetch(url, { redirect: 'manual', headers: { accept: 'text/html' } });
	expect(res.status).toBe(400);
	expect(res.headers.get('content-type')).toMatch(/^application\/json/);
	expect(await res.json()).toEqual({
		error: 'redirect_uri_mismatch',
		error_description: 'The redirect URI provided is missing or does not match',
		error_uri: 'https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2'
	});
});
