/**
 * Answers that are not OAuth, and the API step's examples, over real HTTP against the built server:
 * a wrong base URL is named as such (with what came back and the endpoints that were probably
 * meant), a real OAuth error is not; every API example the page offers for the sandbox works as
 * shown; a 400 over an item id is explained.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide, unescapeHtml } from '../helpers/client';
import { NOT_FOUND_PAGE, startFakeService, type FakeService } from '../helpers/fake-service';
import { unflatten } from 'devalue';
import type { Exchange, Finding } from '../../src/lib/exchange/types';

let srv: TestServer;
let fake: FakeService;

beforeAll(async () => {
	fake = await startFakeService();
	srv = await startServer({ PLAYGROUND_LOG: 'off' });
});
afterAll(async () => {
	await srv?.stop();
	await fake?.close();
});

const exchanges = (r: { data: Record<string, unknown> }) => (r.data.exchanges as Exchange[]) ?? [];
const wrongEndpoint = (ex: Exchange): Finding | undefined =>
	ex.findings.find((f) => f.code === 'wrong-endpoint');

async function setUp(c: Client, base_url: string, fields: Record<string, string> = {}) {
	const r = await c.action('setup', {
		base_url,
		client_id: 'some-app',
		client_secret: 'some-app-secret',
		scope: 'read',
		redirect_uri: `${c.base}/callback`,
		auto_exchange: 'false',
		...fields
	});
	expect(r.type, JSON.stringify(r.data)).toBe('success');
}

/** The code exchange against `base_url`, after the fake service's consent sent a code back. */
async function exchangeAgainstFake(): Promise<Exchange> {
	const c = new Client(srv.url);
	await setUp(c, fake.url);
	const consent = await c.fetch(consentUrlFrom(await c.page()));
	await c.fetch(consent.res.headers.get('location')!);
	const [ex] = exchanges(await c.action('exchange'));
	return ex!;
}

/** A code pasted back by hand (its state the pending one), then exchanged. */
async function pasteAndExchange(c: Client): Promise<Exchange> {
	const state = new URL(consentUrlFrom(await c.page())).searchParams.get('state')!;
	const pasted = await c.action('pasteback', { pasted: `code=made-up-code&state=${state}` });
	expect(pasted.type, JSON.stringify(pasted.data)).toBe('success');
	const [ex] = exchanges(await c.action('exchange'));
	return ex!;
}

describe('wrong base URL: an answer that is not OAuth is named as such', () => {
	test('a 404 HTML page from the token endpoint: the URL, what came back, the documented endpoints', async () => {
		fake.answer('/oauth2/token', {
			status: 404,
			headers: { 'content-type': 'text/html; charset=utf-8' },
			body: NOT_FOUND_PAGE
		});
		const ex = await exchangeAgainstFake();
		expect(ex.response!.status).toBe(404);
		const f = wrongEndpoint(ex);
		expect(f, JSON.stringify(ex.findings)).toBeDefined();
		expect(f!.message).toContain(
			`${fake.url}/oauth2/token is probably not the service's token endpoint (a wrong base URL or endpoint)`
		);
		expect(f!.message).toContain('404 Not Found, text/html; charset=utf-8');
		expect(f!.message).toContain('"Page not found · Example Hosting"');
		expect(f!.fix).toContain(`token ${fake.url}/oauth2/token`);
		expect(ex.findings.map((x) => x.code)).not.toContain('not-json');
	});

	test('a 403 JSON body without error (a gateway’s refusal) is not taken for an OAuth error', async () => {
		fake.answer('/oauth2/token', {
			status: 403,
			headers: { 'content-type': 'application/json' },
			body: '{"message":"Missing Authentication Token"}'
		});
		const ex = await exchangeAgainstFake();
		const f = wrongEndpoint(ex);
		expect(f, JSON.stringify(ex.findings)).toBeDefined();
		expect(f!.message).toContain('403 Forbidden, application/json');
		expect(f!.message).toContain('"Missing Authentication Token"');
	});

	test('the playground’s own origin as base URL (the sandbox’s /sandbox left off): the answer is the playground’s own, and the sandbox’s endpoints are shown', async () => {
		const c = new Client(srv.url);
		await setUp(c, srv.url);
		const ex = await pasteAndExchange(c);
		expect(ex.request.url).toBe(`${srv.url}/oauth2/token`);
		expect(ex.response!.status).toBe(403);
		const f = wrongEndpoint(ex);
		expect(f, JSON.stringify(ex.findings)).toBeDefined();
		expect(f!.message).toContain('this playground itself');
		expect(f!.fix).toContain(`probably meant to be ${srv.url}/sandbox`);
		expect(f!.fix).toContain(`token ${srv.url}/sandbox/oauth2/token`);
		// And the registration check says the same of the consent URL.
		const [check] = exchanges(await c.action('check'));
		expect(wrongEndpoint(check!)?.fix).toContain(`${srv.url}/sandbox/oauth2/auth`);
	});

	test('user-info at a wrong base URL: a 404 HTML page is named as such', async () => {
		fake.answer('/oauth2/token', {
			status: 200,
			headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
			body: '{"access_token":"fake-access-0123","token_type":"Bearer","expires_in":3600,"refresh_token":"fake-refresh-0123","scope":"read"}'
		});
		const c = new Client(srv.url);
		await setUp(c, fake.url);
		const consent = await c.fetch(consentUrlFrom(await c.page()));
		await c.fetch(consent.res.headers.get('location')!);
		const [tokenEx] = exchanges(await c.action('exchange'));
		expect(tokenEx!.response!.status).toBe(200);
		expect(wrongEndpoint(tokenEx!)).toBeUndefined(); // a token response: no false alarm
		const [ui] = exchanges(await c.action('userinfo'));
		expect(ui!.response!.status).toBe(404);
		expect(wrongEndpoint(ui!)?.message).toContain(
			`${fake.url}/reader/api/0/user-info is probably not the service's user-info endpoint`
		);
	});

	test('no false alarm: a real invalid_grant from the sandbox keeps its own finding only', async () => {
		const c = new Client(srv.url);
		await setUp(c, `${srv.url}/sandbox`, {
			client_id: 'sandbox-rw',
			client_secret: 'sandbox-rw-secret'
		});
		const ex = await pasteAndExchange(c);
		expect(ex.response!.status).toBe(400);
		expect(JSON.parse(ex.response!.body)).toMatchObject({ error: 'invalid_grant' });
		expect(ex.findings.map((f) => f.code)).toEqual(['invalid_grant']);
	});
});

