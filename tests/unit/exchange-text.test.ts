/**
 * The small helpers on an Exchange's raw text (exchange/text.ts, raw.ts, types.ts, rate-limit-headers.ts):
 * each one on its edges, since the exports, the import and the redaction all read through them.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
	bearerToken,
	decodeBase64Utf8,
	formDecode,
	formFields,
	isFormBody,
	jsonObject,
	mapFormFields,
	parseJson,
	placeholder,
	queryFields,
	splitPair,
	splitUrl,
	utf8Length
} from '$lib/exchange/text';
import {
	exchangeTitle,
	keyHeaders,
	prettyJson,
	requestHead,
	requestTarget,
	responseHead
} from '$lib/exchange/raw';
import { exchangeNumbers, headerValue, statusLine, type Exchange } from '$lib/exchange/types';
import { STEPS, type Step } from '$lib/steps/registry';
import { rateLimits } from '$lib/exchange/rate-limit-headers';

describe('utf8Length', () => {
	test.each([
		['', 0],
		['a', 1],
		['\u007f', 1],
		['\u0080', 2],
		['é', 2],
		['\u07ff', 2],
		['\u0800', 3],
		['€', 3],
		['\ud7ff', 3],
		['\ue000', 3],
		['😀', 4],
		['\ud800\udc00', 4],
		['\udbff\udfff', 4],
		['\ud800', 3],
		['\udbff', 3],
		['\udc00', 3],
		['\ud800a', 4],
		['\ud800\udbff', 6],
		['\ud800\ue000', 6],
		['\udc00\udc00', 6],
		['a😀b€', 9]
	])('%j is %i bytes', (s, n) => {
		expect(utf8Length(s)).toBe(n);
	});

	test('counts what Buffer encodes, lone surrogates included', () => {
		const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
		fc.assert(
			fc.property(fc.string({ unit, maxLength: 20 }), (s) => {
				expect(utf8Length(s)).toBe(Buffer.byteLength(s, 'utf8'));
			})
		);
	});
});

describe('form text', () => {
	test('formDecode turns every + into a space and decodes percent-escapes', () => {
		expect(formDecode('a+b+c%2B%20d')).toBe('a b c+ d');
	});

	test('formDecode keeps text that is not valid percent-encoding as it was', () => {
		expect(formDecode('a+%zz')).toBe('a+%zz');
		expect(formDecode('100%')).toBe('100%');
	});

	test('splitPair splits at the first = only, and gives an empty value without one', () => {
		expect(splitPair('a=b=c')).toEqual(['a', 'b=c']);
		expect(splitPair('a')).toEqual(['a', '']);
		expect(splitPair('=x')).toEqual(['', 'x']);
		expect(splitPair('a=')).toEqual(['a', '']);
	});

	test('formFields decodes each pair and drops empty pieces', () => {
		expect(formFields('')).toEqual([]);
		expect(formFields('a+b=c%20d&&e&=f')).toEqual([
			['a b', 'c d'],
			['e', ''],
			['', 'f']
		]);
	});

	test('mapFormFields replaces only the values the function returns, byte for byte elsewhere', () => {
		const text = 'grant_type=x&client%5Fsecret=s%20t&a+b=1&bare';
		const seen: [string, string][] = [];
		const out = mapFormFields(text, (n, v) => {
			seen.push([n, v]);
			return n === 'client_secret' ? 'NEW' : undefined;
		});
		expect(seen).toEqual([
			['grant_type', 'x'],
			['client_secret', 's t'],
			['a b', '1'],
			['bare', '']
		]);
		expect(out).toEqual({ text: 'grant_type=x&client%5Fsecret=NEW&a+b=1&bare', changed: true });
	});

	test('mapFormFields reports no change when the function returns nothing', () => {
		expect(mapFormFields('a=1&b=2', () => undefined)).toEqual({ text: 'a=1&b=2', changed: false });
	});

	test('mapFormFields adds the = a bare name lacked when it sets its value', () => {
		expect(mapFormFields('a&b=2', (n) => (n === 'a' ? 'v' : undefined))).toEqual({
			text: 'a=v&b=2',
			changed: true
		});
	});
});

describe('splitUrl and queryFields', () => {
	test('splits base, query and fragment on the raw text', () => {
		expect(splitUrl('https://h/p?a=1&b=%20#f?x')).toEqual({
			base: 'https://h/p',
			query: 'a=1&b=%20',
			hash: '#f?x'
		});
		expect(splitUrl('https://h/p#f?x')).toEqual({
			base: 'https://h/p',
			query: undefined,
			hash: '#f?x'
		});
		expect(splitUrl('https://h/p')).toEqual({ base: 'https://h/p', query: undefined, hash: '' });
		expect(splitUrl('https://h/p?')).toEqual({ base: 'https://h/p', query: '', hash: '' });
	});

	test('a query or fragment right at the start is one too', () => {
		expect(splitUrl('?a=1')).toEqual({ base: '', query: 'a=1', hash: '' });
		expect(splitUrl('#a?b')).toEqual({ base: '', query: undefined, hash: '#a?b' });
	});

	test('queryFields reads the query only, never the fragment', () => {
		expect(queryFields('https://h/p')).toEqual([]);
		expect(queryFields('https://h/p?')).toEqual([]);
		expect(queryFields('https://h/p?a=1&b=x+y#c=2')).toEqual([
			['a', '1'],
			['b', 'x y']
		]);
	});
});

describe('isFormBody', () => {
	const ct = (v: string): [string, string][] => [['content-type', v]];

	test('an empty body is never a form', () => {
		expect(isFormBody(ct('application/x-www-form-urlencoded'), '')).toBe(false);
		expect(isFormBody([], '')).toBe(false);
	});

	test('a Content-Type decides when there is one', () => {
		expect(isFormBody(ct('application/x-www-form-urlencoded'), '{"a":1}')).toBe(true);
		expect(isFormBody(ct('  Application/X-WWW-Form-Urlencoded;charset=UTF-8'), 'a=1')).toBe(true);
		expect(isFormBody(ct('text/plain'), 'a=1')).toBe(false);
		expect(isFormBody(ct('application/x-www-form-urlencodedx'), 'a=1')).toBe(false);
		expect(isFormBody(ct('xapplication/x-www-form-urlencoded'), 'a=1')).toBe(false);
	});

	test('without one, the body must look like name=value pairs', () => {
		expect(isFormBody([], 'a=1&b=2')).toBe(true);
		expect(isFormBody([], 'grant_type=refresh_token&refresh_token=r')).toBe(true);
		expect(isFormBody([], 'a=')).toBe(true);
		expect(isFormBody([], 'abc')).toBe(false);
		expect(isFormBody([], '=abc')).toBe(false);
		expect(isFormBody([], 'a=b c')).toBe(false);
		expect(isFormBody([], 'a b=c')).toBe(false);
		expect(isFormBody([], '{"a":"="}')).toBe(false);
		expect(isFormBody([], '<a>=1')).toBe(false);
		expect(isFormBody([], '["a=1"]')).toBe(false);
		expect(isFormBody([], '"a"=1')).toBe(false);
		expect(isFormBody([], 'a=1\n')).toBe(false);
	});
});

describe('parseJson', () => {
	test('reads objects and arrays, around white space', () => {
		expect(parseJson(' {"a":1}\n')).toEqual({ a: 1 });
		expect(parseJson('[1,2]')).toEqual([1, 2]);
	});

	test('anything else is not JSON here, even a valid JSON scalar', () => {
		for (const t of ['', '   ', '1', 'true', '"x"', 'null', '{bad', '[1,'])
			expect(parseJson(t)).toBeUndefined();
	});
});

describe('decodeBase64Utf8', () => {
	test('decodes standard and URL-safe base64 to UTF-8 text, ignoring white space', () => {
		expect(decodeBase64Utf8('aGk=')).toBe('hi');
		expect(decodeBase64Utf8('w6k=')).toBe('é');
		expect(decodeBase64Utf8('Pz8/Pz8/')).toBe('??????');
		expect(decodeBase64Utf8('Pz8_Pz8_')).toBe('??????');
		expect(decodeBase64Utf8('Pj4+Pj4+')).toBe('>>>>>>');
		expect(decodeBase64Utf8('Pj4-Pj4-')).toBe('>>>>>>');
		expect(decodeBase64Utf8(' aG\nk= \t')).toBe('hi');
		expect(decodeBase64Utf8('a G k =')).toBe('hi');
	});

	test('is undefined for text that is not base64', () => {
		expect(decodeBase64Utf8('!!!')).toBeUndefined();
		expect(decodeBase64Utf8('a')).toBeUndefined();
	});
});

test('placeholder: the whole value is one <…> with no other angle bracket', () => {
	expect(placeholder('<session cookie, not shown>')).toBe(true);
	expect(placeholder('<>')).toBe(true);
	expect(placeholder('<a<b>')).toBe(false);
	expect(placeholder('<a>b>')).toBe(false);
	expect(placeholder('x<y>')).toBe(false);
	expect(placeholder('<y>x')).toBe(false);
	expect(placeholder('<y')).toBe(false);
	expect(placeholder('y>')).toBe(false);
});

describe('raw HTTP text', () => {
	test('requestTarget is the path and query, without the fragment', () => {
		expect(requestTarget('https://h.test:8443/a/b?x=1&y#frag')).toBe('/a/b?x=1&y');
		expect(requestTarget('https://h.test')).toBe('/');
	});

	test('requestTarget takes the path and query as written: an export’s placeholder is not percent-encoded', () => {
		expect(requestTarget('https://h.test/cb?code=eyJh…wxyz <48 chars>&s=1')).toBe(
			'/cb?code=eyJh…wxyz <48 chars>&s=1'
		);
		expect(requestTarget('https://h.test?x=1')).toBe('/?x=1');
		expect(requestTarget('HTTPS://User@H.test:8443/A?b#c')).toBe('/A?b');
	});

	test('requestTarget keeps text that is not a URL as it is', () => {
		expect(requestTarget('/relative?x=1')).toBe('/relative?x=1');
		// An origin's shape, but no URL: the port is out of range.
		expect(requestTarget('https://h.test:99999/a?x=1')).toBe('https://h.test:99999/a?x=1');
	});

	test('jsonObject: a JSON object, and nothing else', () => {
		expect(jsonObject('{"a":1}')).toEqual({ a: 1 });
		for (const text of ['null', '[1]', '"s"', '4', 'true', 'not json', ''])
			expect(jsonObject(text), text).toBeUndefined();
	});

	test('bearerToken: the token of a Bearer value, split from the scheme and the blanks around it', () => {
		expect(bearerToken('Bearer abc')).toEqual({ lead: 'Bearer ', token: 'abc', trail: '' });
		expect(bearerToken(' bearer\ta b \t')).toEqual({
			lead: ' bearer\t',
			token: 'a b',
			trail: ' \t'
		});
		for (const value of ['MyBearer abc', 'Bearer ', 'Bearer', 'Basic abc', 'Bearerabc'])
			expect(bearerToken(value), value).toBeUndefined();
	});

	test('requestHead and responseHead: the first line, then each header in order and case', () => {
		expect(
			requestHead({
				method: 'POST',
				url: 'https://h.test/oauth2/token?a=1',
				httpVersion: '1.1',
				headers: [
					['Content-Type', 'application/x-www-form-urlencoded'],
					['accept', 'application/json']
				],
				body: 'x=1'
			})
		).toBe(
			'POST /oauth2/token?a=1 HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\naccept: application/json'
		);
		expect(
			responseHead({
				status: 204,
				statusText: '',
				httpVersion: '2',
				headers: [['X-A', '1']],
				body: '',
				truncated: false
			})
		).toBe('HTTP/2 204\nX-A: 1');
		expect(
			responseHead({
				status: 200,
				statusText: 'OK',
				httpVersion: '1.1',
				headers: [],
				body: '',
				truncated: false
			})
		).toBe('HTTP/1.1 200 OK');
	});

	test('prettyJson indents JSON objects and arrays by two spaces, and leaves the rest', () => {
		expect(prettyJson(' {"a":[1]} ')).toBe('{\n  "a": [\n    1\n  ]\n}');
		expect(prettyJson('[true]')).toBe('[\n  true\n]');
		for (const t of ['', '  ', '1', '"x"', 'true', '{bad', 'a=1'])
			expect(prettyJson(t)).toBeUndefined();
	});

	test('exchangeTitle writes the running number as "#n", never the step’s number', () => {
		const ex = (step: Step) => ({ step }) as Exchange;
		expect(exchangeTitle(ex('refresh'), 4)).toBe('#4 Refresh');
		expect(exchangeTitle(ex('check'), 1)).toBe(`#1 ${STEPS.check.title}`);
		expect(exchangeTitle(ex('exchange'))).toBe(STEPS.exchange.title);
	});

	test('keyHeaders keeps the headers that matter, in the order received; caching only on token answers', () => {
		const headers: [string, string][] = [
			['x-content-type-options', 'nosniff'],
			['Cache-Control', 'no-store'],
			['content-type', 'application/json'],
			['X-Reader-Zone1-Usage', '3'],
			['X-Reader-Zone1-Limit', '100'],
			['x-reader-limits-reset-after', '600'],
			['RateLimit-Remaining', '9'],
			['Retry-After', '5'],
			['WWW-Authenticate', 'Bearer error="invalid_token"'],
			['Location', '/x'],
			['Pragma', 'no-cache'],
			['content-security-policy', "default-src 'none'"],
			['Date', 'Sat, 28 Nov 2026 05:00:00 GMT'],
			// Whole names only: none of these is one of the above.
			['X-Content-Type', 'x'],
			['Content-Type-Hint', 'x'],
			['X-Reader-Zone3-Usage', 'x'],
			['X-Reader-Zone1-Usage-Peak', 'x'],
			['X-RateLimit-', 'x'],
			['Surrogate-Cache-Control', 'x'],
			['Pragma-Directive', 'x']
		];
		const names = (step: Step) => keyHeaders(headers, step).map(([n]) => n);
		const always = [
			'content-type',
			'X-Reader-Zone1-Usage',
			'X-Reader-Zone1-Limit',
			'x-reader-limits-reset-after',
			'RateLimit-Remaining',
			'Retry-After',
			'WWW-Authenticate',
			'Location'
		];
		expect(names('userinfo')).toEqual(always);
		expect(names('api')).toEqual(always);
		for (const step of ['exchange', 'refresh'] as const)
			expect(names(step)).toEqual(['Cache-Control', ...always, 'Pragma']);
	});

	test('exchangeNumbers counts from 1 in the order of the list', () => {
		const list = ['a', 'b', 'c'].map((id) => ({ id }) as Exchange);
		expect([...exchangeNumbers(list)]).toEqual([
			['a', 1],
			['b', 2],
			['c', 3]
		]);
	});
});

describe('types', () => {
	test('the steps are numbered 1 to 6 in the order of the flow, and the check has no number', () => {
		expect(
			(['consent', 'callback', 'exchange', 'userinfo', 'refresh', 'api'] as const).map(
				(s) => STEPS[s].n
			)
		).toEqual([1, 2, 3, 4, 5, 6]);
		expect(STEPS.check.n).toBeUndefined();
		expect(STEPS.check.heading).toBeUndefined();
		for (const s of Object.values(STEPS)) expect(s.title).not.toBe('');
	});

	test('statusLine adds the reason phrase only when there is one', () => {
		expect(statusLine({ status: 200, statusText: 'OK' })).toBe('200 OK');
		expect(statusLine({ status: 204, statusText: '' })).toBe('204');
	});

	test('headerValue: the first header of that name, whatever the case', () => {
		const h: [string, string][] = [
			['x-a', '1'],
			['X-B', '2'],
			['x-b', '3']
		];
		expect(headerValue(h, 'X-A')).toBe('1');
		expect(headerValue(h, 'x-b')).toBe('2');
		expect(headerValue(h, 'x-c')).toBeUndefined();
	});
});

describe('rateLimits', () => {
	test('a zone counts only with both its usage and its limit', () => {
		expect(
			rateLimits([
				['X-Reader-Zone1-Usage', '3'],
				['x-reader-zone1-limit', ' 100 '],
				['X-Reader-Zone2-Usage', '7']
			])
		).toStrictEqual({ zones: [{ zone: 1, usage: 3, limit: 100 }], resetAfter: undefined });
		expect(
			rateLimits([
				['X-Reader-Zone2-Usage', '12'],
				['X-Reader-Zone2-Limit', '50'],
				['X-Reader-Zone1-Limit', '100'],
				['X-Reader-Limits-Reset-After', '60']
			])
		).toStrictEqual({ zones: [{ zone: 2, usage: 12, limit: 50 }], resetAfter: 60 });
	});

	test('both zones, in order', () => {
		expect(
			rateLimits([
				['X-Reader-Zone2-Usage', '1'],
				['X-Reader-Zone2-Limit', '2'],
				['X-Reader-Zone1-Usage', '3'],
				['X-Reader-Zone1-Limit', '4']
			])?.zones
		).toEqual([
			{ zone: 1, usage: 3, limit: 4 },
			{ zone: 2, usage: 1, limit: 2 }
		]);
	});

	test('the reset alone is enough', () => {
		expect(rateLimits([['X-Reader-Limits-Reset-After', '30']])).toStrictEqual({
			zones: [],
			resetAfter: 30
		});
	});

	test('none of the headers, or none a whole number: no rate limits', () => {
		expect(rateLimits([['Content-Type', 'text/plain']])).toBeUndefined();
		for (const bad of ['', ' ', '1.5', '-1', 'abc', '12a', 'a12', '1 2', '0x10'])
			expect(
				rateLimits([
					['X-Reader-Zone1-Usage', bad],
					['X-Reader-Zone1-Limit', '10'],
					['X-Reader-Limits-Reset-After', bad]
				]),
				bad
			).toBeUndefined();
	});

	test('whole numbers of one or more digits, white space around them allowed', () => {
		expect(
			rateLimits([
				['X-Reader-Zone1-Usage', '12'],
				['X-Reader-Zone1-Limit', '\t345 '],
				['X-Reader-Limits-Reset-After', '0']
			])
		).toStrictEqual({ zones: [{ zone: 1, usage: 12, limit: 345 }], resetAfter: 0 });
	});
});
