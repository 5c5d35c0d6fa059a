/**
 * Tokens belong to the API they were issued for. Over real HTTP against the built server: tokens
 * come from the sandbox, then a save moves the user-info endpoint or the base URL to another
 * loopback origin, a recording server that plays someone else's API. Each test is an attack: the
 * access token must never reach that origin unless the user said yes to it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import http from 'node:http';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
import { withRecordingServer, type SeenRequest } from '../helpers/recording-server';
import { listen } from '../helpers/listen';

let srv: TestServer;

beforeAll(async () => {
	srv = await startServer();
});
afterAll(async () => {
	await srv?.stop();
});

/** The sandbox preset's setup, as the form sends it, with `fields` over it. */
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

/** A flow that holds the sandbox's tokens: preset, consent, exchange. */
async function withTokens(): Promise<Client> {
	const c = new Client(srv.url);
	expect((await c.action('preset', { preset: 'sandbox-rw' })).type).toBe('success');
	await c.fetch(await decide(c, consentUrlFrom(await c.page())));
	const ex = await c.action('exchange');
	expect(ex.type).toBe('success');
	return c;
}

const bearers = (seen: SeenRequest[]) =>
	seen.filter((r) => /bearer/i.test(r.headers.authorization ?? '') || /access_token/.test(r.url));

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

describe('tokens follow their API', () => {
	test('token theft by a moved user-info endpoint: no bearer token reaches the new origin unconfirmed', async () => {
		const c = await withTokens();
		await withRecordingServer(async (origin, seen) => {
			const saved = await c.action(
				'setup',
				setupFields(c, { userinfo_endpoint: `${origin}/reader/api/0/user-info` })
			);
			expect(saved.type).toBe('success');
			await c.action('userinfo');
			expect(bearers(seen)).toEqual([]);
			const note = testIdText(await c.page(), 'token-note');
			expect(note).toContain(`the user-info endpoint moved to ${origin}`);
			expect(note).toMatch(/tokens were dropped/);
		});
	});

	test('token theft by a moved base URL: the token endpoint stays, no bearer token reaches the new API origin', async () => {
		const c = await withTokens();
		await withRecordingServer(async (origin, seen) => {
			const saved = await c.action(
				'setup',
				setupFields(c, {
					base_url: origin,
					authorization_endpoint: `${c.base}/sandbox/oauth2/auth`,
					token_endpoint: `${c.base}/sandbox/oauth2/token`
				})
			);
			expect(saved.type).toBe('success');
			await c.action('userinfo');
			await c.action('api', { method: 'GET', path: 'subscription/list', query: 'output=json' });
			expect(bearers(seen)).toEqual([]);
			expect(testIdText(await c.page(), 'token-note')).toContain(`the API moved to ${origin}`);
		});
	});

	test('the dropped tokens come back with Undo, for the old setup', async () => {
		const c = await withTokens();
		await withRecordingServer(async (origin, seen) => {
			await c.action('setup', setupFields(c, { userinfo_endpoint: `${origin}/x` }));
			const undone = await c.action('undo');
			expect(undone.type).toBe('success');
			const info = await c.action('userinfo');
			expect(info.type).toBe('success');
			expect(seen).toEqual([]);
		});
	});

	test('confirmed: the tokens go to the new user-info endpoint the user said yes to', async () => {
		const c = await withTokens();
		await withRecordingServer(async (origin, seen) => {
			const saved = await c.action(
				'setup',
				setupFields(c, {
					userinfo_endpoint: `${origin}/reader/api/0/user-info`,
					keep_tokens_for: JSON.stringify([origin])
				})
			);
			expect(saved.type).toBe('success');
			const info = await c.action('userinfo');
			expect(info.type).toBe('success');
			expect(bearers(seen)).toHaveLength(1);
			expect(seen[0]!.url).toBe('/reader/api/0/user-info');
			expect(testIdText(await c.page(), 'token-note')).toBeNull();
		});
	});

	test('a yes for another origin is no yes for this one', async () => {
		const c = await withTokens();
		await withRecordingServer(async (origin, seen) => {
			await c.action(
				'setup',
				setupFields(c, {
					userinfo_endpoint: `${origin}/reader/api/0/user-info`,
					keep_tokens_for: JSON.stringify(['http://127.0.0.2:1'])
				})
			);
			await c.action('userinfo');
			expect(bearers(seen)).toEqual([]);
		});
	});
});

/**
 * An authorization server's metadata at RFC 8414's well-known URL, on a loopback port: its issuer
 * is its own origin, its user-info endpoint is there too, and its token endpoint is `token(origin)`.
 * Every other request is recorded and answered 200.
 */
async function withMetadataServer(
	token: (origin: string) => string,
	fn: (origin: string, seen: { url: string; auth: string }[]) => Promise<void>
): Promise<void> {
	const seen: { url: string; auth: string }[] = [];
	let origin = '';
	const server = http.createServer((req, res) => {
		if (req.url === '/.well-known/oauth-authorization-server') {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					issuer: origin,
					authorization_endpoint: `${origin}/auth`,
					token_endpoint: token(origin),
					userinfo_endpoint: `${origin}/userinfo`
				})
			);
			return;
		}
		seen.push({ url: req.url ?? '', auth: req.headers.authorization ?? '' });
		res.writeHead(200, { 'content-type': 'application/json' }).end('{"sub":"1"}');
	});
	origin = (await listen(server)).url;
	try {
		await fn(origin, seen);
	} finally {
		await new Promise<void>((ok) => server.close(() => ok()));
	}
}

describe("the issuer's verified metadata", () => {
	test('the user-info endpoint its metadata names, for the token endpoint that issued the tokens, needs no question', async () => {
		const c = await withTokens();
		const sandboxToken = `${c.base}/sandbox/oauth2/token`;
		await withMetadataServer(
			() => sandboxToken,
			async (origin, seen) => {
				const found = await c.action('discover', { base_url: '', issuer: origin });
				expect(found.data.vouched).toEqual([origin, new URL(c.base).origin]);
				const saved = await c.action(
					'setup',
					setupFields(c, {
						issuer: origin,
						userinfo_endpoint: `${origin}/userinfo`,
						token_endpoint: sandboxToken
					})
				);
				expect(saved.data.tokensDropped).toBeUndefined();
				expect((await c.action('userinfo')).type).toBe('success');
				expect(seen).toEqual([{ url: '/userinfo', auth: expect.stringMatching(/^Bearer /) }]);
			}
		);
	});

	test("token theft by an attacker's metadata: its own issuer and token endpoint vouch for nothing", async () => {
		const c = await withTokens();
		await withMetadataServer(
			(origin) => `${origin}/token`,
			async (origin, seen) => {
				const found = await c.action('discover', { base_url: '', issuer: origin });
				expect(found.data.vouched).toEqual([]);
				const saved = await c.action(
					'setup',
					setupFields(c, {
						issuer: origin,
						userinfo_endpoint: `${origin}/userinfo`,
						token_endpoint: `${c.base}/sandbox/oauth2/token`
					})
				);
				expect(saved.data.tokensDropped).toBe(true);
				await c.action('userinfo');
				expect(seen).toEqual([]);
			}
		);
	});
});

describe('the API console stays on the API origin', () => {
	test('request-target smuggling: /.//host/x is refused, never sent as //host/x', async () => {
		const c = await withTokens();
		const r = await c.action('api', { method: 'GET', path: '/.//host/x' });
		expect(r.status).toBe(400);
		expect(String(r.data.message)).toMatch(
			/request target would be \/\/host\/x, which starts with \/\//
		);
		expect(r.data.exchanges).toEqual([]);
	});
});
