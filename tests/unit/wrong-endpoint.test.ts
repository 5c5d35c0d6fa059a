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
	test('a 404 or 405 naming any token error of RFC 6749 §5.2 is the token endpoint answering', () => {
		const codes = [
			'invalid_request',
			'invalid_client',
			'invalid_grant',
			'unauthorized_client',
			'unsupported_grant_type',
			'invalid_scope'
		];
		for (const code of codes)
			for (const status of [404, 405])
				for (const step of ['exchange', 'refresh'] as const)
					expect(
						isNotOAuthAnswer(
							ex(step, 'https://r.test/oauth2/token', status, JSON.stringify({ error: code }), [
								['Content-Type', 'application/json']
							])
						),
						`${step} ${status} ${code}`
					).toBe(false);
	});
	test('token endpoint: a 405 with a JSON error that is not one of OAuth’s is another server’s', () => {
		const e = ex('exchange', 'https://r.test/oauth2/token', 405, '{"error":"method_not_allowed"}', [
			['Content-Type', 'application/json']
		]);
		expect(isNotOAuthAnswer(e)).toBe(true);
	});
	test('token endpoint: a redirect is never its answer, whatever the redirect’s body says', () => {
		const json: HeaderList = [
			['Content-Type', 'application/json'],
			['Location', 'https://r.test/login']
		];
		const url = 'https://r.test/oauth2/token';
		expect(isNotOAuthAnswer(ex('exchange', url, 302, '{"error":"invalid_grant"}', json))).toBe(
			true
		);
		expect(isNotOAuthAnswer(ex('exchange', url, 300, '{"access_token":"a"}', json))).toBe(true);
	});
	test('a 1xx is an interim answer, not the final one: no verdict', () => {
		for (const status of [100, 101, 199])
			for (const step of ['exchange', 'refresh', 'userinfo', 'check'] as const)
				expect(
					isNotOAuthAnswer(ex(step, 'https://r.test/oauth2/token', status)),
					`${step} ${status}`
				).toBe(false);
	});
	test('an HTML page with braces in it (inline CSS) is still a page, not broken JSON', () => {
		const page =
			'<!doctype html><html><head><style>body { margin: 0 }</style></head><body>Sign in</body></html>';
		const html: HeaderList = [['Content-Type', 'text/html']];
		for (const status of [200, 404])
			expect(
				isNotOAuthAnswer(ex('exchange', 'https://r.test/oauth2/token', status, page, html))
			).toBe(true);
	});
	test('token endpoint: only an empty 401 with a challenge is the endpoint refusing the client', () => {
		const url = 'https://r.test/oauth2/token';
		const challenge: HeaderList = [['WWW-Authenticate', 'Basic realm="r.test"']];
		// A 403 is no refusal of the client's authentication, challenge or not.
		expect(isNotOAuthAnswer(ex('exchange', url, 403, '', challenge))).toBe(true);
		// A 401 with a text body (not the JSON of RFC 6749 §5.2) is some other server's login.
		expect(isNotOAuthAnswer(ex('exchange', url, 401, 'Unauthorized', challenge))).toBe(true);
		expect(isNotOAuthAnswer(ex('exchange', url, 401, ' \n', challenge))).toBe(false);
	});
	test('user-info: a 405 is not its answer, nor an HTML page, known by its type or by its first tag', () => {
		const ui = 'https://r.test/reader/api/0/user-info';
		expect(
			isNotOAuthAnswer(
				ex('userinfo', ui, 405, '{"message":"Method Not Allowed"}', [
					['Content-Type', 'application/json']
				])
			)
		).toBe(true);
		// A page declared as HTML, whatever its body starts with.
		expect(
			isNotOAuthAnswer(ex('userinfo', ui, 200, 'Welcome back!', [['content-type', 'text/html']]))
		).toBe(true);
		// An undeclared page that starts with a tag after blank lines.
		expect(isNotOAuthAnswer(ex('userinfo', ui, 200, '\n  <!doctype html><p>Welcome</p>', []))).toBe(
			true
		);
		expect(
			isNotOAuthAnswer(
				ex('userinfo', ui, 200, 'Welcome <b>back</b>', [['Content-Type', 'text/plain']])
			)
		).toBe(false);
	});
	test('API: a 200 HTML page (a login page in place of the API) is someone else’s, whatever the case of its type', () => {
		const api = 'https://r.test/reader/api/0/tag/list';
		const e = ex('api', api, 200, 'Please sign in', [['Content-Type', 'Text/HTML; charset=UTF-8']]);
		expect(isNotOAuthAnswer(e)).toBe(true);
	});
	test('API: an HTML page on a 405 is someone else’s; an HTML redirect is a redirect, not a page', () => {
		const api = 'https://r.test/reader/api/0/tag/list';
		const page = '<!doctype html><html><head><title>Moved</title></head></html>';
		const html: HeaderList = [['Content-Type', 'text/html']];
		expect(isNotOAuthAnswer(ex('api', api, 405, page, html))).toBe(true);
		for (const status of [300, 302])
			expect(
				isNotOAuthAnswer(ex('api', api, status, page, [...html, ['Location', 'https://r.test/']])),
				String(status)
			).toBe(false);
	});
	test('the registration check: a 405 without an error member is not the consent page', () => {
		const auth = 'https://r.test/oauth2/auth?client_id=x';
		const page = '<!doctype html><html><head><title>405</title></head></html>';
		expect(isNotOAuthAnswer(ex('check', auth, 405, page, [['Content-Type', 'text/html']]))).toBe(
			true
		);
	});
	test('the consent redirect and the callback call no documented endpoint: no verdict', () => {
		const page = '<!doctype html><html><head><title>Not Found</title></head></html>';
		const html: HeaderList = [['Content-Type', 'text/html']];
		expect(isNotOAuthAnswer(ex('consent', 'https://r.test/oauth2/auth?x=1', 404, page, html))).toBe(
			false
		);
		expect(
			isNotOAuthAnswer(ex('callback', 'http://127.0.0.1:5173/callback', 404, page, html))
		).toBe(false);
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
	test('the registration check: the base is the URL without the consent path, not its origin', () => {
		expect(calledBase('check', 'https://r.test/svc/oauth2/auth?client_id=a')).toBe(
			'https://r.test/svc'
		);
		expect(calledBase('check', 'https://r.test/svc/consent?client_id=a')).toBeUndefined();
	});
	test('an API URL outside the documented API path: its origin is the only base it names', () => {
		expect(calledBase('api', 'https://r.test/custom/tag/list')).toBe('https://r.test');
		expect(calledBase('api', 'https://r.test/reader/api/0/tag/list')).toBe('https://r.test');
	});
	test('a base typed with a trailing "//", joined with the endpoint’s path: no slash left over', () => {
		expect(calledBase('exchange', 'https://r.test/svc///oauth2/token')).toBe('https://r.test/svc');
		expect(calledBase('exchange', 'https://r.test/svc//oauth2/token')).toBe('https://r.test/svc');
		expect(calledBase('userinfo', 'https://r.test///reader/api/0/user-info')).toBe(
			'https://r.test'
		);
	});
	test('a base with runs of slashes around an endpoint’s path: the meant base has neither', () => {
		const meant = (u: string) =>
			meantBase(ex('exchange', u, 404, '<html><title>Not Found</title></html>', []));
		expect(meant('https://r.test/svc///oauth2/oauth2/token')).toBe('https://r.test/svc');
		expect(meant('https://r.test/svc//reader/api/0//oauth2/token')).toBe('https://r.test/svc');
	});
	test('a base URL with the token path typed more than once: all of them go', () => {
		const meant = (u: string) =>
			meantBase(ex('exchange', u, 404, '<html><title>Not Found</title></html>', []));
		expect(meant('https://r.test/oauth2/token/oauth2/token/oauth2/token')).toBe('https://r.test');
		expect(meant('https://r.test/svc/oauth2/reader/oauth2/token')).toBe('https://r.test/svc');
	});
	test('an imported exchange whose URL does not parse: no guess, and still its finding', () => {
		const e = ex('exchange', 'oauth2/token', 404, '<html><title>Not Found</title></html>', [
			['Content-Type', 'text/html']
		]);
		expect(meantBase(e)).toBeUndefined();
		expect(meantBase(e, { origin: 'http://127.0.0.1:5173', sandbox: true })).toBeUndefined();
		expect(wrongEndpointFinding(e)?.code).toBe('wrong-endpoint');
	});
	test('a Location header on an answer that is no redirect points nowhere', () => {
		const url = 'https://r.test/oauth2/token';
		for (const status of [200, 201, 400, 404]) {
			const e = ex('exchange', url, status, '<html><title>x</title></html>', [
				['Content-Type', 'text/html'],
				['Location', 'https://login.other.test/sso']
			]);
			expect(meantBase(e), String(status)).toBeUndefined();
		}
	});
	test('every 3xx with a Location is a redirect, from 300 on', () => {
		for (const status of [300, 301, 308]) {
			const e = ex('exchange', 'http://r.test/svc/oauth2/token', status, '', [
				['Location', 'https://login.r.test/sso']
			]);
			expect(meantBase(e), String(status)).toBe('https://login.r.test/svc');
		}
	});
	test('a redirect to the token endpoint under another path: the base below that path', () => {
		const e = ex('exchange', 'https://r.test/oauth2/token', 301, '', [
			['Location', '/svc/oauth2/token']
		]);
		expect(meantBase(e)).toBe('https://r.test/svc');
	});
	test('a redirect from the token endpoint at the root to another host: that host', () => {
		const e = ex('exchange', 'https://r.test/oauth2/token', 302, '', [
			['Location', 'https://login.r.test/sso?next=%2F']
		]);
		expect(meantBase(e)).toBe('https://login.r.test');
	});
	test('a redirect from a custom endpoint to another host: that host', () => {
		const e = ex('exchange', 'https://r.test/custom/token', 302, '', [
			['Location', 'https://login.r.test/sso']
		]);
		expect(meantBase(e)).toBe('https://login.r.test');
	});
	test('the playground’s own origin: only a path starting with /sandbox/ is the sandbox', () => {
		const pg = { origin: 'http://127.0.0.1:5173', sandbox: true };
		const meant = (u: string) =>
			meantBase(ex('exchange', u, 404, '<html><title>Not Found</title></html>', []), pg);
		expect(meant('http://127.0.0.1:5173/x/sandbox/oauth2/token')).toBe(
			'http://127.0.0.1:5173/sandbox'
		);
		expect(meant('http://127.0.0.1:5173/sandboxes/oauth2/token')).toBe(
			'http://127.0.0.1:5173/sandbox'
		);
		// The sandbox's own base needs no correction (not "meant to be" what it is).
		expect(meant('http://127.0.0.1:5173/sandbox/oauth2/token')).toBeUndefined();
	});
	test('the documented endpoints of a base typed with trailing slashes: no doubled slash', () => {
		const line = documentedEndpoints('https://r.test/svc//');
		expect(line).toContain('https://r.test/svc/oauth2/token');
		expect(line.replace(/https:\/\//g, '')).not.toContain('//');
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
	test('a text body is quoted on one line: blank runs closed up, ends trimmed, cut only past 80 characters', () => {
		const text = (body: string) =>
			whatCameBack(ex('exchange', 'https://r.test/oauth2/token', 400, body, []));
		expect(text('\n  Service   temporarily\n\n unavailable  \n')).toContain(
			'"Service temporarily unavailable"'
		);
		const eighty = 'x'.repeat(80);
		expect(text(eighty)).toContain(`"${eighty}"`);
		expect(text(eighty)).not.toContain('…');
	});
	test('a 2xx page is described by its title, a 300 by where it points', () => {
		const url = 'https://r.test/oauth2/token';
		const page = '<!doctype html><html><head><title>Sign in</title></head></html>';
		expect(whatCameBack(ex('exchange', url, 200, page, [['Content-Type', 'text/html']]))).toContain(
			'"Sign in"'
		);
		expect(
			whatCameBack(ex('exchange', url, 300, '', [['Location', 'https://r.test/choose']]))
		).toContain('https://r.test/choose');
	});
	test('a page’s title is read with attributes on the tag; a blank title is no title', () => {
		const url = 'https://r.test/oauth2/token';
		const html: HeaderList = [['Content-Type', 'text/html']];
		const with_ = (body: string) => whatCameBack(ex('exchange', url, 404, body, html));
		expect(with_('<html><head><title lang="en">Sign in</title></head></html>')).toContain(
			'"Sign in"'
		);
		expect(with_('<html><head><title> \n </title></head><body>x</body></html>')).toBe(
			with_('<html><head></head><body>x</body></html>')
		);
	});
	test('JSON without "error": what it says, from "error_description", "detail" or "title" too', () => {
		const url = 'https://r.test/oauth2/token';
		const json: HeaderList = [['Content-Type', 'application/json']];
		const said = (body: object) =>
			whatCameBack(ex('exchange', url, 404, JSON.stringify(body), json));
		expect(said({ error_description: 'No such route' })).toContain('"No such route"');
		expect(said({ detail: 'Not here' })).toContain('"Not here"');
		expect(said({ type: 'about:blank', title: 'Gone for good', status: 404 })).toContain(
			'"Gone for good"'
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
		expect(f.fix).toContain('If this is the token endpoint after all');
		const custom = wrongEndpointFinding(
			ex('exchange', 'https://r.test/token', 404, HTML404, html)
		)!;
		expect(custom.fix).toContain('custom endpoint under Advanced settings');
		expect(custom.fix).toContain('the documented path below the base URL (/oauth2/token)');
		expect(custom.fix).toContain('If this is the token endpoint after all');
		expect(custom.ref).toBe("the service's API docs §4.2");
		const consent = wrongEndpointFinding(ex('check', 'https://r.test/login', 404, HTML404, html))!;
		expect(consent.message).toContain("not the service's consent page");
		expect(consent.fix).toContain('the documented path below the base URL (/oauth2/auth)');
		expect(consent.fix).not.toContain('RFC 6749');
		expect(consent.ref).toBe("the service's API docs §4.1");
		const ui = wrongEndpointFinding(ex('userinfo', 'https://r.test/me', 404, HTML404, html))!;
		expect(ui.message).toContain("not the service's user-info endpoint");
		expect(ui.fix).toContain('/reader/api/0/user-info');
		expect(ui.fix).not.toContain('RFC 6749');
		expect(ui.ref).toBe("the service's API docs §4.4");
		const api = wrongEndpointFinding(ex('api', 'https://r.test/feeds', 404, HTML404, html))!;
		expect(api.message).toContain("not the service's API (a wrong base URL");
		expect(api.ref).toBe("the service's API docs §4.4");
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
	test('another host is not "the playground itself", even when the playground is known', () => {
		const pg = { origin: 'http://127.0.0.1:5173', sandbox: true };
		const e = ex('exchange', 'https://r.test/oauth2/token', 404, '<html><title>x</title></html>', [
			['Content-Type', 'text/html']
		]);
		expect(wrongEndpointFinding(e, pg)!.message).not.toContain('playground itself');
	});
	test('on the playground’s own origin only a path starting with /sandbox/ (or /sandbox) is the sandbox', () => {
		const pg = { origin: 'http://127.0.0.1:5173', sandbox: true };
		const page = '<html><title>x</title></html>';
		const html: HeaderList = [['Content-Type', 'text/html']];
		const nested = ex('exchange', 'http://127.0.0.1:5173/x/sandbox/oauth2/token', 404, page, html);
		expect(wrongEndpointFinding(nested, pg)!.message).toContain('playground itself');
		// A custom user-info endpoint set to the sandbox's root: the sandbox answers, not the playground.
		const root = ex('userinfo', 'http://127.0.0.1:5173/sandbox', 200, page, html);
		expect(wrongEndpointFinding(root, pg)!.message).not.toContain('playground itself');
	});
	test('the playground note is added to the message, and nothing is added for another host', () => {
		const e = ex('exchange', 'http://127.0.0.1:5173/oauth2/token', 404, '<p>x</p>', []);
		const plain = wrongEndpointFinding(e)!.message;
		const own = wrongEndpointFinding(e, {
			origin: 'http://127.0.0.1:5173',
			sandbox: true
		})!.message;
		expect(own.startsWith(plain)).toBe(true);
		expect(own.length).toBeGreaterThan(plain.length);
	});
});
