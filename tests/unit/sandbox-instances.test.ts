// Two sandboxes built from two configurations share nothing: not the signing key, the clients,
// the limits, the store of codes and grants, the demo data nor the rate-limit windows.
import { describe, expect, it } from 'vitest';
import {
	checkAuthorizationRequest,
	consentView,
	decideConsent
} from '$lib/sandbox/authorize.server';
import { readerApi } from '$lib/sandbox/api.server';
import type { Sandbox } from '$lib/sandbox/sandbox.server';
import { tokenEndpoint } from '$lib/sandbox/token-route.server';
import { keyOf, testClock, testSandbox } from './test-app';

const ORIGIN = 'http://127.0.0.1:5173';
const CB = `${ORIGIN}/callback`;
const clock = testClock(Date.UTC(2030, 0, 1));

/** A code for sandbox-rw, from a consent request and decision at `sandbox`. */
async function codeFrom(sandbox: Sandbox): Promise<string> {
	const params = { client_id: 'sandbox-rw', redirect_uri: CB, response_type: 'code', state: 's' };
	const check = checkAuthorizationRequest(sandbox.settings, new URLSearchParams(params), ORIGIN);
	if (check.kind !== 'consent') throw new Error(check.kind);
	const decided = await decideConsent(
		sandbox,
		(await consentView(sandbox, check)).ticket,
		'authorize'
	);
	if (!decided.ok) throw new Error(decided.message);
	return new URL(decided.location).searchParams.get('code')!;
}

/** Exchanges a code at `sandbox`'s token endpoint. */
async function exchange(sandbox: Sandbox, code: string) {
	const body = new URLSearchParams({
		grant_type: 'authorization_code',
		code,
		redirect_uri: CB,
		client_id: 'sandbox-rw',
		client_secret: 'sandbox-rw-secret'
	});
	const res = await tokenEndpoint(
		sandbox,
		new Request(`${ORIGIN}/sandbox/oauth2/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body
		}),
		ORIGIN
	);
	return { status: res.status, body: (await res.json()) as Record<string, string> };
}

/** Calls the reader API of `sandbox` with an access token. */
async function api(sandbox: Sandbox, path: string, token: string, form?: Record<string, string>) {
	const url = new URL(`${ORIGIN}/sandbox/reader/api/0/${path}`);
	const res = await readerApi(
		sandbox,
		new Request(url, {
			method: form ? 'POST' : 'GET',
			headers: {
				authorization: `Bearer ${token}`,
				...(form && { 'content-type': 'application/x-www-form-urlencoded' })
			},
			...(form && { body: new URLSearchParams(form) })
		}),
		url,
		path
	);
	return res;
}

const unread = async (res: Response) =>
	((await res.json()) as { unreadcounts: { id: string; count: number }[] }).unreadcounts.find((u) =>
		u.id.endsWith('/reading-list')
	)!.count;

describe('two sandboxes with two configurations', () => {
	it('refuse each other’s codes: another key, and with the same key another store', async () => {
		const one = testSandbox({ PLAYGROUND_SESSION_KEY: keyOf(1) }, clock);
		const two = testSandbox({ PLAYGROUND_SESSION_KEY: keyOf(2) }, clock);
		const twin = testSandbox({ PLAYGROUND_SESSION_KEY: keyOf(1) }, clock);
		const code = await codeFrom(one);
		// Signed with another key: not theirs at all.
		expect(await exchange(two, code)).toMatchObject({
			status: 400,
			body: { error: 'invalid_grant', error_description: 'The authorization code is invalid' }
		});
		// Same key, but the code's use is remembered by the store that issued it, not this one.
		expect(await exchange(twin, code)).toMatchObject({
			status: 400,
			body: {
				error: 'invalid_grant',
				error_description: expect.stringMatching(/issued before the sandbox's store was emptied/)
			}
		});
		// The issuer still takes it, once.
		expect((await exchange(one, code)).status).toBe(200);
		expect((await exchange(one, code)).body.error_description).toMatch(/already been used/);
	});

	it('keep their own clients, lifetimes, demo data and rate-limit windows', async () => {
		const zone1 = { SANDBOX_ZONE1_LIMIT: '2' };
		const one = testSandbox(
			{
				PLAYGROUND_SESSION_KEY: keyOf(3),
				...zone1,
				SANDBOX_CODE_TTL: '30',
				SANDBOX_CLIENTS: JSON.stringify([
					{
						client_id: 'only-one',
						client_secret: 'only-one-secret',
						redirect_uris: ['https://one.example.test/cb'],
						default_scope: 'read'
					}
				])
			},
			clock
		);
		// The same key and limits, so that each reads the other's tokens and counts into windows of
		// the same name: only their state can tell them apart.
		const two = testSandbox({ PLAYGROUND_SESSION_KEY: keyOf(3), ...zone1 }, clock);
		expect(one.settings.extraClients.map((c) => c.client_id)).toEqual(['only-one']);
		expect(two.settings.extraClients).toEqual([]);
		expect([one.settings.codeTtl, two.settings.codeTtl]).toEqual([30, 60]);

		const token = (await exchange(one, await codeFrom(one))).body.access_token!;
		const before = await unread(await api(one, 'unread-count', token));
		expect(before).toBeGreaterThan(0);
		const marked = await api(two, 'mark-all-as-read', token, {
			s: 'user/-/state/com.google/reading-list'
		});
		expect(marked.status).toBe(200);
		expect(await unread(await api(two, 'unread-count', token))).toBe(0);
		// The first sandbox's demo data did not change, and its own two calls are now spent...
		expect(await unread(await api(one, 'unread-count', token))).toBe(before);
		expect((await api(one, 'unread-count', token)).status).toBe(429);
		// ...while the second has made only one call.
		const second = await api(two, 'unread-count', token);
		expect(second.status).toBe(200);
		expect(second.headers.get('x-reader-zone1-usage')).toBe('2');
	});
});
