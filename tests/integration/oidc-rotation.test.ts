/**
 * oidc-provider with refresh-token rotation on every use for one client (`rotatingRefreshTokens`,
 * tests/helpers/oidc.ts), so the suites can show how an authorization server this project did not
 * write treats a refresh token it replaced: a refresh answers a new refresh token, and the one it
 * replaced, sent again, is refused and revokes the grant, so the new one is refused too. A client
 * it does not name keeps the provider's default policy, which for a confidential client answers the
 * same refresh token for most of its life. Driven over HTTP, no playground: the provider's own
 * sign-in and consent pages, then its token endpoint.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Client } from '../helpers/client';
import {
	OIDC_CLIENT_ID,
	OIDC_CLIENT_SECRET,
	oidcClient,
	rotatingRefreshTokens,
	signInAndConsent,
	startOidcProvider,
	type OidcServer
} from '../helpers/oidc';

const ROTATING = { id: 'rotating-app', secret: 'rotating-Secret-7Hq3' };
/** Never fetched: the provider's redirect back is read from its Location header. */
const REDIRECT = 'http://127.0.0.1:9/callback';

let oidc: OidcServer;
/** What the provider says to itself about each refused token request (never on the wire). */
const details: string[] = [];

beforeAll(async () => {
	oidc = await startOidcProvider({
		clients: [
			oidcClient([REDIRECT], { client_id: ROTATING.id, client_secret: ROTATING.secret }),
			oidcClient([REDIRECT])
		],
		configuration: rotatingRefreshTokens([ROTATING.id])
	});
	oidc.provider.on('grant.error', (_ctx, err: Error & { error_detail?: string }) => {
		details.push(err.error_detail ?? '');
	});
});
afterAll(() => oidc?.stop());

async function token(fields: Record<string, string>) {
	const res = await fetch(oidc.endpoints.token, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams(fields)
	});
	return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** Sign-in, consent and code exchange for a client: its first access and refresh token. */
async function firstTokens(client_id: string, client_secret: string) {
	const consent = new URL(oidc.endpoints.authorization);
	consent.search = new URLSearchParams({
		client_id,
		redirect_uri: REDIRECT,
		response_type: 'code',
		scope: 'openid read',
		state: 'rotation-test'
	}).toString();
	const back = new URL(await signInAndConsent(new Client(oidc.origin), consent.toString()));
	const code = back.searchParams.get('code');
	expect(code, back.toString()).toBeTruthy();
	const answer = await token({
		grant_type: 'authorization_code',
		code: code!,
		redirect_uri: REDIRECT,
		client_id,
		client_secret
	});
	expect(answer.status, JSON.stringify(answer.body)).toBe(200);
	expect(answer.body.refresh_token).toBeTruthy();
	return answer.body;
}

const refresh = (client_id: string, client_secret: string, refresh_token: string) =>
	token({ grant_type: 'refresh_token', refresh_token, client_id, client_secret });

test('a rotating client gets a new refresh token on each refresh; the replaced one is then refused (invalid_grant, "grant request is invalid") and the grant revoked', async () => {
	const first = await firstTokens(ROTATING.id, ROTATING.secret);
	const second = await refresh(ROTATING.id, ROTATING.secret, first.refresh_token!);
	expect(second.status, JSON.stringify(second.body)).toBe(200);
	expect(second.body.refresh_token).toBeTruthy();
	expect(second.body.refresh_token).not.toBe(first.refresh_token);
	expect(second.body.access_token).not.toBe(first.access_token);

	details.length = 0;
	// The replaced refresh token, sent again: oidc-provider's own words, as on the wire.
	const replayed = await refresh(ROTATING.id, ROTATING.secret, first.refresh_token!);
	expect(replayed).toEqual({
		status: 400,
		body: { error: 'invalid_grant', error_description: 'grant request is invalid' }
	});
	// It revoked the grant: the refresh token it had just answered is refused as well, in the same words.
	const current = await refresh(ROTATING.id, ROTATING.secret, second.body.refresh_token!);
	expect(current).toEqual({
		status: 400,
		body: { error: 'invalid_grant', error_description: 'grant request is invalid' }
	});
	// Only its log tells the two apart.
	expect(details).toEqual(['refresh token already used', 'refresh token not found']);
});

test('a client it does not name keeps the default: the same refresh token comes back, and works again', async () => {
	const first = await firstTokens(OIDC_CLIENT_ID, OIDC_CLIENT_SECRET);
	for (let i = 0; i < 2; i++) {
		const again = await refresh(OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, first.refresh_token!);
		expect(again.status, JSON.stringify(again.body)).toBe(200);
		expect(again.body.refresh_token).toBe(first.refresh_token);
	}
});
