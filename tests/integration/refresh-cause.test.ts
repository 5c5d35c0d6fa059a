/**
 * Why a refresh failed, through the built playground, against loopback look-alikes of how other
 * servers refuse a refresh token, in their real wording and shapes (Keycloak's 400 invalid_grant
 * "Session not active" and "Token is not active", Google's "Token has been expired or revoked.",
 * Auth0's 403 "Unknown or invalid refresh token.", a server answering invalid_request), and against
 * the built-in sandbox after a revocation: one error finding each, with its cause, "most likely"
 * where the words do not prove it, and the verdict line names it.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';
import { startScriptedService, type ScriptedService } from '../helpers/scripted-service';
import type { Exchange } from '../../src/lib/exchange/types';
import { verdictOf } from '../../src/lib/exchange/verdict';

let srv: TestServer;
let look: ScriptedService;

beforeAll(async () => {
	look = await startScriptedService();
	srv = await startServer({});
});
afterAll(async () => {
	await srv?.stop();
	await look?.close();
});
beforeEach(() => look.reset());

const exchanges = (r: { data: Record<string, unknown> }) => (r.data.exchanges as Exchange[]) ?? [];
const json = (status: number, body: object) => ({
	status,
	headers: [
		['Content-Type', 'application/json'],
		['Cache-Control', 'no-store']
	] as [string, string][],
	body: JSON.stringify(body)
});

/** A flow with tokens from the look-alike, then a refresh that it refuses with `refusal`. */
async function refusedRefresh(refusal: ReturnType<typeof json>) {
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
	look.answer(
		json(200, {
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
		json(400, { error: 'invalid_grant', error_description: 'Session not active' }),
		'refresh-session-ended',
		/^The user's session at the service has ended/
	],
	[
		"Keycloak's inactive token",
		json(400, { error: 'invalid_grant', error_description: 'Token is not active' }),
		'refresh-not-active',
		/^Most likely expired or revoked/
	],
	[
		"Google's expired or revoked token",
		json(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }),
		'refresh-not-active',
		/Google limits the refresh tokens of an app in "Testing" to 7 days/
	],
	[
		"Auth0's 403",
		json(403, { error: 'invalid_grant', error_description: 'Unknown or invalid refresh token.' }),
		'refresh-unknown',
		/It answered 403 invalid_grant where RFC 6749 §5\.2 has 400 invalid_grant/
	],
	[
		'a server that answers invalid_request',
		json(400, { error: 'invalid_request', error_description: 'Invalid refresh token' }),
		'refresh-unknown',
		/It answered 400 invalid_request where/
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
