/**
 * Pushed authorization requests (server/steps/push-consent.ts, oauth/par.ts): the pushed body is the consent
 * request's own parameters (PKCE's challenge included) plus the client's authentication from
 * client-auth.ts, the answer is judged as RFC 9126 §2.2 defines it, and only a good answer turns the
 * consent link into client_id + request_uri. The pushes go through the app's real sender to a
 * scripted loopback service (tests/helpers/scripted-service.ts), which records them as they arrived.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { testApp } from './test-app';
import { stepOf } from './flow-modules';
import type { Exchange } from '$lib/exchange/types';
import type { Session } from '$lib/server/session/session';
import { setupWith, type Setup } from '$lib/oauth/setup';
import { bindSecret } from '$lib/oauth/secret-binding';
import { basicCredentials } from '$lib/oauth/auth-methods';
import { consentParams, explainAuthorizationError } from '$lib/oauth/consent';
import { judgePush, pushedBody, pushedConsentUrl } from '$lib/oauth/par';
import * as oauth from 'oauth4webapi';
import {
	startScriptedService,
	stepHeadersOf,
	urlOf,
	type ScriptedService,
	type SeenRequest
} from '../helpers/scripted-service';

/** The app serving the steps (its presets say whether the sandbox is the target). */
const app = testApp(8);

/**
 * What the flow hands its steps (flow/context.ts): the app, with its own sender, and the
 * playground's origin. The app is in local mode (no HOST, no allowed hosts), so its guard lets it
 * reach the loopback service.
 */
const step = stepOf(app);
/** The same, for an app whose clock stands at 1,000,000 ms. */
const clocked = stepOf(testApp(8, {}, () => 1_000_000));

/** The service behind the pushed authorization request endpoint, PAR, known once it listens. */
let service: ScriptedService;
let PAR = '';
beforeAll(async () => {
	service = await startScriptedService();
	PAR = `${service.url}/oidc/request`;
});
afterAll(() => service.close());
beforeEach(() => service.reset());
afterEach(() => {
	expect(service.unscripted, 'every request found a scripted answer').toEqual([]);
	expect(service.queued(), 'every scripted answer was used').toBe(0);
});

const { prepareConsent } = await import('$lib/server/steps/flow-steps');
const { pushConsent, pendingParams } = await import('$lib/server/steps/push-consent');

const SECRET = 'b:a%s+i c/=~?';

function flowSession(over: Partial<Setup> = {}): Session {
	const setup = setupWith({
		base_url: 'https://as.test/oidc',
		authorization_endpoint: 'https://as.test/oidc/auth',
		token_endpoint: 'https://as.test/oidc/token',
		pushed_authorization_request_endpoint: PAR,
		redirect_uri: 'http://127.0.0.1:5173/callback',
		client_id: 'oidc-post',
		scope: 'openid read',
		use_par: true,
		pkce: 'S256',
		...over
	});
	const s: Session = { v: 1, setup, client_secret: SECRET, secret_for: bindSecret(setup) };
	return prepareConsent(s);
}

function answer(status: number, body: unknown): Partial<Exchange> {
	return {
		response: {
			status,
			statusText: status === 201 ? 'Created' : 'Bad Request',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: typeof body === 'string' ? body : JSON.stringify(body),
			truncated: false
		}
	};
}

/** Queues the service's answer to the next push; the function returned gives that push as it arrived. */
function script(status: number, body: unknown): () => SeenRequest {
	service.answer({
		status,
		headers: [['Content-Type', 'application/json']],
		body: typeof body === 'string' ? body : JSON.stringify(body)
	});
	return () => {
		expect(service.received).toHaveLength(1);
		return service.received[0]!;
	};
}

