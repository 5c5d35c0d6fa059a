/**
 * A client secret belongs to one client (oauth/secret-binding.ts): it is bound to the client id and
 * the URLs that receive it, and any change of them is named; and the session rules on top of it
 * (server/flow/secret.ts): what a save keeps, what a preset brings, when the secret may be sent.
 */
import { describe, expect, test } from 'vitest';
import { setupWith, type Setup } from '$lib/oauth/setup';
import {
	bindingChanges,
	bindSecret,
	listChanges,
	presetDetachedMessage,
	secretClearedMessage,
	secretDestinations,
	secretHosts
} from '$lib/oauth/secret-binding';
import { presetSession, secretAfterSave, secretView, usableSecret } from '$lib/server/flow/secret';
import type { Session } from '$lib/server/session/session';
import { testApp } from './test-app';

/** The app serving the request: its sandbox offers its built-in clients as presets. */
const app = testApp(5);

const ORIGIN = 'http://127.0.0.1:5173';
const setup = (over: Partial<Setup> = {}): Setup =>
	setupWith({
		base_url: 'https://reader.test',
		redirect_uri: `${ORIGIN}/callback`,
		client_id: 'app-1',
		...over
	});

describe('the URLs that receive the secret', () => {
	test('today: the token endpoint, from the base URL or as given', () => {
		expect(secretDestinations(setup())).toEqual([
			{ key: 'token_endpoint', label: 'token endpoint', url: 'https://reader.test/oauth2/token' }
		]);
		expect(secretDestinations(setup({ token_endpoint: 'https://auth.test/t' }))[0]!.url).toBe(
			'https://auth.test/t'
		);
	});
	test('URLs are compared as the sender sees them, so spelling alone changes nothing', () => {
		const a = bindSecret(setup({ token_endpoint: 'HTTPS://Auth.TEST:443/t' }));
		expect(bindingChanges(a, setup({ token_endpoint: 'https://auth.test/t' }))).toEqual([]);
	});
});

describe('secret follows client: any change of the client id or a receiving URL is named', () => {
	// Bound inside each test, not while the tests are collected, so that a fault in it fails them.
	const bound = () => bindSecret(setup());
	test.each<[string, Partial<Setup>, string[]]>([
		['nothing', {}, []],
		['the scope only', { scope: 'read' }, []],
		['the consent page only', { authorization_endpoint: 'https://other.test/auth' }, []],
		['the user-info endpoint only', { userinfo_endpoint: 'https://other.test/me' }, []],
		['the client id', { client_id: 'app-2' }, ['client id']],
		['the client id by case', { client_id: 'APP-1' }, ['client id']],
		['the base URL', { base_url: 'https://catcher.test' }, ['token endpoint']],
		['the base URL port', { base_url: 'https://reader.test:8443' }, ['token endpoint']],
		['the base URL path', { base_url: 'https://reader.test/v2' }, ['token endpoint']],
		['the token endpoint', { token_endpoint: 'https://catcher.test/t' }, ['token endpoint']],
		[
			'the token endpoint written out as the default',
			{ token_endpoint: 'https://reader.test/oauth2/token' },
			[]
		],
		[
			'the client id and the token endpoint',
			{ client_id: 'x', base_url: 'http://reader.test' },
			['client id', 'token endpoint']
		]
	])('%s', (_what, over, changes) => {
		expect(bindingChanges(bound(), setup(over))).toEqual(changes);
	});
	test('a base URL change under a fixed token endpoint keeps the secret: it goes to the same place', () => {
		const fixed = setup({ token_endpoint: 'https://auth.test/t' });
		expect(
			bindingChanges(bindSecret(fixed), { ...fixed, base_url: 'https://elsewhere.test' })
		).toEqual([]);
	});
	test('no binding differs in everything, so a secret without one is never sent', () => {
		expect(bindingChanges(undefined, setup())).toEqual(['client id', 'token endpoint']);
	});
	test('a URL the binding names that the setup no longer has counts as changed', () => {
		const b = {
			...bound(),
			urls: { ...bound().urls, revocation_endpoint: 'https://reader.test/r' }
		};
		expect(bindingChanges(b, setup())).toEqual(['revocation endpoint']);
	});
	test('a binding that lacks a receiving URL counts it as changed', () => {
		const b = { client_id: 'app-1', urls: {} };
		expect(bindingChanges(b, setup())).toEqual(['token endpoint']);
	});
});

