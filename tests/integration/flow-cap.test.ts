/**
 * The byte cap on a browser's flows, with provider-sized tokens: oidc-provider (tests/helpers/oidc.ts)
 * issuing JWT access tokens of about 1.8 KB, as a provider does that puts the user's groups in them.
 * One browser (one cookie jar) opens flow after flow until the cap drops the oldest: all the
 * playground's cookies stay under 12,000 bytes, no answer is a 400 or a 431, and the dropped flow's
 * tab says why on its next load and action.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
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

/** The flows' cookies in a jar, by flow id, with their bytes in the Cookie header (chunks included). */
function flowBytes(jar: Map<string, string>): Map<string, number> {
	const out = new Map<string, number>();
	for (const [name, value] of jar) {
		const m = /^pg_flow_([\w-]{16})(?:\.\d)?$/.exec(name);
		if (m) out.set(m[1]!, (out.get(m[1]!) ?? 0) + name.length + value.length + 3);
	}
	return out;
}

/**
 * A tab of `browser` whose flow holds a sandbox client's setup (saved, its consent request ready).
 * `pad` characters more in the setup ("Redirect URI as registered", which is never sent) set its size.
 */
async function sandboxSetup(browser: Client, pad = 0): Promise<Client> {
	const tab = browser.tab();
	const saved = await tab.action('setup', {
		base_url: `${srv.url}/sandbox`,
		client_id: 'sandbox-rw',
		client_secret: 'sandbox-rw-secret',
		scope: 'read write',
		redirect_uri: `${srv.url}/callback`,
		registered_redirect_uri: `${srv.url}/callback?pad=${'p'.repeat(pad)}`,
		auto_exchange: 'false'
	});
	expect(saved.type).toBe('success');
	return tab;
}

/** A sandbox flow in a tab of `browser`, to its tokens: setup, consent, the redirect back, the exchange. */
async function sandboxTokens(browser: Client): Promise<{ tab: Client; token: string }> {
	const tab = await sandboxSetup(browser);
	const back = await decide(tab, consentUrlFrom(await tab.page()));
	expect((await tab.fetch(back)).res.headers.get('location')).toBe(`/?flow=${tab.flow}`);
	await tab.page();
	const [ex] = (await tab.action('exchange')).data.exchanges as Exchange[];
	expect(ex!.response!.status).toBe(200);
	return { tab, token: JSON.parse(ex!.response!.body).access_token as string };
}

test('five flows opened beside it never drop the parent for its fork: writing the fork counts as a use of its parent', async () => {
	// Five flows of about 1,220 bytes (a saved setup each) fit beside a flow with tokens; its fork
	// does not fit beside all six.
	const probe = await sandboxSetup(new Client(srv.url));
	const plain = flowBytes(probe.jar).get(probe.flow)!;
	const pad = Math.max(0, Math.floor(((1220 - plain) * 3) / 4));

	const browser = new Client(srv.url);
	const parent = await sandboxTokens(browser);
	const beside: Client[] = [];
	for (let i = 0; i < 5; i++) beside.push(await sandboxSetup(browser, pad));
	const before = flowBytes(browser.jar);
	expect([...before.keys()].sort()).toEqual([parent.tab, ...beside].map((t) => t.flow).sort());

	// The parent is the least recently written of the six; its replay writes its fork.
	const replay = await parent.tab.action('replay', { confirm: 'replay' });
	expect(replay.type).toBe('success');
	const fork = String(replay.data.fork);
	const after = flowBytes(browser.jar);
	// The fork could not be written beside all six: one of them had to go.
	const all = [...before.values()].reduce((n, b) => n + b, 0) + after.get(fork)!;
	expect(all).toBeGreaterThan(11_800);
	expect(playgroundBytes(browser.jar)).toBeLessThan(12_000);

	// Not its parent: the least recently written of the others went, only as many as needed.
	expect(after.has(parent.tab.flow)).toBe(true);
	expect(unescapeHtml(await parent.tab.page())).toContain(parent.token);
	const dropped = [...before.keys()].filter((id) => !after.has(id));
	expect(dropped).toEqual(beside.slice(0, Math.max(1, dropped.length)).map((t) => t.flow));
	expect(unescapeHtml(await beside[0]!.page()).replace(/'/g, '’')).toContain(
		'This tab’s flow was dropped to make room'
	);

	// Replayed again and again (the fourth replay once dropped the parent for its forks): refused
	// while the fork exists, and nothing is dropped.
	for (let i = 0; i < 4; i++) {
		const again = await parent.tab.action('replay', { confirm: 'replay' });
		expect(again.status).toBe(409);
		expect(again.data.fork).toBe(fork);
	}
	expect([...flowBytes(browser.jar).keys()].sort()).toEqual([...after.keys()].sort());

	// Flows opened later drop the older ones, then the fork before its parent; once the fork is
	// gone, the parent may replay its code again.
	const gone = (id: string) => !browser.jar.has(`pg_flow_${id}`);
	for (let i = 0; i < 12 && !gone(fork); i++) await sandboxSetup(browser, pad);
	expect(gone(fork)).toBe(true);
	expect(gone(parent.tab.flow)).toBe(false);
	for (const t of beside) expect(gone(t.flow)).toBe(true);
	const again = await parent.tab.action('replay', { confirm: 'replay' });
	expect(again.type).toBe('success');
	expect(String(again.data.fork)).not.toBe(fork);
	expect(browser.seen.filter((s) => s.status === 400 || s.status === 431)).toEqual([]);
});
