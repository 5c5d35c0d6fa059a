/**
 * The support tools that show how a service behaves, over HTTP. "Replay this code", against the
 * sandbox and oidc-provider: only once confirmed, only the code this flow exchanged, in a fork of
 * the flow whose id comes back; the service's refusal and its revocation of the tokens issued from
 * the code are information, and the original flow's session is as it was. One fork at a time: a
 * second replay is refused while the fork exists, with its id, until "Close that fork". "Get a code for the
 * script": a consent whose code comes back shown for the curl script, which can spend it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
import { oidcClient, startOidcProvider, type OidcServer } from '../helpers/oidc';
import { oidcServer, sandboxServer, type FlowServer } from '../helpers/two-servers';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
let oidc: OidcServer;

beforeAll(async () => {
	const port = await freePort();
	oidc = await startOidcProvider({
		clients: [oidcClient([`http://127.0.0.1:${port}/callback`])]
	});
	srv = await startServer({}, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
});

const exchangesOf = (r: { data: Record<string, unknown> }) =>
	(r.data.exchanges as Exchange[] | undefined) ?? [];

const TARGETS = [sandboxServer(() => srv), oidcServer(() => oidc)];

/** Setup, consent, the address back, the exchange: the flow holds tokens from its code. */
async function exchanged(c: Client, t: FlowServer) {
	const saved = await c.action('setup', {
		redirect_uri: `${srv.url}/callback`,
		auto_exchange: 'false',
		...t.setup()
	});
	expect(saved.type).toBe('success');
	const back = await t.consent(c, consentUrlFrom(await c.page()));
	expect((await c.action('pasteback', { pasted: back })).type).toBe('success');
	const [ex] = exchangesOf(await c.action('exchange'));
	expect(ex!.response!.status).toBe(200);
	return JSON.parse(ex!.response!.body) as { access_token: string };
}

describe.each(TARGETS)('replaying the code, against $name', (t) => {
	test('refused without its confirmation, and before any code was exchanged', async () => {
		const c = new Client(srv.url);
		const early = await c.action('replay', { confirm: 'replay' });
		expect(early.status).toBe(409);
		await exchanged(c, t);
		const unconfirmed = await c.action('replay');
		expect(unconfirmed.status).toBe(400);
		expect(String(unconfirmed.data.message)).toMatch(/confirmation/);
		// Nothing was sent: the tokens still work.
		const [ui] = exchangesOf(await c.action('userinfo'));
		expect(ui!.response!.status).toBe(200);
	});

	test('confirmed: in a fork, the code is refused and the tokens it gave are revoked; this flow is as it was', async () => {
		const c = new Client(srv.url);
		const tokens = await exchanged(c, t);
		const before = unescapeHtml(await c.page());
		expect(before).toContain('data-testid="replay-code"');

		const r = await c.action('replay', { confirm: 'replay' });
		expect(r.type).toBe('success');
		const fork = String(r.data.fork);
		expect(fork).toMatch(/^[\w-]{16}$/);
		expect(fork).not.toBe(c.flow);
		// Under their own name: they belong to the fork's transcript, not this tab's.
		expect(exchangesOf(r)).toEqual([]);
		const [replay, check, ...rest] = (r.data.forkExchanges as Exchange[]) ?? [];
		expect(rest).toEqual([]);
		expect(replay).toMatchObject({ step: 'exchange', replay: true });
		expect(replay!.request.body).toContain('client_secret=<redacted>');
		// Redacted as an exchange: it says what was redacted and how long it was.
		expect(replay!.redactions?.some((r) => r.what.startsWith('client_secret'))).toBe(true);
		expect(replay!.response!.status).toBe(400);
		expect(replay!.findings.map((f) => [f.level, f.code])).toEqual([
			['info', 'code-replay-refused']
		]);
		expect(check).toMatchObject({ step: 'userinfo', replay: true });
		expect(check!.response!.status).toBe(401);
		expect(check!.findings[0]).toMatchObject({ level: 'info', code: 'tokens-revoked' });
		expect(check!.findings.filter((f) => f.level === 'error')).toEqual([]);

		// This flow's session was not written: the same tokens; while its fork exists it names the
		// fork instead of offering a second replay (one fork at a time, below).
		const after = unescapeHtml(await c.page());
		expect(after).toContain(tokens.access_token);
		expect(after).toContain('data-testid="fork-held"');
		expect(after).not.toContain('data-testid="replay-code"');
		expect(after).not.toContain('data-testid="replay-fork"');
		// The fork: the same tokens, says what it is, and offers no replay of its own.
		const forkPage = unescapeHtml(await c.tab(fork).page());
		expect(forkPage).toContain('data-testid="replay-fork"');
		expect(forkPage).toContain(tokens.access_token);
		expect(forkPage).not.toContain('data-testid="replay-code"');

		const secret = t.setup().client_secret!;
		for (const s of c.seen) expect(s.body + s.headers).not.toContain(secret);
	});
});

