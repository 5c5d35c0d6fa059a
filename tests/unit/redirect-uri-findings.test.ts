/**
 * Where the service refuses the redirect URI, the finding names the near miss: the registration
 * check (diagnose.ts) and a redirect back with error=redirect_uri_mismatch (redirect-back.ts handleCallback,
 * also what paste-back runs). The sandbox's own registration, when it is the target, is what is
 * compared (the app's presets learn it from the composition root).
 */
import { afterEach, describe, expect, test } from 'vitest';
import type { Exchange } from '$lib/exchange/types';
import { diagnose } from '$lib/oauth/diagnose';
import { setupWith } from '$lib/oauth/setup';
import { retryRedirect } from '$lib/oauth/redirect-uri';
import { prepareConsent } from '$lib/server/steps/flow-steps';
import { handleCallback } from '$lib/server/steps/redirect-back';
import { createPresets, type SandboxRegistrations } from '$lib/server/flow/presets';
import type { App } from '$lib/app.server';
import { testApp } from './test-app';
import { stepOf } from './flow-modules';
import {
	keepRegisteredRedirect,
	redirectMismatchFix,
	registeredRedirect,
	registeredRedirectHint,
	refusalAhead
} from '$lib/server/steps/registered-redirect';
import type { Session } from '$lib/server/session/session';

const app = testApp(4);
/** The app serving the requests: its presets hold the sandbox's registrations. */
let serving: App = app;

/** Serves the requests with an app whose sandbox has these redirect-URI registrations. */
function serveWithRegistrations(lookup: SandboxRegistrations): void {
	serving = {
		...app,
		presets: createPresets({ config: app.config, sandboxRegistrations: lookup })
	};
}

const MISMATCH =
	'{"error":"redirect_uri_mismatch","error_description":"The redirect URI provided is missing or does not match","error_uri":"https://www.rfc-editor.org/rfc/rfc6749#section-3.1.2"}';

