import { describe, expect, test } from 'vitest';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import {
	calledBase,
	documentedEndpoints,
	isNotOAuthAnswer,
	meantBase,
	whatCameBack,
	wrongEndpointFinding
} from '$lib/oauth/wrong-endpoint';
import { diagnose } from '$lib/oauth/diagnose';

const PLAYGROUND = { origin: 'http://127.0.0.1:5173', sandbox: true };

function ex(
	step: Exchange['step'],
	url: string,
	status: number,
	body = '',
	headers: HeaderList = [],
	statusText = ''
): Exchange {
	return {
		id: 'x',
		step,
		startedAt: new Date(0).toISOString(),
		request: {
			method: step === 'exchange' || step === 'refresh' ? 'POST' : 'GET',
			url,
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: ''
		},
		response: { status, statusText, httpVersion: '1.1', headers, body, truncated: false },
		timing: { total: 1 },
		findings: []
	};
}

const HTML404 =
	'<!doctype html><html><head><title>404 Not Found</title></head><body>x</body></html>';
const html: HeaderList = [['Content-Type', 'text/html; charset=utf-8']];
const jsonType: HeaderList = [['Content-Type', 'application/json']];
const TOKEN = 'https://reader.test/oauth2/token';

describe('which answers are not OAuth', () => {
	test.each([
		['a 404 HTML page', 404, HTML404, html],
		[
			'a 403 JSON body without error',
			403,
			'{"message":"Cross-site POST form submissions are forbidden"}',
			jsonType
		],
		['a 400 text body', 400, 'Bad Request', []],
		['a 200 HTML page', 200, HTML404, html],
		['a 200 JSON array', 200, '[]', jsonType],
		['a 302 redirect', 302, '', [['Location', 'https://reader.test/login']]],
		['a 404 JSON with a non-OAuth error', 404, '{"error":"not_found"}', jsonType],
		['a 405', 405, '', []]
	] as [string, number, string, HeaderList][])(
		'token endpoint: %s is not an OAuth answer',
		(_, status, body, headers) => {
			for (const step of ['exchange', 'refresh'] as const)
				expect(isNotOAuthAnswer(ex(step, TOKEN, status, body, headers as HeaderList))).toBe(true);
		}
	);
	test.each([
		['a real invalid_grant', 400, '{"error":"invalid_grant","error_description":"used"}'],
		['invalid_client on 401', 401, '{"error":"invalid_client"}'],
		['a 200 token response', 200, '{"access_token":"a","token_type":"Bearer"}'],
		['a 200 JSON object without access_token (its own findings say so)', 200, '{"x":1}'],
		['a 500 page (the service failing where it should answer)', 500, HTML404],
		['a 503 text', 503, 'busy'],
		['a 404 carrying an OAuth error', 404, '{"error":"invalid_grant"}'],
		['a JSON object cut short (broken JSON, its own finding)', 200, '{"access_token":"a","tok'],
		['a 400 JSON object cut short', 400, ' {"error":"inv']
	] as const)('token endpoint: %s is an OAuth answer, or not this rule’s', (_, status, body) => {
		expect(isNotOAuthAnswer(ex('exchange', TOKEN, status, body, jsonType))).toBe(false);
	});
	test('an empty 401 with a challenge is the endpoint refusing the client; without one it is not', () => {
		expect(
			isNotOAuthAnswer(ex('exchange', TOKEN, 401, '', [['WWW-Authenticate', 'Basic realm="x"']]))
		).toBe(false);
		expect(isNotOAuthAnswer(ex('exchange', TOKEN, 401, '', []))).toBe(true);
	});
	test('a cut-off body, a failure, no response: no verdict', () => {
		const cut = ex('exchange', TOKEN, 200, '<html', html);
		cut.response!.truncated = true;
		expect(isNotOAuthAnswer(cut)).toBe(false);
		const failed = { ...ex('exchange', TOKEN, 404), failure: { kind: 'timeout', message: 't' } };
		expect(isNotOAuthAnswer(failed as Exchange)).toBe(false);
		expect(isNotOAuthAnswer({ ...ex('exchange', TOKEN, 404), response: undefined })).toBe(false);
	});
	test('user-info: a 404 of any kind, a redirect, an HTML page; not a JSON 401 or 403', () => {
		const ui = 'https://reader.test/reader/api/0/user-info';
		expect(isNotOAuthAnswer(ex('userinfo', ui, 404, '{"error":"not_found"}', jsonType))).toBe(true);
		expect(isNotOAuthAnswer(ex('userinfo', ui, 301, '', [['Location', 'https://x/']]))).toBe(true);
		expect(isNotOAuthAnswer(ex('userinfo', ui, 200, HTML404, html))).toBe(true);
		expect(isNotOAuthAnswer(ex('userinfo', ui, 401, '{"error":"invalid_token"}', jsonType))).toBe(
			false
		);
		expect(isNotOAuthAnswer(ex('userinfo', ui, 200, '{"userId":"1"}', jsonType))).toBe(false);
	});
	test('API: only an HTML page (the API answers an unknown path with its own JSON 404)', () => {
		const api = 'https://reader.test/reader/api/0/tag/list';
		expect(isNotOAuthAnswer(ex('api', api, 404, HTML404, html))).toBe(true);
		expect(isNotOAuthAnswer(ex('api', api, 404, '{"error":"not_found"}', jsonType))).toBe(false);
		expect(isNotOAuthAnswer(ex('api', api, 400, HTML404, html))).toBe(false);
		expect(isNotOAuthAnswer(ex('api', api, 302, '', [['Location', '/']]))).toBe(false);
	});
	test('the registration check: a 404 without an error member', () => {
		const auth = 'https://reader.test/oauth2/auth?client_id=x';
		expect(isNotOAuthAnswer(ex('check', auth, 404, HTML404, html))).toBe(true);
		expect(isNotOAuthAnswer(ex('check', auth, 404, '{"error":"invalid_client"}'))).toBe(false);
		expect(isNotOAuthAnswer(ex('check', auth, 400, 'x'))).toBe(false);
	});
});

