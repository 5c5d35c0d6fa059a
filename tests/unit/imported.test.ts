/**
 * An imported HAR is diagnosed with the same rules as the live flow, with the context the live flow
 * had at each point: the scope the consent URL asked for, and the expiry of the token in use. Each
 * test compares what `diagnoseImported` says with what `diagnose` says given that context, so the
 * tests pin the context (which exchange sets it, from which fields, with which arithmetic), not the
 * wording of the findings.
 */
import { describe, expect, test } from 'vitest';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import { NEGATIVES, POSITIVES, fill, type RefusalFixture } from '../helpers/redirect-refusals';
import { explainAuthorizationError } from '$lib/oauth/consent';
import { diagnose, diagnoseCallback } from '$lib/oauth/diagnose';
import { diagnoseImported, importHar } from '$lib/oauth/imported';
import { toHar } from '$lib/exchange/har/export';
import { verdictOf } from '$lib/exchange/verdict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const BASE = 'https://reader.example/sandbox';
const T0 = Date.parse('2026-03-14T09:00:00.000Z');

let n = 0;
function ex(
	step: Exchange['step'],
	url: string,
	response?: { status: number; body: string },
	at = T0,
	total = 0
): Exchange {
	return {
		id: `ex-${++n}`,
		step,
		startedAt: new Date(at).toISOString(),
		request: { method: 'GET', url, httpVersion: '1.1', headers: [], body: '' },
		response: response && {
			status: response.status,
			statusText: '',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: response.body,
			truncated: false
		},
		timing: { total },
		findings: []
	};
}

const consent = (scope?: string) =>
	ex(
		'consent',
		`${BASE}/oauth2/auth?client_id=c&response_type=code${scope === undefined ? '' : `&scope=${encodeURIComponent(scope)}`}`
	);
const tokens = (
	step: 'exchange' | 'refresh',
	fields: Record<string, unknown>,
	status = 200,
	at = T0,
	total = 0
) =>
	ex(
		step,
		`${BASE}/oauth2/token`,
		{ status, body: JSON.stringify({ token_type: 'Bearer', ...fields }) },
		at,
		total
	);
const refused = (at: number) =>
	ex(
		'userinfo',
		`${BASE}/reader/api/0/user-info`,
		{ status: 401, body: '{"error":"invalid_token"}' },
		at
	);

/** The findings of the last exchange, after the whole transcript was diagnosed. */
const last = (list: Exchange[]) => diagnoseImported(list).at(-1)!.findings;
const codes = (list: Exchange[]) => last(list).map((f) => f.code);

