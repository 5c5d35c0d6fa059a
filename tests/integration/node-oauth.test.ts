/**
 * The built playground against a second authorization server this project did not write:
 * @node-oauth/oauth2-server behind @node-oauth/express-oauth-server (tests/helpers/node-oauth.ts),
 * which asks the user to sign in before it looks at the consent request.
 *
 * - "Check the consent URL" for an unknown client, a redirect URI one trailing slash off the
 *   registration and a scope the client may not have: the server answers its sign-in page for all
 *   three, so the check says it judged nothing yet (`sign-in-first`), in its finding and in the
 *   verdict line, and never "accepted"; signed in, the library then refuses each (a 400
 *   `invalid_client` for the first two, and for the scope a 400 `invalid_scope` whose `Location`
 *   header points back at the redirect URI, which a browser does not follow).
 * - The whole flow: the sign-in form posted, the redirect followed to /callback, the code
 *   exchanged, the protected resource called as user-info, the refresh token rotated (the old one
 *   refused afterwards), and the new tokens working.
 * - A wrong client secret: the library's 400 `invalid_client`, the one error finding.
 * - PKCE (S256): the consent request's challenge reaches the library, which checks the verifier.
 * - A code exchanged after its 60 seconds: the library says "authorization code has expired", and
 *   the playground says so for certain.
 * - "Replay this code": the library refuses the code the second time but leaves the tokens issued
 *   from it working, and the playground says both.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';
import {
	CODE_LIFETIME_S,
	nodeOAuthClient,
	signIn,
	startNodeOAuth,
	type NodeOAuthServer
} from '../helpers/node-oauth';
import type { Exchange } from '../../src/lib/exchange/types';
import { verdictOf } from '../../src/lib/exchange/verdict';

let srv: TestServer;
let node: NodeOAuthServer;
let callback: string;

const SECRET = 'node-Secret-7Hq3-xW';

beforeAll(async () => {
	const port = await freePort();
	callback = `http://127.0.0.1:${port}/callback`;
	node = await startNodeOAuth([
		nodeOAuthClient('node-app', SECRET, [callback]),
		nodeOAuthClient('node-slash', SECRET, [`${callback}/`]),
		nodeOAuthClient('node-read', SECRET, [callback], { scopes: ['read'] })
	]);
	srv = await startServer({}, port);
});
afterAll(async () => {
	await srv?.stop();
	await node?.stop();
});

const exchanges = (r: { data: Record<string, unknown> }) => (r.data.exchanges as Exchange[]) ?? [];
const errors = (ex: Exchange) => ex.findings.filter((f) => f.level === 'error').map((f) => f.code);

/** The setup as a developer enters it for this server: its origin and its three endpoints. */
async function setUp(c: Client, fields: Record<string, string> = {}) {
	const saved = await c.action('setup', {
		base_url: node.origin,
		client_id: 'node-app',
		client_secret: SECRET,
		scope: 'read write',
		redirect_uri: callback,
		authorization_endpoint: node.endpoints.authorization,
		token_endpoint: node.endpoints.token,
		userinfo_endpoint: node.endpoints.userinfo,
		auto_exchange: 'true',
		...fields
	});
	expect(saved.type).toBe('success');
}

/** Setup, the sign-in form posted, and the library's redirect followed to the playground. */
async function toCallback(c: Client, fields: Record<string, string> = {}): Promise<URL> {
	await setUp(c, fields);
	const consentUrl = consentUrlFrom(await c.page());
	expect(consentUrl.startsWith(node.endpoints.authorization + '?')).toBe(true);
	const answer = await signIn(new Client(node.origin), consentUrl);
	expect(answer.status).toBe(302);
	const back = new URL(answer.location!);
	expect(back.origin + back.pathname).toBe(callback);
	expect(back.searchParams.get('code')).toBeTruthy();
	const cb = await c.fetch(back.toString());
	expect(cb.res.status).toBe(303);
	return back;
}

