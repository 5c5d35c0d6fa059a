// The sandbox token endpoint as a module (RFC 6749 §2.3.1, §3.2, §4.1.3, §5.2, §6): requests go
// straight to tokenEndpoint() of a sandbox with its own clock, no server and no waiting.
import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { newId, signCode, signRefreshToken } from '$lib/sandbox/signing.server';
import {
	tokenEndpoint,
	tokenError,
	tokenMethodNotAllowed,
	type TokenErrorCode
} from '$lib/sandbox/token-route.server';
import { testClock, testSandbox } from './test-app';

const ODD_ID = 'odd:client';
const ODD_SECRET = 'p@ss w:rd+%&=';
const ODD_CB = 'http://app.example.test/cb';
// The injected time: the sandbox signs, checks and prunes its store by this clock.
const NOW = Date.UTC(2090, 0, 1);
const clock = testClock(NOW);
const sb = testSandbox(
	{
		// The signing key is derived from this.
		PLAYGROUND_SESSION_KEY: Buffer.alloc(32, 'unit-test-sandbox-token-key').toString('base64url'),
		SANDBOX_CLIENTS: JSON.stringify([
			{
				client_id: ODD_ID,
				client_secret: ODD_SECRET,
				redirect_uris: [ODD_CB],
				default_scope: 'read write'
			}
		])
	},
	clock
);

const ORIGIN = 'http://127.0.0.1:5173';
const CB = `${ORIGIN}/callback`;
const RW = { client_id: 'sandbox-rw', client_secret: 'sandbox-rw-secret' };
const CODE_TTL = 60;
const REFRESH_TTL = 30 * 24 * 60 * 60;

type Fields = Record<string, string>;
interface Sent {
	basic?: [id: string, secret: string];
	authorization?: string;
	contentType?: string | null;
	now?: number;
}