function check(sent: string): Exchange {
	return {
		id: 'c',
		step: 'check',
		startedAt: new Date(0).toISOString(),
		request: {
			method: 'GET',
			url: `https://reader.test/oauth2/auth?client_id=app&redirect_uri=${encodeURIComponent(sent)}`,
			httpVersion: '1.1',
			headers: [],
			body: ''
		},
		response: {
			status: 400,
			statusText: 'Bad Request',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: MISMATCH,
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

describe('the registration check names the near miss', () => {
	test('registered with a trailing slash: the fix says so and quotes the registered URI', () => {
		const [f] = diagnose(check('https://app.test/cb'), {
			redirectUri: 'https://app.test/cb',
			clientId: 'app',
			registeredRedirectUri: 'https://app.test/cb/'
		});
		expect(f).toMatchObject({ level: 'error', code: 'redirect_uri_mismatch' });
		expect(f!.fix).toBe(
			'It was registered with a trailing slash: `https://app.test/cb/`; send exactly that, or add `https://app.test/cb` to the registration.'
		);
	});

	test('without a registered value: the usual suspects of the URI sent', () => {
		const [f] = diagnose(check('http://localhost:5173/callback'), {
			redirectUri: 'http://localhost:5173/callback',
			clientId: 'app'
		});
		expect(f!.fix).toMatch(/usual near misses of `http:\/\/localhost:5173\/callback`/);
		expect(f!.fix).toContain(
			'with 127.0.0.1 instead of localhost (`http://127.0.0.1:5173/callback`)'
		);
		expect(f!.fix).toContain('with https (`https://localhost:5173/callback`)');
	});
});

describe('the redirect back with error=redirect_uri_mismatch names it too', () => {
	const ORIGIN = 'http://127.0.0.1:5173';
	const pending = (registered: string): Session =>
		prepareConsent({
			v: 1,
			setup: setupWith({
				base_url: 'https://reader.test',
				client_id: 'app',
				redirect_uri: `${ORIGIN}/callback`,
				registered_redirect_uri: registered,
				custom_state: 'st-1',
				scope: 'read write'
			})
		});

	test('with the setup’s registered value', () => {
		const { exchange } = handleCallback(
			stepOf(serving),
			pending(`${ORIGIN}/Callback`),
			new URL(`${ORIGIN}/callback?error=redirect_uri_mismatch&state=st-1`),
			new Headers()
		);
		expect(exchange.findings[0]).toMatchObject({ code: 'redirect_uri_mismatch' });
		expect(exchange.findings[0]!.fix).toMatch(
			/^It was registered with the path in another case, `\/Callback` instead of `\/callback`/
		);
		expect(exchange.findings[0]!.suggest).toEqual({
			field: 'redirect_uri',
			value: `${ORIGIN}/Callback`
		});
	});

	test('another error keeps its own explanation', () => {
		const { exchange } = handleCallback(
			stepOf(serving),
			pending(`${ORIGIN}/Callback`),
			new URL(`${ORIGIN}/callback?error=invalid_scope&state=st-1`),
			new Headers()
		);
		expect(exchange.findings[0]!.fix).not.toMatch(/registered/);
		// A scope that asks for write: try again with read.
		expect(exchange.findings[0]!.suggest).toEqual({ field: 'scope', value: 'read' });
	});
});

describe('the sandbox as the target: its own registration is compared', () => {
	const ORIGIN = 'http://127.0.0.1:5173';
	const sandboxSetup = (client_id: string, registered = '') =>
		setupWith({
			base_url: `${ORIGIN}/sandbox`,
			client_id,
			redirect_uri: `${ORIGIN}/callback`,
			registered_redirect_uri: registered
		});
	afterEach(() => {
		serving = app;
	});

	test('a client registered for localhost only, the playground on 127.0.0.1', () => {
		serveWithRegistrations((id, origin) =>
			id === 'one-host' && origin === ORIGIN ? ['http://localhost:5173/callback'] : undefined
		);
		const reg = registeredRedirect(
			serving.presets,
			sandboxSetup('one-host', 'https://typed.example/cb'),
			ORIGIN
		);
		expect(reg).toEqual({
			registeredRedirectUri: ['http://localhost:5173/callback'],
			redirectUriOptions: { source: 'sandbox', callbackUrl: `${ORIGIN}/callback` }
		});
		expect(registeredRedirectHint(serving.presets, sandboxSetup('one-host'), ORIGIN)).toBe(
			'http://localhost:5173/callback'
		);
		// A value entered in the setup is not replaced by the hint.
		expect(
			registeredRedirectHint(serving.presets, sandboxSetup('one-host', `${ORIGIN}/x`), ORIGIN)
		).toBeNull();
		// A client the sandbox does not know: the setup's own value.
		expect(
			registeredRedirect(serving.presets, sandboxSetup('nobody', `${ORIGIN}/x`), ORIGIN)
		).toMatchObject({
			registeredRedirectUri: `${ORIGIN}/x`,
			redirectUriOptions: { source: 'setup' }
		});
	});

	test('before consent: a redirect URI the sandbox will refuse is named, one it accepts is not', () => {
		serveWithRegistrations((id) =>
			id === 'one-host' ? ['http://localhost:5173/callback'] : undefined
		);
		const setup = sandboxSetup('one-host');
		expect(refusalAhead(serving.presets, setup, `${ORIGIN}/callback`, ORIGIN)).toEqual({
			sandbox: true,
			fix: 'The sandbox registered it with localhost instead of 127.0.0.1: `http://localhost:5173/callback`; open the playground at `http://localhost:5173` so that it sends that one, or add `http://127.0.0.1:5173/callback` to the registration.'
		});
		expect(
			refusalAhead(serving.presets, setup, 'http://localhost:5173/callback', ORIGIN)
		).toBeNull();
		expect(refusalAhead(serving.presets, setup, undefined, ORIGIN)).toBeNull();
		expect(
			refusalAhead(serving.presets, sandboxSetup('nobody'), `${ORIGIN}/callback`, ORIGIN)
		).toBeNull();
	});

	test('"Try again with" the registered URI: offered for a near miss on this playground, never for its callback at another address', () => {
		serveWithRegistrations((id) =>
			id === 'two' ? [`${ORIGIN}/callback`, 'https://app.customer.test/cb'] : undefined
		);
		// One trailing slash away from this playground's own callback: send that one.
		expect(
			refusalAhead(serving.presets, sandboxSetup('two'), `${ORIGIN}/callback/`, ORIGIN)?.retry
		).toBe(`${ORIGIN}/callback`);
		// The nearest registration is another application's: paste-back mode, still offered.
		expect(
			refusalAhead(serving.presets, sandboxSetup('two'), 'https://app.customer.test/cb/', ORIGIN)
				?.retry
		).toBe('https://app.customer.test/cb');
		// The playground's callback at localhost: the redirect would land where this flow is not.
		serveWithRegistrations(() => ['http://localhost:5173/callback']);
		expect(
			refusalAhead(serving.presets, sandboxSetup('two'), `${ORIGIN}/callback`, ORIGIN)
		).not.toHaveProperty('retry');
	});

	test('another service: a "Redirect URI as registered" that differs from the one sent is named before consent', () => {
		const other = (registered: string) =>
			setupWith({
				base_url: 'https://reader.test',
				client_id: 'any',
				redirect_uri: `${ORIGIN}/callback`,
				registered_redirect_uri: registered
			});
		expect(
			refusalAhead(serving.presets, other(`${ORIGIN}/callback/`), `${ORIGIN}/callback`, ORIGIN)
		).toEqual({
			sandbox: false,
			fix: 'It was registered with a trailing slash: `http://127.0.0.1:5173/callback/`; send exactly that, or add `http://127.0.0.1:5173/callback` to the registration.',
			retry: `${ORIGIN}/callback/`
		});
		expect(
			refusalAhead(serving.presets, other(`${ORIGIN}/callback`), `${ORIGIN}/callback`, ORIGIN)
		).toBeNull();
		expect(refusalAhead(serving.presets, other(''), `${ORIGIN}/callback`, ORIGIN)).toBeNull();
	});

	test('another service: the setup’s value, or none', () => {
		const other = setupWith({
			base_url: 'https://reader.test',
			client_id: 'one-host',
			redirect_uri: `${ORIGIN}/callback`
		});
		serveWithRegistrations(() => ['http://localhost:5173/callback']);
		expect(
			registeredRedirect(serving.presets, other, ORIGIN).registeredRedirectUri
		).toBeUndefined();
		expect(registeredRedirectHint(serving.presets, other, ORIGIN)).toBeNull();
	});
});

describe('a registered value belongs to the service it was entered for', () => {
	const at = (base_url: string, registered: string, client_id = 'app') =>
		setupWith({
			base_url,
			client_id,
			redirect_uri: 'http://127.0.0.1:5173/callback',
			registered_redirect_uri: registered
		});
	const CB = 'http://127.0.0.1:5173/callback';

	test('carried over to another service: dropped', () => {
		expect(
			keepRegisteredRedirect(at('http://127.0.0.1:5173/sandbox', CB), at('https://r.test', CB))
				.registered_redirect_uri
		).toBe('');
	});
	test('typed anew, the same service, another client, or none before: kept', () => {
		const keep = (
			before: Parameters<typeof keepRegisteredRedirect>[0],
			after: ReturnType<typeof at>
		) => keepRegisteredRedirect(before, after).registered_redirect_uri;
		expect(keep(at('https://a.test', CB), at('https://r.test', 'https://app.test/cb'))).toBe(
			'https://app.test/cb'
		);
		expect(keep(at('https://r.test', CB), at('https://r.test', CB, 'other'))).toBe(CB);
		expect(keep(undefined, at('https://r.test', CB))).toBe(CB);
		expect(keep(at('https://a.test', ''), at('https://r.test', CB))).toBe(CB);
	});
	test("the fix is worked out on the playground's origin given", () => {
		expect(
			redirectMismatchFix(
				serving.presets,
				at('https://r.test', `${CB}/`),
				CB,
				'http://127.0.0.1:5173'
			)
		).toMatch(/^It was registered with a trailing slash/);
	});
});

describe('retryRedirect: the registered URI to send instead', () => {
	const cb = 'http://127.0.0.1:5173/callback';
	test.each([
		['one registered, a slash away', `${cb}/`, cb, cb],
		['the nearest of several', `${cb}/`, ['https://app.test/cb', cb], cb],
		[
			'another application: paste-back, still offered',
			cb,
			'https://app.test/cb',
			'https://app.test/cb'
		],
		['the same URI: nothing to change', cb, cb, undefined],
		[
			'the playground’s callback at another address',
			cb,
			'http://localhost:5173/callback',
			undefined
		],
		['nothing registered', cb, undefined, undefined],
		['not a URL', cb, 'not a url', undefined]
	] as const)('%s', (_, sent, registered, want) => {
		expect(retryRedirect(sent, registered, cb)).toBe(want);
	});
});
