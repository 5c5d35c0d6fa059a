/**
 * The byte cap on a browser's flows, with provider-sized tokens: oidc-provider (tests/helpers/oidc.ts)
 * issuing JWT access tokens of about 1.8 KB, as a provider does that puts the user's groups in them.
 * One browser (one cookie jar) opens flow after flow until the cap drops the oldest: all the
 * playground's cookies stay under 12,000 bytes, no answer is a 400 or a 431, and the dropped flow's
 * tab says why on its next load and action.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, unescapeHtml } from '../helpers/client';
import {
	OIDC_CLIENT_ID,
	OIDC_CLIENT_SECRET,
	oidcClient,
	providerSizedTokens,
	signInAndConsent,
	startOidcProvider,
	type OidcServer
} from '../helpers/oidc';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
let oidc: OidcServer;

beforeAll(async () => {
	const port = await freePort();
	oidc = await startOidcProvider({
		clients: [oidcClient([`http://127.0.0.1:${port}/callback`])],
		configuration: providerSizedTokens()
	});
	srv = await startServer({ PLAYGROUND_LOG: 'off' }, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
});

/** What the playground's cookies add to the Cookie header the browser sends. */
const playgroundBytes = (jar: Map<string, string>) =>
	[...jar]
		.filter(([name]) => name.startsWith('pg_'))
		.reduce((n, [name, value]) => n + name.length + value.length + 3, 0);

/** A flow through the provider in a new tab of the browser: setup, consent, callback, exchange. */
async function openFlow(browser: Client, flow?: string): Promise<{ tab: Client; token: string }> {
	const tab = browser.tab(flow);
	const saved = await tab.action('setup', {
		base_url: oidc.issuer,
		client_id: OIDC_CLIENT_ID,
		client_secret: OIDC_CLIENT_SECRET,
		scope: 'read write',
		redirect_uri: `${srv.url}/callback`,
		authorization_endpoint: oidc.endpoints.authorization,
		token_endpoint: oidc.endpoints.token,
		userinfo_endpoint: oidc.endpoints.userinfo,
		auto_exchange: 'true'
	});
	expect(saved.type).toBe('success');
	const back = await signInAndConsent(new Client(oidc.origin), consentUrlFrom(await tab.page()));
	const cb = await tab.fetch(back);
	expect(cb.res.headers.get('location')).toBe(`/?flow=${tab.flow}`);
	await tab.page(); // the browser follows the redirect: the page takes the callback's record
	const ex = await tab.action('exchange');
	const res = (ex.data.exchanges as Exchange[])[0]!.response!;
	expect(res.status, res.body).toBe(200);
	return { tab, token: JSON.parse(res.body).access_token as string };
}

test('flows with 1.8 KB tokens: opening more drops the oldest, with a notice, and never a 400 or 431', async () => {
	const browser = new Client(srv.url);
	const flows: { tab: Client; token: string }[] = [];
	const gone = () => flows.filter((f) => !browser.jar.has(`pg_flow_${f.tab.flow}`));
	const dropped = () => gone().length > 0;
	for (let i = 0; i < 8 && !dropped(); i++) {
		flows.push(await openFlow(browser));
		expect(playgroundBytes(browser.jar)).toBeLessThan(12_000);
	}
	expect(flows[0]!.token.length).toBeGreaterThan(1700);
	expect(flows[0]!.token.split('.')).toHaveLength(3); // a JWT
	// The least recently used one went, and only it.
	expect(gone()).toEqual([flows[0]]);
	expect(flows.length).toBeGreaterThanOrEqual(3);
	// Only the oldest went; every newer flow still holds its own tokens.
	for (const { tab, token } of flows.slice(1))
		expect(unescapeHtml(await tab.page())).toContain(token);

	// The dropped tab says so, on its next load and its next action.
	const notice =
		/This tab’s flow was dropped to make room for newer ones: the browser holds about (\d+) flows of this size\. Start again\./;
	const oldest = flows[0]!.tab;
	const page = unescapeHtml(await oldest.page()).replace(/'/g, '’');
	expect(page).toMatch(notice);
	expect(Number(notice.exec(page)![1])).toBe(flows.length - 1);
	const action = await oldest.action('userinfo');
	expect(action.status).toBe(409);
	expect(String(action.data.message).replace(/'/g, '’')).toMatch(notice);

	// Not one answer of the playground was a 400 or 431 on the way.
	expect(browser.seen.filter((s) => s.status === 400 || s.status === 431)).toEqual([]);
	expect(playgroundBytes(browser.jar)).toBeLessThan(12_000);

	// Starting again in that tab works, and drops the next oldest to make room.
	const again = await openFlow(browser, oldest.flow);
	expect(browser.jar.has(`pg_flow_${oldest.flow}`)).toBe(true);
	expect(browser.jar.has(`pg_flow_${flows[1]!.tab.flow}`)).toBe(false);
	expect(unescapeHtml(await oldest.page())).toContain(again.token);
	expect(await oldest.page()).not.toContain('was dropped');
	expect(playgroundBytes(browser.jar)).toBeLessThan(12_000);
	expect(browser.seen.filter((s) => s.status === 400 || s.status === 431)).toEqual([]);
});
