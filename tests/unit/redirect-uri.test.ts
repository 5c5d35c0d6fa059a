/**
 * Redirect-URI near misses (oauth/redirect-uri.ts): each way a registered redirect URI commonly
 * differs from the one sent is named, in one sentence with the fix; with no registered value, the
 * usual suspects of the URI sent are listed.
 */
import { describe, expect, test } from 'vitest';
import {
	explainRedirectMismatch,
	nearestRegistered,
	redirectUriDifferences,
	redirectUriFix,
	usualSuspects
} from '$lib/oauth/redirect-uri';

const SENT = 'http://localhost:5173/callback';
const kinds = (sent: string, registered: string) =>
	redirectUriDifferences(sent, registered)?.map((d) => d.kind);
/** One sentence: a capital, one full stop at the end, none inside but in a URI or a number. */
const oneSentence = (s: string) => {
	expect(s).toMatch(/^[A-Z].*\.$/s);
	expect(
		s
			.replace(/`[^`]*`/g, 'U')
			.replace(/§[\d.]+/g, 'S')
			.slice(0, -1)
	).not.toMatch(/\.\s/);
};

describe('each near miss is named, with the registered URI and the fix', () => {
	const cases: [name: string, registered: string, kind: string, words: RegExp][] = [
		[
			'trailing slash',
			`${SENT}/`,
			'trailing-slash',
			/registered with a trailing slash: `http:\/\/localhost:5173\/callback\/`/
		],
		[
			'http against https',
			'https://localhost:5173/callback',
			'scheme',
			/registered with https instead of http: `https:/
		],
		[
			'localhost against 127.0.0.1',
			'http://127.0.0.1:5173/callback',
			'loopback',
			/registered with 127\.0\.0\.1 instead of localhost: `http:\/\/127\.0\.0\.1:5173\/callback`/
		],
		[
			'localhost against [::1]',
			'http://[::1]:5173/callback',
			'loopback',
			/with \[::1\] instead of localhost/
		],
		[
			'another port',
			'http://localhost:8080/callback',
			'port',
			/registered on port 8080 instead of 5173/
		],
		[
			'a case difference in the path',
			'http://localhost:5173/Callback',
			'path-case',
			/path in another case, `\/Callback` instead of `\/callback`/
		],
		[
			'an encoded character',
			'http://localhost:5173/call%62ack',
			'encoding',
			/encoded differently, `%62` where `b` was sent/
		],
		[
			'a query string on the registered side',
			`${SENT}?app=1`,
			'query',
			/registered with the query string `\?app=1`/
		],
		[
			'a fragment on the registered side',
			`${SENT}#top`,
			'fragment',
			/registered with the fragment `#top`/
		],
		[
			'another host',
			'http://example.test:5173/callback',
			'host',
			/for another host, example\.test instead of localhost/
		],
		[
			'another path',
			'http://localhost:5173/oauth/done',
			'path',
			/another path, `\/oauth\/done` instead of `\/callback`/
		]
	];
	test.each(cases)('%s', (_, registered, kind, words) => {
		expect(kinds(SENT, registered)).toEqual([kind]);
		const sentence = explainRedirectMismatch(SENT, registered);
		expect(sentence).toMatch(words);
		expect(sentence).toContain(`add \`${SENT}\` to the registration`);
		oneSentence(sentence);
	});

	test('the trailing slash the other way round: registered without it', () => {
		const s = explainRedirectMismatch(`${SENT}/`, SENT);
		expect(s).toMatch(
			/registered without the trailing slash: `http:\/\/localhost:5173\/callback`;/
		);
	});

	test('a query string or fragment on the sent side only', () => {
		expect(explainRedirectMismatch(`${SENT}?a=1`, SENT)).toMatch(
			/without the query string `\?a=1`/
		);
		expect(explainRedirectMismatch(`${SENT}#x`, SENT)).toMatch(/without the fragment `#x`/);
		expect(explainRedirectMismatch(`${SENT}?a=1`, `${SENT}?a=2`)).toMatch(
			/another query string, `\?a=2` instead of `\?a=1`/
		);
	});

	test('the default port written out, on either side, is its own near miss (not "another port")', () => {
		expect(kinds('https://app.test/cb', 'https://app.test:443/cb')).toEqual(['default-port']);
		expect(explainRedirectMismatch('https://app.test/cb', 'https://app.test:443/cb')).toMatch(
			/registered with the default port `:443` written out: `https:\/\/app\.test:443\/cb`/
		);
		expect(explainRedirectMismatch('http://app.test:80/cb', 'http://app.test/cb')).toMatch(
			/registered without the default port `:80`/
		);
		// A port that is not the scheme's default is another port, the default named when implicit.
		expect(explainRedirectMismatch('https://app.test/cb', 'https://app.test:8443/cb')).toMatch(
			/on port 8443 instead of 443/
		);
	});

	test('encoded characters: %2F against /, %7E against ~, and the case of the hex digits', () => {
		expect(explainRedirectMismatch('https://app.test/a%2Fb', 'https://app.test/a/b')).toMatch(
			/`\/` where `%2F` was sent/
		);
		expect(explainRedirectMismatch('https://app.test/~me', 'https://app.test/%7Eme')).toMatch(
			/`%7E` where `~` was sent/
		);
		expect(kinds('https://app.test/%7eme', 'https://app.test/%7Eme')).toEqual(['encoding']);
		expect(kinds('https://app.test/cb?x=a%20b', 'https://app.test/cb?x=a b')).toEqual(['encoding']);
		// A multi-byte character, percent-encoded on one side only.
		expect(explainRedirectMismatch('https://app.test/café', 'https://app.test/caf%C3%A9')).toMatch(
			/`%C3%A9` where `é` was sent/
		);
	});

	test('host case alone is no difference by RFC 3986, and the sentence says so', () => {
		expect(kinds(SENT, 'http://LocalHost:5173/callback')).toEqual(['host-case']);
		const s = explainRedirectMismatch(SENT, 'http://LocalHost:5173/callback');
		expect(s).toMatch(/^The only difference is the case of the host/);
		expect(s).toMatch(/RFC 3986 §6\.2\.2\.1 counts as no difference/);
		expect(s).toMatch(/send `http:\/\/LocalHost:5173\/callback` exactly as registered/);
		oneSentence(s);
		expect(explainRedirectMismatch('HTTP://app.test/cb', 'http://app.test/cb')).toMatch(
			/case of the scheme/
		);
		// With another difference, the host's case is one item of the list.
		expect(kinds(SENT, 'http://LocalHost:5173/callback/')).toEqual(['host-case', 'trailing-slash']);
	});

	test('several near misses at once are all named, in one sentence', () => {
		const registered = 'https://127.0.0.1:5173/Callback/';
		expect(kinds(SENT, registered)).toEqual(['scheme', 'loopback', 'trailing-slash', 'path-case']);
		const s = explainRedirectMismatch(SENT, registered);
		expect(s).toMatch(
			/registered with https instead of http, with 127\.0\.0\.1 instead of localhost, with a trailing slash and with the path in another case/
		);
		oneSentence(s);
	});

	test('the same string is not a near miss: the registration itself holds another one', () => {
		expect(kinds(SENT, SENT)).toEqual([]);
		expect(explainRedirectMismatch(SENT, SENT)).toMatch(
			/exactly the one in the setup’s “Redirect URI as registered”.*check the registration of this client id/
		);
	});

	test('a registered value that is not an absolute URI cannot be compared part by part', () => {
		expect(redirectUriDifferences(SENT, 'com.example.app:/cb')).toBeUndefined();
		expect(explainRedirectMismatch(SENT, 'com.example.app:/cb')).toMatch(/cannot be compared/);
	});

	test("loopback near miss of the playground's own callback: open the playground on the registered host", () => {
		const s = explainRedirectMismatch(SENT, 'http://127.0.0.1:5173/callback', {
			callbackUrl: SENT,
			source: 'sandbox'
		});
		expect(s).toBe(
			'The sandbox registered it with 127.0.0.1 instead of localhost: `http://127.0.0.1:5173/callback`; open the playground at `http://127.0.0.1:5173` so that it sends that one, or add `http://localhost:5173/callback` to the registration.'
		);
		// Any other URI sent: send the registered one.
		expect(
			explainRedirectMismatch('http://localhost:3000/cb', 'http://127.0.0.1:3000/cb', {
				callbackUrl: SENT
			})
		).toMatch(/; send exactly that, or add/);
	});
});