describe('diagnoseImported: the expiry of the token in use', () => {
	const granted = (at = T0, total = 0, step: 'exchange' | 'refresh' = 'exchange') =>
		tokens(step, { access_token: 'a'.repeat(20), expires_in: 60, scope: 'read' }, 200, at, total);
	// The live flow reads the expiry as startedAt + the request's total time + expires_in seconds.
	const expiry = T0 + 250 + 60_000;

	test('a 401 sent at the expiry (start + total time + expires_in) is read as an expired token', () => {
		const call = refused(expiry);
		expect(last([granted(T0, 250), call])).toEqual(diagnose(call, { tokenExpiresAt: expiry }));
		expect(last([granted(T0, 250), call])).not.toEqual(diagnose(call, {}));
	});

	test('a 401 sent a millisecond before the expiry is not', () => {
		const call = refused(expiry - 1);
		expect(last([granted(T0, 250), call])).toEqual(diagnose(call, {}));
	});

	test('a refresh sets the expiry as the code exchange does', () => {
		const call = refused(expiry);
		expect(last([granted(T0, 250, 'refresh'), call])).toEqual(
			diagnose(call, { tokenExpiresAt: expiry })
		);
	});

	test('only a 2xx token response counts: a 300 or a 199 with tokens in it does not', () => {
		for (const status of [199, 300, 400]) {
			const call = refused(expiry);
			const odd = tokens('exchange', { access_token: 'a'.repeat(20), expires_in: 60 }, status);
			expect(last([odd, call]), `status ${status}`).toEqual(diagnose(call, {}));
		}
		const call = refused(expiry + 250);
		const ok299 = tokens('exchange', { access_token: 'a'.repeat(20), expires_in: 60 }, 299);
		expect(last([ok299, call])).toEqual(diagnose(call, { tokenExpiresAt: T0 + 60_000 }));
	});

	test('only the token steps count: a user-info body with an access_token sets nothing', () => {
		const call = refused(expiry);
		const odd = ex('userinfo', `${BASE}/reader/api/0/user-info`, {
			status: 200,
			body: JSON.stringify({ access_token: 'a'.repeat(20), expires_in: 60 })
		});
		expect(last([odd, call])).toEqual(diagnose(call, {}));
	});

	test('a token response without a string access_token keeps the expiry that was in use', () => {
		// Sent before the expiry in use, after the one a one-second expires_in would give.
		const call = refused(T0 + 30_000);
		for (const body of [{ access_token: 42, expires_in: 1 }, { expires_in: 1 }]) {
			const odd = tokens('refresh', body);
			expect(last([granted(T0, 250), odd, call]), JSON.stringify(body)).toEqual(
				diagnose(call, { tokenExpiresAt: expiry })
			);
		}
		const notAnObject = ex('refresh', `${BASE}/oauth2/token`, { status: 200, body: '"text"' });
		expect(last([granted(T0, 250), notAnObject, call])).toEqual(
			diagnose(call, { tokenExpiresAt: expiry })
		);
	});

	test('a new token without a usable expires_in clears the expiry: nothing is known of it', () => {
		const call = refused(expiry);
		for (const expires of ['60', null, '1e999']) {
			const body = `{"access_token":"${'b'.repeat(20)}","token_type":"Bearer","expires_in":${expires === '1e999' ? expires : JSON.stringify(expires)}}`;
			const renewed = ex('refresh', `${BASE}/oauth2/token`, { status: 200, body });
			expect(last([granted(T0, 250), renewed, call]), `expires_in ${expires}`).toEqual(
				diagnose(call, {})
			);
		}
	});
});

describe('diagnoseImported: the scope the consent URL asked for', () => {
	const exchange = () => tokens('exchange', { access_token: 'a'.repeat(20), scope: 'read' });

	test('a grant narrower than the consent asked for is found, as in the live flow', () => {
		const list = [consent('read write'), exchange()];
		expect(codes(list)).toContain('scope-differs');
		expect(last(list)).toEqual(diagnose(list[1]!, { requestedScope: 'read write' }));
	});

	test('without a consent in the file, no scope was asked for', () => {
		expect(codes([exchange()])).not.toContain('scope-differs');
	});

	test('only the consent URL sets it: a scope parameter on another request does not', () => {
		const other = ex('api', `${BASE}/reader/api/0/tag/list?scope=read%20write`, {
			status: 200,
			body: '{}'
		});
		expect(codes([other, exchange()])).not.toContain('scope-differs');
	});

	test('a later consent replaces the earlier one', () => {
		expect(codes([consent('read write'), consent('read'), exchange()])).not.toContain(
			'scope-differs'
		);
	});
});

describe('diagnoseImported: the callback', () => {
	const callback = (query: string, findings: Exchange['findings'] = []) => ({
		...ex('callback', `https://playground.example/callback${query}`),
		findings
	});

	test('keeps the findings the file carried: the state check cannot be redone from a file', () => {
		const carried = diagnoseCallback('state-mismatch');
		expect(last([callback('?code=abc&state=x', carried)])).toEqual(carried);
	});

	test('an error in the redirect is explained as the live flow explains it', () => {
		const found = last([callback('?error=access_denied&error_description=No%20thanks&state=x')]);
		const expected = diagnoseCallback('error', 'access_denied', 'No thanks');
		expected[0]!.fix = explainAuthorizationError('access_denied');
		expect(found).toEqual(expected);
	});

	test('an error without a description is explained without one', () => {
		const found = last([callback('?error=invalid_scope')]);
		const expected = diagnoseCallback('error', 'invalid_scope', undefined);
		expected[0]!.fix = explainAuthorizationError('invalid_scope');
		expect(found).toEqual(expected);
		expect(found).toHaveLength(1);
	});

	test('a redirect with a code and no findings in the file gets none', () => {
		expect(last([callback('?code=abc&state=x')])).toEqual([]);
		expect(last([callback('')])).toEqual([]);
	});
});

