/**
 * A flow is the unit, not the browser: several flows in one cookie jar (one browser, several tabs),
 * over real HTTP against the built server and its sandbox. Each flow has its own sealed cookie and
 * its id in the address; the callback finds its flow by the state it returns, with three outcomes
 * (pending: that flow goes on; recent: stale, start again; none: unsolicited, possibly forged); an
 * action rewrites only its own flow, so two tabs posting at once both keep their results.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, unescapeHtml } from '../helpers/client';
import { actionHeaders, decisionRequest, ticketFrom } from '../../scripts/lib/client.js';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;

beforeAll(async () => {
	srv = await startServer({ PLAYGROUND_LOG: 'off' });
});
afterAll(() => srv?.stop());

const exchanges = (r: { data: Record<string, unknown> }) => (r.data.exchanges as Exchange[]) ?? [];

/** A sandbox setup saved in this tab's flow. */
async function setUp(c: Client, client: 'sandbox-rw' | 'sandbox-ro', fields = {}) {
	const r = await c.action('setup', {
		base_url: `${c.base}/sandbox`,
		client_id: client,
		client_secret: `${client}-secret`,
		scope: client === 'sandbox-ro' ? 'read' : 'read write',
		redirect_uri: `${c.base}/callback`,
		auto_exchange: 'true',
		...fields
	});
	expect(r.type, JSON.stringify(r.data)).toBe('success');
}

/** Opens the sandbox consent page (the user sees it; nothing is decided yet): its signed ticket. */
async function openConsent(c: Client, consentUrl: string): Promise<string> {
	const { res, body } = await c.fetch(consentUrl, { headers: { accept: 'text/html' } });
	expect(res.status).toBe(200);
	return ticketFrom(body)!;
}

/** Presses Authorize on a consent page opened earlier: the redirect back to the callback. */
async function authorize(c: Client, consentUrl: string, ticket: string): Promise<string> {
	const d = decisionRequest(consentUrl, ticket, 'authorize');
	const post = await c.fetch(d.url, { method: 'POST', body: d.body, headers: d.headers });
	return post.res.headers.get('location')!;
}

/** Consent opened and authorized at once: the redirect back. */
async function consent(c: Client): Promise<string> {
	const url = consentUrlFrom(await c.page());
	return authorize(c, url, await openConsent(c, url));
}

const accessToken = (html: string) => /data-testid="access-token"[^>]*>([^<]+)</.exec(html)?.[1];

/** The page shows no warning about the callback: no ignored redirect, no stopped flow, no forgery. */
function noWarning(html: string) {
	expect(html).not.toContain('data-testid="ignored-callback"');
	expect(html).not.toContain('data-testid="state-alert"');
	expect(html).not.toMatch(/forged|forgery/);
}

describe('two flows in one browser', () => {
	test('interleaved: consent opened in A, setup changed in B, consent authorized in A, then in B; both get their own tokens, no warning', async () => {
		const a = new Client(srv.url);
		const b = a.tab();
		await setUp(a, 'sandbox-rw');
		await setUp(b, 'sandbox-rw');
		const consentA = consentUrlFrom(await a.page());
		const ticketA = await openConsent(a, consentA);
		// Tab B changes its setup (a new consent request, a new state) while A's consent page is open.
		await setUp(b, 'sandbox-ro');
		const consentB = consentUrlFrom(await b.page());
		expect(consentB).toContain('client_id=sandbox-ro');

		// Outcome 1: each redirect finds its own flow by its state, and goes back to that flow's page.
		const cbA = await a.fetch(await authorize(a, consentA, ticketA));
		expect(cbA.res.status).toBe(303);
		expect(cbA.res.headers.get('location')).toBe(`/?flow=${a.flow}`);
		const cbB = await b.fetch(await consent(b));
		expect(cbB.res.headers.get('location')).toBe(`/?flow=${b.flow}`);

		const exA = exchanges(await a.action('exchange'))[0]!;
		const exB = exchanges(await b.action('exchange'))[0]!;
		expect(new URLSearchParams(exA.request.body).get('client_id')).toBe('sandbox-rw');
		expect(new URLSearchParams(exB.request.body).get('client_id')).toBe('sandbox-ro');
		expect(exA.response!.status).toBe(200);
		expect(exB.response!.status).toBe(200);
		const tokenA = JSON.parse(exA.response!.body).access_token as string;
		const tokenB = JSON.parse(exB.response!.body).access_token as string;
		expect(JSON.parse(exB.response!.body).scope).toBe('read');
		expect(tokenA).not.toBe(tokenB);

		const pageA = unescapeHtml(await a.page());
		const pageB = unescapeHtml(await b.page());
		expect(accessToken(pageA)).toBe(tokenA);
		expect(accessToken(pageB)).toBe(tokenB);
		expect(pageA).toContain('data-verdict="code"');
		expect(pageB).toContain('data-verdict="code"');
		noWarning(pageA);
		noWarning(pageB);
	});

	test('an exchange in A and a refresh in B posted at the same moment both keep their results', async () => {
		const a = new Client(srv.url);
		const b = a.tab();
		await setUp(a, 'sandbox-rw');
		await setUp(b, 'sandbox-rw');
		await a.fetch(await consent(a)); // A holds a code
		await b.fetch(await consent(b));
		expect((await b.action('exchange')).type).toBe('success'); // B holds tokens
		// Both posted with the same Cookie header, before either answer came back.
		const [exA, refB] = await Promise.all([a.action('exchange'), b.action('refresh')]);
		expect(exA.type).toBe('success');
		expect(refB.type).toBe('success');
		const tokenA = JSON.parse(exchanges(exA)[0]!.response!.body).access_token as string;
		const tokenB = JSON.parse(exchanges(refB)[0]!.response!.body).access_token as string;
		expect(accessToken(unescapeHtml(await a.page()))).toBe(tokenA);
		expect(accessToken(unescapeHtml(await b.page()))).toBe(tokenB);
		// And B's refreshed refresh token is the one kept: a second refresh works.
		expect(exchanges(await b.action('refresh'))[0]!.response!.status).toBe(200);
	});
});

