/**
 * The token endpoint's answers judged for any server, through the built playground.
 *
 * "Check the client secret", without any consent page opened: against the sandbox (whose order of
 * checks is known), against oidc-provider (a server this project did not write) through its pushed
 * authorization request endpoint and through its token endpoint, with Basic and body
 * authentication; and against loopback look-alikes answering as other servers do: one that judges
 * the code first, Auth0's and Keycloak's 401s, an error page with and without invalid_client in its
 * text. Each answer gets its finding and the verdict line its certainty; the secret goes only to
 * the endpoint it was entered for, and the flow's consent request is untouched.
 *
 * Why a refresh failed, against look-alikes of how other servers refuse a refresh token, in their
 * real wording and shapes (Keycloak's 400 invalid_grant "Session not active" and "Token is not
 * active", Google's "Token has been expired or revoked.", Auth0's 403 "Unknown or invalid refresh
 * token.", a server answering invalid_request, GitHub's 200 bad_refresh_token): one error finding
 * each, with its cause, "most likely" where the words do not prove it, and the verdict line names
 * it. A refused code too, in Entra ID's words ("already redeemed") and in GitHub's 200
 * bad_verification_code, with its status said beside it.
 *
 * A 429 from the sandbox (its zone-1 budget set to 2 here), through the playground: the spent zone,
 * its reset, and whose budget it is as the sandbox counts it locally (per client).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { ClientMetadata } from 'oidc-provider';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide } from '../helpers/client';
import { baseConfiguration, startOidcProvider, type OidcServer } from '../helpers/oidc';
import { startScriptedService, type ScriptedService } from '../helpers/scripted-service';
import type { Exchange } from '../../src/lib/exchange/types';
import { verdictOf } from '../../src/lib/exchange/verdict';
import { copiesIn } from '../helpers/copies';

let srv: TestServer;
let oidc: OidcServer;
let look: ScriptedService;

const POST_SECRET = 'post-Secret-7Kq2';
const BASIC_SECRET = 'b:a%s+i c/=~?';

beforeAll(async () => {
	const port = await freePort();
	const cb = [`http://127.0.0.1:${port}/callback`];
	const base = { redirect_uris: cb, grant_types: ['authorization_code', 'refresh_token'] };
	const clients: ClientMetadata[] = [
		{
			...base,
			client_id: 'oidc-post',
			client_secret: POST_SECRET,
			token_endpoint_auth_method: 'client_secret_post'
		},
		{
			...base,
			client_id: 'oidc-basic',
			client_secret: BASIC_SECRET,
			token_endpoint_auth_method: 'client_secret_basic'
		}
	];
	oidc = await startOidcProvider({
		clients,
		configuration: {
			features: {
				...baseConfiguration().features!,
				pushedAuthorizationRequests: { enabled: true }
			}
		}
	});
	look = await startScriptedService();
	// A zone-1 budget of 2 for the sandbox's clients: the 429 test below spends it.
	srv = await startServer({ SANDBOX_ZONE1_LIMIT: '2' }, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
	await look?.close();
});
beforeEach(() => look.reset());

const exchanges = (r: { data: Record<string, unknown> }) => (r.data.exchanges as Exchange[]) ?? [];
const codes = (ex: Exchange) => ex.findings.map((f) => f.code);

/** Saves a setup, checks the secret, and returns the check's exchange and the verdict line. */
async function check(c: Client, fields: Record<string, string>) {
	const saved = await c.action('setup', {
		redirect_uri: `${srv.url}/callback`,
		scope: 'openid read',
		...fields
	});
	expect(saved.type, JSON.stringify(saved.data)).toBe('success');
	const consentBefore = consentUrlFrom(await c.page());
	const r = await c.action('secret');
	expect(r.type, JSON.stringify(r.data)).toBe('success');
	const [ex, more] = exchanges(r);
	expect(more).toBeUndefined();
	expect(ex!.step).toBe('secret');
	// Nothing of the flow changed: the same consent request waits, unopened.
	expect(consentUrlFrom(await c.page())).toBe(consentBefore);
	return { ex: ex!, verdict: verdictOf([ex!], Date.now())! };
}

