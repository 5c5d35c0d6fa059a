/**
 * A refused redirect URI, read from any server's answer (redirect-refusal.ts), over the fixture
 * tables of tests/helpers/redirect-refusals.ts: every real server's refusal is found, for certain
 * when it gives a code and as likely when only its words say so, and no answer that merely mentions
 * redirect_uri is taken for one. Then the finding the registration check raises from it.
 */
import { describe, expect, test } from 'vitest';
import { redirectRefusal } from '$lib/oauth/redirect-refusal';
import { pageText } from '$lib/oauth/page-text';
import { diagnose } from '$lib/oauth/diagnose';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import { NEGATIVES, POSITIVES, fill, type RefusalFixture } from '../helpers/redirect-refusals';

const ORIGIN = 'https://as.example';
const SENT = 'http://127.0.0.1:5173/callback';
const REGISTERED = 'http://127.0.0.1:5173/callback/';
const values = { uri: SENT, registered: REGISTERED, origin: ORIGIN };
const REQUEST = `${ORIGIN}/authorize?client_id=abc&redirect_uri=${encodeURIComponent(SENT)}&response_type=code`;

function answer(f: RefusalFixture) {
	const headers: HeaderList = [];
	if (f.contentType) headers.push(['Content-Type', f.contentType]);
	if (f.location) headers.push(['Location', fill(f.location, values)]);
	return { status: f.status, headers, body: f.body ? fill(f.body, values) : '' };
}

describe('a refused redirect URI, from any server', () => {
	test.each(POSITIVES.map((f) => [f.server, f] as const))('%s: found', (_, f) => {
		const found = redirectRefusal(answer(f), REQUEST, SENT);
		expect(found?.strength).toBe(f.expect!.strength);
		if (f.expect!.strength === 'certain')
			expect(found).toMatchObject({ code: (f.expect as { code: string }).code });
		else expect(found).toMatchObject({ words: (f.expect as { words: string }).words });
	});

	test.each(NEGATIVES.map((f) => [f.server, f] as const))('%s: none', (_, f) => {
		expect(redirectRefusal(answer(f), REQUEST, SENT)).toBeUndefined();
	});

	test('a redirect elsewhere says where it sends the browser, without its query', () => {
		const hydra = POSITIVES.find((f) => f.server.startsWith('Ory Hydra'))!;
		expect(redirectRefusal(answer(hydra), REQUEST, SENT)).toMatchObject({
			where: 'redirect',
			to: `${ORIGIN}/oauth2/fallbacks/error`
		});
	});

	test('words alone need an error answer: the same sentence on a plain 200 page is not a refusal', () => {
		const body =
			'<html><head><title>Welcome</title></head><body><p>Unregistered redirect_uri.</p></body></html>';
		expect(redirectRefusal({ status: 200, headers: [], body }, REQUEST, SENT)).toBeUndefined();
		const titled = body.replace('Welcome', 'Error');
		expect(
			redirectRefusal({ status: 200, headers: [], body: titled }, REQUEST, SENT)
		).toMatchObject({
			strength: 'likely'
		});
	});
});

describe('what a page shows', () => {
	test('its title, headings and visible text; no attribute, script, style or hidden element', () => {
		const seen = pageText(
			'<html><head><title> A  &amp; B </title><style>p{}</style></head><body><h1>Head &lt;1&gt;</h1>' +
				'<p>One <b>line</b></p><div hidden>secret</div><div style="display: none">gone</div>' +
				'<input type="hidden" value="val"><script>var x = "code";</script><template>t</template>' +
				'<noscript>ns</noscript><p>Two</p></body></html>'
		);
		expect(seen).toEqual({
			title: 'A & B',
			headings: ['Head <1>'],
			text: 'Head <1>\nOne line\nTwo'
		});
	});
});

