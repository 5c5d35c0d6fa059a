/**
 * Redirect-URI near misses (oauth/redirect-uri.ts), the finer edges: what counts as a URI, how
 * escapes are read, which near miss is named when several fixes would do, and that every usual
 * suspect is a real variant of the URI sent.
 */
import { describe, expect, test } from 'vitest';
import {
	encodingExample,
	explainRedirectMismatch,
	nearestRegistered,
	redirectUriDifferences,
	redirectUriFix,
	usualSuspects
} from '$lib/oauth/redirect-uri';

const diff = (sent: string, registered: string) =>
	redirectUriDifferences(`http://h${sent}`, `http://h${registered}`);

describe('what is compared', () => {
	test('text before the scheme makes it no absolute URI: not compared part by part', () => {
		expect(
			redirectUriDifferences('see http://localhost/cb', 'http://localhost/cb')
		).toBeUndefined();
	});
	test('userinfo is not part of the host: localhost against 127.0.0.1 stays a loopback near miss', () => {
		expect(redirectUriDifferences('http://ab@localhost/cb', 'http://ab@127.0.0.1/cb')).toEqual([
			{ kind: 'loopback', sent: 'localhost', registered: '127.0.0.1' }
		]);
	});
	test('the default port written in the URI sent', () => {
		expect(redirectUriDifferences('https://h:443/cb', 'https://h/cb')).toEqual([
			{ kind: 'default-port', port: '443', writtenIn: 'sent' }
		]);
	});
});

describe('escapes', () => {
	test('an emoji encoded against written: the example is the whole character, not half of it', () => {
		expect(diff('/%F0%9F%98%80', '/😀')).toEqual([
			{ kind: 'encoding', sent: '%F0%9F%98%80', registered: '😀' }
		]);
	});
	test('the example is one character, the escape that differs, not an escape both share', () => {
		expect(diff('/a%7E%7E', '/a~~')).toEqual([{ kind: 'encoding', sent: '%7E', registered: '~' }]);
		expect(diff('/%41%7E', '/%41~')).toEqual([{ kind: 'encoding', sent: '%7E', registered: '~' }]);
	});
	test('a percent sign with one hex digit is no escape: its letter case is a path case difference', () => {
		expect(diff('/a%7g', '/a%7G')).toEqual([
			{ kind: 'path-case', sent: '/a%7g', registered: '/a%7G' }
		]);
	});
	test('an escape that is no UTF-8 is shown with upper-case hex digits next to a path case difference', () => {
		expect(diff('/A%ff', '/a%ff')).toEqual([
			{ kind: 'path-case', sent: '/A%FF', registered: '/a%FF' }
		]);
	});
});

describe('which near miss is named', () => {
	test('a trailing slash and an encoding: both, and no case difference', () => {
		expect(diff('/a%7E/', '/a~')).toEqual([
			{ kind: 'trailing-slash', registered: false },
			{ kind: 'encoding', sent: '%7E', registered: '~' }
		]);
	});
	test('a case and an encoding: both, and no trailing slash; the registered path named decoded', () => {
		expect(diff('/A%7E', '/a~')).toEqual([
			{ kind: 'path-case', sent: '/A~', registered: '/a~' },
			{ kind: 'encoding', sent: '%7E', registered: '~' }
		]);
		expect(diff('/A~', '/a%7E')).toEqual([
			{ kind: 'path-case', sent: '/A~', registered: '/a~' },
			{ kind: 'encoding', sent: '~', registered: '%7E' }
		]);
	});
	test('a slash and a case: the case difference named without the slash on either side', () => {
		expect(diff('/Cb', '/cb/')).toEqual([
			{ kind: 'trailing-slash', registered: true },
			{ kind: 'path-case', sent: '/Cb', registered: '/cb' }
		]);
	});
	test('ß against ss is another path, not a case difference', () => {
		expect(diff('/straße', '/strasse')).toEqual([
			{ kind: 'path', sent: '/straße', registered: '/strasse' }
		]);
	});
	test('of registered URIs equally near, the first is compared', () => {
		const sent = 'http://localhost/cb';
		const slash = 'http://localhost/cb/';
		const fragment = 'http://localhost/cb#x';
		expect(nearestRegistered(sent, [slash, fragment])).toBe(slash);
		expect(nearestRegistered(sent, [fragment, slash])).toBe(fragment);
	});
});

describe('the sentence', () => {
	test('no registered URI in the list: the usual suspects of the URI sent', () => {
		const sentence = explainRedirectMismatch('http://localhost:5173/callback', []);
		expect(sentence).toBe(redirectUriFix('http://localhost:5173/callback', undefined));
		expect(sentence).toContain('`http://localhost:5173/callback/`');
	});
	test("the sandbox's registration is named as the place that holds the URI, not the setup's field", () => {
		const sent = 'http://localhost:5173/callback';
		const sandbox = explainRedirectMismatch(sent, sent, { source: 'sandbox' });
		const setup = explainRedirectMismatch(sent, sent);
		expect(sandbox).toContain('sandbox');
		expect(setup).not.toContain('sandbox');
		const notComparable = explainRedirectMismatch(sent, 'callback', { source: 'sandbox' });
		expect(notComparable).toContain('sandbox');
	});
	test('a loopback near miss with another one too: the fix is not to open the playground on the other host', () => {
		const sent = 'http://localhost:5173/callback';
		const s = explainRedirectMismatch(sent, 'http://127.0.0.1:5173/callback/', {
			callbackUrl: sent
		});
		expect(s).toContain('`http://127.0.0.1:5173/callback/`');
		expect(s).not.toContain('`http://127.0.0.1:5173`');
	});
	test('a URI sent that is no absolute URI, with nothing registered: the general rule', () => {
		expect(redirectUriFix('callback', undefined)).toBe(redirectUriFix(undefined, undefined));
	});
});