describe('the pushed body', () => {
	test('client_secret_post: the consent URL’s parameters, in order, with the secret after client_id', async () => {
		const s = flowSession();
		const call = script(201, { request_uri: 'urn:x:1', expires_in: 60 });
		const r = await pushConsent(step, s);
		expect(r.ok).toBe(true);
		const req = call();
		const fromUrl = [...new URL(s.pending!.consent_url).searchParams.entries()];
		const pushed = [...new URLSearchParams(req.body).entries()];
		expect(pushed).toEqual([fromUrl[0], ['client_secret', SECRET], ...fromUrl.slice(1)]);
		expect(pushed.map(([k]) => k)).toContain('code_challenge');
		expect([req.method, urlOf(req)]).toEqual(['POST', PAR]);
		expect(r.ok && r.exchanges.map((e) => e.step)).toEqual(['par']);
		expect(stepHeadersOf(req)).toEqual([['Content-Type', 'application/x-www-form-urlencoded']]);
	});

	test('client_secret_basic: the same parameters, and the secret only in the Basic header', async () => {
		const s = flowSession({ token_endpoint_auth_method: 'client_secret_basic' });
		const call = script(201, { request_uri: 'urn:x:2', expires_in: 60 });
		await pushConsent(step, s);
		const req = call();
		expect([...new URLSearchParams(req.body).entries()]).toEqual([
			...new URL(s.pending!.consent_url).searchParams.entries()
		]);
		expect(req.body).not.toContain('client_secret');
		expect(stepHeadersOf(req)).toContainEqual([
			'Authorization',
			basicCredentials('oidc-post', SECRET)
		]);
	});

	test('none: the parameters alone, never the secret a session holds', async () => {
		const s = flowSession({ token_endpoint_auth_method: 'none' });
		const call = script(201, { request_uri: 'urn:x:3', expires_in: 60 });
		await pushConsent(step, s);
		const req = call();
		expect([...new URLSearchParams(req.body).entries()]).toEqual([
			...new URL(s.pending!.consent_url).searchParams.entries()
		]);
		expect(stepHeadersOf(req).map(([name]) => name)).not.toContain('Authorization');
		expect(JSON.stringify(req)).not.toContain('b:a');
	});

	test('pendingParams gives the consent request’s parameters (consentParams), the challenge recomputed from the verifier', () => {
		const s = flowSession();
		expect(pendingParams(s)).toEqual([...new URL(s.pending!.consent_url).searchParams.entries()]);
		expect(pendingParams(flowSession({ pkce: 'off' }))!.map(([k]) => k)).toEqual(
			consentParams({ client_id: 'a', redirect_uri: 'b', scope: 'c', state: 'd' }).map(([k]) => k)
		);
	});

	test('pushedBody puts a missing client_id first', () => {
		expect(pushedBody([['scope', 'x']], { client_id: 'c', client_secret: 's' })).toBe(
			'client_id=c&client_secret=s&scope=x'
		);
	});
});

describe('the answer', () => {
	test('201 with request_uri and expires_in: the link carries only client_id and request_uri, and the expiry is kept', async () => {
		const s = flowSession();
		script(201, { request_uri: 'urn:ietf:params:oauth:request_uri:abc', expires_in: 60 });
		const r = await pushConsent(clocked, s);
		if (!r.ok) throw new Error(r.message);
		const p = r.session.pending!;
		expect(p.consent_url).toBe(
			'https://as.test/oidc/auth?client_id=oidc-post&request_uri=urn%3Aietf%3Aparams%3Aoauth%3Arequest_uri%3Aabc'
		);
		expect(p).toMatchObject({
			request_uri: 'urn:ietf:params:oauth:request_uri:abc',
			request_uri_expires_at: 1_060_000,
			state: s.pending!.state,
			code_verifier: s.pending!.code_verifier
		});
		expect(r.exchanges[0]!.findings.map((f) => f.code)).toContain('par-pushed');
	});

	test.each([
		[400, { error: 'invalid_client', error_description: 'client authentication failed' }],
		[200, { request_uri: 'urn:x', expires_in: 60 }],
		[201, { request_uri: '', expires_in: 60 }],
		[201, { request_uri: 'urn:x', expires_in: 'soon' }],
		[201, { request_uri: 'urn:x', expires_in: -1 }],
		[201, { request_uri: 'urn:x' }],
		[201, { request_uri: 7, expires_in: 60 }],
		[201, '<html>'],
		[201, '[]']
	])('%i %j: refused, and the consent link stays as it was', async (status, body) => {
		const s = flowSession();
		script(status, body);
		const r = await pushConsent(step, s);
		if (!r.ok) throw new Error(r.message);
		expect(r.session).toBe(s);
		expect(r.exchanges[0]!.findings.map((f) => f.code)).toContain('par-refused');
	});

	test('judgePush: a refusal quotes the server’s description when it gave one as text', () => {
		const said = (body: object) =>
			judgePush({
				id: 'x',
				step: 'par',
				startedAt: '',
				request: { method: 'POST', url: PAR, httpVersion: '1.1', headers: [], body: '' },
				response: {
					status: 400,
					statusText: '',
					httpVersion: '1.1',
					headers: [],
					body: JSON.stringify(body),
					truncated: false
				},
				timing: { total: 1 },
				findings: []
			}).finding?.message;
		expect(said({ error: 'invalid_request', error_description: 'bad scope' })).toBe(
			'The server refused the pushed request: "invalid_request" ("bad scope").'
		);
		expect(said({ error: 'invalid_request', error_description: 5 })).toBe(
			'The server refused the pushed request: "invalid_request".'
		);
		expect(said({ error: 'invalid_request' })).toBe(
			'The server refused the pushed request: "invalid_request".'
		);
	});

	test('judgePush: no answer gives no finding of its own', () => {
		expect(
			judgePush({
				id: 'x',
				step: 'par',
				startedAt: '',
				request: { method: 'POST', url: PAR, httpVersion: '1.1', headers: [], body: '' },
				timing: { total: 1 },
				findings: [],
				failure: { kind: 'refused', message: 'refused' }
			})
		).toEqual({ ok: false });
	});

	test('pushedConsentUrl drops what the authorization endpoint carried', () => {
		expect(pushedConsentUrl('https://as.test/auth?x=1', 'c 1', 'urn:a')).toBe(
			'https://as.test/auth?client_id=c+1&request_uri=urn%3Aa'
		);
	});
});

