/**
 * Tokens belong to the API they were issued for. Over real HTTP against the built server: tokens
 * come from the sandbox, then a save moves the user-info endpoint or the base URL to another
 * loopback origin, a recording server that plays someone else's API. Each test is an attack: the
 * access token must never reach that origin unless the user said yes to it. The metadata tests add
 * service A (a loopback service of their own that issues tokens) and a metadata host on another
 * origin whose document claims A's endpoints (tests/helpers/metadata-host.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
import { withRecordingServer, type SeenRequest } from '../helpers/recording-server';
import { carried, withMetadataHost } from '../helpers/metadata-host';
import { startFakeService, type FakeService } from '../helpers/fake-service';

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

/** Service A, a loopback service of its own: its consent sends a code back, its token endpoint issues this access token. */
const A_ACCESS_TOKEN = 'service-a-access-token-7Hq2';
let serviceA: FakeService;
beforeAll(async () => {
	serviceA = await startFakeService();
	serviceA.answer('/oauth2/token', {
		status: 200,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			access_token: A_ACCESS_TOKEN,
			token_type: 'Bearer',
			expires_in: 3600,
			scope: 'read'
		})
	});
});
afterAll(async () => {
	await serviceA?.close();
});

/** A flow that holds service A's tokens, issued with the setup `fields` (no issuer unless given). */
async function withServiceATokens(fields: Record<string, string> = {}): Promise<Client> {
	const c = new Client(srv.url);
	const saved = await c.action('setup', serviceASetup(c, fields));
	expect(saved.type, JSON.stringify(saved.data)).toBe('success');
	const consent = await c.fetch(consentUrlFrom(await c.page()));
	await c.fetch(consent.res.headers.get('location')!);
	const ex = await c.action('exchange');
	expect(ex.type, JSON.stringify(ex.data)).toBe('success');
	expect(JSON.stringify(ex.data)).toContain(A_ACCESS_TOKEN);
	return c;
}

function serviceASetup(c: Client, fields: Record<string, string>): Record<string, string> {
	return {
		base_url: serviceA.url,
		client_id: 'a-app',
		client_secret: 'a-app-secret-Vv31',
		scope: 'read',
		redirect_uri: `${c.base}/callback`,
		auto_exchange: 'false',
		...fields
	};
}

describe("the issuer's verified metadata", () => {
	test("token theft by another host's metadata that claims the service's token endpoint: the save asks, and the token never reaches that host", async () => {
		// Tokens from service A with no issuer set (the common case). The other host's document is
		// verified (its issuer is its own URL), names A's consent and token endpoints, and puts the
		// user-info endpoint on its own host.
		const c = await withServiceATokens();
		await withMetadataHost(
			(origin) => ({
				issuer: origin,
				authorization_endpoint: `${serviceA.url}/oauth2/auth`,
				token_endpoint: `${serviceA.url}/oauth2/token`,
				userinfo_endpoint: `${origin}/userinfo`
			}),
			async (origin, seen) => {
				const found = await c.action('discover', { base_url: '', issuer: origin });
				expect(found.type).toBe('success');
				// The save as a fill from that document leaves it, without a yes.
				const saved = await c.action(
					'setup',
					serviceASetup(c, {
						issuer: origin,
						authorization_endpoint: `${serviceA.url}/oauth2/auth`,
						token_endpoint: `${serviceA.url}/oauth2/token`,
						userinfo_endpoint: `${origin}/userinfo`
					})
				);
				expect(saved.type).toBe('success');
				await c.action('userinfo');
				await c.action('api', { method: 'GET', path: 'subscription/list' });
				// The metadata fetch is all it ever saw.
				expect(carried(seen)).not.toContain(A_ACCESS_TOKEN);
				expect(carried(seen)).not.toMatch(/bearer/i);
				expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
					'GET /.well-known/oauth-authorization-server'
				]);
				expect(saved.data.tokensDropped).toBe(true);
				expect(found.data.vouched).toBeNull();
				expect(testIdText(await c.page(), 'token-note')).toContain(
					`the user-info endpoint moved to ${origin}`
				);
			}
		);
	});

	test("token theft by an attacker's metadata: its own issuer and token endpoint vouch for nothing", async () => {
		const c = await withTokens();
		await withMetadataHost(
			(origin) => ({
				issuer: origin,
				authorization_endpoint: `${origin}/auth`,
				token_endpoint: `${origin}/token`,
				userinfo_endpoint: `${origin}/userinfo`
			}),
			async (origin, seen) => {
				const found = await c.action('discover', { base_url: '', issuer: origin });
				expect(found.data.vouched).toBeNull();
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
				expect(bearers(seen)).toEqual([]);
			}
		);
	});

	test('the user-info endpoint that the metadata of the issuer the tokens were issued by names needs no question', async () => {
		// Service A's own metadata, at its own issuer, puts its user-info endpoint on another host B.
		await withRecordingServer(async (b, seenByB) => {
			serviceA.answer('/.well-known/oauth-authorization-server', {
				status: 200,
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					issuer: serviceA.url,
					authorization_endpoint: `${serviceA.url}/oauth2/auth`,
					token_endpoint: `${serviceA.url}/oauth2/token`,
					userinfo_endpoint: `${b}/userinfo`
				})
			});
			const c = await withServiceATokens({ issuer: serviceA.url });
			const found = await c.action('discover', { base_url: '', issuer: serviceA.url });
			expect(found.data.vouched).toEqual({ issuer: serviceA.url, origins: [serviceA.url, b] });
			const saved = await c.action(
				'setup',
				serviceASetup(c, { issuer: serviceA.url, userinfo_endpoint: `${b}/userinfo` })
			);
			expect(saved.type).toBe('success');
			expect(saved.data.tokensDropped).toBeUndefined();
			expect((await c.action('userinfo')).type).toBe('success');
			expect(seenByB.map((r) => [r.url, r.headers.authorization])).toEqual([
				['/userinfo', `Bearer ${A_ACCESS_TOKEN}`]
			]);
		});
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
