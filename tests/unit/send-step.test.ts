/**
 * One send per step (server/steps/send-step.ts). Every step that calls the service hands the app's one
 * sender the same three things of its context and setup: the visitor's address, by which the
 * sender's pool shares a host's connections (host-slots.ts), the request's abort signal, and the
 * setup's TLS choice. And what a step returns is fit for the page as it is: no copy of the client
 * secret in its exchanges, the step's own findings included, since the wrapper that runs it
 * (flow/action.ts) does not redact them again.
 *
 * The steps run with the app's real sender, which talks to a scripted loopback service
 * (tests/helpers/scripted-service.ts); the sender the steps are handed notes what each step asked
 * of it, then hands the request on to that real sender.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { testApp } from './test-app';
import type { Exchange } from '$lib/exchange/types';
import type { Session } from '$lib/server/session/session';
import type { SendInput, Sender } from '$lib/server/outbound/send';
import type { StepContext } from '$lib/server/flow/context';
import { setupWith } from '$lib/oauth/setup';
import { bindSecret } from '$lib/oauth/secret-binding';
import { bindTokens } from '$lib/oauth/token-binding';
import type { TokenSet } from '$lib/oauth/token-set';
import { copiesIn } from '../helpers/copies';
import {
	startScriptedService,
	type ScriptedAnswer,
	type ScriptedService
} from '../helpers/scripted-service';

const { prepareConsent, checkRegistration, exchangeCode, refreshTokens, callApi, pasteBack } =
	await import('$lib/server/steps/flow-steps');
const { pushConsent } = await import('$lib/server/steps/push-consent');
const { checkJwt } = await import('$lib/server/steps/jwt-check');
const { introspect, revoke } = await import('$lib/server/steps/introspect-revoke');
const { fillFromMetadata } = await import('$lib/server/steps/discovery');
const { replayCode } = await import('$lib/server/steps/replay');

const app = testApp(12);
/** The visitor the request came from (a documentation address, RFC 5737). */
const VISITOR = '203.0.113.7';
const SECRET = 'send-step-secret-8842';
/** A JWT's shape (header.payload.signature); its signature is never checked here. */
const JWT =
	'eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJodHRwczovL2FzLnRlc3QiLCJleHAiOjQxMDI0NDQ4MDB9.c2ln';

let service: ScriptedService;
let BASE = '';
beforeAll(async () => {
	service = await startScriptedService();
	BASE = service.url;
});
afterAll(() => service.close());
beforeEach(() => service.reset());
afterEach(() => {
	expect(service.unscripted, 'every request found a scripted answer').toEqual([]);
	expect(service.queued(), 'every scripted answer was used').toBe(0);
});

/** What each step asked the sender, in order. */
let asked: SendInput[] = [];
beforeEach(() => (asked = []));

/** The app's real sender, noting what it is asked first. */
const noting: Sender = {
	...app.sender,
	send: (input) => {
		asked.push(input);
		return app.sender.send(input);
	},
	sendAll: (input) => {
		asked.push(input);
		return app.sender.sendAll(input);
	}
};
/** The request's abort signal (each test's request has its own). */
let signal: AbortSignal;
/** The step's context, as the flow of a request from VISITOR hands it down (flow/context.ts). */
let c: StepContext;
beforeEach(() => {
	signal = new AbortController().signal;
	c = { app: { ...app, sender: noting }, origin: 'http://127.0.0.1:5173', client: VISITOR, signal };
});

function session(over: Partial<Session> = {}): Session {
	const setup = setupWith({
		base_url: BASE,
		redirect_uri: 'http://127.0.0.1:5173/callback',
		client_id: 'app-1',
		scope: 'read',
		allow_invalid_tls: true,
		use_par: true,
		pushed_authorization_request_endpoint: `${BASE}/par`,
		introspection_endpoint: `${BASE}/introspect`,
		revocation_endpoint: `${BASE}/revoke`,
		jwks_uri: `${BASE}/jwks`
	});
	return {
		v: 1,
		setup,
		client_secret: SECRET,
		secret_for: bindSecret(setup),
		tokens_for: bindTokens(setup),
		...over
	};
}

const tokens = (): TokenSet => ({
	access_token: 'at-1',
	token_type: 'Bearer',
	refresh_token: 'rt-1',
	expires_in: 3600,
	obtained_at: Date.now(),
	expires_at: Date.now() + 3_600_000,
	granted_scope: 'read',
	requested_scope: 'read',
	extra: {}
});

const json = (status: number, body: unknown): ScriptedAnswer => ({
	status,
	headers: [['Content-Type', 'application/json']],
	body: JSON.stringify(body)
});
const refused = json(400, { error: 'invalid_grant' });

/** What the sender was handed of the context and the setup, for each request, in order. */
const handed = () =>
	asked.map((i) => ({
		step: i.step,
		client: i.client,
		signal: i.signal === signal,
		allowInvalidTls: i.allowInvalidTls
	}));
const fromVisitor = (...steps: string[]) =>
	steps.map((step) => ({ step, client: VISITOR, signal: true, allowInvalidTls: true }));

