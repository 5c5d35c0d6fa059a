/**
 * One finding per failure, against the built-in sandbox and against an authorization server this
 * project did not write (oidc-provider), over real HTTP: each failure of docs/testing.md's table
 * ("One finding per failure") shows exactly one error-level finding on the exchange that failed,
 * and no two of its findings suggest different values for the same setup field.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom } from '../helpers/client';
import {
	OIDC_CLIENT_ID,
	OIDC_CLIENT_SECRET,
	oidcClient,
	startOidcProvider,
	type OidcServer
} from '../helpers/oidc';
import { oidcServer, sandboxServer, type FlowServer } from '../helpers/two-servers';
import type { Exchange, Finding } from '../../src/lib/exchange/types';

let srv: TestServer;
let oidc: OidcServer;

beforeAll(async () => {
	const port = await freePort();
	const callback = `http://127.0.0.1:${port}/callback`;
	oidc = await startOidcProvider({
		clients: [
			oidcClient([callback]),
			oidcClient([callback], {
				client_id: 'playground-basic',
				token_endpoint_auth_method: 'client_secret_basic'
			}),
			// A registration that may not ask for write, as the service's "Read only" (its API docs §4.1).
			oidcClient([callback], { client_id: 'playground-ro', scope: 'openid read' }),
			oidcClient([`${callback}/`], { client_id: 'playground-slash' })
		]
	});
	srv = await startServer({}, port);
});
afterAll(async () => {
	await srv?.stop();
	await oidc?.stop();
});

/** How a failure is brought about on one server: besides its good client, its others and its endpoints. */
interface Target extends FlowServer {
	/** A client registered for HTTP Basic, and one that may only read. */
	basic: Record<string, string>;
	readOnly: Record<string, string>;
	/** A redirect URI sent one slash away from the registered one, named in the setup. */
	nearMiss: () => Record<string, string>;
	/** Spends a code at the token endpoint, as another party holding it would. */
	spend: (code: string) => Promise<number>;
	/** A URL on the server that is no token endpoint. */
	notTokenEndpoint: () => string;
}

async function spendAt(
	tokenEndpoint: string,
	fields: Record<string, string>,
	code: string
): Promise<number> {
	const res = await fetch(tokenEndpoint, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ grant_type: 'authorization_code', code, ...fields })
	});
	await res.arrayBuffer();
	return res.status;
}

const TARGETS: Target[] = [
	{
		...sandboxServer(() => srv),
		basic: { token_endpoint_auth_method: 'client_secret_basic' },
		readOnly: { client_id: 'sandbox-ro', client_secret: 'sandbox-ro-secret' },
		nearMiss: () => ({
			redirect_uri: `${srv.url}/callback/`,
			registered_redirect_uri: `${srv.url}/callback`
		}),
		spend: (code) =>
			spendAt(
				`${srv.url}/sandbox/oauth2/token`,
				{
					client_id: 'sandbox-rw',
					client_secret: 'sandbox-rw-secret',
					redirect_uri: `${srv.url}/callback`
				},
				code
			),
		notTokenEndpoint: () => `${srv.url}/sandbox/oauth2/tokens`
	},
	{
		...oidcServer(() => oidc),
		basic: { client_id: 'playground-basic', token_endpoint_auth_method: 'client_secret_basic' },
		readOnly: { client_id: 'playground-ro' },
		nearMiss: () => ({
			client_id: 'playground-slash',
			redirect_uri: `${srv.url}/callback`,
			registered_redirect_uri: `${srv.url}/callback/`
		}),
		spend: (code) =>
			spendAt(
				oidc.endpoints.token,
				{
					client_id: OIDC_CLIENT_ID,
					client_secret: OIDC_CLIENT_SECRET,
					redirect_uri: `${srv.url}/callback`
				},
				code
			),
		notTokenEndpoint: () => `${oidc.issuer}/tokens`
	}
];

const exchangesOf = (r: { data: Record<string, unknown> }) =>
	(r.data.exchanges as Exchange[] | undefined) ?? [];

async function setUp(c: Client, t: Target, fields: Record<string, string> = {}) {
	const r = await c.action('setup', {
		redirect_uri: `${srv.url}/callback`,
		auto_exchange: 'false',
		...t.setup(),
		...fields
	});
	expect(r.type, JSON.stringify(r.data)).toBe('success');
}