describe('the base URL that was called, and the one probably meant', () => {
	test('the base is the URL without the documented path of the step', () => {
		expect(calledBase('exchange', 'https://r.test/api/oauth2/token')).toBe('https://r.test/api');
		expect(calledBase('userinfo', 'https://r.test/reader/api/0/user-info')).toBe('https://r.test');
		expect(calledBase('api', 'https://r.test/x/reader/api/0/tag/list?a=1')).toBe(
			'https://r.test/x'
		);
		expect(calledBase('check', 'https://r.test/oauth2/auth?client_id=a')).toBe('https://r.test');
		expect(calledBase('exchange', 'https://r.test/custom/token')).toBeUndefined();
		expect(calledBase('exchange', 'not a url')).toBeUndefined();
	});
	test('the playground’s own origin: its sandbox', () => {
		const e = ex('exchange', 'http://127.0.0.1:5173/oauth2/token', 403, '{"message":"x"}');
		expect(meantBase(e, PLAYGROUND)).toBe('http://127.0.0.1:5173/sandbox');
		expect(meantBase(e, { ...PLAYGROUND, sandbox: false })).toBeUndefined();
		expect(meantBase(e)).toBeUndefined();
		const other = ex('exchange', 'http://127.0.0.1:9999/oauth2/token', 404, HTML404, html);
		expect(meantBase(other, PLAYGROUND)).toBeUndefined();
	});
	test('a base URL that ends with an endpoint’s path: without it', () => {
		const twice = (u: string) => meantBase(ex('exchange', u, 404, HTML404, html), PLAYGROUND);
		expect(twice('https://r.test/oauth2/token/oauth2/token')).toBe('https://r.test');
		expect(twice('https://r.test/svc/reader/api/0/oauth2/token')).toBe('https://r.test/svc');
		expect(twice('https://r.test/oauth2/oauth2/token')).toBe('https://r.test');
		expect(twice('http://127.0.0.1:5173/sandbox/oauth2/token/oauth2/token')).toBe(
			'http://127.0.0.1:5173/sandbox'
		);
		const ui = ex('userinfo', 'https://r.test/reader/api/0/reader/api/0/user-info', 404);
		expect(meantBase(ui)).toBe('https://r.test');
	});
	test('a redirect: where it points', () => {
		const to = (loc: string, url = 'http://r.test/svc/oauth2/token') =>
			meantBase(ex('exchange', url, 301, '', [['Location', loc]]));
		expect(to('https://r.test/svc/oauth2/token')).toBe('https://r.test/svc');
		expect(to('https://login.r.test/sso')).toBe('https://login.r.test/svc');
		expect(to('/svc/oauth2/token/')).toBeUndefined();
		expect(to('http://[::1')).toBeUndefined();
		expect(meantBase(ex('exchange', TOKEN, 302, '', []))).toBeUndefined();
	});
	test('the documented endpoints of a base', () => {
		expect(documentedEndpoints('https://r.test/sandbox/')).toBe(
			'consent https://r.test/sandbox/oauth2/auth, token https://r.test/sandbox/oauth2/token, user-info https://r.test/sandbox/reader/api/0/user-info'
		);
	});
});