const code = { value: 'code-1', redirect_uri: 'http://127.0.0.1:5173/callback', scope: 'read' };

describe("every step hands the sender the visitor's address, the abort signal and the setup's TLS choice", () => {
	test('the registration check', async () => {
		service.answer({
			status: 200,
			headers: [['Content-Type', 'text/html']],
			body: '<p>Allow?</p>'
		});
		await checkRegistration(c, session());
		expect(handed()).toEqual(fromVisitor('check'));
	});

	test('the pushed authorization request', async () => {
		service.answer(json(400, { error: 'invalid_request' }));
		await pushConsent(c, prepareConsent(session()));
		expect(handed()).toEqual(fromVisitor('par'));
	});

	test('the code exchange', async () => {
		service.answer(refused);
		await exchangeCode(c, session({ code }));
		expect(handed()).toEqual(fromVisitor('exchange'));
	});

	test('the refresh', async () => {
		service.answer(refused);
		await refreshTokens(c, session({ tokens: tokens() }));
		expect(handed()).toEqual(fromVisitor('refresh'));
	});

	test('the user-info call and an API call', async () => {
		service.answer(json(200, { userId: '1' }), json(200, { tags: [] }));
		await callApi(c, session({ tokens: tokens() }), 'userinfo');
		await callApi(c, session({ tokens: tokens() }), 'api', {
			method: 'GET',
			path: 'tag/list',
			query: '',
			headers: [],
			body: '',
			contentType: ''
		});
		expect(handed()).toEqual(fromVisitor('userinfo', 'api'));
	});

	test("the JWT check's keys", async () => {
		service.answer(json(404, { error: 'not_found' }));
		await checkJwt(c, session(), { which: 'pasted', token: JWT });
		expect(handed()).toEqual(fromVisitor('jwks'));
	});

	test('introspection, and a revocation with its proof', async () => {
		service.answer(
			json(200, { active: true }),
			{ status: 200 },
			json(401, { error: 'invalid_token' })
		);
		await introspect(c, session({ tokens: tokens() }), 'access_token');
		await revoke(c, session({ tokens: tokens() }), 'access_token');
		expect(handed()).toEqual(fromVisitor('introspect', 'revoke', 'userinfo'));
	});

	test("the metadata's two well-known URLs", async () => {
		service.answer(json(404, {}), json(404, {}));
		await fillFromMetadata(c, session(), {
			base_url: BASE,
			issuer: '',
			current: { token_endpoint_auth_method: 'client_secret_post', pkce: 'off' }
		});
		expect(handed()).toEqual(fromVisitor('discovery', 'discovery'));
	});

	test("a code's replay, and its check of revocation", async () => {
		service.answer(refused, json(401, { error: 'invalid_token' }));
		const s = session({ tokens: tokens(), spent: code });
		await replayCode(c, { ...s, setup_id: 'set-1', spent: { ...code, setup_id: 'set-1' } }, 'F');
		expect(handed()).toEqual(fromVisitor('exchange', 'userinfo'));
	});
});

/** The copies of the secret, in any encoding redaction covers, in what a step returned. */
const leaks = (exchanges: Exchange[] | undefined) =>
	copiesIn(SECRET, JSON.stringify(exchanges ?? []));

describe('what a step returns is fit for the page: the secret redacted, findings included', () => {
	test('a code exchange whose answer echoes the secret', async () => {
		service.answer(json(400, { error: 'invalid_client', error_description: `not ${SECRET}` }));
		const r = await exchangeCode(c, session({ code }));
		expect(r.ok && r.exchanges[0]!.response!.body).toContain('<redacted>');
		expect(leaks(r.exchanges)).toEqual([]);
	});

	test("an introspection answer naming the secret as its client: the step's own finding quotes it redacted", async () => {
		service.answer(json(200, { active: true, client_id: SECRET }));
		const r = await introspect(c, session({ tokens: tokens() }), 'access_token');
		const found = r.ok ? r.exchanges[0]!.findings : [];
		expect(found.map((f) => f.code)).toContain('introspection-active');
		expect(leaks(r.exchanges)).toEqual([]);
	});

	test('a metadata document whose issuer echoes the secret: the refusal quotes it redacted', async () => {
		service.answer(json(200, { issuer: `https://as.test/${SECRET}` }));
		const r = await fillFromMetadata(c, session(), {
			base_url: BASE,
			issuer: '',
			current: { token_endpoint_auth_method: 'client_secret_post', pkce: 'off' }
		});
		const found = r.ok ? r.exchanges.at(-1)!.findings : [];
		expect(found.map((f) => f.code)).toContain('metadata-issuer-mismatch');
		expect(leaks(r.exchanges)).toEqual([]);
	});

	test('an address pasted back with the secret in it', () => {
		const s = prepareConsent(session());
		const r = pasteBack(c, s, `?code=x&state=${s.pending!.state}&echo=${SECRET}`);
		expect(r.ok && r.exchanges).toHaveLength(1);
		expect(leaks(r.exchanges)).toEqual([]);
	});
});
