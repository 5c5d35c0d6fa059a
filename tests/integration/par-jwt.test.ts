/**
 * Pushed authorization requests (RFC 9126) and the JWT signature check, through the built
 * playground over HTTP, against oidc-provider (a server this project did not write): PAR for a
 * client_secret_post, a client_secret_basic and a public client, each to the code exchange; a
 * request_uri past its lifetime on the provider's own clock; the JWT access token of a JWT client
 * checked against the provider's JWKS; a key set without the token's kid; a tampered paste; and the
 * sandbox, which has no JWKS URL, where nothing is sent.
 */
import http from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import type { ClientMetadata } from 'oidc-provider';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
import {
	baseConfiguration,
	jwtAccessTokens,
	signInAndConsent,
	startOidcProvider,
	type OidcServer
} from '../helpers/oidc';
import type { Exchange } from '../../src/lib/exchange/types';
import { withRecordingServer } from '../helpers/recording-server';
import { listen } from '../helpers/listen';

let srv: TestServer;
let oidc: OidcServer;
const BASIC_SECRET = 'b:a%s+i c/=~?';

beforeAll(async () => {
	const port = await freePort();
	const cb = [`http://127.0.0.1:${port}/callback`];
	const base = { redirect_uris: cb, grant_types: ['authorization_code', 'refresh_token'] };
	const clients: ClientMetadata[] = [
		{
			...base,
			client_id: 'oidc-post',
			client_secret: 'post-Secret-1',
			token_endpoint_auth_method: 'client_secret_post'
		},
		{
			...base,
			client_id: 'oidc-basic',
			client_secret: BASIC_SECRET,
			token_endpoint_auth_method: 'client_secret_basic'
		},
		{ ...base, client_id: 'oidc-public', token_endpoint_auth_method: 'none' },
		{
			...base,
			client_id: 'oidc-jwt',
			client_secret: 'jwt-Secret-1',
			token_endpoint_auth_method: 'client_secret_post'
		}
	];
	const features = baseConfiguration().features!;
	oidc = await startOidcProvider({
		clients,
		configuration: {
			pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
			features: {
				...features,
				pushedAuthorizationRequests: { enabled: true },
				resourceIndicators: jwtAccessTokens((id) => id === 'oidc-jwt')
			}
		}
	});
	srv = await startServer({}, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
});
afterEach(() => {
	vi.useRealTimers();
});

const exchanges = (r: { data: Record<string, unknown> }) => (r.data.exchanges as Exchange[]) ?? [];

function setUp(c: Client, clientId: string, secret: string, fields: Record<string, string> = {}) {
	return c.action('setup', {
		base_url: oidc.issuer,
		client_id: clientId,
		client_secret: secret,
		scope: 'openid read',
		redirect_uri: `${srv.url}/callback`,
		authorization_endpoint: oidc.endpoints.authorization,
		token_endpoint: oidc.endpoints.token,
		userinfo_endpoint: oidc.endpoints.userinfo,
		pushed_authorization_request_endpoint: `${oidc.issuer}/request`,
		jwks_uri: oidc.endpoints.jwks,
		issuer: oidc.issuer,
		use_par: 'true',
		auto_exchange: 'true',
		...fields
	});
}

/** Push, then consent through the request_uri link, callback, exchange: the token response. */
async function parFlow(
	c: Client,
	clientId: string,
	secret: string,
	fields: Record<string, string> = {}
) {
	expect((await setUp(c, clientId, secret, fields)).type).toBe('success');
	const pushed = await c.action('par');
	expect(pushed.type).toBe('success');
	const [parEx] = exchanges(pushed);
	expect(parEx!.step).toBe('par');
	expect(parEx!.response!.status).toBe(201);
	expect(parEx!.findings.map((f) => f.code)).toContain('par-pushed');
	const link = new URL(consentUrlFrom(await c.page()));
	expect([...link.searchParams.keys()]).toEqual(['client_id', 'request_uri']);
	expect(link.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
	const back = new URL(await signInAndConsent(new Client(oidc.origin), link.toString()));
	expect(back.searchParams.get('code')).toBeTruthy();
	expect((await c.fetch(back.toString())).res.status).toBe(303);
	const ex = await c.action('exchange');
	const [tokenEx] = exchanges(ex);
	expect(tokenEx!.response!.status).toBe(200);
	// The provider's answers pass the second judge (oauth/strict-client.ts).
	for (const e of [parEx!, tokenEx!])
		expect(e.findings.map((f) => f.code)).not.toContain('strict-client-rejects');
	return { parEx: parEx!, tokenEx: tokenEx! };
}

test('PAR with client_secret_post: 201, consent through the request_uri, code, exchange', async () => {
	const c = new Client(srv.url);
	const { parEx } = await parFlow(c, 'oidc-post', 'post-Secret-1');
	const body = new URLSearchParams(parEx.request.body);
	expect([...body.keys()]).toEqual([
		'client_id',
		'client_secret',
		'redirect_uri',
		'response_type',
		'scope',
		'state'
	]);
	expect(body.get('client_secret')).toBe('<redacted>');
	for (const s of c.seen) expect(s.body + s.headers).not.toContain('post-Secret-1');
});

test('PAR with client_secret_basic: the secret in the Basic header, the flow completes', async () => {
	const c = new Client(srv.url);
	const { parEx } = await parFlow(c, 'oidc-basic', BASIC_SECRET, {
		token_endpoint_auth_method: 'client_secret_basic'
	});
	expect(parEx.request.body).not.toContain('client_secret');
	expect(parEx.request.headers.find(([n]) => n === 'Authorization')?.[1]).toMatch(/^Basic /);
});

test('PAR with a public client (none, PKCE): the challenge is pushed, the verifier goes with the exchange', async () => {
	const c = new Client(srv.url);
	const { parEx, tokenEx } = await parFlow(c, 'oidc-public', '', {
		token_endpoint_auth_method: 'none',
		pkce: 'S256'
	});
	const body = new URLSearchParams(parEx.request.body);
	expect(body.get('code_challenge_method')).toBe('S256');
	expect(body.has('client_secret')).toBe(false);
	expect(tokenEx.request.body).toContain('code_verifier=');
});

test('PAR on but not pushed: the page says so, and the plain link works where the server does not require PAR', async () => {
	const c = new Client(srv.url);
	expect((await setUp(c, 'oidc-post', 'post-Secret-1')).type).toBe('success');
	const html = await c.page();
	expect(html).toContain('data-testid="par-not-pushed"');
	const link = new URL(consentUrlFrom(html));
	expect(link.searchParams.has('request_uri')).toBe(false);
	expect(link.searchParams.get('state')).toBeTruthy();
	const back = new URL(await signInAndConsent(new Client(oidc.origin), link.toString()));
	expect(back.searchParams.get('code')).toBeTruthy();
	expect((await c.fetch(back.toString())).res.status).toBe(303);
	expect(exchanges(await c.action('exchange'))[0]!.response!.status).toBe(200);
});

test('checking the pushed consent URL (a GET without following redirects) leaves its request_uri usable', async () => {
	const c = new Client(srv.url);
	expect((await setUp(c, 'oidc-post', 'post-Secret-1')).type).toBe('success');
	expect(exchanges(await c.action('par'))[0]!.response!.status).toBe(201);
	const link = consentUrlFrom(await c.page());
	const [check] = exchanges(await c.action('check'));
	expect(check!.request.url).toBe(link);
	expect(check!.findings.filter((f) => f.level === 'error')).toEqual([]);
	const back = new URL(await signInAndConsent(new Client(oidc.origin), link));
	expect(back.searchParams.get('code')).toBeTruthy();
});

test('exfiltration: a PAR endpoint changed after the secret was entered receives nothing', async () => {
	await withRecordingServer(async (origin, seen) => {
		const c = new Client(srv.url);
		expect((await setUp(c, 'oidc-post', 'post-Secret-1')).type).toBe('success');
		// The same setup saved again with another PAR endpoint and the secret field left empty.
		expect(
			(await setUp(c, 'oidc-post', '', { pushed_authorization_request_endpoint: `${origin}/par` }))
				.type
		).toBe('success');
		const r = await c.action('par');
		expect(r.type).toBe('failure');
		expect(r.status).toBe(409);
		expect(exchanges(r)).toEqual([]);
		expect(seen).toEqual([]);
	});
});

test('a request_uri past its lifetime on the provider’s clock: the redirect is explained, and pushing again works', async () => {
	const c = new Client(srv.url);
	expect((await setUp(c, 'oidc-post', 'post-Secret-1')).type).toBe('success');
	const pushed = exchanges(await c.action('par'))[0]!;
	const lifetime = (JSON.parse(pushed.response!.body) as { expires_in: number }).expires_in;
	const link = consentUrlFrom(await c.page());
	// The provider runs in this process: its clock moves past the request_uri's lifetime, no waiting.
	vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + (lifetime + 1) * 1000 });
	const back = new URL(await signInAndConsent(new Client(oidc.origin), link));
	vi.useRealTimers();
	expect(back.searchParams.get('error')).toBe('invalid_request_uri');
	expect(back.searchParams.has('state')).toBe(false);
	const cb = await c.fetch(back.toString());
	expect(cb.res.status).toBe(400);
	expect(unescapeHtml(cb.body)).toContain('request_uri of a pushed authorization request');
	// The flow's consent request is as it was: push again, and the new link works.
	expect(exchanges(await c.action('par'))[0]!.response!.status).toBe(201);
	const again = new URL(
		await signInAndConsent(new Client(oidc.origin), consentUrlFrom(await c.page()))
	);
	expect(again.searchParams.get('code')).toBeTruthy();
});

