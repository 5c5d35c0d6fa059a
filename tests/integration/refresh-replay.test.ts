/**
 * "Replay the previous refresh token", over HTTP: only after a rotation this flow saw, only once
 * confirmed, in a fork of the flow whose id comes back, and the original flow's session as it was.
 * What the service did, in the findings: the sandbox revokes the family (its default), accepts the
 * previous token within its reuse window (SANDBOX_REFRESH_REUSE_SECONDS), and oidc-provider, set to
 * rotate on every use, revokes the grant. A server that returns the same refresh token has no older
 * one to try: nothing is offered, and the action is refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, unescapeHtml } from '../helpers/client';
import {
	oidcClient,
	rotatingRefreshTokens,
	startOidcProvider,
	OIDC_CLIENT_ID
} from '../helpers/oidc';
import type { OidcServer } from '../helpers/oidc';
import { oidcServer, sandboxServer, type FlowServer } from '../helpers/two-servers';
import type { Exchange } from '../../src/lib/exchange/types';
import { ACTIONS } from '../../src/lib/exchange/step-registry';

let srv: TestServer;
let windowed: TestServer;
let oidc: OidcServer;
let keeping: OidcServer;

beforeAll(async () => {
	const [port, port2] = [await freePort(), await freePort()];
	const uris = [`http://127.0.0.1:${port}/callback`];
	[oidc, keeping, srv, windowed] = await Promise.all([
		startOidcProvider({
			clients: [oidcClient(uris)],
			configuration: rotatingRefreshTokens([OIDC_CLIENT_ID])
		}),
		startOidcProvider({ clients: [oidcClient(uris)] }),
		startServer({}, port),
		startServer({ SANDBOX_REFRESH_REUSE_SECONDS: '600' }, port2)
	]);
});
afterAll(async () => {
	await Promise.all([srv?.stop(), windowed?.stop(), oidc?.stop(), keeping?.stop()]);
});

const exchangesOf = (r: { data: Record<string, unknown> }) =>
	(r.data.exchanges as Exchange[] | undefined) ?? [];
const codes = (ex: Exchange | undefined) => ex?.findings.map((f) => f.code) ?? [];

/** Setup, consent and exchange on `on`'s playground: the flow holds a refresh token. */
async function exchanged(on: TestServer, t: FlowServer): Promise<Client> {
	const c = new Client(on.url);
	const saved = await c.action('setup', {
		redirect_uri: `${on.url}/callback`,
		auto_exchange: 'false',
		...t.setup()
	});
	expect(saved.type, JSON.stringify(saved.data)).toBe('success');
	const back = await t.consent(c, consentUrlFrom(await c.page()));
	expect((await c.action('pasteback', { pasted: back })).type).toBe('success');
	expect(exchangesOf(await c.action('exchange'))[0]!.response!.status).toBe(200);
	return c;
}

/** The same, and one refresh: the flow saw a rotation. */
async function refreshed(on: TestServer, t: FlowServer): Promise<Client> {
	const c = await exchanged(on, t);
	expect(exchangesOf(await c.action('refresh'))[0]!.response!.status).toBe(200);
	return c;
}

/** The try, confirmed: the fork's id and its exchanges. */
async function tryPrevious(c: Client) {
	const r = await c.action('replayrefresh', { confirm: 'replay-refresh' });
	expect(r.type, JSON.stringify(r.data)).toBe('success');
	const fork = String(r.data.fork);
	expect(fork).toMatch(/^[\w-]{16}$/);
	expect(fork).not.toBe(c.flow);
	return { fork, sent: (r.data.forkExchanges as Exchange[]) ?? [] };
}

