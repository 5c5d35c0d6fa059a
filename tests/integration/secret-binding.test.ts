/**
 * A client secret belongs to one client: the client id and the URLs that receive it (the token
 * endpoint). Over real HTTP against the built server, with a catcher on a loopback port that plays
 * a service of someone else's (it redirects every consent back with a code and records every token
 * request). Each test is an attack: a secret saved for one client must never reach another.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import http from 'node:http';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';
import { listen } from '../helpers/listen';

const PRESET_SECRET = 'catcher-preset-secret-Zq81';

let srv: TestServer;
let catcher: http.Server;
let catcherUrl: string;
/** Every request the catcher received: path, query, body and Authorization header. */
const caught: { path: string; query: string; body: string; auth: string }[] = [];

beforeAll(async () => {
	catcher = http.createServer((req, res) => {
		let body = '';
		req.on('data', (d) => (body += d));
		req.on('end', () => {
			const u = new URL(req.url!, 'http://x');
			caught.push({
				path: u.pathname,
				query: u.search,
				body,
				auth: req.headers.authorization ?? ''
			});
			if (u.pathname === '/oauth2/auth') {
				const back = new URL(u.searchParams.get('redirect_uri')!);
				back.searchParams.set('code', 'catcher-code');
				back.searchParams.set('state', u.searchParams.get('state')!);
				res.writeHead(302, { location: back.toString() }).end();
				return;
			}
			res.writeHead(400, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ error: 'invalid_client' }));
		});
	});
	catcherUrl = (await listen(catcher)).url;
	const port = await freePort();
	srv = await startServer(
		{
			PLAYGROUND_PRESETS: JSON.stringify([
				{
					name: 'catcher-app',
					label: 'Catcher app',
					base_url: catcherUrl,
					client_id: 'catcher-app',
					client_secret: PRESET_SECRET,
					scope: 'read'
				}
			])
		},
		port
	);
});
beforeEach(() => {
	caught.length = 0;
});
afterAll(async () => {
	await srv?.stop();
	await new Promise<void>((ok) => catcher.close(() => ok()));
});

/** Every token request the catcher received, as client_id and client_secret (form body or Basic). */
function tokenRequests(): { client_id: string | null; secret: string | null }[] {
	return caught
		.filter((r) => r.path === '/oauth2/token')
		.map((r) => {
			const form = new URLSearchParams(r.body);
			if (r.auth.startsWith('Basic ')) {
				const [id, secret] = Buffer.from(r.auth.slice(6), 'base64').toString().split(':');
				return { client_id: decodeURIComponent(id!), secret: decodeURIComponent(secret ?? '') };
			}
			return { client_id: form.get('client_id'), secret: form.get('client_secret') };
		});
}

/** Whether the catcher ever saw this secret, anywhere in any request. */
function catcherSaw(secret: string): boolean {
	const forms = [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
	return caught.some((r) =>
		forms.some((f) => (r.query + r.body + Buffer.from(r.auth).toString()).includes(f))
	);
}

function setupFields(c: Client, fields: Record<string, string>): Record<string, string> {
	return {
		base_url: `${c.base}/sandbox`,
		client_id: 'sandbox-rw',
		client_secret: '',
		scope: 'read write',
		redirect_uri: `${c.base}/callback`,
		auto_exchange: 'true',
		...fields
	};
}

/** Consent at the catcher: it redirects straight back with a code; the playground takes it. */
async function codeFromCatcher(c: Client): Promise<void> {
	const consent = await c.fetch(consentUrlFrom(await c.page()));
	expect(consent.res.status).toBe(302);
	await c.fetch(consent.res.headers.get('location')!);
}

/** Consent at the sandbox: Authorize, then back to the playground with a code. */
async function codeFromSandbox(c: Client): Promise<void> {
	await c.fetch(await decide(c, consentUrlFrom(await c.page())));
}

/** The text of the element with this data-testid on the page (tags dropped, white space folded). */
function testIdText(html: string, id: string): string | null {
	const open = new RegExp(`<([a-z]+)[^>]*data-testid="${id}"[^>]*>`).exec(html);
	if (!open) return null;
	const rest = html.slice(open.index + open[0].length);
	const inner = rest.slice(0, rest.indexOf(`</${open[1]}>`));
	return unescapeHtml(inner.replace(/<[^>]*>/g, ''))
		.replace(/\s+/g, ' ')
		.trim();
}

describe('secret follows client', () => {
	test("secret follows client: a preset's secret never reaches another token endpoint", async () => {
		const c = new Client(srv.url);
		expect((await c.action('preset', { preset: 'sandbox-rw' })).type).toBe('success');
		// Same client id, same consent page; only the token endpoint now names the catcher.
		const saved = await c.action(
			'setup',
			setupFields(c, { token_endpoint: `${catcherUrl}/oauth2/token` })
		);
		expect(saved.type).toBe('success');
		await codeFromSandbox(c);
		const ex = await c.action('exchange');
		expect(catcherSaw('sandbox-rw-secret')).toBe(false);
		expect(ex.status).toBe(409);
		expect(String(ex.data.message)).toMatch(/client secret/i);
		const cleared = testIdText(await c.page(), 'secret-note');
		expect(cleared).toMatch(/cleared because the token endpoint changed/);
		expect(cleared).toMatch(/no longer the preset “Sandbox \(read write\)”/);
	});

	test("secret follows client: a preset's secret never goes out with another client id", async () => {
		const c = new Client(srv.url);
		expect((await c.action('preset', { preset: 'catcher-app' })).type).toBe('success');
		// Same service, same token endpoint, another client id.
		const saved = await c.action(
			'setup',
			setupFields(c, { base_url: catcherUrl, client_id: 'someone-else', scope: 'read' })
		);
		expect(saved.type).toBe('success');
		await codeFromCatcher(c);
		const ex = await c.action('exchange');
		expect(
			tokenRequests().filter((r) => r.secret === PRESET_SECRET && r.client_id !== 'catcher-app')
		).toEqual([]);
		expect(ex.status).toBe(409);
		expect(testIdText(await c.page(), 'secret-note')).toMatch(
			/cleared because the client id changed/
		);
	});

	test('secret follows client: a typed secret never reaches a new base URL', async () => {
		const c = new Client(srv.url);
		const typed = 'typed-for-the-sandbox-Kw3v';
		await c.action('setup', setupFields(c, { client_secret: typed }));
		await c.action('setup', setupFields(c, { base_url: catcherUrl }));
		await codeFromCatcher(c);
		const ex = await c.action('exchange');
		expect(catcherSaw(typed)).toBe(false);
		expect(ex.status).toBe(409);
		expect(testIdText(await c.page(), 'secret-note')).toBe(
			'The secret was cleared because the token endpoint changed; enter it again.'
		);
	});

	test('half-saved setup: a secret typed for another client never reaches the saved one', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'catcher-app' });
		// A secret typed for another client, with a field that is wrong: nothing is saved.
		const failed = await c.action(
			'setup',
			setupFields(c, {
				base_url: `${c.base}/sandbox`,
				client_id: 'another-app',
				client_secret: 'typed-for-another-app-Pm27',
				scope: 'read "write"'
			})
		);
		expect(failed.status).toBe(400);
		await codeFromCatcher(c);
		await c.action('exchange');
		expect(catcherSaw('typed-for-another-app-Pm27')).toBe(false);
	});
});

