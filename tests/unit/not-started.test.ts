/**
 * A flow the tab did not start: which flows the tab's record counts as its own (ui/tab-flow.ts), and
 * the hosts its banner names (oauth/flow-hosts.ts). The page's behaviour is in
 * tests/e2e/not-started.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { flowHosts } from '$lib/oauth/flow-hosts';
import { notStartedHere } from '$lib/ui/tab-flow';
import { setupWith, type Setup } from '$lib/oauth/setup';

const OWN = '127.0.0.1:5173';
const ID = 'AAAAAAAAAAAAAAAA';

const setup = (over: Partial<Setup> = {}): Setup =>
	setupWith({ base_url: `http://${OWN}/sandbox`, redirect_uri: `http://${OWN}/callback`, ...over });

describe('whether the tab started the flow it shows', () => {
	test('a flow minted for this load is the tab’s, whatever its record says', () => {
		expect(notStartedHere({}, ID, null, true)).toBe(false);
	});

	test("another app's flow under an id it chose: not in the tab's record", () => {
		expect(notStartedHere({ BBBBBBBBBBBBBBBB: 's1' }, ID, 's1', false)).toBe(true);
		expect(notStartedHere({}, ID, null, false)).toBe(true);
	});

	test('the tab’s own flow, with the setup it last showed (none saved, or one): its own', () => {
		expect(notStartedHere({ [ID]: 's1' }, ID, 's1', false)).toBe(false);
		expect(notStartedHere({ [ID]: null }, ID, null, false)).toBe(false);
	});

	test("another app's flow sealed under the tab's own id: another setup is not the tab's", () => {
		expect(notStartedHere({ [ID]: 's1' }, ID, 's2', false)).toBe(true);
		expect(notStartedHere({ [ID]: null }, ID, 's2', false)).toBe(true);
		expect(notStartedHere({ [ID]: 's1' }, ID, null, false)).toBe(true);
	});

	test('a fork the tab made opens as its own, whatever setup it holds', () => {
		expect(notStartedHere({ [ID]: true }, ID, 's9', false)).toBe(false);
		expect(notStartedHere({ [ID]: true }, ID, null, false)).toBe(false);
	});
});

describe('the hosts the banner names', () => {
	test('the built-in sandbox on the playground’s own host: nothing to check', () => {
		expect(flowHosts(setup(), OWN)).toBeNull();
	});

	test("another app's setup: its hosts, where the secret goes and where the access token goes", () => {
		const hosts = flowHosts(
			setup({
				base_url: 'http://127.0.0.1:6666',
				token_endpoint: 'http://127.0.0.1:6666/oauth2/token',
				userinfo_endpoint: 'http://localhost:6666/me'
			}),
			OWN
		);
		expect(hosts).toEqual({
			hosts: ['127.0.0.1:6666', 'localhost:6666'],
			secret: ['127.0.0.1:6666 (token endpoint)'],
			token: ['127.0.0.1:6666 (API)', 'localhost:6666 (user-info endpoint)']
		});
	});

	test('the sandbox with a redirect URI on another port: the code would go there, so it is named', () => {
		expect(flowHosts(setup({ redirect_uri: 'http://127.0.0.1:6666/cb' }), OWN)).toEqual({
			hosts: ['127.0.0.1:6666'],
			secret: [`${OWN} (token endpoint)`],
			token: [`${OWN} (API, user-info endpoint)`]
		});
	});

	test('a consent page elsewhere (where the user signs in) is named; a JWKS URI, which receives nothing, is not', () => {
		expect(
			flowHosts(setup({ authorization_endpoint: 'https://login.example/auth' }), OWN)?.hosts
		).toEqual(['login.example']);
		expect(flowHosts(setup({ jwks_uri: 'https://keys.example/jwks' }), OWN)).toBeNull();
	});

	test('every endpoint that receives the secret is named with what it is', () => {
		const hosts = flowHosts(
			setup({
				revocation_endpoint: 'https://revoke.example/r',
				introspection_endpoint: 'https://revoke.example/i'
			}),
			OWN
		);
		expect(hosts?.hosts).toEqual(['revoke.example']);
		expect(hosts?.secret).toEqual([
			`${OWN} (token endpoint)`,
			'revoke.example (revocation endpoint, introspection endpoint)'
		]);
	});
});
