import { describe, expect, test } from 'vitest';
import { durationText, firstImportFailure, importVerdict, verdictOf } from '$lib/exchange/verdict';
import type { Exchange, Finding, Step } from '$lib/exchange/types';

const T0 = Date.parse('2026-03-14T10:00:00.000Z');

function answer(
	step: Step,
	status: number,
	body: unknown,
	findings: Finding[] = [],
	startedAt = '2026-03-14T10:00:00.000Z'
): Exchange {
	return {
		id: `${step}-${status}`,
		step,
		startedAt,
		request: {
			method: 'POST',
			url: 'https://svc.test/oauth2/token',
			httpVersion: '1.1',
			headers: [],
			body: ''
		},
		timing: { total: 12 },
		findings,
		response: {
			status,
			statusText: status === 200 ? 'OK' : 'Unauthorized',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: typeof body === 'string' ? body : JSON.stringify(body),
			truncated: false
		}
	};
}

const tokens = { access_token: 'at', token_type: 'Bearer', expires_in: 3600, scope: 'read write' };
const consent: Exchange = { ...answer('consent', 302, ''), response: undefined };

describe('the verdict on the flow', () => {
	test('none before the first attempt', () => {
		expect(verdictOf([], T0)).toBeUndefined();
		// A consent request prepared and not opened is no attempt yet.
		expect(verdictOf([], T0, undefined, { url: 'https://svc.test/oauth2/auth?scope=read' })).toBe(
			undefined
		);
	});

	test('tokens received: the scope granted and the time left, at the time asked', () => {
		const ex = answer('exchange', 200, tokens);
		expect(verdictOf([consent, ex], T0 + 60_000)).toEqual({
			tone: 'ok',
			text: '✓ Tokens received: read write, expires in 59 min',
			target: 'tokens'
		});
		expect(verdictOf([ex], T0 + 3_600_000)?.text).toBe(
			'✓ Tokens received: read write, the access token has expired'
		);
		// No scope in the answer, no expires_in: neither is made up.
		expect(verdictOf([answer('exchange', 200, { access_token: 'at' })], T0)?.text).toBe(
			'✓ Tokens received'
		);
	});

	test('a failed exchange names its step, the OAuth error and the first error finding', () => {
		const ex = answer('exchange', 401, { error: 'invalid_client' }, [
			{ level: 'info', code: 'x', message: 'Not this one.' },
			{
				level: 'error',
				code: 'invalid_client',
				message:
					'The service did not accept the client credentials. The service said: "Bad secret. Try again."'
			}
		]);
		expect(verdictOf([consent, ex], T0)).toEqual({
			tone: 'fail',
			text: '✕ Step 3, code exchange, failed: invalid_client, the service did not accept the client credentials',
			target: 'exchange'
		});
	});

	test('the newest token request decides: a refresh after the exchange', () => {
		const ok = answer('exchange', 200, tokens);
		const refused = answer('refresh', 400, { error: 'invalid_grant' });
		expect(verdictOf([ok, refused], T0)?.text).toBe('✕ Step 5, refresh, failed: invalid_grant');
		const again = answer('refresh', 200, tokens, [], '2026-03-14T10:30:00.000Z');
		expect(verdictOf([ok, refused, again], T0 + 1_800_000)?.text).toBe(
			'✓ Tokens received: read write, expires in 1 h'
		);
	});

	test('no answer, or one that is not the tokens, is a failure with what there is to say', () => {
		const failed: Exchange = {
			...answer('exchange', 200, ''),
			response: undefined,
			failure: { kind: 'refused', message: 'Nothing listens there.' }
		};
		expect(verdictOf([failed], T0)?.text).toBe(
			'✕ Step 3, code exchange, failed: connection refused'
		);
		expect(verdictOf([answer('exchange', 200, '<html>')], T0)?.text).toBe(
			'✕ Step 3, code exchange, failed: HTTP 200'
		);
		expect(verdictOf([answer('exchange', 500, 'oops')], T0)?.text).toBe(
			'✕ Step 3, code exchange, failed: HTTP 500'
		);
	});

	test('only a 2xx answer whose JSON has a string access_token is the tokens', () => {
		for (const status of [300, 400])
			expect(verdictOf([answer('exchange', status, tokens)], T0)?.text, String(status)).toBe(
				`✕ Step 3, code exchange, failed: HTTP ${status}`
			);
		for (const body of [{ token_type: 'Bearer' }, { access_token: 42 }])
			expect(verdictOf([answer('exchange', 200, body)], T0)?.text).toBe(
				'✕ Step 3, code exchange, failed: HTTP 200'
			);
		expect(verdictOf([answer('exchange', 201, tokens)], T0)?.tone).toBe('ok');
	});

	test('the scope granted is shown trimmed', () => {
		const spaced = answer('exchange', 200, { access_token: 'at', scope: ' read write ' });
		expect(verdictOf([spaced], T0)?.text).toBe('✓ Tokens received: read write');
	});

	test('a finding’s first sentence ends at a stop before a space or the end, not at a dot in an address', () => {
		const refused = (message: string) =>
			verdictOf(
				[
					answer('exchange', 400, { error: 'invalid_grant' }, [
						{ level: 'error', code: 'x', message }
					])
				],
				T0
			)?.text;
		expect(refused('The redirect URI https://app.test/cb was refused. Register it.')).toBe(
			'✕ Step 3, code exchange, failed: invalid_grant, the redirect URI https://app.test/cb was refused'
		);
		expect(refused('No sentence ends here')).toBe(
			'✕ Step 3, code exchange, failed: invalid_grant, no sentence ends here'
		);
	});

	test('durations in whole units, rounded down', () => {
		expect(durationText(45_999)).toBe('45 s');
		expect(durationText(60_000)).toBe('1 min');
		expect(durationText(3_599_999)).toBe('59 min');
		expect(durationText(3_600_000 + 5 * 60_000)).toBe('1 h 5 min');
		expect(durationText(48 * 3_600_000)).toBe('2 days');
	});
});

