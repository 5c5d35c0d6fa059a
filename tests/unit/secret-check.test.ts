/**
 * The client secret check apart from the server: its judgement of any server's answer
 * (oauth/judge-secret.ts), its verdict line, and what the exports and a HAR import make of it: the
 * scripts never send it, its made-up code stays as sent, and a HAR of it imported again shows the
 * check, judged again, not a code exchange.
 */
import { describe, expect, test } from 'vitest';
import { judgeSecretCheck } from '$lib/oauth/judge-secret';
import { importVerdict, verdictOf } from '$lib/exchange/verdict';
import { judgedOk } from '$lib/exchange/judged-ok';
import { exchangeStatus, otherCredentials } from '$lib/ui/step-status';
import { statusCode } from '$lib/ui/sequence';
import { toCurlScript } from '$lib/exchange/curl';
import { toNodeFetch } from '$lib/exchange/node-fetch';
import { toHar } from '$lib/exchange/har/export';
import { importHar } from '$lib/oauth/imported';
import { spends } from '$lib/exchange/spending';
import { prepareForExport } from '$lib/exchange/redact';
import { isMadeUp, MADE_UP_PREFIX } from '$lib/steps/secret-step';
import { madeUp } from '$lib/server/steps/check-secret';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import { transcript } from './transcript';

const TOKEN_URL = 'https://reader.test/oauth2/token';
const PAR_URL = 'https://reader.test/oauth2/par';
const CODE = `${MADE_UP_PREFIX}${'aB3'.repeat(10)}xY`;
const FORM: HeaderList = [['Content-Type', 'application/x-www-form-urlencoded']];
const BASIC: HeaderList = [...FORM, ['Authorization', 'Basic c2FuZGJveDo8cmVkYWN0ZWQ+']];

function check(
	status: number | undefined,
	body = '',
	{
		via = 'token',
		headers = FORM,
		type = 'application/json'
	}: { via?: 'token' | 'par'; headers?: HeaderList; type?: string } = {}
): Exchange {
	const sent =
		via === 'token'
			? `code=${CODE}&redirect_uri=https%3A%2F%2Fapp.test%2Fcallback&client_id=app&client_secret=%3Credacted%3E&grant_type=authorization_code`
			: `client_id=app&client_secret=%3Credacted%3E&redirect_uri=https%3A%2F%2Fapp.test%2Fcallback&response_type=code&scope=read&state=${CODE}`;
	return {
		id: 'c1',
		step: 'secret',
		startedAt: '2026-12-06T10:00:00.000Z',
		request: {
			method: 'POST',
			url: via === 'token' ? TOKEN_URL : PAR_URL,
			httpVersion: '1.1',
			headers: [['Host', 'reader.test'], ...headers],
			body: sent
		},
		response:
			status === undefined
				? undefined
				: {
						status,
						statusText: '',
						httpVersion: '1.1',
						headers: [['Content-Type', type]],
						body,
						truncated: false
					},
		timing: { total: 12 },
		findings: [],
		...(status === undefined
			? { failure: { kind: 'timeout' as const, message: 'No answer within 10 s.' } }
			: {})
	};
}

const err = (error: string, description?: string) =>
	JSON.stringify({ error, ...(description ? { error_description: description } : {}) });
const codes = (ex: Exchange, ctx = {}) => judgeSecretCheck(ex, ctx).map((f) => f.code);