describe('usual suspects', () => {
	test.each([
		'com.example.app://cb/123',
		'http://localhost:5173/123',
		'http://localhost/a%FF',
		'myapp://host:7/x',
		'http://h'
	])('none of them is %s itself, and each is a URI in backquotes', (sent) => {
		const list = usualSuspects(sent);
		expect(list.length).toBeGreaterThan(1);
		for (const s of list) expect(s).not.toContain(`\`${sent}\``);
	});
	test('a custom scheme gets no http or https variant', () => {
		const list = usualSuspects('com.example.app://cb/x').join(' ');
		expect(list).not.toContain('`http://');
		expect(list).not.toContain('`https://');
	});
	test('the fragment is kept in every variant', () => {
		const list = usualSuspects('http://localhost:5173/cb#x');
		expect(list).toContain('with a trailing slash (`http://localhost:5173/cb/#x`)');
		for (const s of list.slice(0, -1)) expect(s).toMatch(/#x`\)$/);
	});
	test('an escape in the path, with no query: written as its character', () => {
		expect(usualSuspects('http://localhost/a%7Eb').join(' ')).toContain('`http://localhost/a~b`');
	});
	test.each([
		[':', '%3A'],
		['@', '%40'],
		[' ', '%20'],
		['~', '%7E']
	])('%j in the path: the variant with it encoded as %s', (c, escape) => {
		expect(usualSuspects(`http://localhost/a${c}b`).join(' ')).toContain(
			`\`http://localhost/a${escape}b\``
		);
	});
});

describe('user information and spelling', () => {
	test('user information before the host is a difference: added, dropped or changed', () => {
		expect(redirectUriDifferences('http://u@h/cb', 'http://h/cb')).toEqual([
			{ kind: 'userinfo', sent: 'u', registered: undefined }
		]);
		expect(redirectUriDifferences('http://h/cb', 'http://u:p@h/cb')).toEqual([
			{ kind: 'userinfo', sent: undefined, registered: 'u:p' }
		]);
		expect(redirectUriDifferences('http://a@h/cb', 'http://b@h/cb')).toEqual([
			{ kind: 'userinfo', sent: 'a', registered: 'b' }
		]);
		expect(redirectUriDifferences('http://@h/cb', 'http://h/cb')).toEqual([
			{ kind: 'userinfo', sent: '', registered: undefined }
		]);
		expect(redirectUriDifferences('http://a@h/cb', 'http://a@h/cb')).toEqual([]);
	});

	test('false alarm: a URI sent with user information is never called exactly the registered one', () => {
		for (const [sent, registered, shown] of [
			['http://u@h/cb', 'http://h/cb', '`u@`'],
			['http://h/cb', 'http://u@h/cb', '`u@`'],
			['http://a@h/cb', 'http://b@h/cb', '`b@`']
		] as const) {
			const sentence = explainRedirectMismatch(sent, registered);
			expect(sentence).toContain(shown);
			expect(sentence).not.toBe(explainRedirectMismatch(registered, registered));
		}
	});

	test('false alarm: a URI spelled differently with the same parts (an empty port) is not called the same', () => {
		const sentence = explainRedirectMismatch('http://h:/cb', 'http://h/cb');
		expect(sentence).toContain('`http://h/cb`');
		expect(sentence).toContain('`http://h:/cb`');
		expect(sentence).not.toBe(explainRedirectMismatch('http://h/cb', 'http://h/cb'));
	});
});

describe('the example of an encoding that differs', () => {
	test('the first pair of characters with an escape on either side', () => {
		expect(encodingExample('/a%7Eb%2F', '/a~b%2f')).toEqual({ sent: '%7E', registered: '~' });
		expect(encodingExample('/a~', '/a%7e')).toEqual({ sent: '~', registered: '%7e' });
	});
	test('a letter that differs in case is no example; the escape after it is', () => {
		expect(encodingExample('/A%7E', '/a~')).toEqual({ sent: '%7E', registered: '~' });
	});
	test('texts written alike, or with no escape that differs, are their own example', () => {
		expect(encodingExample('/cb', '/cb')).toEqual({ sent: '/cb', registered: '/cb' });
		expect(encodingExample('/cb', '/cb/more')).toEqual({ sent: '/cb', registered: '/cb/more' });
		expect(encodingExample('/cb/more', '/cb')).toEqual({ sent: '/cb/more', registered: '/cb' });
	});
});