describe('against the sandbox, whose order of checks is known', () => {
	const sandbox = (c: Client, secret: string, method = 'client_secret_post') => ({
		base_url: `${c.base}/sandbox`,
		client_id: 'sandbox-rw',
		client_secret: secret,
		scope: 'read write',
		token_endpoint_auth_method: method
	});

	for (const method of ['client_secret_post', 'client_secret_basic']) {
		test(`${method}: a wrong secret is refused for certain, the right one accepted for certain`, async () => {
			const c = new Client(srv.url);
			const wrong = await check(c, sandbox(c, 'not-the-secret', method));
			expect(wrong.ex.response!.status).toBe(401);
			expect(codes(wrong.ex)).toEqual(['secret-refused']);
			expect(wrong.verdict).toMatchObject({
				tone: 'fail',
				text: '✕ Client secret check: the service refused the client credentials (invalid_client)'
			});
			const right = await check(c, sandbox(c, 'sandbox-rw-secret', method));
			expect(right.ex.response!.status).toBe(400);
			expect(codes(right.ex)).toEqual(['secret-accepted']);
			expect(right.verdict).toMatchObject({
				tone: 'ok',
				text: '✓ Client secret check: the service accepted the client credentials'
			});
			// The made-up code is shown as sent; the secret never is.
			const sent = new URLSearchParams(right.ex.request.body);
			expect(sent.get('code')).toMatch(/^oauth-playground-secret-check-[A-Za-z0-9]{32}$/);
			expect(sent.get('grant_type')).toBe('authorization_code');
			const basic = right.ex.request.headers.find(([n]) => n === 'Authorization');
			expect(!!basic).toBe(method === 'client_secret_basic');
			// In no encoding (a Basic header's base64 of id:secret included) in anything the page got.
			for (const s of c.seen)
				expect(copiesIn('sandbox-rw-secret', `${s.headers}\n${s.body}`), s.url).toEqual([]);
		});
	}

	test('a base URL on the playground itself, its /sandbox left out: no service answered, and the sandbox is named', async () => {
		const c = new Client(srv.url);
		const { ex, verdict } = await check(c, {
			...sandbox(c, 'sandbox-rw-secret'),
			base_url: c.base
		});
		expect(ex.request.url).toBe(`${c.base}/oauth2/token`);
		expect(codes(ex)).toEqual(['wrong-endpoint']);
		const [found] = ex.findings;
		expect(found!.message).toContain('That address is this playground itself, not the service');
		expect(found!.fix).toContain(`${c.base}/sandbox`);
		expect(verdict.tone).toBe('fail');
		expect(verdict.text).toMatch(/^✕ Client secret check, failed: /);
	});

	test('each check names the credentials it judged: new with another secret or method, the same when saved again unchanged', async () => {
		const c = new Client(srv.url);
		const first = await check(c, sandbox(c, 'not-the-secret'));
		const again = await check(c, sandbox(c, 'not-the-secret'));
		expect(first.ex.credentials).toMatch(/^[A-Za-z0-9_-]{12}$/);
		expect(again.ex.credentials).toBe(first.ex.credentials);
		const fixed = await check(c, sandbox(c, 'sandbox-rw-secret'));
		expect(fixed.ex.credentials).not.toBe(first.ex.credentials);
		const basic = await check(c, sandbox(c, 'sandbox-rw-secret', 'client_secret_basic'));
		expect(basic.ex.credentials).not.toBe(fixed.ex.credentials);
		// The page names the current ones.
		expect(await c.page()).toContain(`credentialsId:"${basic.ex.credentials}"`);
	});

	test('a public client has no secret to check: a 409 with the reason, nothing sent', async () => {
		const c = new Client(srv.url);
		const saved = await c.action('setup', {
			...sandbox(c, '', 'none'),
			client_id: 'sandbox-public',
			redirect_uri: `${srv.url}/callback`,
			pkce: 'S256'
		});
		expect(saved.type, JSON.stringify(saved.data)).toBe('success');
		const r = await c.action('secret');
		expect(r.status).toBe(409);
		expect(String(r.data.message)).toContain('public client');
		expect(exchanges(r)).toEqual([]);
	});
});

