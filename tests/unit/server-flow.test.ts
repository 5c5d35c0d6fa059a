/**
 * The flow's server-side steps (flow-steps.ts), run with the app's real sender against a scripted
 * loopback service (tests/helpers/scripted-service.ts) that records each request as it arrived and
 * answers with the next scripted response. What is checked: the request each step puts on the wire,
 * what it keeps in the session, and that what leaves the server went through present().
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { testApp, testClock } from './test-app';
import { stepOf } from './flow-modules';
import type { Exchange } from '$lib/exchange/types';
import type { Session } from '$lib/server/session/session';
import type { TokenSet } from '$lib/oauth/token-set';
import { setupWith, type Setup } from '$lib/oauth/setup';
import { bindSecret } from '$lib/oauth/secret-binding';
import { bindTokens } from '$lib/oauth/token-binding';
import { diagnose } from '$lib/oauth/diagnose';
import { redactExchange } from '../helpers/redact';
import {
	startScriptedService,
	stepHeadersOf,
	urlOf,
	type ScriptedAnswer,
	type ScriptedService
} from '../helpers/scripted-service';

/** The app serving the steps (its presets say what the sandbox is). */
const app = testApp(3);
/**
 * What the flow hands its steps (flow/context.ts): the app, with its own sender, and the
 * playground's origin. The app is in local mode (no HOST, no allowed hosts), so its guard lets it
 * reach the loopback service.
 */
const step = stepOf(app);

const { present } = await import('$lib/server/steps/send-step');
const {
	prepareConsent,
	consentExchange,
	pasteBack,
	exchangeCode,
	refreshTokens,
	callApi,
	checkRegistration
} = await import('$lib/server/steps/flow-steps');
const { REFRESH_FIRST_FAILED } = await import('$lib/server/flow/refusals');
const { handleCallback, MAX_CALLBACK_QUERY } = await import('$lib/server/steps/redirect-back');
const { pushConsent } = await import('$lib/server/steps/push-consent');

/** The service the setup points at: its origin is the base URL, known once it listens. */
let service: ScriptedService;
let BASE = '';
const REDIRECT = 'http://127.0.0.1:5173/callback';
const SECRET = 'the-client-secret-42';

function setup(over: Partial<Setup> = {}): Setup {
	return setupWith({
		base_url: BASE,
		redirect_uri: REDIRECT,
		client_id: 'app-1',
		scope: 'read write',
		...over
	});
}

/** A session whose secret (and tokens) are bound to its setup, unless `over` says otherwise. */
function session(over: Partial<Session> = {}): Session {
	const s: Session = { v: 1, setup: setup(), client_secret: SECRET, ...over };
	return {
		secret_for: s.setup ? bindSecret(s.setup) : undefined,
		tokens_for: s.setup && s.tokens ? bindTokens(s.setup) : undefined,
		...s
	};
}

function json(status: number, body: unknown): ScriptedAnswer {
	return { status, headers: [['Content-Type', 'application/json']], body: JSON.stringify(body) };
}

const tokenAnswer = (access: string, refresh?: string, expires_in = 3600) =>
	json(200, {
		access_token: access,
		token_type: 'Bearer',
		expires_in,
		...(refresh ? { refresh_token: refresh } : {}),
		scope: 'read write'
	});

function tokens(over: Partial<TokenSet> = {}): TokenSet {
	return {
		access_token: 'at-1',
		token_type: 'Bearer',
		refresh_token: 'rt-1',
		expires_in: 3600,
		obtained_at: Date.now(),
		expires_at: Date.now() + 3_600_000,
		granted_scope: 'read write',
		requested_scope: 'read write',
		extra: {},
		...over
	};
}

const form = (body: string) => Object.fromEntries(new URLSearchParams(body));
/** A form body's fields, in the order they were sent. */
const fields = (body: string) => [...new URLSearchParams(body)];

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

describe('present: what leaves the server', () => {
	const raw = (): Exchange => ({
		id: 'x',
		step: 'exchange',
		startedAt: '2026-03-14T09:26:53.000Z',
		request: {
			method: 'POST',
			url: `${BASE}/oauth2/token`,
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: `code=c&client_id=app-1&client_secret=${SECRET}&scope=`
		},
		response: {
			status: 400,
			statusText: 'Bad Request',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: '{"error":"invalid_grant"}',
			truncated: false
		},
		timing: { total: 3 },
		findings: []
	});

	test('redacts the session’s client secret, then adds the findings of diagnose()', () => {
		const out = present(step, raw(), session(), { requestedScope: 'read' });
		expect(out.request.body).toBe('code=c&client_id=app-1&client_secret=<redacted>&scope=');
		expect(JSON.stringify(out)).not.toContain(SECRET);
		expect(out.redactions).toEqual([{ what: 'client_secret', length: SECRET.length }]);
		const clean = redactExchange(raw(), [{ name: 'client_secret', value: SECRET }]);
		expect(out.findings).toEqual(diagnose(clean, { requestedScope: 'read' }));
		expect(out.findings.map((f) => f.code)).toContain('invalid_grant');
	});

	test('PKCE required and off: the refused exchange gets the PKCE finding alone, not invalid_grant as well', () => {
		const required = raw();
		required.response = {
			...required.response!,
			body: '{"error":"invalid_grant","error_description":"code_verifier is required"}'
		};
		const out = present(step, required, session({ setup: setup({ pkce: 'off' }) }));
		expect(out.findings.filter((f) => f.level === 'error').map((f) => f.code)).toEqual([
			'pkce-required'
		]);
		// With PKCE on, the same refusal is a mismatch, beside the invalid_grant it explains.
		const on = present(step, required, session({ setup: setup({ pkce: 'S256' }) }));
		expect(on.findings.map((f) => f.code)).toContain('invalid_grant');
	});

	test('without a secret in the session there is nothing to redact', () => {
		const out = present(step, raw(), session({ client_secret: undefined }));
		expect(out.request.body).toContain(`client_secret=${SECRET}`);
		expect(out.redactions ?? []).toEqual([]);
	});
});