describe('the callback finds its flow by state', () => {
	test('outcome 2: a consent authorized after the flow was restarted is stale, exchanges nothing, and says to start again', async () => {
		const a = new Client(srv.url);
		const b = a.tab();
		await setUp(a, 'sandbox-rw');
		await setUp(b, 'sandbox-rw');
		const first = consentUrlFrom(await a.page());
		const ticket = await openConsent(a, first);
		expect((await a.action('restart')).type).toBe('success'); // a new consent request
		const second = consentUrlFrom(await a.page());
		expect(second).not.toBe(first);
		const consentB = consentUrlFrom(await b.page());

		const late = await a.fetch(await authorize(a, first, ticket));
		expect(late.res.status).toBe(303);
		expect(late.res.headers.get('location')).toBe(`/?flow=${a.flow}`);
		const shown = unescapeHtml(await a.page());
		expect(shown).toContain('data-verdict="stale"');
		expect(shown).toContain(
			'This address answers a consent request this flow has since replaced (it was restarted, or its setup saved again)'
		);
		expect(shown).not.toMatch(/forged|forgery/);
		// Nothing exchanged or kept: the new consent request is still pending, there is no code.
		expect(consentUrlFrom(shown)).toBe(second);
		expect((await a.action('exchange')).status).toBe(409);
		// The other flow is untouched.
		const pageB = unescapeHtml(await b.page());
		expect(consentUrlFrom(pageB)).toBe(consentB);
		noWarning(pageB);
	});

	test('outcome 2: a consent used already does not overwrite the tokens or the code', async () => {
		const a = new Client(srv.url);
		await setUp(a, 'sandbox-rw');
		const back = await consent(a);
		await a.fetch(back);
		expect((await a.action('exchange')).type).toBe('success');
		const before = accessToken(unescapeHtml(await a.page()));
		const again = await a.fetch(back);
		expect(again.res.headers.get('location')).toBe(`/?flow=${a.flow}`);
		const shown = unescapeHtml(await a.page());
		expect(shown).toContain('data-verdict="stale"');
		expect(accessToken(shown)).toBe(before);
	});

	test('outcome 2: after Start over, the old consent is stale, not forged', async () => {
		const a = new Client(srv.url);
		await setUp(a, 'sandbox-rw');
		const url = consentUrlFrom(await a.page());
		const ticket = await openConsent(a, url);
		expect((await a.action('reset')).type).toBe('success');
		const late = await a.fetch(await authorize(a, url, ticket));
		expect(late.res.headers.get('location')).toBe(`/?flow=${a.flow}`);
		const shown = unescapeHtml(await a.page());
		expect(shown).toContain('data-verdict="stale"');
		expect(shown).not.toContain('data-testid="consent-url"');
	});

	test('outcome 3, forged callback: a cross-site GET /callback with a made-up state leaves both flows pending, on a neutral page', async () => {
		const a = new Client(srv.url);
		const b = a.tab();
		await setUp(a, 'sandbox-rw');
		await setUp(b, 'sandbox-ro');
		const consentA = consentUrlFrom(await a.page());
		const consentB = consentUrlFrom(await b.page());
		const forged = await a.fetch('/callback?state=made-up-state-K2&code=made-up-code-P8', {
			headers: { 'sec-fetch-site': 'cross-site', accept: 'text/html' }
		});
		expect(forged.res.status).toBe(400);
		expect(forged.res.headers.get('content-type')).toMatch(/^text\/html/);
		expect(forged.body).toContain('unsolicited');
		expect(forged.body).toContain('forged (cross-site request forgery');
		expect(forged.body).toContain('No flow changed, and nothing of it was kept.');
		expect(forged.body).not.toMatch(/made-up-state-K2|made-up-code-P8/);
		expect(forged.res.headers.getSetCookie()).toEqual([]);
		for (const [c, url] of [
			[a, consentA],
			[b, consentB]
		] as const) {
			const html = unescapeHtml(await c.page());
			expect(consentUrlFrom(html)).toBe(url);
			noWarning(html);
			expect(html).not.toMatch(/made-up-state-K2|made-up-code-P8/);
		}
		// Both still complete.
		for (const c of [a, b]) {
			expect((await c.fetch(await consent(c))).res.headers.get('location')).toBe(
				`/?flow=${c.flow}`
			);
			expect(exchanges(await c.action('exchange'))[0]!.response!.status).toBe(200);
		}
	});

	test('outcome 3: a redirect with no state, or with two, changes no flow', async () => {
		const a = new Client(srv.url);
		await setUp(a, 'sandbox-rw');
		const state = new URL(consentUrlFrom(await a.page())).searchParams.get('state')!;
		for (const q of ['code=x', `code=x&state=${state}&state=${state}`]) {
			const r = await a.fetch(`/callback?${q}`);
			expect(r.res.status, q).toBe(400);
			expect(r.res.headers.getSetCookie()).toEqual([]);
		}
		expect(new URL(consentUrlFrom(await a.page())).searchParams.get('state')).toBe(state);
	});

	test('a consent authorized after it was declined (Deny, Back, Authorize): its code is ignored as a request already answered, not one replaced', async () => {
		const c = new Client(srv.url);
		await setUp(c, 'sandbox-rw');
		const url = consentUrlFrom(await c.page());
		const d = decisionRequest(url, await openConsent(c, url), 'deny');
		const denied = (
			await c.fetch(d.url, { method: 'POST', body: d.body, headers: d.headers })
		).res.headers.get('location')!;
		expect(new URL(denied, srv.url).searchParams.get('error')).toBe('access_denied');
		await c.fetch(denied);
		// Back to the consent page, which the sandbox shows again, and Authorize.
		const back = await authorize(c, url, await openConsent(c, url));
		expect(new URL(back, srv.url).searchParams.get('code')).toBeTruthy();
		await c.fetch(back);
		const html = unescapeHtml(await c.page());
		expect(html).toContain(
			'This address answers a consent request whose answer already came back in step 2, as an error (declined or refused).'
		);
		expect(html).not.toContain('since replaced');
		expect(accessToken(html)).toBeUndefined();
	});

	test('paste-back names a forgery only for a state that is neither pending nor recent', async () => {
		const a = new Client(srv.url);
		await setUp(a, 'sandbox-rw', { redirect_uri: `${srv.url}/sandbox/landing` });
		const first = new URL(await consent(a));
		expect((await a.action('restart')).type).toBe('success');
		const stale = exchanges(await a.action('pasteback', { pasted: first.search }))[0]!;
		expect(stale.findings[0]!.message).toMatch(
			/^This address answers a consent request this flow has since replaced/
		);
		expect(JSON.stringify(stale.findings)).not.toMatch(/forg/);
		first.searchParams.set('state', 'nobody-asked');
		const forged = exchanges(await a.action('pasteback', { pasted: first.search }))[0]!;
		expect(forged.findings[0]!.message).toMatch(/unsolicited.*forged/);
	});
});