test('the JWT access token of the JWT client: signature valid with its kid, iss, exp and typ reported apart, no credentials sent for the keys', async () => {
	const c = new Client(srv.url);
	const { tokenEx } = await parFlow(c, 'oidc-jwt', 'jwt-Secret-1');
	const access = (JSON.parse(tokenEx.response!.body) as { access_token: string }).access_token;
	expect(access.split('.')).toHaveLength(3);
	const r = await c.action('jwt', { which: 'access_token' });
	expect(r.type).toBe('success');
	const [jwks] = exchanges(r);
	expect(jwks!.step).toBe('jwks');
	expect(jwks!.request.url).toBe(oidc.endpoints.jwks);
	expect(jwks!.request.headers.map(([n]) => n.toLowerCase())).not.toContain('authorization');
	expect(jwks!.request.headers.map(([n]) => n.toLowerCase())).not.toContain('cookie');
	const jwt = r.data.jwt as {
		token: string;
		valid: boolean;
		kid: string;
		alg: string;
		jwks_uri: string;
	};
	expect(jwt).toMatchObject({
		token: access,
		valid: true,
		kid: 'test-1',
		alg: 'RS256',
		jwks_uri: oidc.endpoints.jwks
	});
	const codes = jwks!.findings.map((f) => f.code);
	expect(codes).toEqual(
		expect.arrayContaining(['jwt-signature-valid', 'jwt-issuer-ok', 'jwt-not-expired', 'jwt-typ'])
	);
	expect(jwks!.findings.find((f) => f.code === 'jwt-typ')!.level).toBe('info'); // at+jwt

	// Tampering: a pasted copy with a middle character of the signature changed is invalid.
	const [h, p, s] = access.split('.') as [string, string, string];
	const i = Math.floor(s.length / 2);
	const tampered = `${h}.${p}.${s.slice(0, i)}${s[i] === 'A' ? 'B' : 'A'}${s.slice(i + 1)}`;
	const bad = await c.action('jwt', { which: 'pasted', token: tampered });
	expect(bad.data.jwt).toMatchObject({ token: tampered, valid: false, kid: 'test-1' });
	const badCodes = exchanges(bad)[0]!.findings.map((f) => f.code);
	expect(badCodes).toContain('jwt-signature-invalid');
	// An unverified token's claims are not reported as if they meant something.
	expect(badCodes).not.toContain('jwt-issuer-ok');
});

