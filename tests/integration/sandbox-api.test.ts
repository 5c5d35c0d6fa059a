// The sandbox reader API over real HTTP: the service’s API docs §4.4 and §5.7, RFC 6750 §2 and §3, and the
// X-Reader-* rate-limit headers on every answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server';
import {
	SECRETS,
	api,
	apiPost,
	startSandbox,
	tokensFor,
	usage,
	type Tokens
} from './sandbox-helpers';

const READ = 'user/-/state/com.google/read';
let srv: TestServer;
let rw: Tokens;
let ro: Tokens;

beforeAll(async () => {
	srv = await startSandbox();
	rw = await tokensFor(srv, 'sandbox-rw');
	ro = await tokensFor(srv, 'sandbox-ro');
});
afterAll(() => srv?.stop());

async function unreadTotal(token: string): Promise<number> {
	const res = await api(srv, 'unread-count', { token });
	const body = (await res.json()) as { unreadcounts: { id: string; count: number }[] };
	return body.unreadcounts.find((u) => u.id.endsWith('/state/com.google/reading-list'))!.count;
}

describe('bearer tokens (RFC 6750)', () => {
	it('no token: 401 with WWW-Authenticate: Bearer realm="sandbox" and the rate headers', async () => {
		const res = await api(srv, 'user-info');
		expect(res.status).toBe(401);
		expect(res.headers.get('www-authenticate')).toBe('Bearer realm="sandbox"');
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect(usage(res)).toMatchObject({
			'zone1-usage': 0,
			'zone1-limit': 100,
			'zone2-usage': 0,
			'zone2-limit': 10
		});
	});

	it('a token in another scheme counts as no token', async () => {
		const res = await api(srv, 'user-info', { headers: { Authorization: 'GoogleLogin auth=abc' } });
		expect(res.status).toBe(401);
		expect(res.headers.get('www-authenticate')).toBe('Bearer realm="sandbox"');
	});

	it('an invalid token: 401 invalid_token in the header and in the JSON body', async () => {
		const res = await api(srv, 'user-info', { token: 'not-a-token' });
		expect(res.status).toBe(401);
		expect(res.headers.get('www-authenticate')).toMatch(
			/^Bearer realm="sandbox", error="invalid_token", error_description="[^"]+"$/
		);
		const body = await res.json();
		expect(body.error).toBe('invalid_token');
		expect(typeof body.error_description).toBe('string');
		usage(res);
	});

	it('a refresh token or a code is not an access token', async () => {
		const res = await api(srv, 'user-info', { token: rw.refresh_token });
		expect(res.status).toBe(401);
		expect((await res.json()).error).toBe('invalid_token');
	});

	it('accepts the token in the access_token query parameter', async () => {
		const res = await api(srv, `user-info?access_token=${encodeURIComponent(rw.access_token)}`);
		expect(res.status).toBe(200);
	});

	it('refuses a token sent both ways', async () => {
		const res = await api(srv, `user-info?access_token=${encodeURIComponent(rw.access_token)}`, {
			token: rw.access_token
		});
		expect(res.status).toBe(400);
		expect((await res.json()).error).toBe('invalid_request');
		expect(res.headers.get('www-authenticate')).toContain('error="invalid_request"');
	});
});