describe('the judgement of an answer, for any server', () => {
	test('invalid_client, in JSON or on an error page, is refused for certain', () => {
		expect(codes(check(401, err('invalid_client', 'Client authentication failed')))).toEqual([
			'secret-refused'
		]);
		// A 400 too (RFC 6749 §5.2 allows it when no Authorization header was sent).
		expect(codes(check(400, err('invalid_client')))).toEqual(['secret-refused']);
		const page = check(
			400,
			'<html><head><title>Error</title></head><body><p>invalid_client: unknown client</p></body></html>',
			{ type: 'text/html' }
		);
		const [found] = judgeSecretCheck(page);
		expect(found!.code).toBe('secret-refused');
		expect(found!.message).toContain('on its error page');
		expect(found!.message).toContain('"invalid_client: unknown client"');
		// Words in a comment or a script are not what the page shows.
		const hidden = check(
			400,
			'<html><body><!-- invalid_client --><script>var e="invalid_client"</script><p>Bad Request</p></body></html>',
			{ type: 'text/html' }
		);
		expect(codes(hidden)).toEqual(['secret-not-told']);
		// Only a 4xx error page of the endpoint's own: a 200 page (a docs page at the wrong URL) or a
		// 404 that mentions it is no refusal, nor is a JSON document that holds the word.
		const docs = '<html><body><p>invalid_client: client authentication failed</p></body></html>';
		expect(codes(check(200, docs, { type: 'text/html' }))).toEqual(['wrong-endpoint']);
		expect(codes(check(404, docs, { type: 'text/html' }))).toEqual(['wrong-endpoint']);
		expect(codes(check(400, '["invalid_client"]'))).toEqual(['secret-not-told']);
	});

	test('a base URL on the playground itself (outside /sandbox): its own refusal is no service’s answer, and the sandbox is named', () => {
		const playground = { origin: 'http://127.0.0.1:5301', sandbox: true };
		const base = check(
			403,
			JSON.stringify({ message: 'Cross-site POST form submissions are forbidden' })
		);
		const own = (url: string) => ({ ...base, request: { ...base.request, url } });
		const [found] = judgeSecretCheck(own('http://127.0.0.1:5301/oauth2/token'), { playground });
		expect(found!.code).toBe('wrong-endpoint');
		expect(found!.message).toContain('That address is this playground itself, not the service');
		expect(found!.fix).toContain('http://127.0.0.1:5301/sandbox');
		// The same answer from a service's own address may be its endpoint refusing: not told.
		expect(codes(base, { playground })).toEqual(['secret-not-told']);
		// The sandbox's own token endpoint is the service's, not the playground's.
		expect(codes(own('http://127.0.0.1:5301/sandbox/oauth2/token'), { playground })).toEqual([
			'secret-not-told'
		]);
	});

	test('GitHub’s own words, in a 200: a wrong secret refused, a made-up code refused alone', () => {
		const wrong = check(
			200,
			err(
				'incorrect_client_credentials',
				'The client_id and/or client_secret passed are incorrect.'
			)
		);
		expect(judgeSecretCheck(wrong)[0]!.message).toContain(
			'it answered incorrect_client_credentials'
		);
		expect(codes(wrong)).toEqual(['secret-refused']);
		expect(
			codes(check(200, err('bad_verification_code', 'The code passed is incorrect or expired.')))
		).toEqual(['secret-likely-accepted']);
	});

	test('any other 401 is refused as likely, with the service’s own error', () => {
		const [auth0] = judgeSecretCheck(check(401, err('access_denied', 'Unauthorized')));
		expect(auth0!.code).toBe('secret-likely-refused');
		expect(auth0!.message).toContain('it answered 401 access_denied');
		expect(auth0!.message).toContain('The service said: "Unauthorized".');
		expect(codes(check(401, ''))).toEqual(['secret-likely-refused']);
	});

	test('the fix names how the credentials went, and the other way', () => {
		const [body] = judgeSecretCheck(check(401, err('invalid_client')));
		expect(body!.fix).toContain('in the form body (client_secret_post)');
		const [basic] = judgeSecretCheck(check(401, err('invalid_client'), { headers: BASIC }));
		expect(basic!.fix).toContain('in an HTTP Basic header (client_secret_basic)');
	});

	test('a pushed request taken is accepted for certain; only through the pushed request', () => {
		const pushed = err('x').replace('{"error":"x"}', '{"request_uri":"urn:x","expires_in":60}');
		expect(codes(check(201, pushed, { via: 'par' }))).toEqual(['secret-accepted']);
		expect(judgeSecretCheck(check(201, pushed, { via: 'par' }))[0]!.message).toContain(
			'pushed authorization request'
		);
		// A 201 from the token endpoint accepts nothing.
		expect(codes(check(201, pushed))).toEqual(['secret-not-told']);
	});

	test('invalid_grant to the made-up code is likely accepted; certain only for the sandbox', () => {
		const answer = check(400, err('invalid_grant', 'Invalid authorization code'));
		expect(codes(answer)).toEqual(['secret-likely-accepted']);
		expect(codes(answer, { sandbox: false })).toEqual(['secret-likely-accepted']);
		expect(codes(answer, { sandbox: true })).toEqual(['secret-accepted']);
		// A pushed request has no code: its invalid_grant is a refusal of the request, never certain.
		expect(codes(check(400, err('invalid_grant'), { via: 'par' }), { sandbox: true })).toEqual([
			'secret-likely-accepted'
		]);
	});

	test('a 400 unauthorized_client about the grant: the credentials passed, the grant is not allowed', () => {
		const grant = err('unauthorized_client', 'The client is not authorized to use this grant type');
		expect(codes(check(400, grant))).toEqual(['secret-grant-refused']);
		expect(judgeSecretCheck(check(400, grant))[0]!.message).toContain(
			'may not use the authorization-code grant'
		);
		expect(judgeSecretCheck(check(400, grant, { via: 'par' }))[0]!.message).toContain(
			'may not use pushed authorization requests'
		);
		// Entra ID says it of a client it does not know: no word of the grant, nothing told.
		const unknown = err(
			'unauthorized_client',
			"AADSTS700016: Application with identifier 'x' was not found in the directory 'y'."
		);
		expect(codes(check(400, unknown))).toEqual(['secret-not-told']);
		expect(codes(check(400, err('unauthorized_client')))).toEqual(['secret-not-told']);
	});

	test('a pushed request refused for its parameters: the client most likely passed first', () => {
		const [found] = judgeSecretCheck(
			check(400, err('invalid_redirect_uri', 'redirect_uri did not match'), { via: 'par' })
		);
		expect(found!.code).toBe('secret-likely-accepted');
		expect(found!.message).toContain('it refused the pushed request for its parameters');
		expect(found!.fix).toContain('fix what the error names first');
		// A token request's invalid_request is not told: the order there is the server's own.
		expect(codes(check(400, err('invalid_redirect_uri')))).toEqual(['secret-not-told']);
	});

	test('anything else is not told, with the status and the error', () => {
		const [told] = judgeSecretCheck(check(400, err('invalid_request', 'Missing code')));
		expect(told!.code).toBe('secret-not-told');
		expect(told!.message).toBe(
			'Not told: the service answered 400 invalid_request, which does not say whether the secret is right. The service said: "Missing code".'
		);
		expect(codes(check(200, err('server_error')))).toEqual(['secret-not-told']);
		expect(codes(check(400, err('invalid_scope')), {})).toEqual(['secret-not-told']);
	});

	test('a 404 page is the wrong URL, not a judgement; a redirect, a 5xx or no answer get none here', () => {
		const page = check(404, '<html><body><h1>Not Found</h1></body></html>', { type: 'text/html' });
		expect(codes(page)).toEqual(['wrong-endpoint']);
		// Through a pushed request, a 404 tells nothing: the token endpoint's rules are not its own.
		expect(
			codes(
				check(404, '<html><body><h1>Not Found</h1></body></html>', {
					via: 'par',
					type: 'text/html'
				})
			)
		).toEqual(['secret-not-told']);
		expect(codes(check(302, ''))).toEqual([]);
		expect(codes(check(503, 'busy'))).toEqual([]);
		expect(codes(check(500, err('invalid_client')))).toEqual([]);
		expect(codes(check(undefined))).toEqual([]);
	});
});