describe('one fork at a time, against the sandbox', () => {
	const t = TARGETS[0]!;
	const flowsIn = (c: Client) =>
		[...c.jar.keys()].filter((n) => /^pg_flow_[\w-]{16}$/.test(n)).map((n) => n.slice(8));

	test('a second replay while the fork exists is refused with a link to it; Close that fork lets the code be replayed again', async () => {
		const c = new Client(srv.url);
		await exchanged(c, t);
		const first = await c.action('replay', { confirm: 'replay' });
		expect(first.type).toBe('success');
		const fork = String(first.data.fork);
		expect(flowsIn(c).sort()).toEqual([c.flow, fork].sort());

		// The flow's page names its fork, and offers Close that fork instead of a second replay.
		const page = unescapeHtml(await c.page());
		expect(page).toContain('data-testid="fork-held"');
		expect(page).toContain(`href="/?flow=${fork}"`);
		expect(page).toContain('Close that fork');
		expect(page).not.toContain('data-testid="replay-code"');

		// A replay posted all the same (a page loaded before the fork was made) is refused, with the
		// fork's id for its link: nothing is sent and no third flow is made.
		const second = await c.action('replay', { confirm: 'replay' });
		expect(second.status).toBe(409);
		expect(second.data.fork).toBe(fork);
		expect(String(second.data.message)).toMatch(/already has a fork.*one fork at a time/);
		expect(exchangesOf(second)).toEqual([]);
		expect(second.data.forkExchanges).toBeUndefined();
		expect(flowsIn(c).sort()).toEqual([c.flow, fork].sort());

		// Close that fork names the fork; a flow that is not this flow's fork is not closed.
		const stranger = c.tab();
		await exchanged(stranger, t);
		const notItsFork = await c.action('closefork', { fork: stranger.flow });
		expect(notItsFork.status).toBe(409);
		expect(String(notItsFork.data.message)).toMatch(/not a fork of this flow/);
		expect(c.jar.has(`pg_flow_${stranger.flow}`)).toBe(true);
		const malformed = await c.action('closefork', { fork: 'not-a-flow-id' });
		expect(malformed.status).toBe(400);

		const closed = await c.action('closefork', { fork });
		expect(closed.type).toBe('success');
		expect(closed.data.closed).toBe(fork);
		expect(c.jar.has(`pg_flow_${fork}`)).toBe(false);
		// This flow was not written: its tokens are as they were, and the replay is offered again.
		expect(c.jar.has(`pg_flow_${c.flow}`)).toBe(true);
		expect(unescapeHtml(await c.page())).toContain('data-testid="replay-code"');
		// The closed fork's tab says why its flow is gone.
		expect(unescapeHtml(await c.tab(fork).page()).replace(/'/g, '’')).toMatch(
			/This flow was a fork, closed from the flow it was made from/
		);

		const again = await c.action('replay', { confirm: 'replay' });
		expect(again.type).toBe('success');
		expect(String(again.data.fork)).not.toBe(fork);
		expect(String(again.data.fork)).not.toBe(c.flow);

		// Closing a fork that is already gone says so and changes nothing.
		const twice = await c.action('closefork', { fork });
		expect(twice.type).toBe('success');
		expect(twice.data.gone).toBe(true);
		expect(c.jar.has(`pg_flow_${again.data.fork}`)).toBe(true);
	});

	test('a flow too large to keep a fork beside it is refused before its code is sent: the flow is never dropped for its fork', async () => {
		const c = new Client(srv.url);
		const long = (path: string) => `${srv.url}/sandbox/${path}?pad=${'p'.repeat(1900)}`;
		const saved = await c.action('setup', {
			redirect_uri: `${srv.url}/callback`,
			auto_exchange: 'false',
			...t.setup(),
			jwks_uri: long('jwks'),
			revocation_endpoint: long('revoke')
		});
		expect(saved.type).toBe('success');
		const back = await t.consent(c, consentUrlFrom(await c.page()));
		expect((await c.action('pasteback', { pasted: back })).type).toBe('success');
		expect(exchangesOf(await c.action('exchange'))[0]!.response!.status).toBe(200);

		const r = await c.action('replay', { confirm: 'replay' });
		expect(r.status).toBe(409);
		expect(String(r.data.message)).toMatch(/too large to keep a fork beside it.*Nothing was sent/);
		expect(exchangesOf(r)).toEqual([]);
		expect(flowsIn(c)).toEqual([c.flow]);
		// The code was not replayed: the service did not revoke the tokens issued from it.
		const [ui] = exchangesOf(await c.action('userinfo'));
		expect(ui!.response!.status).toBe(200);
	});
});

describe('"Get a code for the script", against the sandbox', () => {
	test('the consent opened for the script brings its code back shown, not exchanged; the script can spend it', async () => {
		const c = new Client(srv.url);
		await c.action('setup', {
			redirect_uri: `${srv.url}/callback`,
			auto_exchange: 'true',
			...TARGETS[0]!.setup()
		});
		const r = await c.action('forscript');
		expect(r.type).toBe('success');
		const consentUrl = String(r.data.consent_url);
		expect(consentUrl).toBe(consentUrlFrom(await c.page()));
		const back = new URL(await decide(c, consentUrl));
		expect((await c.fetch(back.toString())).res.status).toBe(303);
		const page = unescapeHtml(await c.page());
		const code = back.searchParams.get('code')!;
		expect(page).toContain('data-testid="script-code"');
		// The page data holds the code's own exchange for its script, as it would be sent, the secret redacted.
		const body = /"(code=[^"]*grant_type=authorization_code[^"]*)"/
			.exec(page)?.[1]
			?.replaceAll('\\u003C', '<');
		expect(body).toBe(
			`code=${encodeURIComponent(code)}&redirect_uri=${encodeURIComponent(`${srv.url}/callback`)}&client_id=sandbox-rw&client_secret=<redacted>&scope=&grant_type=authorization_code`
		);
		expect(page).not.toContain('sandbox-rw-secret');
		// The script's exchange, as the exported script sends it, with the code from the page.
		const res = await fetch(`${srv.url}/sandbox/oauth2/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'authorization_code',
				code,
				redirect_uri: `${srv.url}/callback`,
				client_id: 'sandbox-rw',
				client_secret: 'sandbox-rw-secret'
			})
		});
		expect(res.status).toBe(200);
	});

	test('not with PKCE: the verifier stays on the server, so the script could not spend the code', async () => {
		const c = new Client(srv.url);
		await c.action('setup', {
			redirect_uri: `${srv.url}/callback`,
			pkce: 'S256',
			...TARGETS[0]!.setup()
		});
		const r = await c.action('forscript');
		expect(r.status).toBe(409);
		expect(String(r.data.message)).toMatch(/PKCE/);
		expect(unescapeHtml(await c.page())).not.toContain('data-testid="code-for-script"');
	});
});