describe('"Check the consent URL" answered by the sign-in page', () => {
	test.each([
		{
			name: 'an unknown client',
			fields: { client_id: 'node-nope' },
			refusal: { status: 400, error: 'invalid_client', words: 'client credentials are invalid' }
		},
		{
			name: 'a redirect URI one trailing slash off the registration',
			fields: { client_id: 'node-slash', registered_redirect_uri: `${'{callback}'}/` },
			refusal: {
				status: 400,
				error: 'invalid_client',
				words: '`redirect_uri` does not match client value'
			}
		},
		{
			name: 'a scope the client may not have',
			fields: { client_id: 'node-read' },
			refusal: { status: 400, error: 'invalid_scope', words: 'Requested scope is invalid' }
		}
	])(
		'$name: not judged yet, in the finding and the verdict line, never "accepted" (signed in, the library refuses it)',
		async ({ fields, refusal }) => {
			const c = new Client(srv.url);
			const filled = Object.fromEntries(
				Object.entries(fields).map(([k, v]) => [k, v.replace('{callback}', callback)])
			);
			await setUp(c, filled);
			const [ex] = exchanges(await c.action('check'));
			expect(ex!.request.url.startsWith(node.endpoints.authorization + '?')).toBe(true);
			expect(ex!.response!.status).toBe(200);
			expect(ex!.response!.body).toContain('type="password"');
			expect(ex!.findings.map((f) => [f.code, f.level])).toEqual([['sign-in-first', 'warning']]);
			const host = new URL(node.origin).host;
			expect(ex!.findings[0]!.message).toContain(
				`Not judged yet: ${host} asks the user to sign in first`
			);
			expect(ex!.findings[0]!.fix).toContain('open the consent page and sign in');
			const verdict = verdictOf([ex!], Date.now())!;
			expect(verdict.tone).toBe('neutral');
			expect(verdict.text).toContain(
				`Registration check: not judged yet: ${host} asks the user to sign in first`
			);
			expect(JSON.stringify(ex!.findings) + verdict.text).not.toMatch(/accepted/i);

			// The same consent request, signed in: the library refuses it, so "accepted" would have
			// been untrue. For the scope, its 400 carries a Location back to the redirect URI.
			const answer = await signIn(new Client(node.origin), ex!.request.url);
			expect(answer.status).toBe(refusal.status);
			expect(JSON.parse(answer.body)).toEqual({
				error: refusal.error,
				error_description: expect.stringContaining(refusal.words)
			});
			if (refusal.error === 'invalid_scope') {
				const back = new URL(answer.location!);
				expect(back.origin + back.pathname).toBe(callback);
				expect(back.searchParams.get('error')).toBe('invalid_scope');
				// Followed to the playground: the refusal is explained in any server's words, not the
				// feed-reader service's ("Read only", its two scopes), and no scope is guessed.
				expect((await c.fetch(back.toString())).res.status).toBe(303);
				const page = await c.page();
				expect(page).toContain('invalid_scope');
				expect(page).not.toContain('set to &quot;Read only&quot;');
				expect(page).not.toContain('set to "Read only"');
				expect(page).not.toContain('Try again with scope');
			} else expect(answer.location).toBeUndefined();
		}
	);
});

test('the whole flow: sign-in, callback, code exchange, user-info on the protected route, refresh with rotation', async () => {
	const c = new Client(srv.url);
	await toCallback(c);

	const [tokenEx] = exchanges(await c.action('exchange'));
	expect(tokenEx!.request.url).toBe(node.endpoints.token);
	expect(tokenEx!.request.body).toContain('client_secret=<redacted>');
	expect(tokenEx!.response!.status).toBe(200);
	const tokens = JSON.parse(tokenEx!.response!.body) as Record<string, unknown>;
	expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'read write' });
	// The library's hour, counted from the token's expiry date: 3600, or 3599 a moment later.
	expect([3599, 3600]).toContain(tokens.expires_in);
	expect(typeof tokens.access_token).toBe('string');
	expect(typeof tokens.refresh_token).toBe('string');
	expect(errors(tokenEx!)).toEqual([]);
	expect(await c.page()).toContain(String(tokens.access_token));

	const [uiEx] = exchanges(await c.action('userinfo'));
	expect(uiEx!.request.url).toBe(node.endpoints.userinfo);
	expect(uiEx!.response!.status).toBe(200);
	expect(JSON.parse(uiEx!.response!.body)).toEqual({
		id: 'user-1',
		username: 'alice',
		scope: 'read write'
	});
	expect(errors(uiEx!)).toEqual([]);
	// Not the feed-reader service: none of its advice (its user record's userId) on this answer.
	expect(uiEx!.findings.map((f) => f.code)).not.toContain('userinfo-fields');

	const [rfEx] = exchanges(await c.action('refresh'));
	expect(rfEx!.request.body).toContain('grant_type=refresh_token');
	expect(rfEx!.response!.status).toBe(200);
	const refreshed = JSON.parse(rfEx!.response!.body) as Record<string, unknown>;
	expect(refreshed.access_token).not.toBe(tokens.access_token);
	expect(typeof refreshed.refresh_token).toBe('string');
	expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
	expect(errors(rfEx!)).toEqual([]);
	expect(await c.page()).toContain(String(refreshed.access_token));

	// Rotation: the library revoked the refresh token the playground sent.
	const old = await fetch(node.endpoints.token, {
		method: 'POST',
		body: new URLSearchParams({
			grant_type: 'refresh_token',
			refresh_token: String(tokens.refresh_token),
			client_id: 'node-app',
			client_secret: SECRET
		})
	});
	expect(old.status).toBe(400);
	expect(await old.json()).toEqual({
		error: 'invalid_grant',
		error_description: 'Invalid grant: refresh token is invalid'
	});

	// The new access token works, and the new refresh token refreshes again.
	expect(exchanges(await c.action('userinfo'))[0]!.response!.status).toBe(200);
	const [again] = exchanges(await c.action('refresh'));
	expect(again!.response!.status).toBe(200);
	expect(JSON.parse(again!.response!.body).refresh_token).not.toBe(refreshed.refresh_token);

	for (const s of c.seen) expect(s.body + s.headers).not.toContain(SECRET);
});

