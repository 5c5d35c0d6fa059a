/**
 * The exports shorten every access, refresh and ID token unless asked not to: which places a token
 * is collected from (and which it is not), the 8-character floor, its encoded forms, and where the
 * shortened form replaces it.
 */
import { describe, expect, test } from 'vitest';
import {
	REDACTED,
	collectTokens,
	prepareForExport,
	redactTokens,
	shortenToken
} from '$lib/exchange/redact';
import type { Exchange, HeaderList } from '$lib/exchange/types';

function exchange(
	request: { url?: string; headers?: HeaderList; body?: string } = {},
	response?: { headers?: HeaderList; body?: string }
): Exchange {
	return {
		id: 't',
		step: 'exchange',
		startedAt: '2026-01-01T00:00:00Z',
		request: {
			method: 'POST',
			url: request.url ?? 'https://svc.test/oauth2/token',
			httpVersion: '1.1',
			headers: request.headers ?? [],
			body: request.body ?? ''
		},
		response: response && {
			status: 200,
			statusText: 'OK',
			httpVersion: '1.1',
			headers: response.headers ?? [],
			body: response.body ?? '',
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

const FORM: HeaderList = [['Content-Type', 'application/x-www-form-urlencoded']];
const JSON_CT: HeaderList = [['Content-Type', 'application/json']];

describe('tokens: shortened to their ends, or hidden whole when short', () => {
	test('tokens: a token of 12 characters or fewer is hidden whole, a longer one keeps 4 characters at each end', () => {
		expect(shortenToken('abcdefghijkl')).toBe('<token>');
		expect(shortenToken('abcdefghijklm')).toBe('abcd…jklm <13 chars>');
	});
});

describe('tokens: where they are collected from', () => {
	test('tokens: an Authorization: Bearer header, in either case, with blanks around the token', () => {
		for (const [name, value] of [
			['Authorization', 'Bearer at-0123456789'],
			['authorization', 'bearer at-0123456789'],
			['AUTHORIZATION', ' \tBEARER \t at-0123456789 \t']
		] as const)
			expect(collectTokens([exchange({ headers: [[name, value]] })]), value).toEqual([
				'at-0123456789'
			]);
	});

	test('tokens: no Bearer token is read from another header, another scheme, or a value of two words', () => {
		const headers: HeaderList = [
			['X-Token', 'Bearer at-not-auth-1'],
			['Authorization', 'xBearer at-not-scheme-2'],
			['Authorization', 'Bearer at-first-word-3 at-second-word-4'],
			['Authorization', `Basic ${btoa('app:password-5')}`],
			['Authorization', 'Bearer']
		];
		expect(collectTokens([exchange({ headers })])).toEqual([]);
	});

	test('tokens: the access_token, refresh_token and id_token fields of the query, a form body and JSON bodies', () => {
		const query =
			'access_token=q-access-1&refresh_token=q-refresh-2&id_token=q-idtoken-3&state=q-state-4';
		expect(collectTokens([exchange({ url: `https://svc.test/cb?${query}` })])).toEqual([
			'q-access-1',
			'q-refresh-2',
			'q-idtoken-3'
		]);
		const form =
			'access_token=f-access-1&refresh_token=f-refresh-2&id_token=f-idtoken-3&code=f-code-4';
		expect(collectTokens([exchange({ headers: FORM, body: form })])).toEqual([
			'f-access-1',
			'f-refresh-2',
			'f-idtoken-3'
		]);
		const json = (p: string) =>
			JSON.stringify({
				access_token: `${p}-access-1`,
				refresh_token: `${p}-refresh-2`,
				id_token: `${p}-idtoken-3`,
				code: `${p}-code-4`
			});
		expect(collectTokens([exchange({ headers: JSON_CT, body: json('j') })])).toEqual([
			'j-access-1',
			'j-refresh-2',
			'j-idtoken-3'
		]);
		expect(collectTokens([exchange({}, { headers: JSON_CT, body: json('r') })])).toEqual([
			'r-access-1',
			'r-refresh-2',
			'r-idtoken-3'
		]);
	});

	test('tokens: a form body is read as a form, not as JSON, and a JSON body not as a form', () => {
		const jsonAsForm = exchange({ headers: FORM, body: '{"access_token":"j-in-a-form-1"}' });
		expect(collectTokens([jsonAsForm])).toEqual([]);
		const formAsJson = exchange({ headers: JSON_CT, body: 'access_token=f-in-json-1' });
		expect(collectTokens([formAsJson])).toEqual([]);
	});

	test('tokens: only string values of 8 characters or more that are not <redacted> are tokens', () => {
		const body = JSON.stringify({
			access_token: 'abcdefgh',
			refresh_token: 'abcdefg',
			id_token: 123456789012
		});
		expect(collectTokens([exchange({}, { body })])).toEqual(['abcdefgh']);
		expect(collectTokens([exchange({}, { body: `{"access_token":"${REDACTED}"}` })])).toEqual([]);
		expect(
			collectTokens([exchange({ url: `https://svc.test/?access_token=${REDACTED}` })])
		).toEqual([]);
	});

	test('tokens: no token in a body that is not a JSON object, nor in an exchange without a response', () => {
		for (const body of ['', 'not json', '[{"access_token":"in-an-array-1"}]', '"access_token"'])
			expect(collectTokens([exchange({ body }, { body })]), body).toEqual([]);
		expect(collectTokens([exchange({ headers: JSON_CT, body: '{"x":1}' })])).toEqual([]);
	});

	test('tokens: each token is listed with its percent-encoded and form-encoded forms', () => {
		const token = 'ab/cd~ef gh!';
		const body = JSON.stringify({ access_token: token });
		expect(collectTokens([exchange({}, { body })])).toEqual([
			token,
			'ab%2Fcd~ef%20gh!',
			'ab%2Fcd%7Eef+gh%21'
		]);
	});
});

describe('codes: where an authorization code is collected from', () => {
	const FORM: HeaderList = [['Content-Type', 'application/x-www-form-urlencoded']];

	test('codes: the code of a code exchange, not a field named code in another grant', () => {
		const exchangeBody = 'grant_type=authorization_code&code=EXCHANGED1&redirect_uri=x';
		expect(collectTokens([exchange({ headers: FORM, body: exchangeBody })])).toContain(
			'EXCHANGED1'
		);
		const refresh = 'grant_type=refresh_token&code=NOTACODE01&note=authorization_code';
		expect(collectTokens([exchange({ headers: FORM, body: refresh })])).toEqual([]);
		const codeLike = 'grant_type=authorization_code&codes=NOTACODE02';
		expect(collectTokens([exchange({ headers: FORM, body: codeLike })])).toEqual([]);
	});

	test('codes: the redirect back carries one with or without a state; another address only beside a state', () => {
		const at = (step: Exchange['step'], url: string) => ({ ...exchange({ url }), step });
		expect(collectTokens([at('callback', 'https://app.test/cb?code=CALLBACK01')])).toContain(
			'CALLBACK01'
		);
		expect(collectTokens([at('api', 'https://app.test/x?code=NOSTATE001')])).toEqual([]);
		expect(collectTokens([at('api', 'https://app.test/x?code=WITHSTATE1&state=s')])).toContain(
			'WITHSTATE1'
		);
		expect(collectTokens([at('api', 'https://app.test/x?state=s&code=WITHSTATE2')])).toContain(
			'WITHSTATE2'
		);
	});

	test('codes: a Location header carries one without a state; other headers and missing responses carry none', () => {
		const located = exchange(
			{},
			{ headers: [['location', 'https://app.test/cb?code=LOCATION01']] }
		);
		expect(collectTokens([located])).toContain('LOCATION01');
		const other = exchange(
			{},
			{ headers: [['Content-Location', 'https://app.test/cb?code=NOTLOC0001&state=s']] }
		);
		expect(collectTokens([other])).toEqual([]);
		expect(collectTokens([exchange({ url: 'https://svc.test/oauth2/token' })])).toEqual([]);
	});
});

describe('tokens: where the shortened form replaces them', () => {
	const token = 'tok-0123456789-abc';
	const short = 'tok-…-abc <18 chars>';

	test('tokens: the URL, the header values, the bodies; not the header names, request line or status line', () => {
		const e = exchange(
			{
				url: `https://svc.test/?t=${token}`,
				headers: [
					[`X-${token}`, token],
					['Authorization', `Bearer ${token}`]
				],
				body: `token=${token}`
			},
			{ headers: [['X-Echo', token]], body: `{"access_token":"${token}"}` }
		);
		e.request.method = `POST${token}`;
		e.response!.statusText = `OK ${token}`;
		const out = redactTokens(e, [token]);
		expect(out.request).toEqual({
			...e.request,
			url: `https://svc.test/?t=${short}`,
			headers: [
				[`X-${token}`, short],
				['Authorization', `Bearer ${short}`]
			],
			body: `token=${short}`
		});
		expect(out.response).toEqual({
			...e.response,
			headers: [['X-Echo', short]],
			body: `{"access_token":"${short}"}`
		});
		expect(e.request.body).toBe(`token=${token}`);
	});

	test('tokens: an exchange without a response stays without one', () => {
		const out = redactTokens(exchange({ body: token }), [token]);
		expect(out.request.body).toBe(short);
		expect(out.response).toBeUndefined();
	});

	test('tokens: the longest token is replaced first, so a token inside another does not split it', () => {
		const long = 'abcdefgh-ijklmnop';
		const out = redactTokens(exchange({ body: `${long} abcdefgh` }), ['abcdefgh', long]);
		expect(out.request.body).toBe('abcd…mnop <17 chars> <token>');
	});

	test('tokens: fewer than 8 characters is no token; with none left the exchange is returned as it is', () => {
		const e = exchange({ body: 'seven77 eight888' });
		expect(redactTokens(e, ['seven77', 'eight888']).request.body).toBe('seven77 <token>');
		expect(redactTokens(e, ['seven77'])).toBe(e);
		expect(redactTokens(e, [])).toBe(e);
	});

	test('tokens: the exports shorten a token wherever it appears, in each encoded form, unless tokens are asked for', () => {
		const token = 'ab/cd~ef+gh-0123';
		const e = exchange(
			{
				url: `https://svc.test/api?token=${encodeURIComponent(token)}`,
				headers: [...FORM, ['Authorization', `Bearer ${token}`]],
				body: new URLSearchParams([['echo', token]]).toString()
			},
			{ body: `seen ${token}` }
		);
		const [out] = prepareForExport([e]);
		expect(out!.request.url).toBe('https://svc.test/api?token=ab%2…0123 <20 chars>');
		expect(out!.request.body).toBe('echo=ab%2…0123 <22 chars>');
		expect(out!.request.headers[1]).toEqual(['Authorization', 'Bearer ab/c…0123 <16 chars>']);
		expect(out!.response!.body).toBe('seen ab/c…0123 <16 chars>');
		expect(prepareForExport([e], true)).toEqual([e]);
	});
});