describe('docs link', () => {
	test("docs link: a saved secret never reaches the link's service", async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const link = `/?base_url=${encodeURIComponent(catcherUrl)}&client_id=docs-app&scope=read`;
		const { body } = await c.fetch(link, { headers: { accept: 'text/html' } });
		expect(body).toContain('value="docs-app"');
		// The form as the link filled it, saved with the secret field left empty.
		await c.action(
			'setup',
			setupFields(c, { base_url: catcherUrl, client_id: 'docs-app', scope: 'read' })
		);
		await codeFromCatcher(c);
		const ex = await c.action('exchange');
		expect(catcherSaw('sandbox-rw-secret')).toBe(false);
		expect(ex.status).toBe(409);
	});

	test("docs link: a preset's secret never reaches the token endpoint the link names", async () => {
		const c = new Client(srv.url);
		const token = `${catcherUrl}/oauth2/token`;
		const { body } = await c.fetch(
			`/?preset=sandbox-rw&token_endpoint=${encodeURIComponent(token)}`,
			{
				headers: { accept: 'text/html' }
			}
		);
		await c.action('setup', setupFields(c, { token_endpoint: token, preset: 'sandbox-rw' }));
		await codeFromSandbox(c);
		await c.action('exchange');
		expect(catcherSaw('sandbox-rw-secret')).toBe(false);
		expect(testIdText(body, 'prefill-banner')).toMatch(/preset's secret is not used/);
	});

	test('docs link: the banner names the host the secret would go to', async () => {
		const c = new Client(srv.url);
		const token = `${catcherUrl}/oauth2/token`;
		const { body } = await c.fetch(
			`/?base_url=${encodeURIComponent(`${srv.url}/sandbox`)}&token_endpoint=${encodeURIComponent(token)}`,
			{ headers: { accept: 'text/html' } }
		);
		const banner = testIdText(body, 'prefill-banner');
		expect(banner).toContain(`check that you trust ${new URL(srv.url).host}`);
		expect(banner).toContain(`${new URL(catcherUrl).host} (token endpoint)`);
	});
});

describe('the form shows only that a secret is set', () => {
	test('secret hint: no character and no length of a preset secret on the page', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const hint = testIdText(await c.page(), 'secret-hint');
		expect(hint).toMatch(/^A secret is set\b/);
		// "secret" is a word of the hint; what is left must hold no end of the secret and no number.
		expect(hint!.replace(/secret/g, '')).not.toMatch(/cret|\d/);
	});

	test('secret hint: no character and no length of a typed secret on the page', async () => {
		const c = new Client(srv.url);
		await c.action('setup', setupFields(c, { client_secret: 'short' }));
		const html = await c.page();
		expect(testIdText(html, 'secret-hint')).not.toMatch(/hort|\d/);
		expect(testIdText(html, 'setup-summary')).toContain('secret set, kept on the server.');
	});
});

describe('the convenience that stays', () => {
	test('same client and URLs, empty secret field: the secret is kept and works', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		await c.action('setup', setupFields(c, { scope: 'read' }));
		await codeFromSandbox(c);
		const ex = await c.action('exchange');
		expect(ex.type).toBe('success');
		expect((ex.data.exchanges as Exchange[])[0]!.response!.status).toBe(200);
		expect(testIdText(await c.page(), 'secret-note')).toBeNull();
	});

	test('a new secret with a new client goes to that client', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const mine = 'mine-for-my-app-Lr55';
		const saved = await c.action(
			'setup',
			setupFields(c, { base_url: catcherUrl, client_id: 'my-app', client_secret: mine })
		);
		expect(saved.type).toBe('success');
		await codeFromCatcher(c);
		const ex = await c.action('exchange');
		expect(ex.type).toBe('success');
		expect(tokenRequests()).toContainEqual({ client_id: 'my-app', secret: mine });
		expect(catcherSaw('sandbox-rw-secret')).toBe(false);
	});
});