type ShownExample = Record<string, string> & {
	method: string;
	path: string;
	query: string;
	body: string;
};

/** The examples the API step's list shows, as the page's HTML has them. */
function examplesOn(html: string): { label: string; sandbox: string; examples: ShownExample[] } {
	const select =
		/<label for="api-example">([^<]*)<\/label>\s*<select id="api-example"[^>]*data-sandbox="(\w+)"[^>]*>([\s\S]*?)<\/select>/.exec(
			html
		);
	const examples = [...(select?.[3] ?? '').matchAll(/<option[^>]*data-example[^>]*>/g)].map((m) => {
		const attr = (n: string) =>
			unescapeHtml(new RegExp(`data-${n}="([^"]*)"`).exec(m[0])?.[1] ?? '');
		return { method: attr('method'), path: attr('path'), query: attr('query'), body: attr('body') };
	});
	return { label: select?.[1] ?? '', sandbox: select?.[2] ?? '', examples };
}

describe('a strict client library as a second judge (oauth4webapi)', () => {
	const strict = (ex: Exchange) => ex.findings.filter((f) => f.code === 'strict-client-rejects');

	/** The page's load data, as the page's script reads it (`__data.json`, devalue). */
	async function pageData(c: Client): Promise<Record<string, unknown>> {
		const { res, body } = await c.fetch(`/__data.json?flow=${c.flow}`);
		expect(res.status).toBe(200);
		const json = JSON.parse(body) as { nodes: ({ type: string; data?: unknown } | null)[] };
		return Object.assign(
			{},
			...json.nodes
				.filter((n) => n?.type === 'data')
				.map((n) => unflatten(n!.data as number | unknown[]) as Record<string, unknown>)
		) as Record<string, unknown>;
	}

	test('a look-alike server: its redirect names another issuer, its token answer a token_type no client knows; each gets one info finding beside ours, and the flow goes on', async () => {
		fake.answer('/oauth2/token', {
			status: 200,
			headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
			body: '{"access_token":"fake-access-0123","token_type":"MAC","expires_in":3600,"refresh_token":"fake-refresh-0123","scope":"read"}'
		});
		const c = new Client(srv.url);
		await setUp(c, fake.url, { issuer: fake.url });
		const consent = await c.fetch(consentUrlFrom(await c.page()));
		const back = new URL(consent.res.headers.get('location')!);
		back.searchParams.set('iss', 'https://evil.example.test');
		expect((await c.fetch(back.toString())).res.status).toBe(303);
		const [callback] = (await pageData(c)).outbox as Exchange[];
		expect(callback!.findings.map((f) => f.code)).toContain('issuer-mismatch');
		expect(strict(callback!)).toEqual([
			expect.objectContaining({
				level: 'info',
				message:
					'A strict client library (oauth4webapi) would reject this redirect: unexpected "iss" (issuer) response parameter value.'
			})
		]);
		const r = await c.action('exchange', { anyway: '1' });
		expect(r.type, JSON.stringify(r.data)).toBe('success');
		const [ex] = exchanges(r);
		expect(ex!.response!.status).toBe(200);
		expect(ex!.findings.map((f) => f.code)).toContain('token_type');
		expect(strict(ex!)).toEqual([
			expect.objectContaining({
				level: 'info',
				message:
					'A strict client library (oauth4webapi) would reject this answer: unsupported `token_type` value.'
			})
		]);
		// The playground, lenient on purpose, still took the tokens.
		expect((await pageData(c)).tokens).toBeTruthy();
	});
});