describe('edges of the comparison', () => {
	test('a slash, a case and an encoding at once: the path named decoded and without the slash', () => {
		const d = redirectUriDifferences('https://a.test/Call%7Eback/', 'https://a.test/call~back');
		expect(d).toEqual([
			{ kind: 'trailing-slash', registered: false },
			{ kind: 'path-case', sent: '/Call~back', registered: '/call~back' },
			{ kind: 'encoding', sent: '%7E', registered: '~' }
		]);
	});
	test('an escape that is no UTF-8 compares by its hex digits, in either case', () => {
		expect(redirectUriDifferences('https://a.test/%ff', 'https://a.test/%FF')).toEqual([
			{ kind: 'encoding', sent: '%ff', registered: '%FF' }
		]);
		expect(kinds('https://a.test/%FF', 'https://a.test/%FE')).toEqual(['path']);
		expect(kinds('https://a.test/a%2', 'https://a.test/a%2')).toEqual([]);
	});
	test('a fragment is compared as written, not decoded', () => {
		expect(kinds('https://a.test/cb#a%20b', 'https://a.test/cb#a b')).toEqual(['fragment']);
	});
	test('the host in another case, with another difference, is one item of the sentence', () => {
		expect(explainRedirectMismatch(SENT, 'http://LocalHost:5173/callback/')).toMatch(
			/^It was registered with the host in another case, `http:\/\/LocalHost` instead of `http:\/\/localhost` and with a trailing slash:/
		);
	});
	test('a bare origin, with or without its slash', () => {
		expect(usualSuspects('https://app.test/')[0]).toBe(
			'without the trailing slash (`https://app.test`)'
		);
		expect(usualSuspects('https://app.test')[0]).toBe(
			'with a trailing slash (`https://app.test/`)'
		);
	});
});