describe('against the sandbox, which revokes the family on reuse', () => {
	test('offered after a rotation; refused without its confirmation; in a fork: the previous token refused, the current one too, the access token revoked; this flow as it was', async () => {
		const c = new Client(srv.url);
		expect((await c.action('replayrefresh', { confirm: 'replay-refresh' })).status).toBe(409);
		const flow = await refreshed(
			srv,
			sandboxServer(() => srv)
		);
		expect(unescapeHtml(await flow.page())).toContain('data-testid="replay-refresh"');
		const unconfirmed = await flow.action('replayrefresh');
		expect(unconfirmed.status).toBe(400);
		expect(String(unconfirmed.data.message)).toMatch(/confirmation/);

		// The tokens the page data holds: the access and refresh tokens, as shown.
		const tokensOf = (page: string) =>
			[...page.matchAll(/\b(access_token|refresh_token):"([^"]+)"/g)].map((m) => m.slice(1));
		const before = tokensOf(unescapeHtml(await flow.page()));
		expect(before.map(([name]) => name)).toEqual(['access_token', 'refresh_token']);
		const { fork, sent } = await tryPrevious(flow);
		// The original flow keeps its tokens: it records only what the fork found about them.
		expect(tokensOf(unescapeHtml(await flow.page()))).toEqual(before);
		const [previous, current, check, ...rest] = sent;
		expect(rest).toEqual([]);
		expect(previous).toMatchObject({ step: 'refresh', replay: true });
		expect(previous!.response!.status).toBe(400);
		expect(codes(previous)[0]).toBe('refresh-replay-refused');
		expect(previous!.findings[0]!.message).toMatch(
			/^The service refused the refresh token it had replaced \d+ seconds? ago \(HTTP 400, invalid_grant\)/
		);
		expect(current).toMatchObject({ step: 'refresh', replay: true });
		expect(current!.response!.status).toBe(400);
		expect(codes(current)[0]).toBe('refresh-replay-family-revoked');
		expect(check).toMatchObject({ step: 'userinfo', replay: true });
		expect(check!.response!.status).toBe(401);
		expect(codes(check)[0]).toBe('refresh-replay-access-revoked');
		// The previous token went out as the refresh token, not the current one.
		expect(previous!.request.body).not.toBe(current!.request.body);
		// The fork's page says what it is; the original names its fork, where the try was offered.
		const forkPage = unescapeHtml(await flow.tab(fork).page());
		expect(forkPage).toContain('data-testid="refresh-try-fork"');
		const parentPage = unescapeHtml(await flow.page());
		expect(parentPage).toContain('data-testid="refresh-fork-held"');
		expect(parentPage).toContain(`?flow=${fork}`);
		// The fork's check found the access token both hold refused: the original flow says so.
		expect(parentPage).toContain('revokedByFork:"refresh"');
		// One fork at a time: a second try names the fork.
		const second = await flow.action('replayrefresh', { confirm: 'replay-refresh' });
		expect(second.status).toBe(409);
		expect(second.data.fork).toBe(fork);
	});
});

describe('a fork is a record', () => {
	test('every step, save and try asked of a fork is refused, whatever its form holds, and nothing is written; its page offers no step; a duplicated tab still gets a flow of its own', async () => {
		const flow = await refreshed(
			srv,
			sandboxServer(() => srv)
		);
		const { fork } = await tryPrevious(flow);
		const inFork = flow.tab(fork);
		const sealed = flow.jar.get(`pg_flow_${fork}`);
		expect(sealed).toBeTruthy();
		// Each with a form that would pass its check: the fork refuses before reading it.
		const form = {
			confirm: 'replay',
			scope: 'read',
			which: 'access_token',
			method: 'GET',
			path: 'user-info',
			pasted: `${srv.url}/callback?code=x&state=y`
		};
		const refused = Object.keys(ACTIONS).filter((name) => name !== 'fork');
		expect(refused).toEqual(expect.arrayContaining(['exchange', 'refresh', 'userinfo', 'setup']));
		for (const name of refused) {
			const r = await inFork.action(name, form);
			expect(r.status, name).toBe(409);
			expect(String(r.data.message), name).toMatch(
				/^This flow is a fork, kept as the record of what the service did/
			);
			expect(r.data.exchanges ?? [], name).toEqual([]);
		}
		// Nothing was written: the fork's sealed cookie is byte for byte the same.
		expect(flow.jar.get(`pg_flow_${fork}`)).toBe(sealed);

		// The original offers its steps; the fork none of them, and says why in step 1.
		const forms = (page: string) =>
			new Set([...page.matchAll(/data-action="([a-z]+)"/g)].map((m) => m[1]));
		const parentPage = unescapeHtml(await flow.page());
		expect([...forms(parentPage)]).toEqual(
			expect.arrayContaining(['userinfo', 'refresh', 'api', 'pasteback', 'restart', 'secret'])
		);
		expect(parentPage).not.toContain('data-testid="record-note"');
		const forkPage = unescapeHtml(await inFork.page());
		expect([...forms(forkPage)]).toEqual([]);
		expect(forkPage).not.toContain('Open the consent page');
		expect(forkPage).toContain('data-testid="record-note"');

		// A duplicated tab's own flow: a new flow with the setup, not a fork, and not a record.
		const dup = await inFork.action('fork');
		expect(dup.type, JSON.stringify(dup.data)).toBe('success');
		const own = flow.tab(String(dup.data.flow));
		expect(unescapeHtml(await own.page())).not.toContain('data-testid="record-note"');
	});
});