describe('the edges of the judgement', () => {
	const html = { type: 'text/html' };

	test('an error page as servers style and indent it: its line quoted as shown, the error named', () => {
		const styled = check(
			400,
			'<html><head><style>body { margin: 0 } h1 { color: #c00 }</style></head><body><pre>\n   invalid_client: unknown client   \n</pre></body></html>',
			html
		);
		expect(judgeSecretCheck(styled)[0]!.message).toBe(
			'The service refused the client credentials: it answered invalid_client on its error page, so the secret, the client id or the authentication method (body or Basic) is wrong. The service said: "invalid_client: unknown client".'
		);
	});

	test('in JSON: no error page is named, and the words are trimmed', () => {
		const [found] = judgeSecretCheck(
			check(401, err('invalid_client', '  Client authentication failed \n'))
		);
		expect(found!.message).toBe(
			'The service refused the client credentials: it answered invalid_client, so the secret, the client id or the authentication method (body or Basic) is wrong. The service said: "Client authentication failed".'
		);
	});

	test('a 405 page is the wrong URL too, even one that says invalid_client', () => {
		for (const body of [
			'<html><body><h1>Method Not Allowed</h1></body></html>',
			'<html><body><p>invalid_client</p></body></html>'
		])
			expect(codes(check(405, body, html))).toEqual(['wrong-endpoint']);
	});

	test('only the Authorization header is the client’s Basic authentication, not a proxy’s', () => {
		const proxied = check(401, err('invalid_client'), {
			headers: [...FORM, ['Proxy-Authorization', 'Basic cHJveHk6cGFzcw==']]
		});
		expect(judgeSecretCheck(proxied)[0]!.fix).toContain('in the form body (client_secret_post)');
	});

	test('the made-up code refused: which server, and which error, are said', () => {
		const answer = check(400, err('invalid_grant'));
		expect(judgeSecretCheck(answer, { sandbox: true })[0]!.message).toContain(
			'the sandbox checks the client before the code'
		);
		expect(judgeSecretCheck(answer)[0]!.message).toContain(
			'it refused only the made-up code (invalid_grant). Servers usually check the client first'
		);
	});

	test('words of a grant in another error, or another status, do not make a grant refusal', () => {
		expect(codes(check(400, err('invalid_request', 'Missing grant type')))).toEqual([
			'secret-not-told'
		]);
	});

	test('a pushed request: only a 400 with an error other than unauthorized_client passed the client', () => {
		const par = { via: 'par' as const };
		expect(codes(check(403, err('access_denied'), par))).toEqual(['secret-not-told']);
		expect(
			codes(check(400, '<html><body><h1>Bad Request</h1></body></html>', { ...par, ...html }))
		).toEqual(['secret-not-told']);
		expect(codes(check(400, err('unauthorized_client'), par))).toEqual(['secret-not-told']);
	});
});