describe('refusals before anything is sent', () => {
	test('exfiltration: without use_par, without a pending request, or with the secret bound to another PAR endpoint, nothing is sent', async () => {
		expect(await pushConsent(step, flowSession({ use_par: false }))).toMatchObject({
			ok: false,
			status: 409
		});
		expect(await pushConsent(step, { ...flowSession(), pending: undefined })).toMatchObject({
			ok: false,
			status: 409
		});
		const s = flowSession();
		const moved = {
			...s,
			secret_for: bindSecret({
				...s.setup!,
				pushed_authorization_request_endpoint: 'https://evil.test/par'
			})
		};
		expect(await pushConsent(step, moved)).toMatchObject({ ok: false, status: 409 });
		expect(service.received).toEqual([]);
	});
});

describe('an expired or used request_uri', () => {
	test('a redirect back with invalid_request_uri and the flow’s state is explained: push again', async () => {
		const { handleCallback } = await import('$lib/server/steps/redirect-back');
		const s = flowSession();
		const url = new URL(
			`http://127.0.0.1:5173/callback?error=invalid_request_uri&state=${s.pending!.state}`
		);
		const { exchange } = handleCallback(step, s, url, new Headers());
		const f = exchange.findings.find((x) => x.code === 'invalid_request_uri')!;
		expect(f.fix).toContain('Push the request again');
		expect(explainAuthorizationError('invalid_request_uri')).toContain(
			'expired or was already used'
		);
	});
});

describe('judgePush agrees with oauth4webapi', () => {
	test.each([
		[201, { request_uri: 'urn:x', expires_in: 60 }],
		[201, { request_uri: 'urn:x', expires_in: '60' }],
		[201, { request_uri: 'urn:x', expires_in: 0 }],
		[201, { request_uri: 'urn:x', expires_in: -1 }],
		[201, { request_uri: 'urn:x', expires_in: 'soon' }],
		[201, { request_uri: 'urn:x' }],
		[201, { request_uri: '', expires_in: 60 }],
		[201, { request_uri: 7, expires_in: 60 }],
		[201, []],
		[200, { request_uri: 'urn:x', expires_in: 60 }],
		[400, { error: 'invalid_request' }],
		[401, { error: 'invalid_client' }]
	])('%i %j', async (status, body) => {
		const text = JSON.stringify(body);
		const ex = {
			id: 'x',
			step: 'par',
			startedAt: '',
			request: { method: 'POST', url: PAR, httpVersion: '1.1', headers: [], body: '' },
			timing: { total: 1 },
			findings: [],
			...answer(status, text)
		} satisfies Exchange;
		const o4w = await oauth
			.processPushedAuthorizationResponse(
				{ issuer: 'https://as.test/oidc' },
				{ client_id: 'oidc-post' },
				new Response(text, { status, headers: { 'Content-Type': 'application/json' } })
			)
			.then(
				(r) => ({ ok: true, request_uri: r.request_uri, expires_in: r.expires_in }),
				() => ({ ok: false })
			);
		const ours = judgePush(ex);
		expect(ours.ok).toBe(o4w.ok);
		if (ours.ok)
			expect(o4w).toMatchObject({ request_uri: ours.request_uri, expires_in: ours.expires_in });
	});
});

function pushed(status: number, body: unknown): Exchange {
	return {
		id: 'x',
		step: 'par',
		startedAt: '',
		request: { method: 'POST', url: PAR, httpVersion: '1.1', headers: [], body: '' },
		timing: { total: 1 },
		findings: [],
		...answer(status, body)
	};
}

