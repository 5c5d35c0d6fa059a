// The sandbox token endpoint over real HTTP: the service’s API docs §4.2 and §4.3, RFC 6749 §2.3.1, §4.1.3, §5, §6.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server';
import {
	api,
	exchangeFields,
	expectOAuthError,
	getCode,
	jwtPayload,
	postToken,
	refreshFields,
	startSandbox,
	tokensFor,
	type Tokens
} from './sandbox-helpers';

const ODD_SECRET = 'p@ss w:rd+%&=';
let srv: TestServer;

beforeAll(async () => {
	srv = await startSandbox({
		SANDBOX_CLIENTS: JSON.stringify([
			{
				client_id: 'odd:client',
				client_secret: ODD_SECRET,
				redirect_uris: ['http://app.example.test/cb'],
				default_scope: 'read write',
				access_ttl: 120
			}
		])
	});
});
afterAll(() => srv?.stop());

const basic = (id: string, secret: string, encode = true) => {
	const f = (s: string) => (encode ? new URLSearchParams({ x: s }).toString().slice(2) : s);
	return `Basic ${Buffer.from(`${f(id)}:${f(secret)}`, 'utf8').toString('base64')}`;
};

describe('request format', () => {
	it('refuses a missing Content-Type with invalid_request naming the header', async () => {
		const { code } = await getCode(srv);
		const res = await fetch(`${srv.url}/sandbox/oauth2/token`, {
			method: 'POST',
			body: new Blob([new URLSearchParams(exchangeFields(srv, code)).toString()])
		});
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expectOAuthError({ res, body: await res.json() }, 400, 'invalid_request', /Content-Type/);
	});

	it('refuses JSON and other media types', async () => {
		const { code } = await getCode(srv);
		const res = await fetch(`${srv.url}/sandbox/oauth2/token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(exchangeFields(srv, code))
		});
		expectOAuthError(
			{ res, body: await res.json() },
			400,
			'invalid_request',
			/Content-Type.*application\/x-www-form-urlencoded/
		);
	});

	it('accepts parameters on the media type (charset)', async () => {
		const { code } = await getCode(srv);
		const a = await postToken(srv, exchangeFields(srv, code), {
			'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8'
		});
		expect(a.res.status).toBe(200);
	});

	it('caps the body at 16 KiB', async () => {
		const a = await postToken(srv, {
			grant_type: 'authorization_code',
			client_id: 'sandbox-rw',
			client_secret: 'sandbox-rw-secret',
			pad: 'x'.repeat(17 * 1024)
		});
		expect([400, 413]).toContain(a.res.status);
		expectOAuthError(a, a.res.status, 'invalid_request', /larger than/);
	});

	it('refuses a repeated parameter', async () => {
		const res = await fetch(`${srv.url}/sandbox/oauth2/token`, {
			method: 'POST',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
			body: 'grant_type=refresh_token&grant_type=authorization_code&client_id=sandbox-rw&client_secret=sandbox-rw-secret'
		});
		expectOAuthError(
			{ res, body: await res.json() },
			400,
			'invalid_request',
			/grant_type.*repeated/
		);
	});

	it('answers other methods with a JSON 405', async () => {
		const res = await fetch(`${srv.url}/sandbox/oauth2/token`);
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('POST');
		expect((await res.json()).error).toBe('invalid_request');
	});
});

describe('client authentication', () => {
	it('accepts client_id and client_secret in the body', async () => {
		const { code } = await getCode(srv);
		expect((await postToken(srv, exchangeFields(srv, code))).res.status).toBe(200);
	});

	it('accepts HTTP Basic with form-urlencoded id and secret', async () => {
		const { code } = await getCode(srv, {
			client_id: 'odd:client',
			redirect_uri: 'http://app.example.test/cb'
		});
		const a = await postToken(
			srv,
			{
				grant_type: 'authorization_code',
				code,
				redirect_uri: 'http://app.example.test/cb',
				scope: ''
			},
			{ Authorization: basic('odd:client', ODD_SECRET) }
		);
		expect(a.res.status, JSON.stringify(a.body)).toBe(200);
		expect(a.body.expires_in).toBe(120);
	});

	it('wrong secret in the body: 401 invalid_client', async () => {
		const { code } = await getCode(srv);
		const a = await postToken(srv, { ...exchangeFields(srv, code), client_secret: 'wrong' });
		expectOAuthError(a, 401, 'invalid_client');
		expect(a.res.headers.get('www-authenticate')).toBeNull();
	});

	it('unknown client or no credentials: 401 invalid_client', async () => {
		const { code } = await getCode(srv);
		expectOAuthError(
			await postToken(srv, { ...exchangeFields(srv, code), client_id: 'nobody' }),
			401,
			'invalid_client'
		);
		expectOAuthError(
			await postToken(srv, {
				grant_type: 'authorization_code',
				code,
				redirect_uri: `${srv.url}/callback`
			}),
			401,
			'invalid_client'
		);
	});

	it('wrong Basic credentials: 401 invalid_client with WWW-Authenticate Basic', async () => {
		const { code } = await getCode(srv);
		const fields = {
			grant_type: 'authorization_code',
			code,
			redirect_uri: `${srv.url}/callback`,
			scope: ''
		};
		for (const auth of [
			basic('sandbox-rw', 'wrong'),
			basic('odd:client', ODD_SECRET, false),
			'Basic !!!',
			'Bearer abc'
		]) {
			const a = await postToken(srv, fields, { Authorization: auth });
			expectOAuthError(a, 401, 'invalid_client');
			expect(a.res.headers.get('www-authenticate')).toBe('Basic realm="sandbox"');
		}
	});

	it('both methods at once: 400 invalid_request', async () => {
		const { code } = await getCode(srv);
		const a = await postToken(srv, exchangeFields(srv, code), {
			Authorization: basic('sandbox-rw', 'sandbox-rw-secret')
		});
		expectOAuthError(a, 400, 'invalid_request', /only one/);
	});
});

describe('grant types', () => {
	it('missing grant_type: invalid_request; another one: unsupported_grant_type', async () => {
		const creds = { client_id: 'sandbox-rw', client_secret: 'sandbox-rw-secret' };
		expectOAuthError(await postToken(srv, creds), 400, 'invalid_request', /grant_type/);
		expectOAuthError(
			await postToken(srv, { ...creds, grant_type: 'password', username: 'a', password: 'b' }),
			400,
			'unsupported_grant_type'
		);
		expectOAuthError(
			await postToken(srv, { ...creds, grant_type: 'client_credentials' }),
			400,
			'unsupported_grant_type'
		);
	});
});

describe('authorization_code grant', () => {
	it('answers exactly the seed token object, not cached', async () => {
		const { code } = await getCode(srv);
		const a = await postToken(srv, exchangeFields(srv, code));
		expect(a.res.status).toBe(200);
		expect(Object.keys(a.body)).toEqual([
			'access_token',
			'token_type',
			'expires_in',
			'refresh_token',
			'scope'
		]);
		expect(a.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
		expect(a.res.headers.get('cache-control')).toBe('no-store');
		expect(a.res.headers.get('pragma')).toBe('no-cache');
		expect(a.res.headers.get('content-type')).toMatch(/^application\/json/);
	});

	it('issues an HS256 JWT access token with the documented claims', async () => {
		const t = await tokensFor(srv);
		const [header] = t.access_token.split('.');
		expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({
			alg: 'HS256'
		});
		const c = jwtPayload(t.access_token);
		expect(c).toMatchObject({
			iss: `${srv.url}/sandbox`,
			sub: '1001',
			aud: 'sandbox-rw',
			client_id: 'sandbox-rw',
			scope: 'read write'
		});
		expect(typeof c.fam).toBe('string');
		expect(typeof c.jti).toBe('string');
		expect((c.exp as number) - (c.iat as number)).toBe(3600);
	});

	it('grants read only to the read-only registration', async () => {
		const t = await tokensFor(srv, 'sandbox-ro');
		expect(t.scope).toBe('read');
		expect(jwtPayload(t.access_token).scope).toBe('read');
	});

	it('gives sandbox-short a 5-second access token', async () => {
		const t = await tokensFor(srv, 'sandbox-short');
		expect(t.expires_in).toBe(5);
		const c = jwtPayload(t.access_token);
		expect((c.exp as number) - (c.iat as number)).toBe(5);
	});

	it('requires code and redirect_uri', async () => {
		const { code } = await getCode(srv);
		const { code: _c, ...noCode } = exchangeFields(srv, code);
		void _c;
		expectOAuthError(await postToken(srv, noCode), 400, 'invalid_request', /code/);
		const { redirect_uri: _r, ...noRedirect } = exchangeFields(srv, code);
		void _r;
		expectOAuthError(await postToken(srv, noRedirect), 400, 'invalid_request', /redirect_uri/);
	});

	it('refuses a redirect_uri other than the consent one', async () => {
		const { code } = await getCode(srv);
		const a = await postToken(srv, {
			...exchangeFields(srv, code),
			redirect_uri: `${srv.url}/sandbox/landing`
		});
		expectOAuthError(a, 400, 'invalid_grant', /redirect_uri/);
		// The mistake does not burn the code.
		expect((await postToken(srv, exchangeFields(srv, code))).res.status).toBe(200);
	});

	it('refuses a code issued to another client', async () => {
		const { code } = await getCode(srv);
		expectOAuthError(
			await postToken(srv, exchangeFields(srv, code, 'sandbox-ro')),
			400,
			'invalid_grant',
			/another client/
		);
	});

	it('refuses a made-up or tampered code', async () => {
		const { code } = await getCode(srv);
		const [h, , s] = code.split('.');
		const claims = jwtPayload(code);
		const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, scope: 'read write', client_id: 'sandbox-ro' })).toString('base64url')}.${s}`;
		expectOAuthError(
			await postToken(srv, exchangeFields(srv, tampered, 'sandbox-ro')),
			400,
			'invalid_grant',
			/invalid/
		);
		expectOAuthError(await postToken(srv, exchangeFields(srv, 'abc')), 400, 'invalid_grant');
	});

	it('accepts an empty scope field and ignores a different scope', async () => {
		const { code } = await getCode(srv, { client_id: 'sandbox-ro' });
		const a = await postToken(srv, {
			...exchangeFields(srv, code, 'sandbox-ro'),
			scope: 'read write'
		});
		expect(a.res.status).toBe(200);
		expect(a.body.scope).toBe('read');
	});

	it('is single use: a second use fails and revokes what the code produced', async () => {
		const { code } = await getCode(srv);
		const first = await postToken(srv, exchangeFields(srv, code));
		expect(first.res.status).toBe(200);
		const tokens = first.body as unknown as Tokens;
		expect((await api(srv, 'user-info', { token: tokens.access_token })).status).toBe(200);

		expectOAuthError(
			await postToken(srv, exchangeFields(srv, code)),
			400,
			'invalid_grant',
			/already been used/
		);

		const after = await api(srv, 'user-info', { token: tokens.access_token });
		expect(after.status).toBe(401);
		expect(after.headers.get('www-authenticate')).toContain('error="invalid_token"');
		expect((await after.json()).error_description).toMatch(/revoked/);
		expectOAuthError(
			await postToken(srv, refreshFields('sandbox-rw', tokens.refresh_token)),
			400,
			'invalid_grant'
		);
	});
});

describe('refresh_token grant', () => {
	it('rotates: a new access and refresh token, same scope, same shape', async () => {
		const t = await tokensFor(srv, 'sandbox-rw', { scope: 'read' });
		const a = await postToken(srv, refreshFields('sandbox-rw', t.refresh_token));
		expect(a.res.status).toBe(200);
		expect(Object.keys(a.body)).toEqual([
			'access_token',
			'token_type',
			'expires_in',
			'refresh_token',
			'scope'
		]);
		expect(a.body.scope).toBe('read');
		expect(a.body.refresh_token).not.toBe(t.refresh_token);
		expect(a.body.access_token).not.toBe(t.access_token);
		expect(a.res.headers.get('cache-control')).toBe('no-store');
		expect(a.res.headers.get('pragma')).toBe('no-cache');
		expect((await api(srv, 'user-info', { token: a.body.access_token as string })).status).toBe(
			200
		);
		// And again with the new one.
		const b = await postToken(srv, refreshFields('sandbox-rw', a.body.refresh_token as string));
		expect(b.res.status).toBe(200);
	});

	it('a replayed old refresh token fails and revokes the whole grant', async () => {
		const t = await tokensFor(srv);
		const next = (await postToken(srv, refreshFields('sandbox-rw', t.refresh_token)))
			.body as unknown as Tokens;
		expectOAuthError(
			await postToken(srv, refreshFields('sandbox-rw', t.refresh_token)),
			400,
			'invalid_grant',
			/already used/
		);
		expectOAuthError(
			await postToken(srv, refreshFields('sandbox-rw', next.refresh_token)),
			400,
			'invalid_grant',
			/revoked/
		);
		expect((await api(srv, 'user-info', { token: next.access_token })).status).toBe(401);
	});

	it('refuses a refresh token of another client, a made-up one, or a missing one', async () => {
		const t = await tokensFor(srv);
		expectOAuthError(
			await postToken(srv, refreshFields('sandbox-ro', t.refresh_token)),
			400,
			'invalid_grant',
			/another client/
		);
		expectOAuthError(
			await postToken(srv, refreshFields('sandbox-rw', t.access_token)),
			400,
			'invalid_grant',
			/invalid/
		);
		expectOAuthError(
			await postToken(srv, refreshFields('sandbox-rw', 'nonsense')),
			400,
			'invalid_grant'
		);
		expectOAuthError(
			await postToken(srv, {
				client_id: 'sandbox-rw',
				client_secret: 'sandbox-rw-secret',
				grant_type: 'refresh_token'
			}),
			400,
			'invalid_request',
			/refresh_token/
		);
		// The other client's attempt did not spend it.
		expect((await postToken(srv, refreshFields('sandbox-rw', t.refresh_token))).res.status).toBe(
			200
		);
	});
});