describe("a customer's own browser HAR (tests/fixtures/customer.har, recorded from Chromium)", () => {
	// The customer's application at app.customer.test, registered "Read only", asks the sandbox
	// for `read write`; the sandbox sends the browser back to the application with invalid_scope.
	const file = () => readFileSync(resolve(import.meta.dirname, '../fixtures/customer.har'), 'utf8');

	test('the request back to its redirect URI is kept, with the invalid_scope it carried and the fix', () => {
		const r = importHar(file());
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(r.exchanges.map((e) => [e.step, new URL(e.request.url).pathname])).toEqual([
			['consent', '/sandbox/oauth2/auth'],
			['callback', '/cb']
		]);
		// The application's page, script and style sheet, twice over, are what is left out.
		expect(r.leftOut).toHaveLength(5);
		expect(r.leftOut.map((l) => [l.n, l.method, new URL(l.address!).pathname, l.status])).toEqual([
			[1, 'GET', '/', 200],
			[2, 'GET', '/app.css', 200],
			[3, 'GET', '/app.js', 200],
			[6, 'GET', '/app.css', 200],
			[7, 'GET', '/app.js', 200]
		]);
		const [finding, ...rest] = r.exchanges[1]!.findings;
		expect(rest).toEqual([]);
		expect(finding).toMatchObject({ level: 'error', code: 'invalid_scope' });
		expect(finding!.message).toContain('registered as "Read only" and cannot request write');
		expect(finding!.fix).toContain('ask for "read" only');
	});

	test('a state that no consent request of the file sent is said to be unknown; the file’s own is not', () => {
		const har = JSON.parse(file()) as { log: { entries: { request: { url: string } }[] } };
		const back = har.log.entries[4]!;
		back.request.url = back.request.url.replace('af0ifjsldkj-customer-state', 'made-up-state');
		const r = importHar(JSON.stringify(har));
		if (!r.ok) throw new Error(r.message);
		expect(r.exchanges[1]!.findings.map((f) => [f.level, f.code])).toEqual([
			['error', 'invalid_scope'],
			['warning', 'state-mismatch']
		]);
	});
});

describe('a recording whose file does not hold a body (tests/fixtures/browser.har, its token answer left out)', () => {
	type Content = { size: number; text?: string; encoding?: string };
	const withTokenBody = (content: (c: Content) => Content) => {
		const har = JSON.parse(
			readFileSync(resolve(import.meta.dirname, '../fixtures/browser.har'), 'utf8')
		) as { log: { entries: { response: { content: Content } }[] } };
		const entry = har.log.entries[5]!;
		entry.response.content = content(entry.response.content);
		const r = importHar(JSON.stringify(har));
		if (!r.ok) throw new Error(r.message);
		return r.exchanges.find((e) => e.step === 'exchange')!;
	};

	test('left out when saved: said, with its size, and never judged as an empty body or a wrong URL', () => {
		const ex = withTokenBody(({ size }) => ({ size }));
		expect(ex.response).toMatchObject({
			status: 200,
			body: '',
			bodyMissing: { why: 'not-recorded', size: 221 }
		});
		expect(ex.findings.map((f) => [f.level, f.code])).toEqual([['warning', 'body-not-in-file']]);
		expect(ex.findings[0]!.message).toBe(
			'The file does not hold this response’s body (221 bytes): it was left out when the file was saved, so what the service answered is not judged.'
		);
		expect(verdictOf([ex], T0)).toMatchObject({
			tone: 'neutral',
			text: 'Step 3, code exchange: HTTP 200, not judged: the file does not hold its body'
		});
		// Saved again by the playground, the body is still missing, not an empty one.
		const again = importHar(JSON.stringify(toHar([ex])));
		if (!again.ok) throw new Error(again.message);
		expect(again.exchanges[0]!.response!.bodyMissing).toEqual({ why: 'not-recorded', size: 221 });
	});

	test('in a base64 that does not decode: said so; an empty text with a size of 0 is an empty body', () => {
		const bad = withTokenBody(({ size }) => ({
			size,
			text: '!!!not base64@@@',
			encoding: 'base64'
		}));
		expect(bad.response!.bodyMissing).toEqual({ why: 'undecodable' });
		expect(bad.findings.map((f) => f.code)).toEqual(['body-not-in-file']);
		const empty = withTokenBody(() => ({ size: 0, text: '' }));
		expect(empty.response!.bodyMissing).toBeUndefined();
		expect(empty.findings.map((f) => f.code)).toContain('wrong-endpoint');
	});
});