describe('after a code replay', () => {
	test('while its fork exists the try is not offered; once closed, not again (the replay may have revoked the grant)', async () => {
		const flow = await refreshed(
			srv,
			sandboxServer(() => srv)
		);
		const replay = await flow.action('replay', { confirm: 'replay' });
		expect(replay.type).toBe('success');
		const fork = String(replay.data.fork);
		const held = unescapeHtml(await flow.page());
		expect(held).not.toContain('data-testid="replay-refresh"');
		expect(held).toContain('data-testid="refresh-fork-held"');
		// The sandbox revoked the grant: the fork's check found the tokens both hold refused, and
		// this flow's page data says so while the fork exists (its verdict line, verdict.ts).
		expect(held).toContain('revokedByFork:"code"');
		expect((await flow.action('closefork', { fork })).type).toBe('success');
		const closed = unescapeHtml(await flow.page());
		expect(closed).not.toContain('data-testid="replay-refresh"');
		// What the fork found outlives it: the tokens are still the revoked ones.
		expect(closed).toContain('revokedByFork:"code"');
		expect((await flow.action('replayrefresh', { confirm: 'replay-refresh' })).status).toBe(409);
	});
});

describe('against the sandbox with a reuse window of 600 seconds', () => {
	test('the previous token is accepted: a reuse window of at least the time since it was replaced', async () => {
		const flow = await refreshed(
			windowed,
			sandboxServer(() => windowed)
		);
		const { sent } = await tryPrevious(flow);
		const [previous, check, ...rest] = sent;
		expect(rest).toEqual([]);
		expect(previous!.response!.status).toBe(200);
		expect(codes(previous)[0]).toBe('refresh-replay-accepted');
		expect(previous!.findings[0]!.message).toMatch(
			/either it has a reuse window of at least \d+ seconds? for the previous refresh token/
		);
		expect(check!.response!.status).toBe(200);
		expect(codes(check)[0]).toBe('refresh-replay-access-works');
		// The fork's newest tokens work, and the original's were not found revoked.
		expect(unescapeHtml(await flow.page())).toContain('revokedByFork:null');
	});
});