/** The problems a refusal that is not an OAuth error lists, one per item after the colon. */
function problems(status: number, body: unknown): string[] {
	const v = judgePush(pushed(status, body));
	if (v.ok || !v.finding) throw new Error('expected a refusal with a finding');
	expect(v.finding).toMatchObject({ level: 'error', code: 'par-refused', ref: 'RFC 9126 §2.2' });
	const list = v.finding.message.slice(v.finding.message.indexOf(':') + 1).replace(/\.$/, '');
	return list.split(';').map((p) => p.trim());
}

describe('pushedBody, alone', () => {
	test('a public client with no client_id of its own adds nothing', () => {
		expect(pushedBody([['scope', 'x']], {})).toBe('scope=x');
	});

	test('a credential that is not set is left out, not sent as "undefined"', () => {
		expect(
			pushedBody(
				[
					['client_id', 'c'],
					['scope', 'x']
				],
				{ client_id: 'c', client_secret: undefined }
			)
		).toBe('client_id=c&scope=x');
	});
});

describe('judgePush: the finding it gives', () => {
	test('a numeric expires_in is info, with RFC 9126 §2.2 as the reference', () => {
		const v = judgePush(pushed(201, { request_uri: 'urn:x', expires_in: 90 }));
		expect(v).toMatchObject({ ok: true, request_uri: 'urn:x', expires_in: 90 });
		expect(v.finding).toMatchObject({ level: 'info', code: 'par-pushed', ref: 'RFC 9126 §2.2' });
	});

	test('an expires_in sent as a numeric string is accepted, as a warning', () => {
		const v = judgePush(pushed(201, { request_uri: 'urn:x', expires_in: '90' }));
		expect(v).toMatchObject({ ok: true, expires_in: 90 });
		expect(v.finding).toMatchObject({ level: 'warning', code: 'par-pushed' });
	});

	test.each([[[60]], [null], [true], [{}]])('an expires_in of %j is not seconds', (expires) => {
		expect(judgePush(pushed(201, { request_uri: 'urn:x', expires_in: expires })).ok).toBe(false);
	});

	test.each([
		[400, { error: 'invalid_request' }],
		[401, { error: 'invalid_client', error_description: 'bad secret' }],
		[201, { error: 'server_error' }]
	])('%i %j: an OAuth error, referenced to RFC 9126 §2.3', (status, body) => {
		const v = judgePush(pushed(status, body));
		expect(v.ok).toBe(false);
		expect(v.finding).toMatchObject({ level: 'error', code: 'par-refused', ref: 'RFC 9126 §2.3' });
		expect(v.finding!.message).toContain(body.error);
	});

	test('an error field that is not a string is not an OAuth error', () => {
		expect(problems(400, { error: 42 })).toHaveLength(3);
	});

	test('a good body with the wrong status names the status only', () => {
		const p = problems(200, { request_uri: 'urn:x', expires_in: 60 });
		expect(p).toHaveLength(1);
		expect(p[0]).toContain('200');
		expect(problems(200, { request_uri: 'urn:x', expires_in: 0 })).toHaveLength(1);
	});

	test.each([['null'], ['[]'], ['"urn:x"'], ['<html>']])(
		'a body %s that is not a JSON object is named as such, without field checks',
		(body) => {
			const p = problems(201, body);
			expect(p).toHaveLength(1);
			expect(p[0]).toContain('JSON object');
			expect(p[0]).not.toMatch(/request_uri|expires_in/);
		}
	);

	test.each([
		[{ request_uri: '', expires_in: 60 }],
		[{ request_uri: 7, expires_in: 60 }],
		[{ expires_in: 60 }]
	])('%j: the request_uri is named', (body) => {
		const p = problems(201, body);
		expect(p).toHaveLength(1);
		expect(p[0]).toContain('request_uri');
	});

	test.each([
		[{ request_uri: 'urn:x', expires_in: -1 }],
		[{ request_uri: 'urn:x', expires_in: 'soon' }],
		[{ request_uri: 'urn:x' }]
	])('%j: the expires_in is named', (body) => {
		const p = problems(201, body);
		expect(p).toHaveLength(1);
		expect(p[0]).toContain('expires_in');
	});

	test('every problem is named at once', () => {
		const p = problems(200, { request_uri: '', expires_in: -5 });
		expect(p).toHaveLength(3);
		expect(p[0]).toContain('200');
		expect(p[1]).toContain('request_uri');
		expect(p[2]).toContain('expires_in');
	});
});