describe('a replay in a fork (server/steps/replay.ts)', () => {
	const ok = answer('exchange', 200, tokens);
	const replay: Exchange = { ...answer('exchange', 400, { error: 'invalid_grant' }), replay: true };
	const check = (status: number): Exchange => ({
		...answer('userinfo', status, {}),
		id: `check-${status}`,
		replay: true
	});

	test('the replayed exchange is not the flow’s attempt: the verdict is the exchange before it', () => {
		expect(verdictOf([ok, replay, check(200)], T0 + 60_000)?.text).toBe(
			'✓ Tokens received: read write, expires in 59 min'
		);
	});

	test('a check of revocation that got 401 after the tokens: they were revoked', () => {
		expect(verdictOf([ok, replay, check(401)], T0)).toEqual({
			tone: 'fail',
			text: '✕ Tokens revoked: the service revoked them when their code was replayed',
			target: 'tokens'
		});
		// A 401 of the flow's own user-info call is no replay's check.
		expect(verdictOf([ok, { ...check(401), replay: undefined }], T0)?.tone).toBe('ok');
	});

	test('after a try of the previous refresh token, the line names that as the cause', () => {
		const tried: Exchange = {
			...check(401),
			findings: [{ level: 'info', code: 'refresh-replay-access-revoked', message: 'm' }]
		};
		expect(verdictOf([ok, tried], T0)?.text).toBe(
			'✕ Tokens revoked: the service revoked them when a superseded refresh token came back'
		);
	});

	test('the flow a fork was made from: what the fork found about the tokens both hold is its line', () => {
		// The fork's exchanges are in the fork's transcript: only the server's word (byFork) says it.
		expect(verdictOf([ok], T0, undefined, undefined, 'code')).toEqual({
			tone: 'fail',
			text: '✕ Tokens revoked: the service revoked them when their code was replayed, in a fork of this flow',
			target: 'tokens'
		});
		expect(verdictOf([ok], T0, undefined, undefined, 'refresh')?.text).toBe(
			'✕ Tokens revoked: the service revoked them when a superseded refresh token came back, in a fork of this flow'
		);
		expect(verdictOf([ok], T0, undefined, undefined, null)?.tone).toBe('ok');
		// Nor are they said to still work under a later line.
		const numbers = new Map([[ok.id, 3]]);
		const opened: Exchange = {
			...consent,
			id: 'opened',
			request: { ...consent.request, method: 'GET', url: 'https://svc.test/oauth2/auth?scope=read' }
		};
		expect(verdictOf([ok, opened], T0, numbers)?.text).toBe(
			'Step 1, consent page opened for scope read; nothing came back yet; the tokens from #3 still work'
		);
		expect(verdictOf([ok, opened], T0, numbers, undefined, 'code')?.text).toBe(
			'Step 1, consent page opened for scope read; nothing came back yet'
		);
	});

	test('only a replay’s user-info check after the tokens says they were revoked', () => {
		const refused401: Exchange = { ...answer('exchange', 401, { error: 'invalid_client' }) };
		// A replay's 401 that is no user-info call, a check before the newest tokens, a check that
		// got no answer: none says the newest tokens were revoked.
		expect(verdictOf([ok, { ...refused401, replay: true }], T0)?.tone).toBe('ok');
		const newer = { ...ok, id: 'exchange-200-newer' };
		expect(verdictOf([ok, check(401), newer], T0)?.tone).toBe('ok');
		expect(verdictOf([ok, { ...check(0), response: undefined }], T0)?.tone).toBe('ok');
	});
});