describe('the original flow after a try that refreshed', () => {
	test('its refreshes are held while the fork holds the newer tokens; "Take the fork\'s newest tokens" brings them here and closes the fork', async () => {
		const flow = await refreshed(
			windowed,
			sandboxServer(() => windowed)
		);
		const { fork } = await tryPrevious(flow);
		const page = unescapeHtml(await flow.page());
		expect(page).toContain('data-testid="refresh-held"');
		const held = await flow.action('refresh');
		expect(held.status).toBe(409);
		expect(String(held.data.message)).toMatch(
			/^This flow's refresh token was superseded by its fork's check/
		);
		expect(exchangesOf(held)).toEqual([]);
		const forkTokens = flow.tab(fork);
		const forkPage = unescapeHtml(await forkTokens.page());
		const taken = await flow.action('takefork');
		expect(taken.type, JSON.stringify(taken.data)).toBe('success');
		expect(taken.data.taken).toBe(fork);
		// The fork is closed; this flow refreshes again, with the tokens the fork held.
		expect(flow.jar.has(`pg_flow_${fork}`)).toBe(false);
		const after = unescapeHtml(await flow.page());
		expect(after).not.toContain('data-testid="refresh-held"');
		const [again] = exchangesOf(await flow.action('refresh'));
		expect(again!.response!.status).toBe(200);
		const sentToken = new URLSearchParams(again!.request.body).get('refresh_token') ?? '';
		expect(sentToken.length).toBeGreaterThan(0);
		expect(forkPage).toContain(sentToken);
		// Taking twice: nothing left to take.
		expect((await flow.action('takefork')).status).toBe(409);
	});

	test('a try that got no new tokens holds nothing: the original flow refreshes, and the service answers', async () => {
		const flow = await refreshed(
			srv,
			sandboxServer(() => srv)
		);
		await tryPrevious(flow);
		expect(unescapeHtml(await flow.page())).not.toContain('data-testid="refresh-held"');
		const [refused] = exchangesOf(await flow.action('refresh'));
		// The sandbox revoked the family on the reuse: the truth, from the service.
		expect(refused!.response!.status).toBe(400);
	});
});

describe('a fork dropped to make room for newer flows', () => {
	/**
	 * Tabs of `c`'s browser with a saved setup each, about 2 KB apiece ("Redirect URI as
	 * registered", never sent), until the cap on the browser's flows drops `fork`: `c`'s own flow,
	 * used as recently, stays.
	 */
	async function crowdOut(on: TestServer, c: Client, fork: string) {
		for (let i = 0; i < 12 && c.jar.has(`pg_flow_${fork}`); i++) {
			const saved = await c.tab().action('setup', {
				...sandboxServer(() => on).setup(),
				redirect_uri: `${on.url}/callback`,
				registered_redirect_uri: `${on.url}/callback?pad=${'p'.repeat(1500)}`
			});
			expect(saved.type, JSON.stringify(saved.data)).toBe('success');
		}
		expect(c.jar.has(`pg_flow_${fork}`), 'the fork was dropped').toBe(false);
		expect(c.jar.has(`pg_flow_${c.flow}`), 'the flow it was made from stays').toBe(true);
	}

	test('after a code replay: the verdict still says the tokens were revoked, and no try of the previous refresh token is offered', async () => {
		const flow = await refreshed(
			srv,
			sandboxServer(() => srv)
		);
		const replay = await flow.action('replay', { confirm: 'replay' });
		expect(replay.type).toBe('success');
		await crowdOut(srv, flow, String(replay.data.fork));
		const page = unescapeHtml(await flow.page());
		expect(page).toContain('revokedByFork:"code"');
		expect(page).not.toContain('data-testid="replay-refresh"');
		expect((await flow.action('replayrefresh', { confirm: 'replay-refresh' })).status).toBe(409);
	});

	test('after a try that refreshed: the refreshes stay held, said why, with nothing to take', async () => {
		const flow = await refreshed(
			windowed,
			sandboxServer(() => windowed)
		);
		const { fork } = await tryPrevious(flow);
		await crowdOut(windowed, flow, fork);
		const page = unescapeHtml(await flow.page());
		expect(page).toContain('data-testid="refresh-held"');
		expect(page).not.toContain('data-action="takefork"');
		const held = await flow.action('refresh');
		expect(held.status).toBe(409);
		expect(String(held.data.message)).toMatch(
			/and that fork, which held the newer tokens, was dropped to make room for newer flows/
		);
		expect(exchangesOf(held)).toEqual([]);
		expect((await flow.action('takefork')).status).toBe(409);
		// Nor is the superseded token tried on purpose: a try would send it too.
		for (const [action, confirm] of [
			['tworefreshes', 'two-refreshes'],
			['replayrefresh', 'replay-refresh']
		] as const) {
			const tried = await flow.action(action, { confirm });
			expect(tried.status, action).toBe(409);
			expect(String(tried.data.message)).toMatch(
				/^This flow's refresh token was superseded by its fork's check: a try here would send a superseded token/
			);
			expect(tried.data.forkExchanges).toBeUndefined();
		}
		expect(page).not.toContain('data-testid="two-refreshes"');
	});
});