describe('a code sent twice in one recording', () => {
	const exchangeOf = (code: string, status: number, body: string) => {
		const e = ex('exchange', `${BASE}/oauth2/token`, { status, body });
		e.request = {
			...e.request,
			method: 'POST',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: `grant_type=authorization_code&code=${encodeURIComponent(code)}&client_id=c`
		};
		return e;
	};
	const ok = '{"access_token":"a","token_type":"Bearer"}';
	const refused =
		'{"error":"invalid_grant","error_description":"The authorization code was already used"}';

	test('the second refused: one error that names the first exchange, in place of the generic refusal', () => {
		const out = diagnoseImported([
			consent('read'),
			exchangeOf('code-1', 200, ok),
			exchangeOf('code-1', 400, refused)
		]);
		expect(out[1]!.findings.map((f) => f.code)).not.toContain('code-reused');
		const errors = out[2]!.findings.filter((f) => f.level === 'error');
		expect(errors.map((f) => f.code)).toEqual(['code-reused']);
		expect(errors[0]!.message).toContain('already sent to the token endpoint in exchange #2');
		expect(errors[0]!.message).toContain('"The authorization code was already used"');
	});

	test('the second given tokens again: a warning that the service should refuse it', () => {
		const out = diagnoseImported([exchangeOf('code-2', 200, ok), exchangeOf('code-2', 200, ok)]);
		expect(out[1]!.findings).toContainEqual(
			expect.objectContaining({ level: 'warning', code: 'code-reuse-accepted' })
		);
	});

	test('only the refusal is said again; the request’s other findings stay', () => {
		const again = exchangeOf('code-3', 400, refused);
		again.request = { ...again.request, headers: [] };
		const out = diagnoseImported([exchangeOf('code-3', 200, ok), again]);
		expect(out[1]!.findings.map((f) => f.code)).toEqual(['content-type', 'code-reused']);
	});

	test('another refusal of the same code, or a description that is no text, is not reworded', () => {
		const client = '{"error":"invalid_client","error_description":"nope"}';
		const other = diagnoseImported([exchangeOf('c4', 200, ok), exchangeOf('c4', 401, client)]);
		expect(other[1]!.findings.map((f) => f.code)).toEqual(['invalid_client']);
		const numeric = diagnoseImported([
			exchangeOf('c5', 200, ok),
			exchangeOf('c5', 400, '{"error":"invalid_grant","error_description":42}')
		]);
		const [reused] = numeric[1]!.findings;
		expect(reused).toMatchObject({ code: 'code-reused' });
		expect(reused!.message).not.toContain('42');
		expect(reused!.message).not.toContain('said');
	});

	test('a code sent again that got a redirect or no answer is not "given tokens again"', () => {
		const redirected = exchangeOf('c6', 300, '');
		const unanswered = exchangeOf('c6', 200, ok);
		unanswered.response = undefined;
		unanswered.failure = { kind: 'refused', message: 'connection refused' };
		const out = diagnoseImported([exchangeOf('c6', 200, ok), redirected, unanswered]);
		for (const e of out.slice(1))
			expect(e.findings.map((f) => f.code)).not.toContain('code-reuse-accepted');
	});

	test('a refresh that carries a code parameter is no code sent again', () => {
		const refresh = exchangeOf('c7', 200, ok);
		refresh.step = 'refresh';
		refresh.request = {
			...refresh.request,
			body: 'grant_type=refresh_token&refresh_token=r&code=c7'
		};
		const out = diagnoseImported([exchangeOf('c7', 200, ok), refresh]);
		expect(out[1]!.findings.map((f) => f.code)).not.toContain('code-reuse-accepted');
	});

	test('two codes, or codes shortened by an export, are not compared', () => {
		const two = diagnoseImported([exchangeOf('a', 200, ok), exchangeOf('b', 400, refused)]);
		expect(two[1]!.findings.map((f) => f.code)).toEqual(['invalid_grant']);
		const short = diagnoseImported([
			exchangeOf('eyJh…wxyz', 200, ok),
			exchangeOf('eyJh…wxyz', 400, refused)
		]);
		expect(short[1]!.findings.map((f) => f.code)).toEqual(['invalid_grant']);
	});
});

