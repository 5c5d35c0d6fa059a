/**
 * Trust at the callback, over real HTTP against the built server and its sandbox:
 * - a forged or stray `GET /callback` (its state matches no flow of the browser) never destroys the
 *   pending consent request: it gets a neutral 400 page, and nothing of it is kept; a replay of a
 *   used state is stale, shown once in its flow, and changes nothing;
 * - the `iss` check of RFC 9207: a sandbox code sent back with another server's `iss` (a mix-up)
 *   is held back with the warning, is not exchanged on its own, and "Exchange anyway" exchanges it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;

beforeAll(async () => {
	srv = await startServer();
});
afterAll(() => srv?.stop());

function exchanges(r: { data: Record<string, unknown> }): Exchange[] {
	return (r.data.exchanges as Exchange[]) ?? [];
}

/** The sandbox client, with the setup's other fields (e.g. the Issuer) as given. */
async function setUp(c: Client, fields: Record<string, string> = {}) {
	const r = await c.action('setup', {
		base_url: `${c.base}/sandbox`,
		client_id: 'sandbox-rw',
		client_secret: 'sandbox-rw-secret',
		scope: 'read write',
		redirect_uri: `${c.base}/callback`,
		auto_exchange: 'true',
		...fields
	});
	expect(r.type).toBe('success');
}

/** A cross-site top-level navigation, as a page elsewhere makes the browser send it. */
const crossSite = { headers: { 'sec-fetch-site': 'cross-site', accept: 'text/html' } };

describe('forged callback', () => {
	test('forged callback: a cross-site GET /callback?state=x&code=y leaves the pending consent request pending', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const consent = consentUrlFrom(await c.page());
		const forged = await c.fetch(
			'/callback?state=forged-state-Zq&code=forged-code-7Q&error_description=Attacker+text+9X',
			crossSite
		);
		// A neutral page: unsolicited, possibly forged; it echoes nothing and sets no cookie.
		expect(forged.res.status).toBe(400);
		expect(forged.res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(forged.body).toMatch(/unsolicited.*forged \(cross-site request forgery/);
		expect(forged.body).not.toMatch(/forged-state-Zq|forged-code-7Q|Attacker text 9X/);
		expect(forged.res.headers.getSetCookie()).toEqual([]);
		// The flow is as it was: the consent request is the same one, and nothing of it is kept.
		const again = unescapeHtml(await c.page());
		expect(again).not.toContain('ignored-callback');
		expect(again).not.toMatch(/forged-state-Zq|forged-code-7Q|Attacker text 9X/);
		expect(consentUrlFrom(again)).toBe(consent);
		// The user's own consent still completes, and its code is exchanged.
		expect((await c.fetch(await decide(c, consent))).res.status).toBe(303);
		const page = unescapeHtml(await c.page());
		expect(page).toContain('data-verdict="code"');
		const ex = await c.action('exchange');
		expect(ex.type).toBe('success');
		expect(exchanges(ex)[0]!.response!.status).toBe(200);
	});

	test('forged callback: once the code is back, a stray redirect replaces neither the callback shown nor the code', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const location = await decide(c, consentUrlFrom(await c.page()));
		await c.fetch(location);
		const real = new URL(location).searchParams.get('code')!;
		expect(unescapeHtml(await c.page())).toContain(real);
		const stray = await c.fetch(`/callback?state=other&code=forged-code-3R`, crossSite);
		expect(stray.res.status).toBe(400);
		const shown = unescapeHtml(await c.page());
		expect(shown).not.toContain('data-testid="ignored-callback"');
		expect(shown).toContain('data-verdict="code"');
		expect(unescapeHtml(await c.page())).not.toContain('forged-code-3R');
		const ex = await c.action('exchange');
		expect(ex.type).toBe('success');
		expect(new URLSearchParams(exchanges(ex)[0]!.request.body).get('code')).toBe(real);
		expect(exchanges(ex)[0]!.response!.status).toBe(200);
	});

	test('replay: the real redirect again, after its state was used, is stale and changes nothing', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const location = await decide(c, consentUrlFrom(await c.page()));
		await c.fetch(location);
		expect((await c.action('exchange')).type).toBe('success');
		const before = unescapeHtml(await c.page());
		const replay = await c.fetch(location, crossSite);
		expect(replay.res.status).toBe(303);
		expect(replay.res.headers.get('location')).toBe(`/?flow=${c.flow}`);
		const shown = unescapeHtml(await c.page());
		expect(shown).toContain('data-verdict="stale"');
		expect(shown).toContain(
			'This address’s code was already used: it came back in step 2 and step 3 exchanged it.'
		);
		expect(shown).not.toMatch(/forged|forgery/);
		expect(shown).toContain('data-testid="access-token"');
		// The callback record and the tokens are the ones from before.
		const tokenOf = (html: string) => /data-testid="access-token"[^>]*>([^<]+)</.exec(html)?.[1];
		expect(tokenOf(shown)).toBe(tokenOf(before));
		// Shown once: afterwards the callback step shows the real redirect again.
		const later = unescapeHtml(await c.page());
		expect(later).toContain('data-verdict="code"');
		expect(later).not.toContain('data-verdict="stale"');
	});
});