/** Setup, consent, and the address back pasted in: the code waits for its exchange. */
async function toCode(c: Client, t: Target, fields: Record<string, string> = {}) {
	await setUp(c, t, fields);
	const back = await t.consent(c, consentUrlFrom(await c.page()));
	const r = await c.action('pasteback', { pasted: back });
	expect(r.type).toBe('success');
	return new URL(back);
}

/** The failures, each with the one error it gets, ending in the exchange that failed. */
const FAILURES: [string, string, (c: Client, t: Target) => Promise<Exchange>][] = [
	[
		'a wrong secret sent in the body',
		'invalid_client',
		async (c, t) => {
			await toCode(c, t, { client_secret: 'not-the-secret' });
			return exchangesOf(await c.action('exchange'))[0]!;
		}
	],
	[
		'a wrong secret sent with HTTP Basic',
		'invalid_client',
		async (c, t) => {
			await toCode(c, t, { ...t.basic, client_secret: 'not-the-secret' });
			return exchangesOf(await c.action('exchange'))[0]!;
		}
	],
	[
		'an unknown client, at the registration check',
		'unknown-client',
		async (c, t) => {
			await setUp(c, t, { client_id: 'nobody-knows-me' });
			return exchangesOf(await c.action('check'))[0]!;
		}
	],
	[
		'a redirect URI one slash away from the registration, at the registration check',
		'redirect_uri_mismatch',
		async (c, t) => {
			await setUp(c, t, t.nearMiss());
			return exchangesOf(await c.action('check'))[0]!;
		}
	],
	[
		'invalid_scope from a registration that may only read',
		'invalid_scope',
		async (c, t) => {
			await setUp(c, t, t.readOnly);
			const back = await t.consent(c, consentUrlFrom(await c.page()));
			expect(new URL(back).searchParams.get('error')).toBe('invalid_scope');
			return exchangesOf(await c.action('pasteback', { pasted: back }))[0]!;
		}
	],
	[
		'a code already used by someone else',
		'invalid_grant',
		async (c, t) => {
			const back = await toCode(c, t);
			expect(await t.spend(back.searchParams.get('code')!)).toBe(200);
			return exchangesOf(await c.action('exchange'))[0]!;
		}
	],
	[
		'a token endpoint that is not one',
		'wrong-endpoint',
		async (c, t) => {
			await toCode(c, t, { token_endpoint: t.notTokenEndpoint() });
			return exchangesOf(await c.action('exchange'))[0]!;
		}
	]
];

/** The fields that two findings suggest different values for. */
function contradictions(findings: Finding[]): string[] {
	const seen = new Map<string, string>();
	const out: string[] = [];
	for (const { suggest } of findings) {
		if (!suggest) continue;
		const before = seen.get(suggest.field);
		if (before !== undefined && before !== suggest.value)
			out.push(`${suggest.field}: ${before} or ${suggest.value}`);
		seen.set(suggest.field, suggest.value);
	}
	return out;
}

describe.each(TARGETS)('one finding per failure, against $name', (t) => {
	test.each(FAILURES)(
		'%s: exactly one error, %s, and no contradicting suggestion',
		async (_, code, run) => {
			const c = new Client(srv.url);
			const ex = await run(c, t);
			const errors = ex.findings.filter((f) => f.level === 'error');
			expect(
				errors.map((f) => f.code),
				JSON.stringify(ex.findings, null, 1)
			).toEqual([code]);
			expect(contradictions(ex.findings)).toEqual([]);
		}
	);
});

test('an expired code, against oidc-provider: exactly one error, invalid_grant', async () => {
	const t = TARGETS.find((x) => x.name === 'oidc-provider')!;
	const c = new Client(srv.url);
	await toCode(c, t);
	// oidc-provider runs in this process and reads the time from Date: two minutes on, its
	// 60-second code has expired. Only Date is faked, so no timer or socket of the test waits.
	vi.useFakeTimers({ toFake: ['Date'] });
	try {
		vi.setSystemTime(Date.now() + 120_000);
		const ex = exchangesOf(await c.action('exchange'))[0]!;
		expect(JSON.parse(ex.response!.body)).toMatchObject({ error: 'invalid_grant' });
		expect(ex.findings.filter((f) => f.level === 'error').map((f) => f.code)).toEqual([
			'invalid_grant'
		]);
		expect(contradictions(ex.findings)).toEqual([]);
	} finally {
		vi.useRealTimers();
	}
});