test('a key set without the token’s kid: no matching key', async () => {
	const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
	const other = {
		...publicKey.export({ format: 'jwk' }),
		kid: 'someone-else',
		use: 'sig',
		alg: 'RS256'
	};
	const seen: http.IncomingHttpHeaders[] = [];
	const keys = http.createServer((req, res) => {
		seen.push(req.headers);
		res
			.writeHead(200, { 'content-type': 'application/json' })
			.end(JSON.stringify({ keys: [other] }));
	});
	const keysAt = await listen(keys);
	try {
		const url = `${keysAt.url}/jwks`;
		const c = new Client(srv.url);
		const { tokenEx } = await parFlow(c, 'oidc-jwt', 'jwt-Secret-1', { jwks_uri: url });
		const r = await c.action('jwt', { which: 'access_token' });
		expect(r.data.jwt).toMatchObject({ valid: false, kid: 'test-1', jwks_uri: url });
		expect(exchanges(r)[0]!.findings.map((f) => f.code)).toContain('jwt-no-matching-key');
		expect(tokenEx.response!.status).toBe(200);
		expect(seen).toHaveLength(1);
		expect(seen[0]!.authorization).toBeUndefined();
		expect(seen[0]!.cookie).toBeUndefined();
	} finally {
		await new Promise<void>((ok) => keys.close(() => ok()));
	}
});