describe('the registration check’s finding', () => {
	const check = (f: RefusalFixture, registered?: string): Exchange =>
		({
			id: 'x',
			step: 'check',
			request: { method: 'GET', url: REQUEST, headers: [], body: '' },
			response: { ...answer(f), statusText: '', httpVersion: '1.1', truncated: false },
			timing: { start: 0, durationMs: 1 },
			findings: [],
			...(registered ? {} : {})
		}) as unknown as Exchange;

	test('certain: named as refused, with the near miss against "Redirect URI as registered"', () => {
		const oidc = POSITIVES[0]!;
		const [f, ...rest] = diagnose(check(oidc), {
			redirectUri: SENT,
			clientId: 'abc',
			registeredRedirectUri: REGISTERED,
			redirectUriOptions: { source: 'setup' }
		});
		expect(rest).toEqual([]);
		expect(f).toMatchObject({ level: 'error', code: 'redirect_uri_mismatch' });
		expect(f!.message).toContain(`does not accept the redirect_uri "${SENT}" for client_id "abc"`);
		expect(f!.message).toContain(
			'with the error invalid_redirect_uri. The service said: "error_description: redirect_uri did not match any of the client\'s registered redirect_uris".'
		);
		expect(f!.fix).toBe(
			'It was registered with a trailing slash: `http://127.0.0.1:5173/callback/`; send exactly that, or add `http://127.0.0.1:5173/callback` to the registration.'
		);
		// The value the fix names, for "Try again with".
		expect(f!.suggest).toEqual({ field: 'redirect_uri', value: REGISTERED });
	});

	test('likely: worded conditionally, quoting the server, with the same near miss', () => {
		const keycloak = POSITIVES.find((x) => x.server === 'Keycloak')!;
		const [f, ...rest] = diagnose(check(keycloak), {
			redirectUri: SENT,
			clientId: 'abc',
			registeredRedirectUri: REGISTERED,
			redirectUriOptions: { source: 'setup' }
		});
		expect(rest).toEqual([]);
		expect(f).toMatchObject({ level: 'error', code: 'redirect-uri-likely-refused' });
		expect(f!.message).toContain('"Invalid parameter: redirect_uri"');
		expect(f!.fix).toMatch(
			/^If the redirect URI is the cause: It was registered with a trailing slash/
		);
		// The value the fix names, for "Try again with", and what the finding rests on.
		expect(f!.suggest).toEqual({ field: 'redirect_uri', value: REGISTERED });
		expect(f!.ref).toBe("RFC 6749 §3.1.2.4; the service's API docs §4.1");
	});

	test('without a registered value: where to look, from the usual near misses', () => {
		const dex = POSITIVES.find((x) => x.server === 'Dex')!;
		const [f] = diagnose(check(dex), { redirectUri: SENT, clientId: 'abc' });
		expect(f!.fix).toContain('Nothing is entered under “Redirect URI as registered”');
		expect(f).not.toHaveProperty('suggest');
	});

	test('an error page that names the client: the unknown client, read from what the page shows', () => {
		const oidc = NEGATIVES.find((x) => x.server.startsWith('oidc-provider’s invalid_client page'))!;
		const [f, ...rest] = diagnose(check(oidc), { redirectUri: SENT, clientId: 'abc' });
		expect(rest).toEqual([]);
		expect(f).toMatchObject({ level: 'error', code: 'unknown-client' });
		expect(f!.message).toContain('client is invalid');
		// Dex answers an unknown client with a 404 page: the endpoint is right, the client is not.
		const dex = NEGATIVES.find((x) => x.server === 'Dex: an unknown client')!;
		const [d, ...others] = diagnose(check(dex), { redirectUri: SENT, clientId: 'abc' });
		expect(others).toEqual([]);
		expect(d).toMatchObject({ level: 'error', code: 'unknown-client' });
		expect(d!.message).toContain('Invalid client_id.');
		// A page that says nothing of the client stays a refusal of its own.
		const other = { ...NEGATIVES[0]!, status: 400, body: '<h1>Bad request</h1><p>Try later.</p>' };
		expect(diagnose(check(other), { redirectUri: SENT })[0]!.code).toBe('consent-error');
	});

	test('the same URI as registered: said so, and where else to look', () => {
		const dex = POSITIVES.find((x) => x.server === 'Dex')!;
		const [f] = diagnose(check(dex), {
			redirectUri: SENT,
			clientId: 'abc',
			registeredRedirectUri: SENT,
			redirectUriOptions: { source: 'setup' }
		});
		expect(f!.fix).toContain('is exactly the one in the setup’s “Redirect URI as registered”');
		expect(f).not.toHaveProperty('suggest');
	});
});