describe('the verdict on the redirect back (RFC 6749 §4.1.2)', () => {
	const back = (query: string, findings: Finding[] = []): Exchange => ({
		...answer('callback', 303, ''),
		id: `callback-${query}`,
		request: {
			method: 'GET',
			url: `http://127.0.0.1:5173/callback?${query}`,
			httpVersion: '1.1',
			headers: [],
			body: ''
		},
		findings
	});
	const ok = answer('exchange', 200, tokens);

	test('a refused consent names its step, the error and the service’s description', () => {
		const refused = back(
			'error=invalid_scope&error_description=This+application+is+registered+as+%22Read+only%22+and+cannot+request+write.&state=s'
		);
		expect(verdictOf([consent, refused], T0)).toEqual({
			tone: 'fail',
			text: '✕ Step 2, consent refused: invalid_scope, this application is registered as "Read only" and cannot request write',
			target: 'callback'
		});
		// Without a description, the error alone: the finding only repeats it.
		expect(verdictOf([back('error=server_error&state=s')], T0)?.text).toBe(
			'✕ Step 2, consent refused: server_error'
		);
	});

	test('a refusal after tokens is the newest attempt: the tokens’ line is not kept', () => {
		const refused = back('error=invalid_scope&state=s');
		expect(verdictOf([ok, refused], T0)?.tone).toBe('fail');
		// And the tokens of a later exchange are the line again.
		const later = { ...ok, id: 'later' };
		expect(verdictOf([ok, refused, later], T0)?.tone).toBe('ok');
	});

	test('a declined consent says whether the tokens held before still work, by their number', () => {
		const denied = back('error=access_denied&state=s');
		const numbers = new Map([
			[ok.id, 3],
			[denied.id, 5]
		]);
		expect(verdictOf([ok, denied], T0 + 60_000, numbers)).toEqual({
			tone: 'neutral',
			text: '⊘ Consent declined; the tokens from #3 still work',
			target: 'callback'
		});
		expect(verdictOf([ok, denied], T0 + 3_600_000, numbers)?.text).toBe(
			'⊘ Consent declined; the access token from #3 has expired'
		);
		// No tokens before it, or a refused exchange: nothing is said about tokens.
		expect(verdictOf([denied], T0)?.text).toBe('⊘ Consent declined');
		const refusedEx = answer('exchange', 400, { error: 'invalid_grant' });
		expect(verdictOf([refusedEx, denied], T0)?.text).toBe('⊘ Consent declined');
	});

	test('a code kept for the script, a code waiting, a callback that failed its checks', () => {
		const forScript = back('code=abc&state=s', [
			{ level: 'info', code: 'code-for-script', message: 'Kept for the script.' }
		]);
		expect(verdictOf([ok, forScript], T0)).toEqual({
			tone: 'neutral',
			text: 'Code ready for the script, not exchanged',
			target: 'callback'
		});
		expect(verdictOf([back('code=abc&state=s')], T0)).toEqual({
			tone: 'ok',
			text: '✓ Step 2, code received: exchange it in step 3',
			target: 'exchange'
		});
		const mismatch = back('code=abc&state=other', [
			{
				level: 'error',
				code: 'state-mismatch',
				message: 'The returned state does not match the saved one. The response may be forged.'
			}
		]);
		expect(verdictOf([mismatch], T0)?.text).toBe(
			'✕ Step 2, callback, failed: the returned state does not match the saved one'
		);
		expect(verdictOf([back('state=s')], T0)?.text).toBe('✕ Step 2, callback, failed');
	});

	const opened = (scope: string, id = `consent-${scope}`): Exchange => ({
		...consent,
		id,
		request: {
			...consent.request,
			method: 'GET',
			url: `https://svc.test/oauth2/auth?client_id=c&scope=${encodeURIComponent(scope)}&state=s2`
		}
	});

	test('a consent page opened that nothing came back from: said, with the tokens held before', () => {
		const numbers = new Map([[ok.id, 3]]);
		expect(verdictOf([opened('read write')], T0)).toEqual({
			tone: 'neutral',
			text: 'Step 1, consent page opened for scope read write; nothing came back yet',
			target: 'consent'
		});
		// Opened again after tokens: they still work, or have expired, by their number.
		expect(verdictOf([ok, opened('read')], T0 + 60_000, numbers)?.text).toBe(
			'Step 1, consent page opened for scope read; nothing came back yet; the tokens from #3 still work'
		);
		expect(verdictOf([ok, opened('read')], T0 + 3_600_000, numbers)?.text).toBe(
			'Step 1, consent page opened for scope read; nothing came back yet; the access token from #3 has expired'
		);
		// What came back after it is the line: the redirect back, then the exchange.
		const refused = back('error=invalid_scope&state=s2');
		expect(verdictOf([opened('read write'), refused], T0)?.text).toBe(
			'✕ Step 2, consent refused: invalid_scope'
		);
		expect(verdictOf([opened('read'), back('code=abc&state=s2'), ok], T0)?.tone).toBe('ok');
		// Without a scope in its address (a pushed request's handle), none is named.
		const pushed = {
			...consent,
			request: { ...consent.request, url: 'https://svc.test/oauth2/auth?client_id=c&request_uri=u' }
		};
		expect(verdictOf([pushed], T0)?.text).toBe(
			'Step 1, consent page opened; nothing came back yet'
		);
	});

	test('after a refusal, a new consent request ready to open is the line, with the refusal as earlier', () => {
		const refused = back('error=invalid_scope&error_description=Read+only+application.&state=s2');
		const retry = { url: 'https://svc.test/oauth2/auth?client_id=c&scope=read&state=s3' };
		expect(verdictOf([opened('read write'), refused], T0, undefined, retry)).toEqual({
			tone: 'neutral',
			text: 'Step 1, a new consent request for scope read is ready to open (earlier: consent refused: invalid_scope, read only application)',
			target: 'consent'
		});
		// Opened, it is the line until something comes back.
		expect(verdictOf([opened('read write'), refused, opened('read', 'retry')], T0)?.text).toBe(
			'Step 1, consent page opened for scope read; nothing came back yet'
		);
		// A consent page opened earlier and a newer request prepared since: the newer one is the line.
		const numbers = new Map([[ok.id, 3]]);
		expect(verdictOf([ok, opened('read write')], T0, numbers, retry)?.text).toBe(
			'Step 1, a new consent request for scope read is ready to open; the tokens from #3 still work'
		);
		// A request prepared after tokens changes nothing: they still work.
		expect(verdictOf([ok], T0 + 60_000, undefined, retry)?.text).toBe(
			'✓ Tokens received: read write, expires in 59 min'
		);
		// After a declined consent, or a code not exchanged (a new request drops it): the new request,
		// and whether the tokens held still work.
		const denied = back('error=access_denied&state=s2');
		expect(verdictOf([ok, denied], T0, numbers, retry)?.text).toBe(
			'Step 1, a new consent request for scope read is ready to open; the tokens from #3 still work'
		);
		const code = back('code=abc&state=s2');
		expect(verdictOf([code], T0, undefined, retry)).toEqual({
			tone: 'neutral',
			text: 'Step 1, a new consent request for scope read is ready to open',
			target: 'consent'
		});
		const forScript = back('code=abc&state=s2', [
			{ level: 'info', code: 'code-for-script', message: 'Kept for the script.' }
		]);
		expect(verdictOf([forScript], T0, undefined, retry)?.text).toBe(
			'Step 1, a new consent request for scope read is ready to open'
		);
	});

	test('tokens revoked since, or refused since, are not said to still work', () => {
		const numbers = new Map([[ok.id, 3]]);
		const revoke = {
			...answer('revoke', 200, ''),
			request: { ...ok.request, url: 'https://svc.test/oauth2/revoke' }
		};
		expect(verdictOf([ok, revoke, opened('read')], T0, numbers)?.text).toBe(
			'Step 1, consent page opened for scope read; nothing came back yet'
		);
		const refusedCall = answer('userinfo', 401, { error: 'invalid_token' });
		expect(
			verdictOf([ok, refusedCall, back('error=access_denied&state=s')], T0, numbers)?.text
		).toBe('⊘ Consent declined');
		// A revocation the service refused leaves them working.
		const notRevoked = { ...revoke, response: { ...revoke.response!, status: 400 } };
		expect(verdictOf([ok, notRevoked, opened('read')], T0, numbers)?.text).toBe(
			'Step 1, consent page opened for scope read; nothing came back yet; the tokens from #3 still work'
		);
	});

	test('a recorded consent request with its answer (a HAR) says what the service answered, not "nothing yet"', () => {
		const withAnswer = (status: number, findings: Finding[] = []) => ({
			...opened('read'),
			response: { ...answer('consent', status, '').response!, body: '<html>Error</html>' },
			findings
		});
		expect(verdictOf([withAnswer(400)], T0)).toEqual({
			tone: 'fail',
			text: '✕ Step 1, consent, failed: HTTP 400',
			target: 'consent'
		});
		expect(verdictOf([withAnswer(200)], T0)?.text).toBe(
			'Step 1, consent page answered 200 for scope read; no redirect back is recorded'
		);
		expect(verdictOf([withAnswer(302)], T0)?.tone).toBe('neutral');
	});

	test('an ignored redirect (stale or unsolicited) is no attempt of the flow', () => {
		const stale = back('code=old&state=old', [
			{ level: 'warning', code: 'callback-ignored', message: 'Stale.' }
		]);
		expect(verdictOf([ok, stale], T0 + 60_000)?.text).toBe(
			'✓ Tokens received: read write, expires in 59 min'
		);
	});
});