describe('prepareConsent', () => {
	test('without a setup the session is left as it is', () => {
		const s: Session = { v: 1 };
		expect(prepareConsent(s)).toBe(s);
	});

	test('saves a fresh state with the consent URL, and forgets the last callback and code', () => {
		const before = session({
			callback: { params: [], verdict: 'code', received_at: 1 },
			code: { value: 'old', redirect_uri: REDIRECT, scope: 'read' }
		});
		const a = prepareConsent(before, 1_000);
		const b = prepareConsent(before, 2_000);
		expect(a.pending!.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(b.pending!.state).not.toBe(a.pending!.state);
		const url = new URL(a.pending!.consent_url);
		expect(url.origin + url.pathname).toBe(`${BASE}/oauth2/auth`);
		expect(Object.fromEntries(url.searchParams)).toEqual({
			client_id: 'app-1',
			redirect_uri: REDIRECT,
			response_type: 'code',
			scope: 'read write',
			state: a.pending!.state
		});
		expect(a.pending).toMatchObject({
			redirect_uri: REDIRECT,
			scope: 'read write',
			created_at: 1_000
		});
		expect(a.callback).toBeUndefined();
		expect(a.code).toBeUndefined();
		expect(a.client_secret).toBe(SECRET);
	});

	test('uses the custom state and the custom authorization endpoint', () => {
		const s = prepareConsent(
			session({
				setup: setup({
					custom_state: 'my state',
					authorization_endpoint: 'https://auth.test/authorize?tenant=7'
				})
			})
		);
		expect(s.pending!.state).toBe('my state');
		const url = new URL(s.pending!.consent_url);
		expect(url.origin + url.pathname).toBe('https://auth.test/authorize');
		expect(url.searchParams.get('tenant')).toBe('7');
		expect(url.searchParams.get('state')).toBe('my state');
	});
});

describe('consentExchange', () => {
	test('nothing without a pending consent', () => {
		expect(consentExchange(session())).toBeUndefined();
	});

	test('the browser’s GET of the consent URL, with no answer yet', () => {
		const s = prepareConsent(session());
		const ex = consentExchange(s)!;
		expect(ex.step).toBe('consent');
		expect(ex.request).toEqual({
			method: 'GET',
			url: s.pending!.consent_url,
			httpVersion: '1.1',
			headers: [['Host', new URL(BASE).host]],
			body: ''
		});
		expect(ex.response).toBeUndefined();
		expect(ex.findings).toEqual([]);
	});
});

describe('handleCallback', () => {
	const pending = () => prepareConsent(session({ setup: setup({ custom_state: 'st-1' }) }));
	const callbackUrl = (query: string) => new URL(`${REDIRECT}?${query}`);

	test('a matching state keeps the code; the pending state is used up', () => {
		const headers = new Headers({
			cookie: 'pg_session=sealed',
			'user-agent': 'Test',
			'x-other': 'not recorded'
		});
		const { session: next, exchange } = handleCallback(
			step,
			pending(),
			callbackUrl(`code=abc&state=st-1&iss=${encodeURIComponent(BASE)}`),
			headers,
			5_000
		);
		expect(next.pending).toBeUndefined();
		expect(next.code).toEqual({ value: 'abc', redirect_uri: REDIRECT, scope: 'read write' });
		expect(next.callback).toEqual({
			params: [
				['code', 'abc'],
				['state', 'st-1'],
				['iss', BASE]
			],
			saved_state: 'st-1',
			returned_state: 'st-1',
			verdict: 'code',
			iss: { result: 'not-checked', returned: BASE },
			received_at: 5_000
		});
		expect(exchange.step).toBe('callback');
		expect(exchange.startedAt).toBe(new Date(5_000).toISOString());
		expect(exchange.request.headers).toEqual([
			['cookie', '<session cookie, not shown>'],
			['user-agent', 'Test']
		]);
		expect(exchange.response).toMatchObject({ status: 303, headers: [['Location', '/']] });
		expect(exchange.findings.filter((f) => f.level === 'error')).toEqual([]);
		expect(next.outbox).toEqual([exchange]);
	});

	test('a different state: no code, an unsolicited finding, and the pending state stays pending', () => {
		const before = pending();
		const { session: next, exchange } = handleCallback(
			step,
			before,
			callbackUrl('code=abc&state=forged'),
			new Headers()
		);
		expect(next.code).toBeUndefined();
		expect(next.pending).toEqual(before.pending);
		expect(next.callback).toBeUndefined();
		expect(exchange.findings.map((f) => [f.level, f.code])).toEqual([
			['error', 'callback-ignored']
		]);
		expect(exchange.findings[0]!.message).toMatch(/unsolicited.*forged/);
	});

	test('an error redirect is kept with its words, and the finding says how to fix it', () => {
		const { session: next, exchange } = handleCallback(
			step,
			pending(),
			callbackUrl('error=access_denied&error_description=No+thanks&state=st-1'),
			new Headers()
		);
		expect(next.code).toBeUndefined();
		expect(next.callback).toMatchObject({
			verdict: 'error',
			error: 'access_denied',
			error_description: 'No thanks'
		});
		expect(exchange.findings[0]!.fix).toMatch(/declined consent/);
		// Another provider than the sandbox: its buttons are not named.
		expect(exchange.findings[0]!.fix).not.toMatch(/Authorize|Deny/);
	});

	test('a redirect with no pending state keeps no code', () => {
		const { session: next } = handleCallback(
			step,
			session(),
			callbackUrl('code=abc&state=st-1'),
			new Headers()
		);
		expect(next.callback).toBeUndefined();
		expect(next.code).toBeUndefined();
	});

	test('a query string over the limit is not read', () => {
		const long = `code=abc&state=st-1&pad=${'x'.repeat(MAX_CALLBACK_QUERY)}`;
		const { session: next, exchange } = handleCallback(
			step,
			pending(),
			callbackUrl(long),
			new Headers()
		);
		expect(next.code).toBeUndefined();
		expect(next.callback).toBeUndefined();
		expect(exchange.findings.find((f) => f.code === 'malformed-callback')!.message).toContain(
			String(MAX_CALLBACK_QUERY)
		);
		expect(exchange.request.url.length).toBeLessThan(400);
		expect(exchange.request.url).toMatch(/… \(\d+ more characters\)$/);
	});

	test('a code for the script: the redirect back says it is kept, not exchanged', () => {
		const forScript = pending();
		const marked = { ...forScript, pending: { ...forScript.pending!, for_script: true as const } };
		const url = callbackUrl('code=abc&state=st-1');
		const kept = handleCallback(step, marked, url, new Headers());
		expect(kept.exchange.findings.map((f) => f.code)).toContain('code-for-script');
		expect(kept.session.callback!.for_script).toBe(true);
		// A consent not asked for the script says nothing of the kind.
		const plain = handleCallback(step, pending(), url, new Headers());
		expect(plain.exchange.findings.map((f) => f.code)).not.toContain('code-for-script');
	});

	test('PKCE required and off: the consent refused gets the PKCE finding alone, not invalid_request as well', () => {
		const url = callbackUrl(
			'error=invalid_request&error_description=code_challenge+is+required&state=st-1'
		);
		const off = handleCallback(step, pending(), url, new Headers());
		const errors = off.exchange.findings.filter((f) => f.level === 'error');
		expect(errors.map((f) => f.code)).toEqual(['pkce-required']);
		// Another invalid_request, or PKCE on, keeps the service's error as its finding.
		const other = handleCallback(
			step,
			pending(),
			callbackUrl('error=invalid_request&error_description=state+too+long&state=st-1'),
			new Headers()
		);
		expect(other.exchange.findings.map((f) => f.code)).toContain('invalid_request');
	});

	test('a query string exactly at the limit is read', () => {
		const prefix = 'code=abc&state=st-1&pad=';
		const query = prefix + 'x'.repeat(MAX_CALLBACK_QUERY - 1 - prefix.length);
		const { session: next } = handleCallback(step, pending(), callbackUrl(query), new Headers());
		expect(next.callback!.verdict).toBe('code');
	});
});

describe('pasteBack', () => {
	const pending = () => prepareConsent(session({ setup: setup({ custom_state: 'st-1' }) }));

	test('needs a setup', () => {
		expect(pasteBack(step, { v: 1 }, 'code=a')).toMatchObject({ ok: false, status: 409 });
	});

	test('the whole address: checked as a callback, shown without an answer', () => {
		const r = pasteBack(step, pending(), `  https://app.test/cb?code=abc&state=st-1  `);
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(r.session.code).toEqual({ value: 'abc', redirect_uri: REDIRECT, scope: 'read write' });
		expect(r.session.outbox).toBeUndefined();
		expect(r.exchanges).toHaveLength(1);
		expect(r.exchanges[0]!.request.url).toBe('https://app.test/cb?code=abc&state=st-1');
		expect(r.exchanges[0]!.response).toBeUndefined();
		expect(r.exchanges[0]!.note).toMatch(/^Pasted back by hand/);
	});

	test('only the query: read against the redirect URI', () => {
		const r = pasteBack(step, pending(), '?code=abc&state=st-1');
		expect(r.ok && r.exchanges[0]!.request.url).toBe(`${REDIRECT}?code=abc&state=st-1`);
		expect(r.ok && r.session.callback!.verdict).toBe('code');
	});

	test('a response in the #fragment is read, and the note says so', () => {
		const r = pasteBack(step, pending(), 'https://app.test/cb#code=abc&state=st-1');
		expect(r.ok && r.session.code?.value).toBe('abc');
		expect(r.ok && r.exchanges[0]!.note).toContain('#fragment');
	});

	test.each([
		['not a URL', 'https://exa mple.test/?code=1', /not a valid URL/],
		['no parameters', 'https://app.test/cb?x=1', /no code, state or error/]
	])('%s: 400 with the reason', (_what, text, message) => {
		expect(pasteBack(step, pending(), text)).toMatchObject({
			ok: false,
			status: 400,
			message: expect.stringMatching(message)
		});
	});
});

describe('exchangeCode', () => {
	const withCode = (over: Partial<Session> = {}) =>
		session({ code: { value: 'the-code', redirect_uri: REDIRECT, scope: 'read' }, ...over });

	test.each([
		['no setup', { setup: undefined }, /Save the setup/],
		['no secret', { client_secret: undefined }, /client secret/],
		['no code', { code: undefined }, /no code to exchange/]
	])('%s: 409, nothing sent', async (_what, over, message) => {
		const r = await exchangeCode(step, withCode(over as Partial<Session>));
		expect(r).toMatchObject({ ok: false, status: 409, message: expect.stringMatching(message) });
		expect(service.received).toEqual([]);
	});

	test('posts the code to the token endpoint, keeps the tokens, and uses the code up', async () => {
		service.answer(tokenAnswer('at-new', 'rt-new'));
		// The setup's allow_invalid_tls reached the sender as allowInvalidTls, which a plain-HTTP
		// service cannot show: that the exchange then accepts a self-signed certificate (and fails
		// without the switch) is tests/integration/tls.test.ts's, against a TLS service.
		const s = withCode({ setup: setup({ allow_invalid_tls: true }) });
		const before = Date.now();
		const r = await exchangeCode(step, s);
		expect(service.received).toHaveLength(1);
		const req = service.received[0]!;
		expect([req.method, urlOf(req)]).toEqual(['POST', `${BASE}/oauth2/token`]);
		expect(stepHeadersOf(req)).toEqual([['Content-Type', 'application/x-www-form-urlencoded']]);
		expect(fields(req.body)).toEqual([
			['code', 'the-code'],
			['redirect_uri', REDIRECT],
			['client_id', 'app-1'],
			['client_secret', SECRET],
			['scope', ''],
			['grant_type', 'authorization_code']
		]);
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(r.exchanges.map((e) => e.step)).toEqual(['exchange']);
		expect(r.session.code).toBeUndefined();
		expect(r.session.tokens).toMatchObject({
			access_token: 'at-new',
			refresh_token: 'rt-new',
			requested_scope: 'read',
			granted_scope: 'read write'
		});
		expect(r.session.tokens!.obtained_at).toBeGreaterThanOrEqual(before);
		expect(r.session.tokens!.expires_at).toBe(r.session.tokens!.obtained_at + 3_600_000);
		expect(r.exchanges).toHaveLength(1);
		expect(r.exchanges[0]!.request.body).toContain('client_secret=<redacted>');
		expect(JSON.stringify(r.exchanges)).not.toContain(SECRET);
	});

	test('PKCE: the challenge the consent URL carried is kept with the code, and the library checks the verifier the exchange sends against it', async () => {
		const pending = prepareConsent(session({ setup: setup({ pkce: 'S256' }) }));
		const back = new URL(`${REDIRECT}?code=c-1&state=${pending.pending!.state}`);
		const { session: s } = handleCallback(step, pending, back, new Headers());
		expect(s.code!.code_challenge).toBe(
			new URL(pending.pending!.consent_url).searchParams.get('code_challenge')
		);
		const strict = (r: Awaited<ReturnType<typeof exchangeCode>>) =>
			r.ok ? r.exchanges[0]!.findings.filter((f) => f.code === 'strict-client-rejects') : [];
		service.answer(tokenAnswer('at-1', 'rt-1'));
		expect(strict(await exchangeCode(step, s))).toEqual([]);
		service.answer(tokenAnswer('at-2', 'rt-2'));
		const other = { ...s, code: { ...s.code!, code_challenge: 'a-challenge-of-another-verifier' } };
		expect(strict(await exchangeCode(step, other))).toEqual([
			expect.objectContaining({ level: 'info', message: expect.stringMatching(/code_challenge/) })
		]);
	});

	test('the redirect back is judged by the library too, after our routing: a wrong iss', () => {
		const pending = prepareConsent(session({ setup: setup({ issuer: BASE }) }));
		const back = new URL(
			`${REDIRECT}?code=c-1&state=${pending.pending!.state}&iss=https%3A%2F%2Fevil.test`
		);
		const { exchange } = handleCallback(step, pending, back, new Headers());
		expect(exchange.findings.map((f) => f.code)).toEqual(
			expect.arrayContaining(['issuer-mismatch', 'strict-client-rejects'])
		);
	});

	test('a refused exchange keeps no tokens, and the code is used up all the same', async () => {
		service.answer(json(400, { error: 'invalid_grant', error_description: 'used' }));
		const r = await exchangeCode(step, withCode());
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(r.session.code).toBeUndefined();
		expect(r.session.tokens).toBeUndefined();
		expect(r.exchanges[0]!.findings.map((f) => f.code)).toContain('invalid_grant');
	});
	test('an exchange cut off before any answer keeps the code, so exchanging it again shows whether it was spent', async () => {
		service.answer({ cut: 'before-answer' });
		const s = withCode();
		const r = await exchangeCode(step, s);
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		// Kept, and marked as sent once: a refusal when it is sent again is the second use.
		expect(r.session.code).toEqual({ ...s.code, sent: true });
		// A new connection to an http:// URL closed without a byte: a TLS port, perhaps (a hint).
		expect(r.exchanges[0]!.findings.map((f) => f.code)).toEqual([
			'connection-reset',
			'tls-port-hint',
			'code-maybe-spent'
		]);
	});
	test('an exchange cut off in the middle of an answer uses the code up', async () => {
		service.answer({ ...json(200, { access_token: 'a' }), cut: 'mid-body' });
		const r = await exchangeCode(step, withCode());
		expect(r.ok && r.exchanges[0]!.failure?.kind).toBe('reset');
		expect(r.ok && r.session.code).toBeUndefined();
	});

	test('issued tokens are bound to the origins of the API and the user-info endpoint', async () => {
		service.answer(tokenAnswer('at-9', 'rt-9'));
		const r = await exchangeCode(
			step,
			withCode({ setup: setup({ userinfo_endpoint: 'https://id.reader.test/me', issuer: BASE }) })
		);
		if (!r.ok) throw new Error(r.message);
		expect(r.session.tokens_for).toEqual({
			origins: [BASE, 'https://id.reader.test'],
			issuer: BASE,
			token_endpoint: `${BASE}/oauth2/token`
		});
	});

	test('a refresh keeps the binding the grant was issued with', async () => {
		const first = bindTokens(setup());
		service.answer(tokenAnswer('at-10', 'rt-10'));
		const r = await refreshTokens(step, session({ tokens: tokens(), tokens_for: first }));
		if (!r.ok) throw new Error(r.message);
		expect(r.session.tokens!.access_token).toBe('at-10');
		expect(r.session.tokens_for).toBe(first);
	});
});

describe('secret follows client: a session whose setup and binding disagree never sends the secret', () => {
	// Bound in each test, not at collection: code run at collection is covered by no test.
	const elsewhere = {
		'another token endpoint': () =>
			bindSecret(setup({ token_endpoint: 'https://catcher.test/token' })),
		'another client id': () => bindSecret(setup({ client_id: 'someone-else' })),
		'another base URL': () => bindSecret(setup({ base_url: 'https://catcher.test' }))
	};
	test.each(Object.entries(elsewhere))(
		'exchange, bound to %s: 409, nothing sent',
		async (_w, bind) => {
			const s = session({
				secret_for: bind(),
				code: { value: 'the-code', redirect_uri: REDIRECT, scope: 'read' }
			});
			const r = await exchangeCode(step, s);
			expect(r).toMatchObject({
				ok: false,
				status: 409,
				message: expect.stringMatching(
					/entered for another client.*changed since, so it is not sent/
				)
			});
			expect(service.received).toEqual([]);
		}
	);
	test('exchange with a secret bound to nothing (a session from before the binding): 409, nothing sent', async () => {
		const s = session({
			secret_for: undefined,
			code: { value: 'the-code', redirect_uri: REDIRECT, scope: 'read' }
		});
		const r = await exchangeCode(step, s);
		expect(r).toMatchObject({
			ok: false,
			status: 409,
			message: expect.stringMatching(
				/not bound to a client id and token endpoint, so it is not sent/
			)
		});
		expect(service.received).toEqual([]);
	});
	test.each(Object.entries(elsewhere))(
		'refresh, bound to %s: 409, nothing sent',
		async (_w, bind) => {
			const r = await refreshTokens(step, session({ secret_for: bind(), tokens: tokens() }));
			expect(r).toMatchObject({ ok: false, status: 409 });
			expect(service.received).toEqual([]);
		}
	);
	test('an expired token before an API call is not refreshed with a secret bound elsewhere', async () => {
		const s = session({
			secret_for: elsewhere['another token endpoint'](),
			tokens: tokens({ expires_at: Date.now() - 1000 })
		});
		const r = await callApi(step, s, 'userinfo');
		expect(r).toMatchObject({ ok: false, status: 409 });
		expect(service.received).toEqual([]);
	});
});

describe('refreshTokens', () => {
	test.each([
		['no tokens', {}, /no tokens yet/],
		['no refresh token', { tokens: tokens({ refresh_token: undefined }) }, /gave no refresh token/],
		['no secret', { tokens: tokens(), client_secret: undefined }, /client secret/]
	])('%s: 409, nothing sent', async (_what, over, message) => {
		const r = await refreshTokens(step, session(over as Partial<Session>));
		expect(r).toMatchObject({ ok: false, status: 409, message: expect.stringMatching(message) });
		expect(service.received).toEqual([]);
	});

	test('posts the refresh token; the new set says whether it rotated', async () => {
		service.answer(tokenAnswer('at-2', 'rt-2'));
		const r = await refreshTokens(step, session({ tokens: tokens() }), 'a note');
		const req = service.received[0]!;
		expect([req.method, urlOf(req)]).toEqual(['POST', `${BASE}/oauth2/token`]);
		expect(r.ok && r.exchanges.map((e) => [e.step, e.note])).toEqual([['refresh', 'a note']]);
		expect(fields(req.body)).toEqual([
			['client_id', 'app-1'],
			['client_secret', SECRET],
			['grant_type', 'refresh_token'],
			['refresh_token', 'rt-1']
		]);
		expect(r.ok && r.session.tokens).toMatchObject({
			access_token: 'at-2',
			refresh_token: 'rt-2',
			refresh: { rotated: true, kept_old: false }
		});
		expect(r.ok && JSON.stringify(r.exchanges)).not.toContain(SECRET);
	});

	test('a refresh without a new refresh token keeps the old one', async () => {
		service.answer(tokenAnswer('at-2'));
		const r = await refreshTokens(step, session({ tokens: tokens() }));
		expect(r.ok && r.session.tokens).toMatchObject({
			access_token: 'at-2',
			refresh_token: 'rt-1',
			refresh: { rotated: false, kept_old: true }
		});
	});

	test('a refused refresh leaves the tokens as they were', async () => {
		const s = session({ tokens: tokens() });
		service.answer(json(400, { error: 'invalid_grant' }));
		const r = await refreshTokens(step, s);
		expect(r.ok && r.session).toBe(s);
	});
});

describe('callApi', () => {
	test.each([
		['no setup', { setup: undefined, tokens: tokens() }, /Save the setup/],
		['no tokens', {}, /no access token yet/]
	])('%s: 409, nothing sent', async (_what, over, message) => {
		const r = await callApi(step, session(over as Partial<Session>), 'userinfo');
		expect(r).toMatchObject({ ok: false, status: 409, message: expect.stringMatching(message) });
		expect(service.received).toEqual([]);
	});

	test('token theft by a setup the tokens were not issued for: user-info on another origin gets no bearer token', async () => {
		const s = session({
			tokens: tokens(),
			tokens_for: bindTokens(setup()),
			setup: setup({ userinfo_endpoint: 'https://elsewhere.test/me' })
		});
		const r = await callApi(step, s, 'userinfo');
		expect(r).toMatchObject({
			ok: false,
			status: 409,
			message: expect.stringMatching(/https:\/\/elsewhere\.test is not an origin it was issued for/)
		});
		expect(service.received).toEqual([]);
	});

	test('token theft by a moved base URL: the API console sends no bearer token to the new origin', async () => {
		const s = session({
			tokens: tokens(),
			tokens_for: bindTokens(setup()),
			setup: setup({ base_url: 'https://elsewhere.test', token_endpoint: `${BASE}/oauth2/token` })
		});
		const call = {
			method: 'GET' as const,
			path: 'tag/list',
			query: '',
			headers: [],
			body: '',
			contentType: ''
		};
		expect(await callApi(step, s, 'api', call)).toMatchObject({ ok: false, status: 409 });
		expect(service.received).toEqual([]);
	});

	test('tokens without a binding are never sent', async () => {
		const r = await callApi(step, session({ tokens: tokens(), tokens_for: undefined }), 'userinfo');
		expect(r).toMatchObject({
			ok: false,
			status: 409,
			message: expect.stringMatching(/not bound/)
		});
		expect(service.received).toEqual([]);
	});

	test('user-info: a GET with the Bearer header', async () => {
		service.answer(json(200, { userId: '1' }));
		const r = await callApi(step, session({ tokens: tokens() }), 'userinfo');
		const req = service.received[0]!;
		expect([req.method, urlOf(req), req.body]).toEqual([
			'GET',
			`${BASE}/reader/api/0/user-info`,
			''
		]);
		expect(stepHeadersOf(req)).toEqual([['Authorization', 'Bearer at-1']]);
		expect(r.ok && r.exchanges.map((e) => e.step)).toEqual(['userinfo']);
	});

	test('the token in the query instead, when the setup says so', async () => {
		service.answer(json(200, { userId: '1' }));
		await callApi(
			step,
			session({ setup: setup({ token_location: 'query' }), tokens: tokens() }),
			'userinfo'
		);
		expect(urlOf(service.received[0]!)).toBe(`${BASE}/reader/api/0/user-info?access_token=at-1`);
		expect(stepHeadersOf(service.received[0]!)).toEqual([]);
	});

	test('an API call: the path below the API prefix, the query, and a form body for POST', async () => {
		service.answer(json(200, {}), json(200, {}));
		const s = session({ tokens: tokens() });
		await callApi(step, s, 'api', {
			method: 'GET',
			path: 'subscription/list',
			query: 'output=json',
			headers: [],
			body: '',
			contentType: ''
		});
		const posted = await callApi(step, s, 'api', {
			method: 'POST',
			path: 'edit-tag',
			query: '',
			headers: [],
			body: 'i=1&a=star',
			contentType: 'application/x-www-form-urlencoded'
		});
		expect(service.received.map((i) => [i.method, urlOf(i), i.body])).toEqual([
			['GET', `${BASE}/reader/api/0/subscription/list?output=json`, ''],
			['POST', `${BASE}/reader/api/0/edit-tag`, 'i=1&a=star']
		]);
		expect(stepHeadersOf(service.received[1]!)).toEqual([
			['Authorization', 'Bearer at-1'],
			['Content-Type', 'application/x-www-form-urlencoded']
		]);
		expect(posted.ok && posted.exchanges.map((e) => e.note)).toEqual([
			'POST /reader/api/0/edit-tag'
		]);
	});

	test('a path that leaves the API’s origin is refused', async () => {
		const r = await callApi(step, session({ tokens: tokens() }), 'api', {
			method: 'GET',
			path: '/\\evil.test/x',
			query: '',
			headers: [],
			body: '',
			contentType: ''
		});
		expect(r).toMatchObject({
			ok: false,
			status: 400,
			message: expect.stringContaining(`goes only to ${BASE}`)
		});
		expect(service.received).toEqual([]);
	});

	test('an expired token is refreshed first, as its own exchange, and the call uses the new one', async () => {
		service.answer(tokenAnswer('at-2', 'rt-2'), json(200, { userId: '1' }));
		const expired = tokens({ expires_at: Date.now() - 1 });
		const r = await callApi(step, session({ tokens: expired }), 'userinfo');
		expect(service.received.map((i) => i.url)).toEqual([
			'/oauth2/token',
			'/reader/api/0/user-info'
		]);
		expect(stepHeadersOf(service.received[1]!)).toEqual([['Authorization', 'Bearer at-2']]);
		expect(r.ok && r.exchanges.map((e) => e.step)).toEqual(['refresh', 'userinfo']);
		expect(r.ok && r.exchanges[0]!.note).toMatch(/had expired/);
		expect(r.ok && r.session.tokens!.access_token).toBe('at-2');
	});

	test('when that refresh is refused, the call is not made, and the step is told so', async () => {
		service.answer(json(400, { error: 'invalid_grant' }));
		const r = await callApi(
			step,
			session({ tokens: tokens({ expires_at: Date.now() - 1 }) }),
			'userinfo'
		);
		expect(service.received.map((i) => i.url)).toEqual(['/oauth2/token']);
		expect(r).toMatchObject({ ok: false, status: 424, message: REFRESH_FIRST_FAILED.message });
		expect(!r.ok && r.exchanges?.map((e) => e.step)).toEqual(['refresh']);
	});

	test('an expired token with no way to refresh is sent as it is', async () => {
		service.answer(json(401, { error: 'invalid_token' }));
		const r = await callApi(
			step,
			session({ tokens: tokens({ expires_at: Date.now() - 1, refresh_token: undefined }) }),
			'userinfo'
		);
		expect(service.received.map((i) => i.url)).toEqual(['/reader/api/0/user-info']);
		expect(r.ok && r.exchanges.map((e) => e.step)).toEqual(['userinfo']);
	});
});

describe("the app's clock, not the machine's", () => {
	/** An app whose clock stands at 2040-01-01 until the test moves it. */
	const T = Date.UTC(2040, 0, 1);
	const clock = testClock(T);
	const timed = testApp(3, {}, clock);
	const timedStep = stepOf(timed);
	afterEach(() => clock.set(T));

	test('the tokens an exchange and a refresh bring are dated by it', async () => {
		service.answer(tokenAnswer('at-new', 'rt-new'), tokenAnswer('at-2', 'rt-2'));
		const code = { value: 'the-code', redirect_uri: REDIRECT, scope: 'read' };
		const r = await exchangeCode(timedStep, session({ code }));
		expect(r.ok && r.session.tokens).toMatchObject({ obtained_at: T, expires_at: T + 3_600_000 });
		clock.set(T + 5000);
		const again = await refreshTokens(timedStep, session({ tokens: tokens() }));
		expect(again.ok && again.session.tokens!.obtained_at).toBe(T + 5000);
	});

	test('it says when a token has expired: the call refreshes first once it moves past', async () => {
		const fresh = tokens({ obtained_at: T, expires_at: T + 60_000 });
		service.answer(json(200, { userId: '1' }));
		const before = await callApi(timedStep, session({ tokens: fresh }), 'userinfo');
		expect(before.ok && before.exchanges.map((e) => e.step)).toEqual(['userinfo']);
		clock.set(T + 60_001);
		service.answer(tokenAnswer('at-2', 'rt-2'), json(200, { userId: '1' }));
		const after = await callApi(timedStep, session({ tokens: fresh }), 'userinfo');
		expect(after.ok && after.exchanges.map((e) => e.step)).toEqual(['refresh', 'userinfo']);
	});

	// invalid_grant with what the page knows (diagnose.ts): the code came back at T, by this clock.
	const refused = () => json(400, { error: 'invalid_grant' });
	const returned = (code: NonNullable<Session['code']>, over: Partial<Setup> = {}) =>
		session({
			setup: setup(over),
			code,
			callback: { params: [], verdict: 'code', received_at: T }
		});
	/** The sandbox's consent page on the step's origin: its code lifetime is known. */
	const onSandbox = { authorization_endpoint: 'http://127.0.0.1:5173/sandbox/oauth2/auth' };
	const codeOf = { value: 'the-code', redirect_uri: REDIRECT, scope: 'read' };
	const errorOf = (r: Awaited<ReturnType<typeof exchangeCode>>) =>
		r.ok ? r.exchanges[0]!.findings.filter((f) => f.level === 'error') : [];

	test('a code exchanged longer after it came back than the sandbox’s code lifetime, never sent: expired, certain', async () => {
		const ttl = timed.config.sandbox.codeTtl;
		clock.set(T + (ttl + 3) * 1000);
		service.answer(refused());
		const [f, ...more] = errorOf(await exchangeCode(timedStep, returned(codeOf, onSandbox)));
		expect(more).toEqual([]);
		expect(f!.message).toBe(
			`The authorization code had expired: it came back ${ttl + 3} s before this exchange, and the server’s codes live ${ttl} s. It was never sent before.`
		);
		// Within the lifetime, or on another server (no known lifetime): the likely causes.
		clock.set(T + ttl * 1000);
		service.answer(refused());
		const within = errorOf(await exchangeCode(timedStep, returned(codeOf, onSandbox)));
		expect(within[0]!.message).toBe('The authorization code was refused.');
		clock.set(T + 3_600_000);
		service.answer(refused());
		const elsewhere = errorOf(await exchangeCode(timedStep, returned(codeOf)));
		expect(elsewhere[0]!.message).toBe('The authorization code was refused.');
	});

	test('a code sent by an exchange that got no answer, refused when sent again: used twice', async () => {
		service.answer({ cut: 'before-answer' });
		const first = await exchangeCode(timedStep, returned(codeOf));
		expect(first.ok && first.session.code).toMatchObject({ value: 'the-code', sent: true });
		service.answer(refused());
		const again = await exchangeCode(timedStep, first.ok ? first.session : returned(codeOf));
		const [f, ...more] = errorOf(again);
		expect(more).toEqual([]);
		expect(f!.message).toMatch(/^The authorization code was sent before, by the exchange above/);
	});

	test('a refresh refused after the expiry its answer gave the refresh token: expired, certain; before it, the generic refusal', async () => {
		// Keycloak's field, from the answer that gave the tokens at T: the refresh token lives 1,800 s.
		const held = tokens({
			obtained_at: T,
			expires_at: T + 300_000,
			extra: { refresh_expires_in: 1800 }
		});
		const refusedRefresh = () =>
			json(400, { error: 'invalid_grant', error_description: 'Token is not active' });
		clock.set(T + 1_800_000);
		service.answer(refusedRefresh());
		const late = await refreshTokens(timedStep, session({ tokens: held }));
		const codes = late.ok ? late.exchanges[0]!.findings.filter((f) => f.level === 'error') : [];
		expect(codes.map((f) => f.code)).toEqual(['refresh-expired']);
		expect(codes[0]!.message).toBe(
			'The refresh token had expired: the answer that gave it gave it refresh_expires_in, and it was sent after that. The service said: "Token is not active".'
		);
		// A second before its expiry, the service's words decide, "most likely".
		clock.set(T + 1_799_000);
		service.answer(refusedRefresh());
		const early = await refreshTokens(timedStep, session({ tokens: held }));
		expect(early.ok && early.exchanges[0]!.findings.map((f) => f.code)).toContain(
			'refresh-not-active'
		);
		// 0 is no expiry (an offline token): nothing is claimed.
		clock.set(T + 3_600_000_000);
		service.answer(refusedRefresh());
		const offline = await refreshTokens(
			timedStep,
			session({ tokens: { ...held, extra: { refresh_expires_in: 0 } } })
		);
		expect(offline.ok && offline.exchanges[0]!.findings.map((f) => f.code)).not.toContain(
			'refresh-expired'
		);
	});

	test("a pushed request's handle expires by it", async () => {
		service.answer(json(201, { request_uri: 'urn:example:r1', expires_in: 60 }));
		const par = setup({ use_par: true, pushed_authorization_request_endpoint: `${BASE}/par` });
		const pushed = await pushConsent(timedStep, prepareConsent(session({ setup: par })));
		expect(pushed.ok && pushed.session.pending!.request_uri_expires_at).toBe(T + 60_000);
	});
});

describe('the service’s own advice only for its setup (oauth/advice.ts, through the steps’ context)', () => {
	const custom = () => ({
		userinfo_endpoint: `${BASE}/o/userinfo/`,
		token_endpoint: `${BASE}/o/token/`
	});
	const codeOf = { value: 'the-code', redirect_uri: REDIRECT, scope: 'read write' };

	test('user-info on a setup with custom endpoints: no userId note; the documented setup keeps it', async () => {
		service.answer(json(200, { sub: '1' }), json(200, { sub: '1' }));
		const other = await callApi(
			step,
			session({ setup: setup(custom()), tokens: tokens() }),
			'userinfo'
		);
		const own = await callApi(step, session({ tokens: tokens() }), 'userinfo');
		const codes = (r: typeof own) => (r.ok ? r.exchanges.at(-1)!.findings.map((f) => f.code) : []);
		expect(codes(other)).not.toContain('userinfo-fields');
		expect(codes(own)).toContain('userinfo-fields');
	});

	test('invalid_scope at the token endpoint names the scopes the metadata listed for it, no "Read only"', async () => {
		const s = session({
			setup: setup(custom()),
			code: codeOf,
			metadata_for: {
				issuer: BASE,
				token_endpoint: `${BASE}/o/token/`,
				origins: [BASE],
				scopes: ['openid', 'profile']
			}
		});
		service.answer(json(400, { error: 'invalid_scope' }));
		const r = await exchangeCode(step, s);
		const f = r.ok ? r.exchanges[0]!.findings.find((x) => x.code === 'invalid_scope') : undefined;
		expect(f!.fix).toContain('"openid", "profile"');
		expect(f!.fix).not.toMatch(/read-only|Read only|"read"/);
	});
});

describe('checkRegistration', () => {
	test('needs a setup', async () => {
		expect(await checkRegistration(step, { v: 1 })).toMatchObject({ ok: false, status: 409 });
	});

	test('GETs the pending consent URL without using the state up', async () => {
		const s = prepareConsent(session());
		service.answer({ status: 200, headers: [['Content-Type', 'text/html']], body: '<p>' });
		const r = await checkRegistration(step, s);
		const req = service.received[0]!;
		expect([req.method, urlOf(req)]).toEqual(['GET', s.pending!.consent_url]);
		expect(r.ok && r.exchanges.map((e) => e.step)).toEqual(['check']);
		expect(req.headers.accept).toMatch(/^text\/html/);
		expect(r.ok && r.session).toBe(s);
	});

	test('with no consent prepared, a URL with a state of its own', async () => {
		service.answer(json(400, { error: 'redirect_uri_mismatch' }));
		const r = await checkRegistration(step, session());
		const url = new URL(urlOf(service.received[0]!));
		expect(url.searchParams.get('client_id')).toBe('app-1');
		expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(r.ok && r.exchanges[0]!.findings.length).toBeGreaterThan(0);
	});
});

describe('trust at the callback', () => {
	const pending = (over: Partial<Setup> = {}) =>
		prepareConsent(session({ setup: setup({ custom_state: 'st-1', ...over }) }), 1_000);
	const callbackUrl = (query: string) => new URL(`${REDIRECT}?${query}`);
	/** Everything of a session but the outbox, which only shows the redirect once. */
	const kept = (s: Session) => JSON.stringify({ ...s, outbox: undefined });

	test('forged callback: a state that matches no pending flow leaves the pending consent and stores none of its parameters', () => {
		const before = pending();
		const { session: next, exchange } = handleCallback(
			step,
			before,
			callbackUrl('state=forged-state&code=forged-code&error_description=attacker+text'),
			new Headers()
		);
		expect(next.pending).toEqual(before.pending);
		expect(kept(next)).toBe(kept(before));
		expect(kept(next)).not.toMatch(/forged-code|forged-state|attacker text/);
		// Shown once: the outbox holds its record, marked as ignored, and the page empties it.
		expect(next.outbox).toEqual([exchange]);
		expect(exchange.findings.map((f) => [f.level, f.code])).toEqual([
			['error', 'callback-ignored']
		]);
		expect(exchange.findings[0]!.message).toMatch(/unsolicited.*No flow changed/);
	});

	test('forged callback: a stray redirect after the code arrived leaves the code and the callback record as they were', () => {
		const got = handleCallback(
			step,
			pending(),
			callbackUrl('code=real&state=st-1'),
			new Headers()
		).session;
		const shown = { ...got, outbox: undefined };
		const { session: next, exchange } = handleCallback(
			step,
			shown,
			callbackUrl('code=forged&state=st-1'),
			new Headers()
		);
		expect(next.code).toEqual(shown.code);
		expect(next.callback).toEqual(shown.callback);
		expect(kept(next)).toBe(kept(shown));
		// Its state was used: stale, not forged, and said in the user's terms: its code came back
		// already and waits for step 3.
		expect(exchange.findings.map((f) => [f.level, f.code])).toEqual([
			['warning', 'callback-ignored']
		]);
		expect(exchange.findings[0]!.message).toMatch(
			/^This address’s code already came back in step 2 and waits for its exchange in step 3/
		);
		expect(exchange.findings[0]!.message).not.toMatch(/forg/);
	});

	test('forged callback: a repeated state, or a query over the limit, is ignored too', () => {
		const before = pending();
		for (const q of [
			'code=c&state=st-1&state=st-1',
			`code=c&state=st-1&pad=${'x'.repeat(MAX_CALLBACK_QUERY)}`
		]) {
			const { session: next } = handleCallback(step, before, callbackUrl(q), new Headers());
			expect(kept(next)).toBe(kept(before));
		}
	});

	test('forged callback: a second stray replaces the first in the outbox, and the real record waiting there stays', () => {
		const real = handleCallback(
			step,
			pending(),
			callbackUrl('code=real&state=st-1'),
			new Headers()
		);
		const one = handleCallback(step, real.session, callbackUrl('code=a&state=x1'), new Headers());
		const two = handleCallback(step, one.session, callbackUrl('code=b&state=x2'), new Headers());
		expect(two.session.outbox).toEqual([real.exchange, two.exchange]);
		const long = handleCallback(
			step,
			real.session,
			callbackUrl(`state=z&pad=${'y'.repeat(1900)}`),
			new Headers()
		);
		expect(long.exchange.request.url.length).toBeLessThan(700);
	});

	test('forged callback: a pasted address with another state changes nothing in the session', () => {
		const before = pending({ redirect_uri: 'https://app.test/cb' });
		const r = pasteBack(step, before, 'https://app.test/cb?code=forged&state=forged');
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(r.session).toBe(before);
		expect(r.exchanges[0]!.findings[0]!.code).toBe('callback-ignored');
	});

	test('mix-up: an iss that is not the setup’s issuer holds the code back and says so', () => {
		const { session: next, exchange } = handleCallback(
			step,
			pending({ issuer: BASE }),
			callbackUrl('code=abc&state=st-1&iss=https%3A%2F%2Fevil.test'),
			new Headers()
		);
		expect(next.pending).toBeUndefined();
		expect(next.code).toEqual({
			value: 'abc',
			redirect_uri: REDIRECT,
			scope: 'read write',
			held: 'issuer'
		});
		expect(next.callback!.iss).toEqual({
			result: 'mismatch',
			expected: BASE,
			from: 'setup',
			returned: 'https://evil.test'
		});
		const f = exchange.findings.find((x) => x.code === 'issuer-mismatch');
		expect(f?.level).toBe('error');
		expect(f?.message).toContain('https://evil.test');
	});

	test('mix-up: with no issuer known, an iss on another origin than the authorization endpoint holds the code back', () => {
		const { session: next } = handleCallback(
			step,
			pending(),
			callbackUrl('code=abc&state=st-1&iss=https%3A%2F%2Fevil.test'),
			new Headers()
		);
		expect(next.code?.held).toBe('issuer');
		expect(next.callback!.iss).toEqual({
			result: 'origin-mismatch',
			returned: 'https://evil.test',
			authorization_origin: BASE
		});
	});

	test('the right issuer, or an unchecked one on the endpoint’s origin, leaves the code free', () => {
		const right = handleCallback(
			step,
			pending({ issuer: BASE }),
			callbackUrl(`code=abc&state=st-1&iss=${encodeURIComponent(BASE)}`),
			new Headers()
		);
		expect(right.session.code).toEqual({
			value: 'abc',
			redirect_uri: REDIRECT,
			scope: 'read write'
		});
		expect(right.session.callback!.iss!.result).toBe('match');
		const unchecked = handleCallback(
			step,
			pending(),
			callbackUrl(`code=abc&state=st-1&iss=${encodeURIComponent(`${BASE}/x`)}`),
			new Headers()
		);
		expect(unchecked.session.code?.held).toBeUndefined();
		expect(unchecked.session.callback!.iss!.result).toBe('not-checked');
		expect(unchecked.exchange.findings.map((f) => f.code)).toContain('issuer-not-checked');
	});

	test('mix-up: a held code is not exchanged without "Exchange anyway", and is with it', async () => {
		const held = handleCallback(
			step,
			pending({ issuer: BASE }),
			callbackUrl('code=abc&state=st-1&iss=https%3A%2F%2Fevil.test'),
			new Headers()
		).session;
		const refused = await exchangeCode(step, held);
		expect(refused).toMatchObject({
			ok: false,
			status: 409,
			message: expect.stringMatching(/mix-up/)
		});
		expect(service.received).toEqual([]);
		service.answer(tokenAnswer('at-anyway', 'rt-anyway'));
		const r = await exchangeCode(step, held, { anyway: true });
		expect(service.received).toHaveLength(1);
		expect(form(service.received[0]!.body).code).toBe('abc');
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(r.exchanges[0]!.note).toMatch(/Exchange anyway/);
		expect(r.session.code).toBeUndefined();
		expect(r.session.tokens?.access_token).toBe('at-anyway');
		expect(r.session.callback!.exchanged_anyway).toBe(true);
	});
});

describe('echo: a token response that echoes the client secret', () => {
	const withCode = () =>
		session({ code: { value: 'the-code', redirect_uri: REDIRECT, scope: 'read' } });

	test('echo: the token set the page sees comes from the redacted response, extra fields included', async () => {
		service.answer(
			json(200, {
				access_token: 'at-plain',
				token_type: 'Bearer',
				client_secret: SECRET,
				nested: { copy: [`x ${SECRET}`] }
			})
		);
		const r = await exchangeCode(step, withCode());
		if (!r.ok) throw new Error(r.message);
		expect(r.session.tokens?.extra).toEqual({
			client_secret: '<redacted>',
			nested: { copy: ['x <redacted>'] }
		});
		expect(r.session.token_values).toBeUndefined();
		expect(JSON.stringify(r.session.tokens)).not.toContain(SECRET);
	});

	test('echo: a token that holds the secret is shown redacted, and the server still sends the real one', async () => {
		const access = `at-${SECRET}`;
		const refresh = `rt-${SECRET}`;
		service.answer(tokenAnswer(access, refresh));
		const r = await exchangeCode(step, withCode());
		if (!r.ok) throw new Error(r.message);
		expect(r.session.tokens).toMatchObject({
			access_token: 'at-<redacted>',
			refresh_token: 'rt-<redacted>'
		});
		expect(r.session.token_values).toEqual({ access_token: access, refresh_token: refresh });

		service.answer(json(200, { userId: '1' }));
		await callApi(step, r.session, 'userinfo');
		expect(stepHeadersOf(service.received[1]!)).toEqual([['Authorization', `Bearer ${access}`]]);

		service.answer(tokenAnswer(`at2-${SECRET}`));
		const rf = await refreshTokens(step, r.session);
		if (!rf.ok) throw new Error(rf.message);
		expect(form(service.received[2]!.body).refresh_token).toBe(refresh);
		// No new refresh token: the old one is kept, really and as shown, and it did not rotate.
		expect(rf.session.token_values).toEqual({
			access_token: `at2-${SECRET}`,
			refresh_token: refresh
		});
		expect(rf.session.tokens).toMatchObject({
			access_token: 'at2-<redacted>',
			refresh_token: 'rt-<redacted>',
			refresh: { rotated: false, kept_old: true }
		});
	});
});

test('echo: a numeric secret echoed as a JSON number leaves the redacted response unreadable, and the real set is shown redacted field by field', async () => {
	const secret = '8675309123';
	service.answer({
		status: 200,
		headers: [['Content-Type', 'application/json']],
		body: `{"access_token":"at-n","token_type":"Bearer","expires_in":${secret},"echo":"${secret}"}`
	});
	const r = await exchangeCode(
		step,
		session({
			client_secret: secret,
			code: { value: 'the-code', redirect_uri: REDIRECT, scope: 'read' }
		})
	);
	if (!r.ok) throw new Error(r.message);
	expect(r.exchanges[0]!.response!.body).toContain('"expires_in":<redacted>');
	expect(r.session.tokens).toMatchObject({
		access_token: 'at-n',
		expires_in: '<redacted>',
		extra: { echo: '<redacted>' }
	});
	expect(r.session.tokens!.expires_at).toBeGreaterThan(Date.now());
	expect(JSON.stringify(r.session.tokens)).not.toContain(secret);
});