describe('the flow id', () => {
	test('an action without a flow id, or with a malformed one, is a 400 with the reason', async () => {
		const c = new Client(srv.url);
		for (const [query, reason] of [
			['/', /names no flow/],
			['flow=short&/', /16 characters/],
			['flow=ab%2Fcdefghijklmnop&/', /16 characters/],
			[`flow=${c.flow}&flow=${c.flow}&/`, /given once/]
		] as const) {
			const res = await fetch(`${srv.url}/?${query}exchange`, {
				method: 'POST',
				headers: actionHeaders(srv.url),
				body: ''
			});
			expect(res.status, query).toBe(400);
			const json = (await res.json()) as { type: string; error: { message: string } };
			expect(json.type).toBe('error');
			expect(json.error.message).toMatch(reason);
			expect(res.headers.getSetCookie()).toEqual([]);
		}
	});

	test('the page without a flow id, or with a malformed one, is a fresh flow whose forms carry its new id', async () => {
		const ids = new Set<string>();
		for (const path of ['/', '/?flow=bad', '/?flow=', '/?client_id=docs-app']) {
			const res = await fetch(srv.url + path, { headers: { accept: 'text/html' } });
			expect(res.status, path).toBe(200);
			const html = await res.text();
			const id = /action="\?flow=([A-Za-z0-9_-]{16})&(?:amp;)?\/setup"/.exec(html)?.[1];
			expect(id, path).toBeDefined();
			ids.add(id!);
		}
		expect(ids.size).toBe(4);
	});

	test('the flow id is the page’s own parameter: a flow page is not a docs link', async () => {
		const c = new Client(srv.url);
		await setUp(c, 'sandbox-rw');
		const html = await c.page();
		expect(html).not.toContain('data-testid="prefill-banner"');
		expect(html).not.toContain('Ignored, unknown');
		// A docs link that also names a flow reads only its own parameters.
		const link = await c.fetch(`/?flow=${c.flow}&client_id=docs-app`, {
			headers: { accept: 'text/html' }
		});
		expect(link.body).toContain('data-testid="prefill-banner"');
		expect(link.body).not.toContain('Ignored, unknown');
	});

	test('a custom state already pending in another flow is refused at save, as a field error', async () => {
		const a = new Client(srv.url);
		const b = a.tab();
		await setUp(a, 'sandbox-rw', { custom_state: 'shared-state-Q7' });
		const r = await b.action('setup', {
			base_url: `${srv.url}/sandbox`,
			client_id: 'sandbox-ro',
			client_secret: 'sandbox-ro-secret',
			scope: 'read',
			redirect_uri: `${srv.url}/callback`,
			custom_state: 'shared-state-Q7'
		});
		expect(r.status).toBe(400);
		const errors = r.data.errors as Record<string, string>;
		expect(errors.custom_state).toMatch(/already pending in another flow/);
		expect((r.data.values as Record<string, string>).client_id).toBe('sandbox-ro');
		expect(await b.page()).not.toContain('data-testid="consent-url"');
		// Once A's consent is used, its state is free again.
		await a.fetch(await consent(a));
		await setUp(b, 'sandbox-ro', { custom_state: 'shared-state-Q7' });
	});

	test('a duplicated tab forks: a new flow with a copy of the setup, not its state or code', async () => {
		const a = new Client(srv.url);
		await setUp(a, 'sandbox-rw');
		await a.fetch(await consent(a)); // A holds a code
		const r = await a.action('fork');
		expect(r.type).toBe('success');
		const id = String(r.data.flow);
		expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
		expect(id).not.toBe(a.flow);
		const copy = a.tab(id);
		const html = unescapeHtml(await copy.page());
		expect(html).toContain('A secret is set');
		expect(consentUrlFrom(html)).toContain('client_id=sandbox-rw');
		expect(html).not.toContain('data-verdict="code"');
		expect((await copy.action('exchange')).status).toBe(409);
		// A keeps its code, and exchanges it.
		expect(await a.page()).toContain('data-verdict="code"');
		expect(exchanges(await a.action('exchange'))[0]!.response!.status).toBe(200);
	});

	test('the one-session cookies of earlier versions are deleted when seen', async () => {
		const res = await fetch(`${srv.url}/`, {
			headers: { accept: 'text/html', cookie: 'pg_session=old; pg_session.1=older; other=x' }
		});
		const set = res.headers.getSetCookie();
		expect(set.some((c) => /^pg_session=;.*Max-Age=0/i.test(c))).toBe(true);
		expect(set.some((c) => /^pg_session\.1=;.*Max-Age=0/i.test(c))).toBe(true);
		expect(set.some((c) => c.startsWith('other='))).toBe(false);
	});
});