test('a JWKS URL that serves no key set: said, with the status or what is missing, and the signature left unchecked', async () => {
	// First a 404, then a 200 whose JSON has no "keys".
	const answers = [
		[404, 'text/plain', 'not here'],
		[200, 'application/json', '{"nokeys":true}']
	] as const;
	let n = 0;
	const keys = http.createServer((_req, res) => {
		const [status, type, body] = answers[Math.min(n++, answers.length - 1)]!;
		res.writeHead(status, { 'content-type': type }).end(body);
	});
	const keysAt = await listen(keys);
	try {
		const url = `${keysAt.url}/jwks`;
		const c = new Client(srv.url);
		await parFlow(c, 'oidc-jwt', 'jwt-Secret-1', { jwks_uri: url });
		for (const said of [
			`${url} answered 404, not 200 with the key set: the signature was not checked.`,
			`${url} did not give a key set: a JWKS is a JSON object with a "keys" array.`
		]) {
			const r = await c.action('jwt', { which: 'access_token' });
			const f = exchanges(r)[0]!.findings.filter((x) => x.code === 'jwks-invalid');
			expect(f).toEqual([
				{
					level: 'error',
					code: 'jwks-invalid',
					message: said,
					fix: 'Check the JWKS URL in the setup (the server’s metadata names it jwks_uri).',
					ref: 'RFC 7517 §5'
				}
			]);
			expect(r.data.jwt).not.toMatchObject({ valid: true });
		}
	} finally {
		await new Promise<void>((ok) => keys.close(() => ok()));
	}
});

test('the sandbox has no JWKS URL: the check says why, and nothing is sent', async () => {
	const c = new Client(srv.url);
	expect((await c.action('preset', { preset: 'sandbox-rw' })).type).toBe('success');
	const back = await decide(c, consentUrlFrom(await c.page()));
	expect((await c.fetch(back)).res.status).toBe(303);
	expect(exchanges(await c.action('exchange'))[0]!.response!.status).toBe(200);
	// The sandbox's tokens are HS256 JWTs: decoded, and the card says why their signature cannot be checked.
	const html = await c.page();
	expect(html).toContain('data-jwt="access_token"');
	expect(html).toContain('data-testid="jwt-no-jwks"');
	expect(html).not.toContain('data-jwt-check');
	const mine = await c.action('jwt', { which: 'access_token' });
	expect(mine.status).toBe(409);
	expect(exchanges(mine)).toEqual([]);
	const r = await c.action('jwt', {
		which: 'pasted',
		token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln'
	});
	expect(r.type).toBe('failure');
	expect(r.status).toBe(409);
	expect(String(r.data.message)).toContain('no JWKS URL');
	expect(exchanges(r)).toEqual([]);
});