describe('zone 1: reads', () => {
	it('user-info answers the demo user with the real service fields', async () => {
		const res = await api(srv, 'user-info', { token: rw.access_token });
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		const body = await res.json();
		expect(Object.keys(body).sort()).toEqual([
			'isBloggerUser',
			'isMultiLoginEnabled',
			'signupTimeSec',
			'userEmail',
			'userId',
			'userName',
			'userProfileId'
		]);
		expect(body).toMatchObject({
			userId: '1001',
			userName: 'Demo Reader',
			userEmail: 'demo@example.com'
		});
	});

	it('subscription/list, tag/list, unread-count, stream/contents, stream/items/ids answer Google-Reader-style JSON', async () => {
		const subs = await (await api(srv, 'subscription/list', { token: ro.access_token })).json();
		expect(subs.subscriptions.length).toBeGreaterThanOrEqual(3);
		const feed = subs.subscriptions[0].id as string;
		expect(feed).toMatch(/^feed\//);
		expect(subs.subscriptions[0].categories[0].id).toMatch(/^user\/1001\/label\//);

		const tags = await (await api(srv, 'tag/list', { token: ro.access_token })).json();
		expect(tags.tags.map((t: { id: string }) => t.id)).toContain(
			'user/1001/state/com.google/starred'
		);

		const counts = await (await api(srv, 'unread-count', { token: ro.access_token })).json();
		expect(counts.unreadcounts.find((u: { id: string }) => u.id === feed).count).toBeGreaterThan(0);

		const contents = await api(srv, `stream/contents/${encodeURIComponent(feed)}?n=2`, {
			token: ro.access_token
		});
		expect(contents.status).toBe(200);
		const c = await contents.json();
		expect(c.id).toBe(feed);
		expect(c.items).toHaveLength(2);
		expect(c.items[0].id).toMatch(/^tag:google\.com,2005:reader\/item\/[0-9a-f]{16}$/);
		expect(c.items[0].origin.streamId).toBe(feed);
		expect(c.continuation).toBe('2');

		const all = await (await api(srv, 'stream/contents', { token: ro.access_token })).json();
		expect(all.id).toBe('user/1001/state/com.google/reading-list');

		const ids = await (
			await api(srv, `stream/items/ids?s=${encodeURIComponent(feed)}&n=20`, {
				token: ro.access_token
			})
		).json();
		expect(ids.itemRefs.length).toBeGreaterThan(0);
		expect(ids.itemRefs[0].id).toMatch(/^\d+$/);

		const unknown = await api(
			srv,
			`stream/contents/${encodeURIComponent('feed/https://nope.example/')}`,
			{ token: ro.access_token }
		);
		expect(unknown.status).toBe(404);
		expect((await unknown.json()).error).toBe('not_found');
		const noStream = await api(srv, 'stream/items/ids', { token: ro.access_token });
		expect(noStream.status).toBe(400);
	});
});

describe('zone 2: writes', () => {
	it('needs write: a read token gets 403 insufficient_scope, and nothing is counted', async () => {
		const before = usage(await api(srv, 'user-info', { token: ro.access_token }))['zone2-usage'];
		for (const path of ['edit-tag', 'mark-all-as-read']) {
			const res = await apiPost(srv, path, ro.access_token, [
				['i', '1001'],
				['a', READ],
				['s', 'user/-/state/com.google/reading-list']
			]);
			expect(res.status).toBe(403);
			expect(res.headers.get('www-authenticate')).toBe(
				'Bearer realm="sandbox", error="insufficient_scope", scope="read write"'
			);
			const body = await res.json();
			expect(body.error).toBe('insufficient_scope');
			expect(typeof body.error_description).toBe('string');
			expect(usage(res)['zone2-usage']).toBe(before);
		}
	});

	it('edit-tag answers plain-text OK and changes the unread count', async () => {
		const before = await unreadTotal(rw.access_token);
		const res = await apiPost(srv, 'edit-tag', rw.access_token, [
			['i', '1001'],
			['i', 'tag:google.com,2005:reader/item/00000000000003ea'],
			['a', READ]
		]);
		expect(res.status).toBe(200);
		expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
		expect(await res.text()).toBe('OK');
		expect(await unreadTotal(rw.access_token)).toBe(before - 2);
		const undo = await apiPost(srv, 'edit-tag', rw.access_token, [
			['i', '1001'],
			['r', READ]
		]);
		expect(await undo.text()).toBe('OK');
		expect(await unreadTotal(rw.access_token)).toBe(before - 1);
	});

	it('mark-all-as-read marks a stream read', async () => {
		const feed = 'feed/https://cooking.example.net/atom.xml';
		const res = await apiPost(srv, 'mark-all-as-read', rw.access_token, [['s', feed]]);
		expect(res.status).toBe(200);
		expect(await res.text()).toBe('OK');
		const counts = await (await api(srv, 'unread-count', { token: rw.access_token })).json();
		expect(counts.unreadcounts.find((u: { id: string }) => u.id === feed).count).toBe(0);
	});

	it('refuses bad parameters with a JSON 400', async () => {
		for (const [path, fields] of [
			['edit-tag', [['a', READ]]],
			[
				'edit-tag',
				[
					['i', '999999'],
					['a', READ]
				]
			],
			['mark-all-as-read', []]
		] as [string, [string, string][]][]) {
			const res = await apiPost(srv, path, rw.access_token, fields);
			expect(res.status).toBe(400);
			expect((await res.json()).error).toBe('invalid_request');
			usage(res);
		}
	});
});

describe('paths and methods', () => {
	it('wrong method for a known path: JSON 405', async () => {
		const get = await api(srv, 'edit-tag', { token: rw.access_token });
		expect(get.status).toBe(405);
		expect(get.headers.get('allow')).toBe('POST');
		expect((await get.json()).error).toBe('method_not_allowed');
		const post = await apiPost(srv, 'user-info', rw.access_token, []);
		expect(post.status).toBe(405);
		expect((await post.json()).error).toBe('method_not_allowed');
		usage(post);
	});

	it('unknown path: JSON 404', async () => {
		const res = await api(srv, 'no/such/thing', { token: rw.access_token });
		expect(res.status).toBe(404);
		expect(res.headers.get('content-type')).toMatch(/^application\/json/);
		expect((await res.json()).error).toBe('not_found');
		usage(res);
	});

	it('every answer carries the five X-Reader headers, and counts zone 1 calls', async () => {
		const t = await tokensFor(srv, 'sandbox-short');
		const first = usage(await api(srv, 'user-info', { token: t.access_token }));
		const second = usage(await api(srv, 'tag/list', { token: t.access_token }));
		expect(second['zone1-usage']).toBe(first['zone1-usage'] + 1);
		expect(second['zone1-limit']).toBe(100);
		expect(second['zone2-limit']).toBe(10);
		expect(second['limits-reset-after']).toBeGreaterThan(0);
		expect(second['limits-reset-after']).toBeLessThanOrEqual(600);
		const write = usage(
			await apiPost(srv, 'mark-all-as-read', t.access_token, [['s', 'user/-/label/News']])
		);
		expect(write['zone2-usage']).toBe(first['zone2-usage'] + 1);
		expect(write['zone1-usage']).toBe(second['zone1-usage']);
	});
});

describe('rate limits', () => {
	let lim: TestServer;
	beforeAll(async () => {
		SECRETS.tight = 'tight-secret';
		lim = await startSandbox({
			SANDBOX_ZONE1_LIMIT: '3',
			SANDBOX_ZONE2_LIMIT: '1',
			SANDBOX_LIMIT_WINDOW: '2',
			SANDBOX_CLIENTS: JSON.stringify([
				{
					client_id: 'tight',
					client_secret: 'tight-secret',
					redirect_uris: ['http://app.example.test/cb'],
					default_scope: 'read write',
					zone1_limit: 1,
					zone2_limit: 2
				}
			])
		});
	});
	afterAll(() => lim?.stop());

	it('answers 429 with Retry-After over the limit, per zone, and resets after the window', async () => {
		const t = await tokensFor(lim, 'sandbox-rw');
		for (let i = 1; i <= 3; i++) {
			const res = await api(lim, 'user-info', { token: t.access_token });
			expect(res.status).toBe(200);
			expect(usage(res)['zone1-usage']).toBe(i);
		}
		const over = await api(lim, 'user-info', { token: t.access_token });
		expect(over.status).toBe(429);
		expect(over.headers.get('retry-after')).toMatch(/^[12]$/);
		expect(usage(over)).toMatchObject({
			'zone1-usage': 3,
			'zone1-limit': 3,
			'zone2-usage': 0,
			'zone2-limit': 1
		});
		expect((await over.json()).error).toBe('rate_limited');

		// Zone 2 has its own count.
		expect(
			(await apiPost(lim, 'mark-all-as-read', t.access_token, [['s', 'user/-/label/News']])).status
		).toBe(200);
		const over2 = await apiPost(lim, 'mark-all-as-read', t.access_token, [
			['s', 'user/-/label/News']
		]);
		expect(over2.status).toBe(429);
		expect(over2.headers.get('retry-after')).toBeTruthy();

		// A refused call is not counted, so asking until the answer changes waits for the window's
		// end and no longer; the first call of the new window is its first counted one.
		let again: Response | undefined;
		await expect
			.poll(
				async () => {
					const res = await api(lim, 'user-info', { token: t.access_token });
					if (res.status !== 429) again = res;
					else expect(usage(res)['zone1-usage']).toBe(3);
					return res.status;
				},
				{ timeout: 10_000, interval: 100 }
			)
			.toBe(200);
		expect(usage(again!)['zone1-usage']).toBe(1);
	});

	it('counts per client and honours per-client overrides from SANDBOX_CLIENTS', async () => {
		const tight = await tokensFor(lim, 'tight', { redirect_uri: 'http://app.example.test/cb' });
		const ro = await tokensFor(lim, 'sandbox-ro');
		const first = await api(lim, 'tag/list', { token: tight.access_token });
		expect(first.status).toBe(200);
		expect(usage(first)).toMatchObject({ 'zone1-usage': 1, 'zone1-limit': 1, 'zone2-limit': 2 });
		expect((await api(lim, 'tag/list', { token: tight.access_token })).status).toBe(429);
		const other = await api(lim, 'tag/list', { token: ro.access_token });
		expect(other.status).toBe(200);
		expect(usage(other)).toMatchObject({ 'zone1-limit': 3 });
	});
});