describe('several registered URIs: the nearest is compared', () => {
	test('the nearest, by what differs', () => {
		const list = [
			'http://localhost:5173/sandbox/landing',
			'http://127.0.0.1:5173/callback',
			'https://localhost:5173/callback/'
		];
		expect(nearestRegistered(SENT, list)).toBe('http://127.0.0.1:5173/callback');
		expect(nearestRegistered(SENT, [])).toBeUndefined();
		expect(explainRedirectMismatch(SENT, list)).toMatch(/with 127\.0\.0\.1 instead of localhost/);
	});
});

describe('without a registered value: the usual suspects of the URI sent', () => {
	test('for a loopback callback: trailing slash, https, both twins, the port, the case, another client', () => {
		expect(usualSuspects(SENT)).toEqual([
			'with a trailing slash (`http://localhost:5173/callback/`)',
			'with https (`https://localhost:5173/callback`)',
			'with 127.0.0.1 instead of localhost (`http://127.0.0.1:5173/callback`)',
			'with [::1] instead of localhost (`http://[::1]:5173/callback`)',
			'on another port, or none (`http://localhost/callback`)',
			'with capital letters in the path (`http://localhost:5173/Callback`)',
			'for another client id, or in another environment of the service (test or production)'
		]);
	});

	test('specific to the URI: https with a slash, capitals, an escape and a query', () => {
		expect(usualSuspects('https://app.test/OAuth/done/?x=%2F')).toEqual([
			'without the trailing slash (`https://app.test/OAuth/done?x=%2F`)',
			'with http (`http://app.test/OAuth/done/?x=%2F`)',
			'with the default port written out (`https://app.test:443/OAuth/done/?x=%2F`)',
			'with the path in lower case (`https://app.test/oauth/done/?x=%2F`)',
			'with `%2F` written as `/` (`https://app.test/OAuth/done/?x=/`)',
			'without the query string (`https://app.test/OAuth/done/`)',
			'for another client id, or in another environment of the service (test or production)'
		]);
	});

	test('a default port written out, and a character often encoded', () => {
		const list = usualSuspects('https://app.test:443/~me/cb');
		expect(list).toContain('without the default port (`https://app.test/~me/cb`)');
		expect(list).toContain('with `~` encoded as `%7E` (`https://app.test:443/%7Eme/cb`)');
		expect(list.some((s) => s.includes('127.0.0.1'))).toBe(false);
	});

	test('the fix: one sentence naming the URI sent and listing them', () => {
		const s = redirectUriFix(SENT, undefined);
		expect(s).toMatch(/^Nothing is entered under “Redirect URI as registered”/);
		expect(s).toContain('`http://localhost:5173/callback`');
		expect(s).toContain('with 127.0.0.1 instead of localhost (`http://127.0.0.1:5173/callback`)');
		oneSentence(s);
		// An empty field is no registered value.
		expect(redirectUriFix(SENT, '')).toBe(s);
		expect(redirectUriFix(SENT, [])).toBe(s);
	});

	test('with a registered value the fix names the difference; with no URI sent, the general rule', () => {
		expect(redirectUriFix(SENT, `${SENT}/`)).toMatch(/^It was registered with a trailing slash/);
		expect(redirectUriFix(undefined, `${SENT}/`)).toMatch(/^Register this exact redirect URI/);
		expect(usualSuspects('not a uri')).toEqual([]);
	});
});