describe('a consent request whose recorded answer refuses its redirect URI (as the live check says)', () => {
	const ORIGIN = 'https://auth.example';
	const SENT = 'https://app.customer.test/cb';
	const values = { uri: SENT, registered: 'https://app.customer.test/callback', origin: ORIGIN };
	const URL_SENT = `${ORIGIN}/authorize?client_id=reader-app&response_type=code&redirect_uri=${encodeURIComponent(SENT)}&state=xyz`;
	/** The consent request the browser recorded, answered as the fixture's server answers it. */
	function recorded(f: RefusalFixture): Exchange {
		const headers: HeaderList = [];
		if (f.contentType) headers.push(['Content-Type', f.contentType]);
		if (f.location) headers.push(['Location', fill(f.location, values)]);
		return {
			...ex('consent', URL_SENT),
			response: {
				status: f.status,
				statusText: '',
				httpVersion: '1.1',
				headers,
				body: f.body ? fill(f.body, values) : '',
				truncated: false
			}
		};
	}
	const codes = (e: Exchange) => diagnoseImported([e])[0]!.findings.map((f) => f.code);

	test.each(POSITIVES.map((f) => [f.server, f] as const))('%s: the finding', (_, f) => {
		const found = diagnoseImported([recorded(f)])[0]!.findings;
		const code =
			f.expect!.strength === 'certain' ? 'redirect_uri_mismatch' : 'redirect-uri-likely-refused';
		expect(found.map((x) => x.code)).toEqual([code]);
		expect(found[0]!.message).toContain(`"${SENT}"`);
		expect(found[0]!.message).toContain('client_id "reader-app"');
	});

	test.each(NEGATIVES.map((f) => [f.server, f] as const))('%s: none', (_, f) => {
		expect(codes(recorded(f))).not.toContain('redirect_uri_mismatch');
		expect(codes(recorded(f))).not.toContain('redirect-uri-likely-refused');
	});

	test('the customer’s recording: its invalid_scope redirect is no redirect-URI refusal', () => {
		const text = readFileSync(resolve('tests/fixtures/customer.har'), 'utf8');
		const r = importHar(text);
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		const all = r.exchanges.flatMap((e) => e.findings.map((f) => f.code));
		expect(all).toContain('invalid_scope');
		expect(all).not.toContain('redirect_uri_mismatch');
		expect(all).not.toContain('redirect-uri-likely-refused');
	});
});