describe('mix-up (RFC 9207) against the sandbox', () => {
	test('mix-up: a sandbox code sent back with the iss of another server is held back; "Exchange anyway" exchanges it', async () => {
		const c = new Client(srv.url);
		const issuer = `${srv.url}/sandbox`;
		await setUp(c, { issuer });
		const location = new URL(await decide(c, consentUrlFrom(await c.page())));
		location.searchParams.set('iss', 'https://evil.example/as');
		expect((await c.fetch(location.toString())).res.status).toBe(303);
		const page = unescapeHtml(await c.page());
		expect(page).toContain('data-testid="issuer-alert"');
		expect(page).toContain('data-issuer="mismatch"');
		expect(page).toContain('Possible mix-up attack: the code was not exchanged.');
		expect(page).toContain(issuer);
		expect(page).toContain('https://evil.example/as');
		expect(page).toContain('Exchange anyway');
		expect(page).toContain('data-testid="code-held"');
		// Not exchanged on its own: the plain exchange is refused, and nothing was sent.
		const plain = await c.action('exchange');
		expect(plain.status).toBe(409);
		expect(String(plain.data.message)).toMatch(/mix-up/);
		expect(exchanges(plain)).toEqual([]);
		// "Exchange anyway": the kept code, on purpose.
		const anyway = await c.action('exchange', { anyway: '1' });
		expect(anyway.type).toBe('success');
		const [ex] = exchanges(anyway);
		expect(new URLSearchParams(ex!.request.body).get('code')).toBe(
			location.searchParams.get('code')
		);
		expect(ex!.response!.status).toBe(200);
		expect(ex!.note).toMatch(/Exchange anyway/);
		const after = unescapeHtml(await c.page());
		expect(after).toContain('data-testid="access-token"');
		expect(after).toContain('you exchanged the code anyway');
	});

	test('mix-up: with no issuer known, an iss on another origin than the authorization endpoint is held back', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const location = new URL(await decide(c, consentUrlFrom(await c.page())));
		location.searchParams.set('iss', 'http://evil.example');
		await c.fetch(location.toString());
		const page = unescapeHtml(await c.page());
		expect(page).toContain('data-issuer="origin-mismatch"');
		expect(page).toContain('data-testid="issuer-alert"');
		expect(page).toContain(srv.url);
		expect((await c.action('exchange')).status).toBe(409);
	});

	test('the right issuer: the iss matches and the code is exchanged', async () => {
		const c = new Client(srv.url);
		const issuer = `${srv.url}/sandbox`;
		await setUp(c, { issuer });
		const location = new URL(await decide(c, consentUrlFrom(await c.page())));
		location.searchParams.set('iss', issuer);
		await c.fetch(location.toString());
		const page = unescapeHtml(await c.page());
		expect(page).toContain('data-issuer="match"');
		expect(page).not.toContain('data-testid="issuer-alert"');
		const ex = await c.action('exchange');
		expect(exchanges(ex)[0]!.response!.status).toBe(200);
	});

	test('no issuer known: an iss on the endpoint’s origin is shown as not checked, and the code goes on', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const location = new URL(await decide(c, consentUrlFrom(await c.page())));
		location.searchParams.set('iss', `${srv.url}/sandbox`);
		await c.fetch(location.toString());
		const page = unescapeHtml(await c.page());
		expect(page).toContain('not checked: no issuer known');
		expect(page).not.toContain('data-testid="issuer-alert"');
		expect(exchanges(await c.action('exchange'))[0]!.response!.status).toBe(200);
	});
});