describe('what came back, in short', () => {
	test('an HTML page by its title, JSON by its members, text by its first words, a redirect by its target', () => {
		expect(whatCameBack(ex('exchange', TOKEN, 404, HTML404, html, 'Not Found'))).toBe(
			'404 Not Found, text/html; charset=utf-8, an HTML page titled "404 Not Found"'
		);
		expect(whatCameBack(ex('exchange', TOKEN, 404, '<p>gone</p>', []))).toBe(
			'404, no Content-Type, an HTML page'
		);
		expect(
			whatCameBack(
				ex(
					'exchange',
					TOKEN,
					403,
					'{"message":"Cross-site POST form submissions are forbidden"}',
					jsonType
				)
			)
		).toBe(
			'403, application/json, JSON with "message" and no "error" member: "Cross-site POST form submissions are forbidden"'
		);
		expect(whatCameBack(ex('exchange', TOKEN, 400, '{}', jsonType))).toBe(
			'400, application/json, an empty JSON object'
		);
		expect(whatCameBack(ex('exchange', TOKEN, 400, 'x'.repeat(200), []))).toBe(
			`400, no Content-Type: "${'x'.repeat(80)}…"`
		);
		expect(whatCameBack(ex('exchange', TOKEN, 400, '  ', []))).toBe(
			'400, no Content-Type, an empty body'
		);
		expect(whatCameBack(ex('exchange', TOKEN, 302, '', [['Location', 'https://x/']]))).toBe(
			'302, a redirect to https://x/'
		);
		expect(whatCameBack(ex('exchange', TOKEN, 302, '', []))).toBe(
			'302, a redirect to nowhere (no Location)'
		);
	});
});

describe('the finding', () => {
	test('the playground’s own origin: named as the playground, with the sandbox’s endpoints', () => {
		const e = ex(
			'exchange',
			'http://127.0.0.1:5173/oauth2/token',
			403,
			'{"message":"Cross-site POST form submissions are forbidden"}',
			jsonType,
			'Forbidden'
		);
		const f = wrongEndpointFinding(e, PLAYGROUND)!;
		expect(f.code).toBe('wrong-endpoint');
		expect(f.level).toBe('error');
		expect(f.message).toContain(
			"http://127.0.0.1:5173/oauth2/token is probably not the service's token endpoint (a wrong base URL or endpoint)"
		);
		expect(f.message).toContain('403 Forbidden');
		expect(f.message).toContain('this playground itself');
		expect(f.fix).toContain('probably meant to be http://127.0.0.1:5173/sandbox');
		expect(f.fix).toContain('token http://127.0.0.1:5173/sandbox/oauth2/token');
		expect(f.ref).toBe("the service's API docs §4.2");
	});
	test('the sandbox itself is not "the playground"', () => {
		const e = ex(
			'exchange',
			'http://127.0.0.1:5173/sandbox/oauth2/token/oauth2/token',
			404,
			HTML404,
			html
		);
		const f = wrongEndpointFinding(e, PLAYGROUND)!;
		expect(f.message).not.toContain('playground itself');
		expect(f.fix).toContain('probably meant to be http://127.0.0.1:5173/sandbox.');
	});
	test('no guess: the endpoints of the base that was called; a custom endpoint: the advanced field', () => {
		const f = wrongEndpointFinding(ex('refresh', TOKEN, 404, HTML404, html))!;
		expect(f.fix).toContain('For the base URL https://reader.test the documented endpoints are');
		expect(f.ref).toBe("the service's API docs §4.3");
		const custom = wrongEndpointFinding(
			ex('exchange', 'https://r.test/token', 404, HTML404, html)
		)!;
		expect(custom.fix).toContain('custom endpoint under Advanced settings');
		const ui = wrongEndpointFinding(ex('userinfo', 'https://r.test/me', 404, HTML404, html))!;
		expect(ui.message).toContain("not the service's user-info endpoint");
		expect(ui.fix).toContain('/reader/api/0/user-info');
		expect(ui.fix).not.toContain('RFC 6749');
	});
	test('no false alarm: an OAuth error and a token response get none, and keep their own findings', () => {
		const grant = ex('exchange', TOKEN, 400, '{"error":"invalid_grant"}', jsonType);
		expect(wrongEndpointFinding(grant, PLAYGROUND)).toBeUndefined();
		expect(diagnose(grant).map((f) => f.code)).toEqual(['invalid_grant']);
		const ok = ex(
			'exchange',
			TOKEN,
			200,
			'{"access_token":"a","token_type":"Bearer","expires_in":60,"refresh_token":"r","scope":"read"}',
			[...jsonType, ['Cache-Control', 'no-store']]
		);
		expect(diagnose(ok)).toEqual([]);
	});
	test('through diagnose: it replaces the generic findings, and reads the playground from the context', () => {
		const e = ex('exchange', 'http://127.0.0.1:5173/oauth2/token', 404, HTML404, html);
		const f = diagnose(e, { playground: PLAYGROUND });
		expect(f.map((x) => x.code)).toEqual(['wrong-endpoint']);
		expect(f[0]!.fix).toContain('http://127.0.0.1:5173/sandbox');
		expect(diagnose(e)[0]!.fix).not.toContain('/sandbox');
	});
});