test('a wrong client secret: the library answers 400 invalid_client, the one error finding', async () => {
	const c = new Client(srv.url);
	await toCallback(c, { client_secret: 'not-the-Secret' });
	const [tokenEx] = exchanges(await c.action('exchange'));
	expect(tokenEx!.request.url).toBe(node.endpoints.token);
	expect(tokenEx!.response!.status).toBe(400);
	expect(JSON.parse(tokenEx!.response!.body)).toEqual({
		error: 'invalid_client',
		error_description: 'Invalid client: client is invalid'
	});
	expect(errors(tokenEx!)).toEqual(['invalid_client']);
	expect(tokenEx!.findings[0]!.message).toMatch(/did not accept the client credentials/);
	expect(verdictOf([tokenEx!], Date.now())!.tone).toBe('fail');
	expect(await c.page()).not.toContain('data-testid="access-token"');
	for (const s of c.seen) expect(s.body + s.headers).not.toContain('not-the-Secret');
});

test('PKCE (S256): the challenge reaches the library, which checks the verifier of the exchange', async () => {
	const c = new Client(srv.url);
	const back = await toCallback(c, { pkce: 'S256' });
	const saved = node.codes.find((k) => k.authorizationCode === back.searchParams.get('code'));
	expect(saved).toMatchObject({ codeChallengeMethod: 'S256' });
	expect(saved!.codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
	const [tokenEx] = exchanges(await c.action('exchange'));
	expect(tokenEx!.request.body).toMatch(/(^|&)code_verifier=[A-Za-z0-9._~-]{43,128}(&|$)/);
	expect(tokenEx!.response!.status).toBe(200);
	expect(errors(tokenEx!)).toEqual([]);
});

test(`a code exchanged after its ${CODE_LIFETIME_S} seconds: the library says it expired, and so does the playground, for certain`, async () => {
	const c = new Client(srv.url);
	await toCallback(c);
	// The library runs in this process and reads the time from Date: two minutes on, its code has
	// expired. Only Date is faked, so no timer or socket of the test waits.
	vi.useFakeTimers({ toFake: ['Date'] });
	try {
		vi.setSystemTime(Date.now() + 120_000);
		const [ex] = exchanges(await c.action('exchange'));
		expect(ex!.response!.status).toBe(400);
		expect(JSON.parse(ex!.response!.body)).toEqual({
			error: 'invalid_grant',
			error_description: 'Invalid grant: authorization code has expired'
		});
		expect(errors(ex!)).toEqual(['invalid_grant']);
		const finding = ex!.findings.find((f) => f.level === 'error')!;
		expect(finding.message).toContain('The authorization code had expired.');
		expect(finding.fix).not.toMatch(/likely/i);
	} finally {
		vi.useRealTimers();
	}
});

test('"Replay this code": the library refuses the code the second time, and leaves the tokens issued from it working, which the playground says', async () => {
	const c = new Client(srv.url);
	await toCallback(c);
	const [tokenEx] = exchanges(await c.action('exchange'));
	expect(tokenEx!.response!.status).toBe(200);
	const r = await c.action('replay', { confirm: 'replay' });
	expect(r.type).toBe('success');
	const [again, check] = r.data.forkExchanges as Exchange[];
	expect(again!.request.url).toBe(node.endpoints.token);
	expect(again!.response!.status).toBe(400);
	expect(JSON.parse(again!.response!.body)).toEqual({
		error: 'invalid_grant',
		error_description: 'Invalid grant: authorization code is invalid'
	});
	expect(again!.findings.map((f) => [f.code, f.level])).toEqual([['code-replay-refused', 'info']]);
	// The library revokes the code, not the tokens the first exchange gave (RFC 6749 §4.1.2 says
	// it SHOULD): the access token still opens the protected route, and the playground says so.
	expect(check!.request.url).toBe(node.endpoints.userinfo);
	expect(check!.response!.status).toBe(200);
	expect(check!.findings.map((f) => f.code)).toContain('tokens-not-revoked');
	expect(check!.findings.filter((f) => f.level === 'error')).toEqual([]);
});