describe('against oidc-provider', () => {
	test('rotating on every use: the consumed token is refused and the grant revoked', async () => {
		const flow = await refreshed(
			srv,
			oidcServer(() => oidc)
		);
		const { sent } = await tryPrevious(flow);
		const [previous, current, check] = sent;
		expect(previous!.response!.status).toBe(400);
		expect(codes(previous)[0]).toBe('refresh-replay-refused');
		expect(current!.response!.status).toBe(400);
		expect(codes(current)[0]).toBe('refresh-replay-family-revoked');
		expect(check!.response!.status).toBe(401);
	});

	test('returning the same refresh token: no older one to try, nothing offered, the action refused', async () => {
		const flow = await refreshed(
			srv,
			oidcServer(() => keeping)
		);
		expect(unescapeHtml(await flow.page())).not.toContain('data-testid="replay-refresh"');
		const r = await flow.action('replayrefresh', { confirm: 'replay-refresh' });
		expect(r.status).toBe(409);
		expect(String(r.data.message)).toMatch(/returns the same refresh token has no older one/);
	});
});

describe('"Two refreshes at once"', () => {
	async function race(c: Client) {
		const r = await c.action('tworefreshes', { confirm: 'two-refreshes' });
		expect(r.type, JSON.stringify(r.data)).toBe('success');
		const sent = (r.data.forkExchanges as Exchange[]) ?? [];
		expect(sent).toHaveLength(2);
		for (const ex of sent) expect(ex).toMatchObject({ step: 'refresh', replay: true });
		// The same refresh token, twice.
		const tokens = sent.map((ex) => new URLSearchParams(ex.request.body).get('refresh_token'));
		expect(tokens[0]).toBe(tokens[1]);
		return { fork: String(r.data.fork), sent, codes: sent.map((ex) => codes(ex)[0]).sort() };
	}

	test('offered with a refresh token; refused without its confirmation', async () => {
		const c = await exchanged(
			srv,
			sandboxServer(() => srv)
		);
		expect(unescapeHtml(await c.page())).toContain('data-testid="two-refreshes"');
		const unconfirmed = await c.action('tworefreshes');
		expect(unconfirmed.status).toBe(400);
		expect(String(unconfirmed.data.message)).toMatch(/confirmation/);
	});

	test('oidc-provider rotating on every use: one answers new tokens, the other is refused as a reuse', async () => {
		const c = await exchanged(
			srv,
			oidcServer(() => oidc)
		);
		const { codes: found, sent } = await race(c);
		expect(found).toEqual(['refresh-race-accepted', 'refresh-race-refused']);
		expect(sent.map((ex) => ex.response!.status).sort()).toEqual([200, 400]);
		// One gave the fork new tokens: this flow's refresh token is superseded, its refreshes held,
		// though this flow never saw a rotation of its own; nothing is sent.
		expect(unescapeHtml(await c.page())).toContain('data-testid="refresh-held"');
		const held = await c.action('refresh');
		expect(held.status).toBe(409);
		expect(String(held.data.message)).toMatch(
			/^This flow's refresh token was superseded by its fork's check/
		);
		expect(exchangesOf(held)).toEqual([]);
	});

	test('oidc-provider keeping the refresh token: both answer new tokens', async () => {
		const c = await exchanged(
			srv,
			oidcServer(() => keeping)
		);
		const { codes: found } = await race(c);
		expect(found).toEqual(['refresh-race-both-accepted', 'refresh-race-both-accepted']);
	});

	test('the sandbox: the second is a reuse (invalid_grant), the first answers new tokens', async () => {
		const c = await exchanged(
			srv,
			sandboxServer(() => srv)
		);
		const { codes: found, sent } = await race(c);
		expect(sent.map((ex) => ex.response!.status).sort()).toEqual([200, 400]);
		expect(found).toEqual(['refresh-race-accepted', 'refresh-race-refused']);
		const refused = sent.find((ex) => ex.response!.status === 400)!;
		expect(JSON.parse(refused.response!.body).error).toBe('invalid_grant');
	});
});