describe('the verdict on the registration check', () => {
	const checked = (findings: Finding[], status = 302) => ({
		...answer('check', status, ''),
		findings
	});

	test('accepted: what was checked, and what was not', () => {
		expect(
			verdictOf([checked([{ level: 'info', code: 'registration-ok', message: 'Accepted.' }])], T0)
		).toEqual({
			tone: 'ok',
			text: '✓ Registration check: client_id and redirect_uri accepted; the scope and any client secret are not checked here',
			target: 'consent'
		});
	});

	test('refused: the first error finding; neither: what came back', () => {
		const refused = checked(
			[
				{ level: 'warning', code: 'w', message: 'Not this.' },
				{
					level: 'error',
					code: 'unknown-client',
					message: 'The service does not know client_id "nope". Check it.'
				}
			],
			400
		);
		expect(verdictOf([refused], T0)?.text).toBe(
			'✕ Registration check: the service does not know client_id "nope"'
		);
		expect(verdictOf([checked([], 200)], T0)).toEqual({
			tone: 'neutral',
			text: 'Registration check: no verdict (HTTP 200); see step 1',
			target: 'consent'
		});
	});
});

describe('the verdict on an imported recording', () => {
	const back = (query: string): Exchange => ({
		...answer('callback', 200, '<html>'),
		id: 'back',
		request: {
			method: 'GET',
			url: `https://app.customer.test/cb?${query}`,
			httpVersion: '1.1',
			headers: [],
			body: ''
		},
		findings: [{ level: 'error', code: 'invalid_scope', message: 'The service sent back error.' }]
	});

	test('what it shows, and none failed', () => {
		const ok = answer('exchange', 200, tokens);
		expect(importVerdict('a.har', [consent, ok])).toEqual({
			tone: 'ok',
			text: '✓ Imported a.har: 2 exchanges, none failed',
			target: 'transcript-title'
		});
		expect(importVerdict('b.har', [ok]).text).toBe('✓ Imported b.har: 1 exchange, none failed');
		expect(firstImportFailure([consent, ok])).toBeUndefined();
	});

	test('the first failure by its number: a redirect back’s error and description, a token error', () => {
		const refused = back(
			'error=invalid_scope&error_description=This+application+is+registered+as+%22Read+only%22.&state=s'
		);
		const badSecret = answer('exchange', 401, { error: 'invalid_client' });
		expect(importVerdict('customer.har', [consent, refused, badSecret])).toEqual({
			tone: 'fail',
			text: '✕ Imported customer.har: 3 exchanges; the first failure is #2 Callback: invalid_scope, this application is registered as "Read only"',
			target: 'transcript-title'
		});
		expect(firstImportFailure([consent, refused, badSecret])).toBe(refused);
		expect(importVerdict('c.har', [consent, badSecret]).text).toBe(
			'✕ Imported c.har: 2 exchanges; the first failure is #2 Code exchange: invalid_client'
		);
		// No answer at all is a failure too; a declined consent (a warning) is not.
		const cut: Exchange = {
			...answer('userinfo', 200, ''),
			response: undefined,
			failure: { kind: 'timeout', message: 'No answer.' }
		};
		expect(importVerdict('d.har', [cut]).text).toBe(
			'✕ Imported d.har: 1 exchange; the first failure is #1 User-info: timed out'
		);
		const declined = {
			...back('error=access_denied&state=s'),
			findings: [{ level: 'warning' as const, code: 'access_denied', message: 'Declined.' }]
		};
		expect(importVerdict('e.har', [declined]).tone).toBe('ok');
	});
});