/** RFC 6749 §2.3.1: Basic credentials are the form-urlencoded id and secret. */
function basic(id: string, secret: string): string {
	const enc = (s: string) => new URLSearchParams({ x: s }).toString().slice(2);
	return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

async function post(fields: Fields | string, sent: Sent = {}) {
	const headers = new Headers();
	const contentType =
		sent.contentType === undefined ? 'application/x-www-form-urlencoded' : sent.contentType;
	if (contentType !== null) headers.set('content-type', contentType);
	if (sent.basic) headers.set('authorization', basic(...sent.basic));
	if (sent.authorization) headers.set('authorization', sent.authorization);
	const text = typeof fields === 'string' ? fields : new URLSearchParams(fields).toString();
	// A byte body, so that no Content-Type is added when the test sends none.
	const request = new Request(`${ORIGIN}/sandbox/oauth2/token`, {
		method: 'POST',
		headers,
		body: new TextEncoder().encode(text)
	});
	clock.set(sent.now ?? NOW);
	const res = await tokenEndpoint(sb, request, ORIGIN);
	return { res, body: (await res.json()) as Record<string, unknown> };
}

type Answer = Awaited<ReturnType<typeof post>>;

function expectError(
	{ res, body }: Answer,
	status: number,
	error: TokenErrorCode,
	description: RegExp
) {
	expect({ status: res.status, error: body.error }).toEqual({ status, error });
	expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
	expect(body.error_description).toMatch(description);
	expect(res.headers.get('content-type')).toBe('application/json');
	expect(res.headers.get('cache-control')).toBe('no-store');
}

function expectTokens({ res, body }: Answer) {
	expect(res.status, JSON.stringify(body)).toBe(200);
	expect(Object.keys(body).sort()).toEqual([
		'access_token',
		'expires_in',
		'refresh_token',
		'scope',
		'token_type'
	]);
	expect(res.headers.get('cache-control')).toBe('no-store');
	return body as {
		access_token: string;
		refresh_token: string;
		scope: string;
		expires_in: number;
		token_type: string;
	};
}

async function newCode(
	client_id = RW.client_id,
	{ redirect_uri = CB, scope = 'read write' as const, now = NOW } = {}
) {
	const gen = await (await sb.store()).generation();
	return (await signCode(sb, { client_id, redirect_uri, scope, fam: newId(), gen }, CODE_TTL, now))
		.token;
}

const exchange = (code: string, extra: Fields = {}): Fields => ({
	grant_type: 'authorization_code',
	code,
	redirect_uri: CB,
	...RW,
	...extra
});
const refresh = (refresh_token: string, extra: Fields = {}): Fields => ({
	grant_type: 'refresh_token',
	refresh_token,
	...RW,
	...extra
});

describe('error responses (RFC 6749 §5.2)', () => {
	it.each([
		[400, 'invalid_request'],
		[401, 'invalid_client'],
		[400, 'invalid_grant'],
		[400, 'unauthorized_client'],
		[400, 'unsupported_grant_type'],
		[400, 'invalid_scope']
	] as const)('%i %s is JSON with error and error_description, never cached', async (s, e) => {
		const res = tokenError(s, e, 'why');
		expect(res.status).toBe(s);
		expect(await res.json()).toEqual({ error: e, error_description: 'why' });
		expect(res.headers.get('content-type')).toBe('application/json');
		expect(res.headers.get('cache-control')).toBe('no-store');
		expect(res.headers.get('pragma')).toBe('no-cache');
	});

	it('answers a method other than POST with 405 invalid_request and Allow: POST', async () => {
		const res = tokenMethodNotAllowed();
		expect(res.status).toBe(405);
		expect(res.headers.get('allow')).toBe('POST');
		expect(await res.json()).toMatchObject({ error: 'invalid_request' });
	});
});

describe('request format (RFC 6749 §3.2)', () => {
	it('refuses a request without Content-Type, saying it is missing', async () => {
		const r = await post(exchange(await newCode()), { contentType: null });
		expectError(r, 400, 'invalid_request', /Content-Type .*it is missing/);
	});

	it('refuses JSON, naming the media type it got', async () => {
		const r = await post(JSON.stringify(exchange(await newCode())), {
			contentType: 'application/json'
		});
		expectError(r, 400, 'invalid_request', /Content-Type .*got "application\/json"/);
	});

	it('accepts the form media type with parameters, in any case', async () => {
		expectTokens(
			await post(exchange(await newCode()), {
				contentType: 'Application/X-WWW-Form-Urlencoded; charset=UTF-8'
			})
		);
	});

	it('refuses a body over 16 KiB with 413', async () => {
		const r = await post(exchange(await newCode(), { pad: 'x'.repeat(16 * 1024) }));
		expectError(r, 413, 'invalid_request', /larger than 16384 bytes/);
	});

	it('refuses a repeated parameter, naming it', async () => {
		const code = await newCode();
		const text = `${new URLSearchParams(exchange(code))}&code=${code}`;
		expectError(await post(text), 400, 'invalid_request', /The code parameter is repeated/);
	});
});

describe('client authentication (RFC 6749 §2.3.1)', () => {
	it('accepts client_id and client_secret in the body', async () => {
		expectTokens(await post(exchange(await newCode())));
	});

	it('accepts HTTP Basic with the id and secret form-urlencoded first', async () => {
		const code = await newCode(ODD_ID, { redirect_uri: ODD_CB });
		const fields = { grant_type: 'authorization_code', code, redirect_uri: ODD_CB };
		expectTokens(await post(fields, { basic: [ODD_ID, ODD_SECRET] }));
	});

	it('accepts Basic together with the same client_id in the body', async () => {
		const { client_secret: _, ...noSecret } = exchange(await newCode());
		expectTokens(await post(noSecret, { basic: [RW.client_id, RW.client_secret] }));
	});

	it('refuses missing credentials with 401 invalid_client', async () => {
		const { client_id: _i, client_secret: _s, ...none } = exchange(await newCode());
		const r = await post(none);
		expectError(r, 401, 'invalid_client', /Client authentication is missing/);
		expect(r.res.headers.get('www-authenticate')).toBeNull();
	});

	it('refuses a wrong secret or an unknown client in the body with 401 invalid_client', async () => {
		const code = await newCode();
		const wrong: Fields[] = [
			{ client_secret: 'wrong' },
			{ client_id: 'nobody', client_secret: 'x' },
			{ client_secret: '' }
		];
		for (const credentials of wrong) {
			const r = await post(exchange(code, credentials));
			expectError(r, 401, 'invalid_client', /unknown client_id or wrong client_secret/);
			expect(r.res.headers.get('www-authenticate')).toBeNull();
		}
	});

	it('refuses wrong Basic credentials with 401 and a Basic challenge', async () => {
		const { client_id: _i, client_secret: _s, ...fields } = exchange(await newCode());
		const r = await post(fields, { basic: [RW.client_id, 'wrong'] });
		expectError(r, 401, 'invalid_client', /unknown client_id or wrong client_secret/);
		expect(r.res.headers.get('www-authenticate')).toBe('Basic realm="sandbox"');
	});

	it('refuses Basic credentials without a colon, or with broken escapes', async () => {
		const { client_id: _i, client_secret: _s, ...fields } = exchange(await newCode());
		for (const raw of ['sandbox-rw', 'sandbox-rw:%E0%A4%A']) {
			const r = await post(fields, {
				authorization: `Basic ${Buffer.from(raw).toString('base64')}`
			});
			expectError(r, 401, 'invalid_client', /malformed/);
			expect(r.res.headers.get('www-authenticate')).toBe('Basic realm="sandbox"');
		}
	});

	it('refuses another scheme in the Authorization header', async () => {
		const r = await post(exchange(await newCode()), { authorization: 'Bearer abc' });
		expectError(r, 401, 'invalid_client', /Only HTTP Basic/);
		expect(r.res.headers.get('www-authenticate')).toBe('Basic realm="sandbox"');
	});

	it('refuses both methods at once (RFC 6749 §2.3) with invalid_request', async () => {
		const r = await post(exchange(await newCode()), { basic: [RW.client_id, RW.client_secret] });
		expectError(r, 400, 'invalid_request', /authenticated twice/);
	});

	it('refuses a body client_id that differs from the Basic one', async () => {
		const { client_secret: _, ...fields } = exchange(await newCode(), { client_id: 'sandbox-ro' });
		const r = await post(fields, { basic: [RW.client_id, RW.client_secret] });
		expectError(r, 400, 'invalid_request', /client_id in the body differs/);
	});
});

describe('grant_type', () => {
	it('refuses a missing grant_type with invalid_request', async () => {
		const { grant_type: _, ...fields } = exchange(await newCode());
		expectError(await post(fields), 400, 'invalid_request', /grant_type parameter is missing/);
	});

	it('refuses another grant type with unsupported_grant_type, naming it', async () => {
		const r = await post({ grant_type: 'password', username: 'u', password: 'p', ...RW });
		expectError(r, 400, 'unsupported_grant_type', /"password" is not supported/);
	});
});

describe('authorization_code grant (RFC 6749 §4.1.3)', () => {
	it('answers the five fields, with the access token a JWT for this client', async () => {
		const t = expectTokens(await post(exchange(await newCode())));
		expect(t).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
		expect(decodeJwt(t.access_token)).toMatchObject({
			iss: `${ORIGIN}/sandbox`,
			client_id: RW.client_id,
			scope: 'read write',
			iat: NOW / 1000,
			exp: NOW / 1000 + 3600
		});
	});

	it('refuses a missing code or redirect_uri with invalid_request', async () => {
		const { code: _c, ...noCode } = exchange(await newCode());
		expectError(await post(noCode), 400, 'invalid_request', /code parameter is missing/);
		const { redirect_uri: _r, ...noRedirect } = exchange(await newCode());
		expectError(await post(noRedirect), 400, 'invalid_request', /redirect_uri .* missing/);
	});

	it('accepts a code until it expires, then refuses it with invalid_grant', async () => {
		const late = await newCode();
		const r = await post(exchange(late), { now: NOW + (CODE_TTL + 1) * 1000 });
		expectError(r, 400, 'invalid_grant', /authorization code has expired/);
		expectTokens(await post(exchange(await newCode()), { now: NOW + (CODE_TTL - 1) * 1000 }));
	});

	it('refuses a made-up or tampered code with invalid_grant', async () => {
		expectError(await post(exchange('abc')), 400, 'invalid_grant', /code is invalid/);
		const [h, p, s] = (await newCode()).split('.');
		const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
		const forged = Buffer.from(JSON.stringify({ ...claims, scope: 'read write', x: 1 }));
		const r = await post(exchange(`${h}.${forged.toString('base64url')}.${s}`));
		expectError(r, 400, 'invalid_grant', /code is invalid/);
	});

	it('refuses a code issued to another client with invalid_grant', async () => {
		const r = await post(exchange(await newCode('sandbox-ro')));
		expectError(r, 400, 'invalid_grant', /issued to another client/);
	});

	it('refuses a redirect_uri other than the consent one with invalid_grant', async () => {
		const r = await post(exchange(await newCode(), { redirect_uri: `${ORIGIN}/sandbox/landing` }));
		expectError(r, 400, 'invalid_grant', /redirect_uri does not match/);
	});

	it('never grants write to a read-only registration, whatever the code says', async () => {
		const code = await newCode('sandbox-ro');
		const ro = { client_id: 'sandbox-ro', client_secret: 'sandbox-ro-secret' };
		expect(expectTokens(await post(exchange(code, ro))).scope).toBe('read');
	});

	it('replayed code: a code issued under another store generation is refused with invalid_grant', async () => {
		const code = await signCode(
			sb,
			{ client_id: RW.client_id, redirect_uri: CB, scope: 'read', fam: newId(), gen: 'before' },
			CODE_TTL,
			NOW
		);
		const r = await post(exchange(code.token));
		expectError(r, 400, 'invalid_grant', /issued before the sandbox's store was emptied/);
	});

	it('is single use: a second use fails and revokes the tokens the code produced', async () => {
		const code = await newCode();
		const first = expectTokens(await post(exchange(code)));
		const again = await post(exchange(code));
		expectError(again, 400, 'invalid_grant', /already been used; the tokens issued from it/);
		const r = await post(refresh(first.refresh_token));
		expectError(r, 400, 'invalid_grant', /refresh token has been revoked/);
	});
});

describe('refresh_token grant (RFC 6749 §6, RFC 9700 §4.14.2)', () => {
	async function tokens() {
		return expectTokens(await post(exchange(await newCode())));
	}

	it('rotates: new tokens with the same scope, and the new refresh token works next', async () => {
		const first = await tokens();
		const second = expectTokens(await post(refresh(first.refresh_token)));
		expect(second.refresh_token).not.toBe(first.refresh_token);
		expect(second.access_token).not.toBe(first.access_token);
		expect(second.scope).toBe(first.scope);
		const third = expectTokens(await post(refresh(second.refresh_token)));
		expect(third.refresh_token).not.toBe(second.refresh_token);
	});

	it('a replayed old refresh token fails and revokes the whole grant', async () => {
		const first = await tokens();
		const second = expectTokens(await post(refresh(first.refresh_token)));
		const replay = await post(refresh(first.refresh_token));
		expectError(replay, 400, 'invalid_grant', /already used \(refresh tokens rotate\)/);
		const r = await post(refresh(second.refresh_token));
		expectError(r, 400, 'invalid_grant', /refresh token has been revoked/);
	});

	it('accepts a refresh token until it expires, then refuses it with invalid_grant', async () => {
		const { refresh_token } = await tokens();
		const r = await post(refresh(refresh_token), { now: NOW + (REFRESH_TTL + 1) * 1000 });
		expectError(r, 400, 'invalid_grant', /refresh token has expired/);
		const { refresh_token: fresh } = await tokens();
		expectTokens(await post(refresh(fresh), { now: NOW + (REFRESH_TTL - 1) * 1000 }));
	});

	it('replayed refresh token: one issued under another store generation is refused with invalid_grant', async () => {
		const old = await signRefreshToken(
			sb,
			{ client_id: RW.client_id, scope: 'read', fam: newId(), gen: 'before' },
			REFRESH_TTL,
			NOW
		);
		const r = await post(refresh(old.token));
		expectError(r, 400, 'invalid_grant', /issued before the sandbox's store was emptied/);
	});

	it('refuses a missing, made-up or another client’s refresh token', async () => {
		const { refresh_token: _, ...missing } = refresh('');
		expectError(await post(missing), 400, 'invalid_request', /refresh_token parameter is missing/);
		expectError(await post(refresh('abc')), 400, 'invalid_grant', /refresh token is invalid/);
		const theirs = await signRefreshToken(
			sb,
			{
				client_id: 'sandbox-ro',
				scope: 'read',
				fam: newId(),
				gen: await (await sb.store()).generation()
			},
			REFRESH_TTL,
			NOW
		);
		const r = await post(refresh(theirs.token));
		expectError(r, 400, 'invalid_grant', /issued to another client/);
	});
});