describe('the verdict line', () => {
	const judged = (ex: Exchange, ctx = {}) =>
		verdictOf([{ ...ex, findings: judgeSecretCheck(ex, ctx) }], Date.now())!;

	test('each answer in its words, tone and place', () => {
		expect(judged(check(401, err('invalid_client')))).toEqual({
			tone: 'fail',
			text: '✕ Client secret check: the service refused the client credentials (invalid_client)',
			target: 'consent'
		});
		expect(judged(check(401, err('access_denied'))).text).toBe(
			'✕ Client secret check: the client credentials were most likely refused (401)'
		);
		expect(judged(check(400, err('invalid_grant')), { sandbox: true })).toEqual({
			tone: 'ok',
			text: '✓ Client secret check: the service accepted the client credentials',
			target: 'consent'
		});
		expect(judged(check(400, err('invalid_grant'))).text).toBe(
			'✓ Client secret check: the client credentials were most likely accepted; a real code exchange is the proof'
		);
		expect(judged(check(400, err('unauthorized_client', 'grant type not allowed'))).tone).toBe(
			'fail'
		);
		expect(judged(check(400, err('invalid_request')))).toEqual({
			tone: 'neutral',
			text: 'Client secret check: not told (invalid_request); a real code exchange is the proof',
			target: 'consent'
		});
	});

	test('a check that could not ask fails, saying why', () => {
		expect(judged(check(undefined))).toMatchObject({
			tone: 'fail',
			text: expect.stringMatching(/^✕ Client secret check, failed: /)
		});
	});

	test('the newest check replaces the line of a token answer before it, and the other way round', () => {
		const [, , tokens] = transcript();
		const refused = { ...check(401, err('invalid_client')) };
		refused.findings = judgeSecretCheck(refused);
		expect(verdictOf([tokens!, refused], Date.now())!.text).toMatch(/^✕ Client secret check/);
		expect(verdictOf([refused, tokens!], Date.now())!.text).toMatch(/^✓ Tokens received/);
	});
});