describe('a code exchange that sent another redirect_uri than the consent that brought the code', () => {
	const APP = 'https://app.example/callback';
	const consentTo = (uri: string, state: string) =>
		ex(
			'consent',
			`${BASE}/oauth2/auth?client_id=c&response_type=code&redirect_uri=${encodeURIComponent(uri)}&state=${state}`
		);
	const back = (code: string, state: string) =>
		ex('callback', `${APP}?code=${code}&state=${state}`);
	const exchangeWith = (code: string, uri: string | undefined, body: string, status = 400) => {
		const e = ex('exchange', `${BASE}/oauth2/token`, { status, body });
		e.request = {
			...e.request,
			method: 'POST',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: `grant_type=authorization_code&code=${code}${uri === undefined ? '' : `&redirect_uri=${encodeURIComponent(uri)}`}&client_id=c`
		};
		return e;
	};
	const generic = '{"error":"invalid_grant","error_description":"Invalid authorization code"}';

	test('refused: the finding names both values, in place of the list of causes', () => {
		const out = diagnoseImported([
			consentTo(APP, 's1'),
			back('k1', 's1'),
			exchangeWith('k1', `${APP}/`, generic)
		]);
		const errors = out[2]!.findings.filter((f) => f.level === 'error');
		expect(errors).toHaveLength(1);
		expect(errors[0]!.code).toBe('invalid_grant');
		expect(errors[0]!.message).toContain(
			`this exchange sent redirect_uri ${APP}/, where the consent request that brought the code sent ${APP}`
		);
		expect(errors[0]!.message).toContain('"Invalid authorization code"');
	});

	test('the same value, another consent’s code, no redirect_uri sent, or the words of another cause: not said', () => {
		const said = (list: Exchange[]) =>
			diagnoseImported(list)
				.at(-1)!
				.findings.some((f) => f.message.includes('where the consent request that brought'));
		expect(said([consentTo(APP, 's2'), back('k2', 's2'), exchangeWith('k2', APP, generic)])).toBe(
			false
		);
		// The code came back for another consent request, whose redirect_uri is the one sent.
		expect(
			said([
				consentTo(`${APP}/`, 's3'),
				consentTo(APP, 's4'),
				back('k3', 's4'),
				exchangeWith('k3', APP, generic)
			])
		).toBe(false);
		expect(
			said([consentTo(APP, 's5'), back('k5', 's5'), exchangeWith('k5', undefined, generic)])
		).toBe(false);
		// A later consent request with the same state (a custom one) and another redirect_uri does
		// not change which consent the code came back for.
		expect(
			said([
				consentTo(APP, 's8'),
				back('k8', 's8'),
				consentTo(`${APP}/other`, 's8'),
				exchangeWith('k8', APP, generic)
			])
		).toBe(false);
		// The service's own words name another cause: they decide.
		const expired = '{"error":"invalid_grant","error_description":"Code has expired"}';
		expect(
			said([consentTo(APP, 's6'), back('k6', 's6'), exchangeWith('k6', `${APP}/`, expired)])
		).toBe(false);
		// Tokens given for it: no refusal to explain.
		expect(
			said([
				consentTo(APP, 's7'),
				back('k7', 's7'),
				exchangeWith('k7', `${APP}/`, '{"access_token":"a","token_type":"Bearer"}', 200)
			])
		).toBe(false);
	});
});

describe('the service’s own advice only for a recording of the service (advice.ts)', () => {
	const OTHER = 'https://id.example/oidc';
	const userInfo = (base: string, path: string) =>
		ex('userinfo', `${base}${path}`, { status: 200, body: '{"sub":"alice"}' });
	const scopeRefused = (redirect: string) =>
		ex('callback', `${redirect}?error=invalid_scope&state=s`);

	test('another server’s recording: no userId note, no "Read only" in a scope refusal', () => {
		const token = tokens('exchange', { access_token: 'a'.repeat(20) });
		token.request = { ...token.request, url: `${OTHER}/token` };
		const out = diagnoseImported([
			ex('consent', `${OTHER}/auth?client_id=c&scope=read+write&state=s`),
			scopeRefused('https://app.example/cb'),
			token,
			userInfo(OTHER, '/me')
		]);
		expect(out[3]!.findings.map((f) => f.code)).not.toContain('userinfo-fields');
		expect(JSON.stringify(out[1]!.findings)).not.toContain('Read only');
	});

	test('the service’s recording (its documented paths, below any base URL): its words', () => {
		const out = diagnoseImported([
			consent('read write'),
			scopeRefused('https://app.example/cb'),
			userInfo(BASE, '/reader/api/0/user-info')
		]);
		expect(out[2]!.findings.map((f) => f.code)).toContain('userinfo-fields');
		expect(JSON.stringify(out[1]!.findings)).toContain('Read only');
	});
});
