/**
 * Whose the sandbox's demo data and rate limits are. Hosted mode: each sign-in (grant) has its own,
 * so two visitors on the same built-in client neither spend nor change each other's, and one
 * address may start only so many sign-ins an hour. Local mode: per client, as the service's API
 * docs describe. The /sandbox page says which applies.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import {
	apiPost,
	api,
	exchangeFields,
	openConsent,
	postDecision,
	postToken,
	type Tokens
} from './sandbox-helpers';

const STARRED = 'user/-/state/com.google/starred';

/** A sign-in from `address` (sent as the proxy would, in X-Forwarded-For): its tokens. */
async function signIn(srv: TestServer, address: string): Promise<Tokens> {
	const { ticket } = await openConsent(srv);
	const res = await postDecision(srv, 'authorize', { ticket }, { 'X-Forwarded-For': address });
	expect(res.status, await res.clone().text()).toBe(303);
	const code = new URL(res.headers.get('location')!).searchParams.get('code')!;
	const answer = await postToken(srv, exchangeFields(srv, code));
	expect(answer.res.status).toBe(200);
	return answer.body as unknown as Tokens;
}

async function starredIds(srv: TestServer, token: string): Promise<string[]> {
	const res = await api(srv, `stream/items/ids?s=${encodeURIComponent(STARRED)}`, { token });
	expect(res.status).toBe(200);
	const body = (await res.json()) as { itemRefs: { id: string }[] };
	return body.itemRefs.map((r) => r.id);
}

async function start(env: Record<string, string>): Promise<TestServer> {
	const port = await freePort();
	return startServer(
		{
			ORIGIN: `http://127.0.0.1:${port}`,
			ADDRESS_HEADER: 'x-forwarded-for',
			XFF_DEPTH: '1',
			// The test client stands for the proxy, whose address header is believed.
			PLAYGROUND_TRUSTED_PROXIES: '127.0.0.1',
			SANDBOX_ZONE2_LIMIT: '3',
			...env
		},
		port
	);
}

describe('hosted mode: per sign-in', () => {
	let srv: TestServer;
	beforeAll(async () => {
		srv = await start({ PLAYGROUND_MODE: 'hosted' });
	});
	afterAll(() => srv?.stop());

	test('two visitors on one client: independent budgets and demo data', async () => {
		const one = await signIn(srv, '198.51.100.1');
		const two = await signIn(srv, '198.51.100.2');
		const before = await starredIds(srv, two.access_token);

		// Visitor one stars item 1007 and then spends the whole zone-2 budget.
		const star = await apiPost(srv, 'edit-tag', one.access_token, [
			['i', '1007'],
			['a', STARRED]
		]);
		expect(star.status).toBe(200);
		for (let i = 0; i < 2; i++)
			expect(
				(await apiPost(srv, 'mark-all-as-read', one.access_token, [['s', STARRED]])).status
			).toBe(200);
		const locked = await apiPost(srv, 'mark-all-as-read', one.access_token, [['s', STARRED]]);
		expect(locked.status).toBe(429);

		expect((await starredIds(srv, one.access_token)).length).toBe(before.length + 1);
		// Visitor two sees neither the star nor the spent budget.
		expect(await starredIds(srv, two.access_token)).toEqual(before);
		const theirs = await apiPost(srv, 'mark-all-as-read', two.access_token, [['s', STARRED]]);
		expect(theirs.status).toBe(200);
		expect(theirs.headers.get('x-reader-zone2-usage')).toBe('1');
	});

	test('one address may start only so many sign-ins an hour; another address is not held back', async () => {
		const address = '203.0.113.50';
		let refused: Response | undefined;
		for (let i = 0; i < 25 && !refused; i++) {
			const { ticket } = await openConsent(srv);
			const res = await postDecision(srv, 'authorize', { ticket }, { 'X-Forwarded-For': address });
			if (res.status === 429) refused = res;
			else expect(res.status).toBe(303);
		}
		expect(refused, 'the 21st sign-in from one address is refused').toBeDefined();
		expect(await refused!.text()).toContain('signed in to the sandbox 20 times this hour');
		await signIn(srv, '203.0.113.51');
	});

	test('the sandbox page says that each sign-in has its own data and limits', async () => {
		const html = await (await fetch(`${srv.url}/sandbox`)).text();
		expect(html).toContain('each sign-in (each authorization code and');
		expect(html).toContain('Rate limits per sign-in');
	});
});

describe('local mode: per client, as the service documents', () => {
	let srv: TestServer;
	beforeAll(async () => {
		srv = await start({});
	});
	afterAll(() => srv?.stop());

	test('two sign-ins of one client share the demo data and the budget', async () => {
		const one = await signIn(srv, '198.51.100.1');
		const two = await signIn(srv, '198.51.100.2');
		const before = await starredIds(srv, two.access_token);
		await apiPost(srv, 'edit-tag', one.access_token, [
			['i', '1008'],
			['a', STARRED]
		]);
		expect((await starredIds(srv, two.access_token)).length).toBe(before.length + 1);
		const res = await apiPost(srv, 'mark-all-as-read', two.access_token, [['s', STARRED]]);
		expect(res.headers.get('x-reader-zone2-usage')).toBe('2');
	});

	test('the sandbox page says it counts per client', async () => {
		const html = await (await fetch(`${srv.url}/sandbox`)).text();
		expect(html).toContain('counts per client, as the service');
		expect(html).toContain('Rate limits per client');
	});
});