describe('the words', () => {
	test('what changed, as a list', () => {
		expect(listChanges([])).toBe('');
		expect(listChanges(['client id'])).toBe('the client id');
		expect(listChanges(['client id', 'token endpoint'])).toBe(
			'the client id and the token endpoint'
		);
		expect(listChanges(['a', 'b', 'c'])).toBe('the a, the b and the c');
	});
	test('the cleared message names what changed, and the preset it no longer is', () => {
		expect(secretClearedMessage(['client id'])).toBe(
			'The secret was cleared because the client id changed; enter it again.'
		);
		expect(secretClearedMessage(['token endpoint'], 'Sandbox (read write)')).toMatch(
			/^The secret was cleared because the token endpoint changed: this is no longer the preset “Sandbox \(read write\)”/
		);
	});
	test('a preset left behind names itself and what changed', () => {
		const text = presetDetachedMessage(['client id', 'token endpoint'], 'Sandbox (read write)');
		expect(text).toContain('“Sandbox (read write)”');
		expect(text).toContain(listChanges(['client id', 'token endpoint']));
	});
	test('the hosts that receive the secret, each with what it is there', () => {
		expect(secretHosts(setup({ token_endpoint: 'http://127.0.0.1:9000/t' }))).toEqual([
			'127.0.0.1:9000 (token endpoint)'
		]);
		expect(secretHosts(setup({ base_url: '' }))).toEqual([]);
	});
});

describe('the session: what a save keeps', () => {
	const sandbox = () => presetSession(findSandbox(), ORIGIN);
	const findSandbox = () => ({
		name: 'sandbox-rw',
		label: 'Sandbox (read write)',
		description: '',
		setup: setup({ base_url: `${ORIGIN}/sandbox`, client_id: 'sandbox-rw', scope: 'read write' }),
		client_secret: 'sandbox-rw-secret'
	});
	const fromPreset = (): Session => ({ v: 1, ...sandbox() });

	test('a preset brings its secret bound to its own client id and token endpoint', () => {
		const s = fromPreset();
		expect(s.secret_for).toEqual(bindSecret(s.setup!));
		expect(usableSecret(s)).toEqual({ ok: true, secret: 'sandbox-rw-secret' });
		expect(secretView(app.presets, s, ORIGIN)).toEqual({
			secret: "set: the preset's, kept on the server",
			secretNote: null,
			preset: 'Sandbox (read write)'
		});
	});
	test('same client and URLs, empty secret field: kept, still the preset', () => {
		const s = fromPreset();
		const out = secretAfterSave(
			app.presets,
			s,
			{ ...s.setup!, scope: 'read' },
			'',
			undefined,
			ORIGIN
		);
		expect(out).toMatchObject({ client_secret: 'sandbox-rw-secret', preset: 'sandbox-rw' });
		expect(out.secret_note).toBeUndefined();
	});
	test("another token endpoint: the preset's secret is dropped, the preset detached, and why is said", () => {
		const s = fromPreset();
		const next = { ...s.setup!, token_endpoint: 'http://127.0.0.1:9/t' };
		const out = secretAfterSave(app.presets, s, next, '', undefined, ORIGIN);
		expect(out.client_secret).toBeUndefined();
		expect(out.secret_for).toBeUndefined();
		expect(out.preset).toBeUndefined();
		expect(out.secret_note).toMatch(/token endpoint changed: this is no longer the preset/);
	});
	test("a docs link's preset brings its secret only with the preset's own client id and URLs", () => {
		const p = findSandbox();
		const own = presetSession(p, ORIGIN).setup;
		expect(secretAfterSave(app.presets, { v: 1 }, own, '', p, ORIGIN).client_secret).toBe(
			'sandbox-rw-secret'
		);
		const moved = secretAfterSave(
			app.presets,
			{ v: 1 },
			{ ...own, base_url: 'http://127.0.0.1:9' },
			'',
			p,
			ORIGIN
		);
		expect(moved.client_secret).toBeUndefined();
		expect(moved.secret_note).toMatch(/token endpoint changed/);
	});
	test('a new secret with a new client is bound to the new one', () => {
		const next = setup({ client_id: 'mine', base_url: 'https://mine.test' });
		const out = secretAfterSave(app.presets, fromPreset(), next, 'my-secret', undefined, ORIGIN);
		expect(out).toMatchObject({ client_secret: 'my-secret', secret_for: bindSecret(next) });
		expect(out.preset).toBeUndefined();
		expect(out.secret_note).toBeUndefined();
	});
	test('a session whose setup moved under its secret shows no secret set, and says why', () => {
		const s = { ...fromPreset(), setup: { ...fromPreset().setup!, client_id: 'other' } };
		expect(usableSecret(s)).toMatchObject({ ok: false });
		expect(secretView(app.presets, s, ORIGIN)).toMatchObject({
			secret: null,
			secretNote: expect.stringMatching(/client id changed since/)
		});
	});
	test('the page learns only that a secret is set: no character, no length', () => {
		const s: Session = { v: 1, setup: setup(), client_secret: 'abc' };
		s.secret_for = bindSecret(s.setup!);
		expect(JSON.stringify(secretView(app.presets, s, ORIGIN))).not.toMatch(/abc|3/);
	});
});
