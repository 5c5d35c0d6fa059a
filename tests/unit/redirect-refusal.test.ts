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

describe('a refusal, field by field', () => {
	const redirect = (location: string | undefined, status = 302) => ({
		status,
		headers: (location === undefined ? [] : [['Location', location]]) as HeaderList,
		body: ''
	});
	const json = (status: number, body: unknown) => ({
		status,
		headers: [['Content-Type', 'application/json']] as HeaderList,
		body: JSON.stringify(body)
	});
	const page = (status: number, title: string, text: string) => ({
		status,
		headers: [['Content-Type', 'text/html']] as HeaderList,
		body: `<html><head><title>${title}</title></head><body><p>${text}</p></body></html>`
	});
	const found = (res: { status: number; headers: HeaderList; body: string }) =>
		redirectRefusal(res, REQUEST, SENT);

	test('a redirect with an error: its code for certain, or its words when they refuse the redirect URI', () => {
		const desc = 'The redirect_uri is not registered.';
		expect(
			found(redirect(`${ORIGIN}/err?error=redirect_uri_mismatch&error_description=Nope`, 300))
		).toEqual({
			strength: 'certain',
			code: 'redirect_uri_mismatch',
			where: 'redirect',
			words: 'Nope',
			to: `${ORIGIN}/err`
		});
		expect(
			found(redirect(`/err?error=invalid_request&error_description=${encodeURIComponent(desc)}`))
		).toEqual({ strength: 'likely', where: 'redirect', words: desc, to: `${ORIGIN}/err` });
		// Back to the redirect URI sent: the server accepted it, whatever the description says.
		expect(
			found(redirect(`${SENT}?error=invalid_request&error_description=${encodeURIComponent(desc)}`))
		).toBeUndefined();
		expect(found(redirect(`${ORIGIN}/err?state=x`))).toBeUndefined();
		expect(found(redirect(undefined))).toBeUndefined();
	});

	test('a JSON answer: a code in error or in the description for certain; words only on a 4xx', () => {
		expect(
			found(
				json(400, { error: 'invalid_request', error_description: 'redirect_uri does not match' })
			)
		).toEqual({ strength: 'likely', where: 'json', words: 'redirect_uri does not match' });
		expect(
			found(
				json(200, { error: 'invalid_request', error_description: 'redirect_uri does not match' })
			)
		).toBeUndefined();
		expect(found(json(400, { error: 42, error_description: 'redirect_uri_mismatch' }))).toEqual({
			strength: 'certain',
			code: 'redirect_uri_mismatch',
			where: 'json',
			words: 'redirect_uri_mismatch'
		});
		// The sentence is trimmed; an error that is not a string names no other cause.
		expect(
			found(json(400, { error: 'invalid_request', error_description: '  redirect_uri is wrong ' }))
		).toMatchObject({ words: 'redirect_uri is wrong' });
		expect(
			found(json(400, { error: ['invalid_client'], error_description: 'redirect_uri is invalid' }))
		).toMatchObject({ strength: 'likely', words: 'redirect_uri is invalid' });
		expect(found(json(400, { error: 'redirect_uri_mismatch' }))).toEqual({
			strength: 'certain',
			code: 'redirect_uri_mismatch',
			where: 'json',
			words: undefined
		});
	});

	test('a page: a code for certain with the sentence that says why; words only on a 4xx or under an error heading', () => {
		expect(
			found(page(200, 'Sign in', 'AADSTS50011: The redirect URI does not match. Try again.'))
		).toEqual({
			strength: 'certain',
			code: 'AADSTS50011',
			where: 'page',
			words: 'AADSTS50011: The redirect URI does not match.'
		});
		expect(found(page(200, 'Sign in', 'Code AADSTS50011 here. Other words.'))).toMatchObject({
			words: 'Code AADSTS50011 here.'
		});
		const words = 'The redirect_uri is not registered.';
		for (const status of [400, 499])
			expect(found(page(status, 'Sign in', words)), String(status)).toEqual({
				strength: 'likely',
				where: 'page',
				words
			});
		expect(found(page(200, 'Sign in', words))).toBeUndefined();
		expect(found(page(200, 'Oops', words))).toMatchObject({ words });
		// Any one heading that states an error will do.
		const headed = page(200, 'Sign in', words);
		headed.body = headed.body.replace('<p>', '<h1>Something went wrong</h1><p>');
		expect(found(headed)).toMatchObject({ words });
	});
});