describe('against oidc-provider', () => {
	const provider = (id: string, secret: string, par: boolean) => ({
		base_url: oidc.issuer,
		client_id: id,
		client_secret: secret,
		authorization_endpoint: oidc.endpoints.authorization,
		token_endpoint: oidc.endpoints.token,
		userinfo_endpoint: oidc.endpoints.userinfo,
		token_endpoint_auth_method: id === 'oidc-basic' ? 'client_secret_basic' : 'client_secret_post',
		...(par ? { pushed_authorization_request_endpoint: `${oidc.issuer}/request` } : {})
	});

	for (const [id, secret] of [
		['oidc-post', POST_SECRET],
		['oidc-basic', BASIC_SECRET]
	] as const) {
		test(`${id}, through the pushed request endpoint: refused for certain, accepted for certain`, async () => {
			const c = new Client(srv.url);
			const wrong = await check(c, provider(id, `${secret}x`, true));
			expect(wrong.ex.request.url).toBe(`${oidc.issuer}/request`);
			expect(wrong.ex.response!.status).toBe(401);
			expect(codes(wrong.ex)).toEqual(['secret-refused']);
			const right = await check(c, provider(id, secret, true));
			expect(right.ex.response!.status).toBe(201);
			expect(codes(right.ex)).toEqual(['secret-accepted']);
			expect(right.ex.findings[0]!.message).toContain('pushed authorization request');
			expect(right.verdict.text).toBe(
				'✓ Client secret check: the service accepted the client credentials'
			);
			const state = new URLSearchParams(right.ex.request.body).get('state');
			expect(state).toMatch(/^oauth-playground-secret-check-/);
		});

		test(`${id}, through the pushed request endpoint with a redirect URI it does not know: the client most likely passed`, async () => {
			const c = new Client(srv.url);
			const { ex, verdict } = await check(c, {
				...provider(id, secret, true),
				redirect_uri: `${srv.url}/callback/not-registered`
			});
			expect(ex.response!.status).toBe(400);
			expect(codes(ex)).toEqual(['secret-likely-accepted']);
			expect(ex.findings[0]!.message).toContain(
				"redirect_uri did not match any of the client's registered"
			);
			expect(verdict.tone).toBe('ok');
			// A made-up S256 challenge goes with it, PKCE on or off in the setup.
			const sent = new URLSearchParams(ex.request.body);
			expect(sent.get('code_challenge_method')).toBe('S256');
			expect(sent.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
		});

		test(`${id}, through the token endpoint: refused for certain, accepted as likely`, async () => {
			const c = new Client(srv.url);
			const wrong = await check(c, provider(id, `${secret}x`, false));
			expect(wrong.ex.request.url).toBe(oidc.endpoints.token);
			expect(codes(wrong.ex)).toEqual(['secret-refused']);
			const right = await check(c, { ...provider(id, secret, false), pkce: 'S256' });
			expect(right.ex.response!.status).toBe(400);
			expect(codes(right.ex)).toEqual(['secret-likely-accepted']);
			// With PKCE on, a made-up verifier goes with the made-up code.
			const sent = new URLSearchParams(right.ex.request.body);
			expect(sent.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);
			expect(sent.get('code')).toMatch(/^oauth-playground-secret-check-/);
			expect(right.verdict).toMatchObject({
				tone: 'ok',
				text: '✓ Client secret check: the client credentials were most likely accepted; a real code exchange is the proof'
			});
		});
	}
});

describe('against look-alikes of other servers', () => {
	const json = (status: number, body: object, headers: [string, string][] = []) => ({
		status,
		headers: [['Content-Type', 'application/json'], ...headers] as [string, string][],
		body: JSON.stringify(body)
	});
	const html = (status: number, body: string) => ({
		status,
		headers: [['Content-Type', 'text/html; charset=utf-8']] as [string, string][],
		body
	});
	const setup = (secret = 'look-Secret-1') => ({
		base_url: look.url,
		client_id: 'look-client',
		client_secret: secret,
		token_endpoint_auth_method: 'client_secret_post'
	});

	test('a server that judges the code first: invalid_grant whatever the secret is "likely", never certain', async () => {
		const c = new Client(srv.url);
		for (const secret of ['look-Secret-1', 'wrong']) {
			look.answer(
				json(400, { error: 'invalid_grant', error_description: 'Invalid authorization code' })
			);
			const { ex, verdict } = await check(c, setup(secret));
			expect(codes(ex)).toEqual(['secret-likely-accepted']);
			expect(verdict.text).toContain('most likely accepted');
		}
		// The secret went to the token endpoint it was entered for, and nowhere else.
		expect(look.received.map((r) => `${r.method} ${r.url}`)).toEqual([
			'POST /oauth2/token',
			'POST /oauth2/token'
		]);
		expect(look.unscripted).toEqual([]);
	});

	test.each([
		[
			"Auth0's 401 access_denied",
			json(401, { error: 'access_denied', error_description: 'Unauthorized' }),
			'secret-likely-refused'
		],
		[
			"an older Keycloak's 401 unauthorized_client",
			json(401, {
				error: 'unauthorized_client',
				error_description: 'Invalid client or Invalid client credentials'
			}),
			'secret-likely-refused'
		],
		[
			"Keycloak's 401 invalid_client",
			json(401, {
				error: 'invalid_client',
				error_description: 'Invalid client or Invalid client credentials'
			}),
			'secret-refused'
		],
		[
			'an error page that says invalid_client',
			html(
				400,
				'<!doctype html><html><head><title>Error</title></head><body><h1>Sign-in error</h1><p>Error: invalid_client</p><p>Client authentication failed.</p></body></html>'
			),
			'secret-refused'
		],
		[
			'an error page without invalid_client',
			html(
				400,
				'<!doctype html><html><head><title>400 Bad Request</title></head><body><h1>Bad Request</h1><p>Your browser sent a request that this server could not understand.</p></body></html>'
			),
			'secret-not-told'
		],
		[
			'a 400 unauthorized_client',
			json(400, {
				error: 'unauthorized_client',
				error_description: 'The client is not authorized to use this grant type'
			}),
			'secret-grant-refused'
		],
		[
			'a 400 invalid_request',
			json(400, { error: 'invalid_request', error_description: 'Missing parameter: code' }),
			'secret-not-told'
		]
	])('%s', async (_name, answer, code) => {
		const c = new Client(srv.url);
		look.answer(answer);
		const { ex, verdict } = await check(c, setup());
		expect(codes(ex)).toEqual([code]);
		const tone = {
			'secret-refused': 'fail',
			'secret-likely-refused': 'fail',
			'secret-grant-refused': 'fail',
			'secret-not-told': 'neutral'
		}[code];
		expect(verdict.tone).toBe(tone);
		if (code === 'secret-not-told')
			expect(verdict.text).toMatch(/^Client secret check: not told \(/);
	});
});

/** A JSON answer of a look-alike's token endpoint. */
const jsonAnswer = (status: number, body: object) => ({
	status,
	headers: [
		['Content-Type', 'application/json'],
		['Cache-Control', 'no-store']
	] as [string, string][],
	body: JSON.stringify(body)
});

/** A setup for the look-alike saved, and a code back from it (no consent page: the redirect alone). */
async function codeFromLookAlike(): Promise<Client> {
	const c = new Client(srv.url);
	const saved = await c.action('setup', {
		base_url: look.url,
		client_id: 'look-app',
		client_secret: 'look-Secret-1',
		scope: 'read',
		redirect_uri: `${srv.url}/callback`,
		auto_exchange: 'false'
	});
	expect(saved.type, JSON.stringify(saved.data)).toBe('success');
	const state = new URL(consentUrlFrom(await c.page())).searchParams.get('state')!;
	await c.fetch(`/callback?code=look-code-1&state=${encodeURIComponent(state)}`);
	return c;
}

describe('why a refresh failed, against look-alikes of other servers', () => {
	/** A flow with tokens from the look-alike, then a refresh that it refuses with `refusal`. */
	async function refusedRefresh(refusal: ReturnType<typeof jsonAnswer>) {
		const c = await codeFromLookAlike();
		look.answer(
			jsonAnswer(200, {
				access_token: 'look-access-0123456789',
				token_type: 'Bearer',
				expires_in: 3600,
				refresh_token: 'look-refresh-0123456789',
				scope: 'read'
			}),
			refusal
		);
		const tokens = exchanges(await c.action('exchange'));
		expect(tokens[0]!.response!.status).toBe(200);
		const [ex] = exchanges(await c.action('refresh'));
		expect(look.unscripted).toEqual([]);
		return { ex: ex!, verdict: verdictOf([...tokens, ex!], Date.now())! };
	}

	test.each([
		[
			"Keycloak's ended session",
			jsonAnswer(400, { error: 'invalid_grant', error_description: 'Session not active' }),
			'refresh-session-ended',
			/^The user's session at the service has ended/
		],
		[
			"Keycloak's inactive token",
			jsonAnswer(400, { error: 'invalid_grant', error_description: 'Token is not active' }),
			'refresh-not-active',
			/^Most likely expired or revoked/
		],
		[
			"Google's expired or revoked token",
			jsonAnswer(400, {
				error: 'invalid_grant',
				error_description: 'Token has been expired or revoked.'
			}),
			'refresh-not-active',
			/Google limits the refresh tokens of an app in "Testing" to 7 days/
		],
		[
			"Auth0's 403",
			jsonAnswer(403, {
				error: 'invalid_grant',
				error_description: 'Unknown or invalid refresh token.'
			}),
			'refresh-unknown',
			/It answered 403 invalid_grant where RFC 6749 §5\.2 has 400 invalid_grant/
		],
		[
			'a server that answers invalid_request',
			jsonAnswer(400, { error: 'invalid_request', error_description: 'Invalid refresh token' }),
			'refresh-unknown',
			/It answered 400 invalid_request where/
		],
		[
			"GitHub's 200 with an error object",
			jsonAnswer(200, {
				error: 'bad_refresh_token',
				error_description: 'The refresh token passed is incorrect or expired.'
			}),
			'refresh-not-active',
			/It answered 200 bad_refresh_token where .* a client that checks only the status code takes it for tokens/
		]
	])(
		'%s: one finding with its cause, and the verdict names it',
		async (_name, refusal, code, words) => {
			const { ex, verdict } = await refusedRefresh(refusal);
			const errors = ex.findings.filter((f) => f.level === 'error');
			expect(errors.map((f) => f.code)).toEqual([code]);
			expect(errors[0]!.message).toMatch(words);
			expect(verdict.tone).toBe('fail');
			expect(verdict.text).toMatch(/^✕ Step 5, refresh, failed: /);
			expect(verdict.text.toLowerCase()).toContain(errors[0]!.message.slice(0, 20).toLowerCase());
		}
	);
});

describe('a refused code exchange, against look-alikes of other servers', () => {
	test.each([
		[
			"Keycloak's wrong secret, a 401 unauthorized_client",
			jsonAnswer(401, {
				error: 'unauthorized_client',
				error_description: 'Invalid client secret'
			}),
			['invalid_client'],
			/^The service refused the client credentials\. It answered unauthorized_client with HTTP 401/
		],
		[
			"Auth0's wrong secret, a 401 access_denied",
			jsonAnswer(401, { error: 'access_denied', error_description: 'Unauthorized' }),
			['invalid_client'],
			/^The service most likely refused the client credentials\./
		],
		[
			"Entra ID's code already redeemed",
			jsonAnswer(400, {
				error: 'invalid_grant',
				error_description:
					'AADSTS70002: Error validating credentials. AADSTS54005: OAuth2 Authorization code was already redeemed, please retry with a new valid code or use an existing refresh token.'
			}),
			['invalid_grant'],
			/^The authorization code had been used already/
		],
		[
			"GitHub's 200 bad_verification_code",
			jsonAnswer(200, {
				error: 'bad_verification_code',
				error_description: 'The code passed is incorrect or expired.'
			}),
			['invalid_grant', 'error-in-success'],
			/^The authorization code was refused\./
		]
	])('%s: its cause, and the verdict names it', async (_name, refusal, codes, words) => {
		const c = await codeFromLookAlike();
		look.answer(refusal);
		const [ex] = exchanges(await c.action('exchange'));
		expect(look.unscripted).toEqual([]);
		const shown = ex!.findings.filter((f) => f.level !== 'info');
		expect(shown.map((f) => f.code)).toEqual(codes);
		expect(shown[0]!.message).toMatch(words);
		const verdict = verdictOf([ex!], Date.now())!;
		expect(verdict.tone).toBe('fail');
		expect(verdict.text).toMatch(/^✕ Step 3, code exchange, failed: /);
		expect(verdict.text.toLowerCase()).toContain(shown[0]!.message.slice(0, 20).toLowerCase());
	});
});

test('a 429 from the sandbox names the spent zone and whose budget it is: every user of the client id, as the sandbox counts locally', async () => {
	const c = new Client(srv.url);
	const saved = await c.action('setup', {
		base_url: `${srv.url}/sandbox`,
		client_id: 'sandbox-rw',
		client_secret: 'sandbox-rw-secret',
		scope: 'read write',
		redirect_uri: `${srv.url}/callback`,
		auto_exchange: 'false'
	});
	expect(saved.type, JSON.stringify(saved.data)).toBe('success');
	const back = await decide(c, consentUrlFrom(await c.page()));
	expect((await c.fetch(back)).res.status).toBe(303);
	expect(exchanges(await c.action('exchange'))[0]!.response!.status).toBe(200);
	const statuses: number[] = [];
	let last: Exchange | undefined;
	for (let i = 0; i < 3; i++) {
		[last] = exchanges(await c.action('userinfo'));
		statuses.push(last!.response!.status);
	}
	expect(statuses).toEqual([200, 200, 429]);
	const limited = last!.findings.filter((f) => f.code === 'rate-limited');
	expect(limited).toHaveLength(1);
	expect(limited[0]!.message).toMatch(
		/^The service's rate limit is reached \(429\): zone 1 \(reads\) is spent\. It resets in \d+ s\./
	);
	expect(limited[0]!.message).toContain(
		'The sandbox counts this budget per client: every user of client id "sandbox-rw" spends the same one.'
	);
});