describe('the API step helps', () => {
	test('every sandbox API example the page shows returns 2xx when sent as shown (read-write flow)', async () => {
		const c = new Client(srv.url);
		expect((await c.action('preset', { preset: 'sandbox-rw' })).type).toBe('success');
		await c.fetch(await decide(c, consentUrlFrom(await c.page())));
		await c.page();
		expect(exchanges(await c.action('exchange'))[0]!.response!.status).toBe(200);
		const shown = examplesOn(await c.page());
		expect(shown.label).toBe('Endpoints of the built-in sandbox');
		expect(shown.sandbox).toBe('true');
		expect(shown.examples.some((e) => e.path === 'edit-tag' && /(^|&)i=\d+/.test(e.body))).toBe(
			true
		);
		expect(shown.examples.length).toBeGreaterThanOrEqual(6);
		for (const e of shown.examples) {
			const [ex] = exchanges(await c.action('api', e));
			expect(
				ex!.response!.status,
				`${e.method} ${e.path}?${e.query} ${e.body}: ${ex!.response!.body}`
			).toBeGreaterThanOrEqual(200);
			expect(ex!.response!.status, `${e.method} ${e.path}`).toBeLessThan(300);
			expect(ex!.findings.filter((f) => f.level === 'error')).toEqual([]);
		}
		// The ids in the edit-tag examples are ids that stream/items/ids returns.
		const ids = shown.examples.find((e) => e.path === 'stream/items/ids')!;
		const listed = JSON.parse(exchanges(await c.action('api', ids))[0]!.response!.body) as {
			itemRefs: { id: string }[];
		};
		for (const e of shown.examples.filter((x) => x.path === 'edit-tag'))
			expect(listed.itemRefs.map((r) => r.id)).toContain(new URLSearchParams(e.body).get('i'));
	});

	test('for another service, no sandbox-only values are shown as if they were the service’s', async () => {
		const c = new Client(srv.url);
		await setUp(c, fake.url);
		const shown = examplesOn(await c.page());
		expect(shown.sandbox).toBe('false');
		expect(shown.label).not.toMatch(/^Endpoints of the built-in sandbox$/);
		expect(shown.examples.find((e) => e.path === 'user-info')).toBeDefined();
		for (const e of shown.examples) expect(e.query + e.body).toBe('');
	});

	test('a bad item id: the 400 is explained, with the valid forms and where ids come from', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		await c.fetch(await decide(c, consentUrlFrom(await c.page())));
		await c.page();
		await c.action('exchange');
		const [ex] = exchanges(
			await c.action('api', {
				method: 'POST',
				path: 'edit-tag',
				query: '',
				body: 'i=item-1&a=user/-/state/com.google/starred'
			})
		);
		expect(ex!.response!.status).toBe(400);
		const f = ex!.findings.find((x) => x.code === 'bad-item-id');
		expect(f, JSON.stringify(ex!.findings)).toBeDefined();
		expect(f!.message).toContain('"item-1" is not an item id');
		expect(f!.fix).toContain('stream/items/ids');
		expect(f!.fix).toContain('tag:google.com,2005:reader/item/');
		// Well-formed, but no such item.
		const [unknown] = exchanges(
			await c.action('api', {
				method: 'POST',
				path: 'edit-tag',
				query: '',
				body: 'i=999999&a=user/-/state/com.google/starred'
			})
		);
		expect(unknown!.response!.status).toBe(400);
		expect(unknown!.findings.find((x) => x.code === 'bad-item-id')?.message).toContain(
			'does not know it'
		);
	});
});