describe('an accepted check is a success, whatever its status', () => {
	const judged = (ex: Exchange, ctx = {}) => ({ ...ex, findings: judgeSecretCheck(ex, ctx) });

	test('its card, its badge words and its arrow', () => {
		const likely = judged(check(400, err('invalid_grant')));
		expect(exchangeStatus(likely)).toBe('ok');
		expect(judgedOk(likely)).toBe('credentials likely accepted');
		expect(statusCode(likely)).toBe('accepted');
		const sure = judged(check(400, err('invalid_grant')), { sandbox: true });
		expect(judgedOk(sure)).toBe('credentials accepted');
		// Refused, or not told: a failure, by its OAuth error.
		const refused = judged(check(401, err('invalid_client')));
		expect(exchangeStatus(refused)).toBe('failed');
		expect(judgedOk(refused)).toBeUndefined();
		expect(statusCode(refused)).toBe('invalid_client');
		expect(exchangeStatus(judged(check(400, err('invalid_request'))))).toBe('failed');
	});

	test('an imported recording of it, accepted, has no failure', () => {
		const ok = judged(check(400, err('invalid_grant')));
		expect(importVerdict('check.har', [ok])).toMatchObject({ tone: 'ok' });
		const refused = judged(check(401, err('invalid_client')));
		expect(importVerdict('check.har', [ok, refused]).text).toContain('first failure is #2');
	});

	test('a check of other credentials than the current ones is no verdict on them', () => {
		const ex = { ...check(401, err('invalid_client')), credentials: 'c1' };
		expect(otherCredentials(ex, 'c1')).toBe(false);
		expect(otherCredentials(ex, 'c2')).toBe(true);
		expect(otherCredentials(ex, null)).toBe(true);
		// An exchange that judged no credentials is never another's.
		expect(otherCredentials(check(401, err('invalid_client')), 'c2')).toBe(false);
	});
});

describe('the exports and the HAR import', () => {
	const withCheck = (): Exchange[] => [...transcript(), check(400, err('invalid_grant'))];

	test('it spends nothing, and the scripts show it without sending it', () => {
		const ex = check(400, err('invalid_grant'));
		expect(spends(ex)).toBeUndefined();
		const script = toCurlScript(withCheck());
		const part = script.slice(script.lastIndexOf('# ── '));
		expect(part).toMatch(/^# ── \d+\. Client secret check: POST /);
		expect(part).toContain('a script never sends it');
		expect(part).not.toMatch(/^curl /m);
		expect(part).not.toContain('--data');
		// The steps before it still run as they did.
		expect(script).toMatch(/^curl /m);
		const js = toNodeFetch(ex);
		expect(js).toContain('a script never sends it');
		expect(js).not.toContain('fetch(');
	});

	test('its made-up code is shown as sent, never shortened as a real code is', () => {
		const [shown] = prepareForExport([check(400, err('invalid_grant'))]).slice(-1);
		expect(new URLSearchParams(shown!.request.body).get('code')).toBe(CODE);
		// The same value in a code exchange's body is a code like any other: shortened.
		const [exchanged] = prepareForExport([
			{ ...check(400, err('invalid_grant')), step: 'exchange' }
		]);
		expect(new URLSearchParams(exchanged!.request.body).get('code')).not.toBe(CODE);
	});

	test('a HAR of it, imported again, is the check, judged again', () => {
		for (const ex of [
			check(400, err('invalid_grant')),
			check(201, '{"request_uri":"urn:x","expires_in":60}', { via: 'par' })
		]) {
			const har = toHar([ex]);
			const imported = importHar(JSON.stringify(har));
			expect(imported.ok).toBe(true);
			if (!imported.ok) return;
			expect(imported.exchanges.map((e) => e.step)).toEqual(['secret']);
			expect(imported.exchanges[0]!.findings.map((f) => f.code)).toEqual([
				ex.request.url === PAR_URL ? 'secret-accepted' : 'secret-likely-accepted'
			]);
			// Without the playground's own step name, the made-up value still names it.
			for (const entry of har.log.entries) delete (entry as { _step?: string })._step;
			const bare = importHar(JSON.stringify(har));
			expect(bare.ok && bare.exchanges.map((e) => e.step)).toEqual(['secret']);
		}
	});
});

test('a made-up value is the prefix and 32 letters and digits, random each time', () => {
	const a = madeUp();
	expect(a).toMatch(/^oauth-playground-secret-check-[A-Za-z0-9]{32}$/);
	expect(isMadeUp(a)).toBe(true);
	expect(madeUp()).not.toBe(a);
	const tail = a.slice(MADE_UP_PREFIX.length);
	for (const other of [
		`${MADE_UP_PREFIX}short`,
		`${MADE_UP_PREFIX}${'a'.repeat(31)}-`,
		// One character too many, after or before the 32, and another prefix of the same length.
		`${a}b`,
		`${MADE_UP_PREFIX}-${tail}`,
		`O${MADE_UP_PREFIX.slice(1)}${tail}`,
		`x${a}`,
		'SplxlOBeZQQYbYS6WxSbIA'
	])
		expect(isMadeUp(other), other).toBe(false);
});
