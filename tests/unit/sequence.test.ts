import { describe, expect, test } from 'vitest';
import type { Exchange, Step } from '$lib/exchange/types';
import {
	arrowAriaLabel,
	arrowLabels,
	lanesOf,
	layoutSequence,
	shortPath,
	STEP_NUMBER,
	statusCode,
	statusKind
} from '$lib/ui/sequence';
import { GEOMETRY } from '$lib/ui/sequence-frame';

const SANDBOX = 'http://127.0.0.1:5173/sandbox';

function ex(step: Step, over: Partial<Exchange> = {}): Exchange {
	const url: Record<Step, string> = {
		consent: `${SANDBOX}/oauth2/auth?client_id=sandbox-rw&state=abc`,
		callback: 'http://127.0.0.1:5173/callback?code=c&state=abc',
		exchange: `${SANDBOX}/oauth2/token`,
		refresh: `${SANDBOX}/oauth2/token`,
		userinfo: `${SANDBOX}/reader/api/0/user-info`,
		api: `${SANDBOX}/reader/api/0/subscription/list?output=json`,
		check: `${SANDBOX}/oauth2/auth?client_id=x`,
		secret: `${SANDBOX}/oauth2/token`,
		introspect: `${SANDBOX}/oauth2/introspect`,
		revoke: `${SANDBOX}/oauth2/revoke`,
		discovery: `${SANDBOX}/.well-known/openid-configuration`,
		par: `${SANDBOX}/oauth2/par`,
		jwks: `${SANDBOX}/jwks`
	};
	const method = step === 'exchange' || step === 'refresh' ? 'POST' : 'GET';
	return {
		id: `id-${step}`,
		step,
		startedAt: '2025-01-01T00:00:00.000Z',
		request: { method, url: url[step], httpVersion: '1.1', headers: [], body: '' },
		response:
			step === 'consent'
				? undefined
				: {
						status: step === 'callback' ? 303 : 200,
						statusText: step === 'callback' ? 'See Other' : 'OK',
						httpVersion: '1.1',
						headers: [],
						body: '',
						truncated: false
					},
		timing: { total: step === 'consent' || step === 'callback' ? 0 : 12 },
		findings: [],
		...over
	};
}

const notFound = {
	status: 403,
	statusText: 'Forbidden',
	httpVersion: '1.1',
	headers: [],
	body: '{}',
	truncated: false
};

describe('lanesOf', () => {
	test.each([
		['consent', 'browser', 'service'],
		['callback', 'browser', 'playground'],
		['exchange', 'playground', 'service'],
		['refresh', 'playground', 'service'],
		['userinfo', 'playground', 'service'],
		['api', 'playground', 'service'],
		['check', 'playground', 'service']
	] as const)('%s: %s → %s', (step, from, to) => {
		expect(lanesOf(step)).toEqual({ from, to });
	});
});

describe('statusKind', () => {
	test('a 2xx answer is ok', () => expect(statusKind(ex('exchange'))).toBe('ok'));
	test('a callback (303) that brought a code is the success it is, not a neutral redirect', () =>
		expect(statusKind(ex('callback'))).toBe('ok'));
	test('a redirect without a code or an error stays a redirect', () =>
		expect(
			statusKind(
				ex('callback', {
					request: { ...ex('callback').request, url: 'http://127.0.0.1:5173/callback?state=abc' }
				})
			)
		).toBe('redirect'));
	test('the consent navigation has no answer: pending', () =>
		expect(statusKind(ex('consent'))).toBe('pending'));
	test('a 4xx answer failed', () =>
		expect(statusKind(ex('userinfo', { response: notFound }))).toBe('failed'));
	test('a transport failure failed', () =>
		expect(
			statusKind(
				ex('exchange', { response: undefined, failure: { kind: 'timeout', message: 'slow' } })
			)
		).toBe('failed'));
	test('a 200 with an error finding failed', () =>
		expect(
			statusKind(
				ex('exchange', { findings: [{ level: 'error', code: 'no-access-token', message: 'x' }] })
			)
		).toBe('failed'));
	test('a 303 callback whose state did not match failed', () =>
		expect(
			statusKind(
				ex('callback', { findings: [{ level: 'error', code: 'state-mismatch', message: 'x' }] })
			)
		).toBe('failed'));
	test('warnings alone do not fail', () =>
		expect(
			statusKind(ex('api', { findings: [{ level: 'warning', code: 'w', message: 'x' }] }))
		).toBe('ok'));
});

describe('the diagram uses the step statuses', () => {
	const denied = (over: Partial<Exchange> = {}) =>
		ex('callback', {
			request: {
				method: 'GET',
				url: 'http://127.0.0.1:5173/callback?error=access_denied&state=abc',
				httpVersion: '1.1',
				headers: [],
				body: ''
			},
			findings: [{ level: 'warning', code: 'access_denied', message: 'declined' }],
			...over
		});
	const refusedCheck = ex('check', {
		response: { ...notFound, status: 400, statusText: 'Bad Request' }
	});

	test('a denial (callback error=access_denied) has its own mark: not a blue 303, not ✓', () => {
		expect(statusKind(denied())).toBe('denied');
		const l = arrowLabels(denied());
		expect(l.status).toBe('⊘ access_denied');
		expect(`${l.main} ${l.status}`).not.toContain('✓');
		expect(arrowAriaLabel(denied())).toContain('consent declined');
		const row = layoutSequence([denied()], { width: 640 }).rows[0]!;
		expect(row.kind).toBe('denied');
		expect(row.status.startsWith('⊘')).toBe(true);
		// Pasted back by hand (no answer recorded), a denial is still one.
		expect(statusKind(denied({ response: undefined }))).toBe('denied');
	});

	test('a denial keeps its mark when there is little room', () => {
		expect(arrowLabels(denied(), 10).status).toBe('⊘ access_denied');
	});

	test('refused: a registration check answered 400 is red with ✕, and no ✓ beside it', () => {
		expect(statusKind(refusedCheck)).toBe('failed');
		const l = arrowLabels(refusedCheck);
		expect(l.status).toBe('✕ 400 Bad Request');
		expect(`${l.main} ${l.status}`).not.toContain('✓');
		expect(layoutSequence([refusedCheck], { width: 640 }).rows[0]!.kind).toBe('failed');
	});

	test('✓ only beside a good answer', () => {
		const marks = [
			ex('exchange'),
			ex('callback'),
			ex('consent'),
			ex('userinfo', { response: notFound }),
			denied(),
			refusedCheck
		].map((e) => arrowLabels(e).status.includes('✓'));
		expect(marks).toEqual([true, true, false, false, false, false]);
	});

	test('a redirect is labelled by what it carries: its error, or the code it brought', () => {
		expect(arrowLabels(ex('callback')).status).toBe('✓ code received');
		expect(arrowLabels(ex('callback'), 8).status).toBe('✓ code');
		const scope = ex('callback', {
			request: {
				...ex('callback').request,
				url: 'http://127.0.0.1:5173/callback?error=invalid_scope&state=abc'
			},
			findings: [{ level: 'error', code: 'invalid_scope', message: 'x' }]
		});
		expect(arrowLabels(scope).status).toBe('✕ invalid_scope');
		// The registration check sent straight back with an error, by the Location it answered with.
		const checked = ex('check', {
			response: {
				...notFound,
				status: 302,
				statusText: 'Found',
				headers: [['Location', 'http://127.0.0.1:5173/callback?error=invalid_scope&state=x']]
			},
			findings: [{ level: 'error', code: 'invalid_scope', message: 'x' }]
		});
		expect(statusKind(checked)).toBe('failed');
		expect(arrowLabels(checked).status).toBe('✕ invalid_scope');
		// A 302 to a login page carries no error: a redirect, its status as it is.
		const login = ex('check', {
			response: { ...notFound, status: 302, statusText: 'Found', headers: [['Location', '/login']] }
		});
		expect(arrowLabels(login).status).toBe('302 Found');
	});

	test('another setup’s state-mismatch callback is failed, an error callback other than a denial too', () => {
		const other = ex('callback', {
			request: { ...denied().request, url: 'http://127.0.0.1:5173/callback?error=invalid_scope' },
			findings: [{ level: 'error', code: 'invalid_scope', message: 'x' }]
		});
		expect(statusKind(other)).toBe('failed');
	});

	test('arrows of another setup are marked as earlier, and are never the current step', () => {
		const mine = { ...ex('userinfo'), id: 'mine', setup: 'A' };
		const theirs = { ...ex('userinfo'), id: 'theirs', setup: 'B' };
		const l = layoutSequence([theirs, mine], { width: 640, current: 'userinfo', setupId: 'A' });
		expect(l.rows.map((r) => [r.id, r.stale, r.current])).toEqual([
			['theirs', true, false],
			['mine', false, true]
		]);
		expect(l.rows[0]!.ariaLabel).toContain('an earlier setup');
		// Without a setup id (an imported HAR), nothing is marked.
		expect(layoutSequence([theirs], { width: 640 }).rows[0]!.stale).toBe(false);
	});
});

describe('step numbers follow the order of the flow', () => {
	test('the cards’ order (consent, callback, exchange, user-info, refresh, API) counts 1 to 6', () => {
		const order = ['consent', 'callback', 'exchange', 'userinfo', 'refresh', 'api'] as const;
		expect(order.map((s) => STEP_NUMBER[s])).toEqual(['1', '2', '3', '4', '5', '6']);
	});
	test('an arrow carries the running number of its exchange, in sending order, never its step’s', () => {
		// An expired token: the refresh (step 5) is sent before the user-info call (step 4).
		const sent = [ex('exchange'), ex('refresh'), ex('userinfo')];
		const l = layoutSequence(sent, { width: 900 });
		expect(l.rows.map((r) => r.main.split(' ')[0])).toEqual(['#1', '#2', '#3']);
		expect(l.rows[1]!.ariaLabel).toBe('#2 POST /oauth2/token, 200 OK (refresh, step 5)');
		expect(l.rows[2]!.ariaLabel).toMatch(/^#3 GET …\/user-info, 200 OK \(user-info, step 4/);
		// A request with no step of its own is named instead.
		expect(layoutSequence([ex('check')], { width: 900 }).rows[0]!.ariaLabel).toMatch(
			/^#1 GET .*\(registration check\b/
		);
	});
});

describe('statusCode', () => {
	test('the number, the failure kind, or what the browser does', () => {
		expect(statusCode(ex('exchange'))).toBe('200');
		expect(
			statusCode(ex('exchange', { response: undefined, failure: { kind: 'timeout', message: '' } }))
		).toBe('timeout');
		expect(statusCode(ex('consent'))).toBe('navigates');
	});
});

describe('shortPath', () => {
	test.each([
		[`${SANDBOX}/oauth2/token`, '/oauth2/token'],
		[`${SANDBOX}/oauth2/auth?client_id=x&state=y`, '/oauth2/auth'],
		[`${SANDBOX}/reader/api/0/user-info`, '…/user-info'],
		['https://reader.test/reader/api/0/stream/contents/feed%2Fhttp', '…/contents/feed%2Fhttp'],
		['http://127.0.0.1:5173/callback?code=c', '/callback'],
		['https://auth.test/token', '/token'],
		['not a url?x=1', 'not a url']
	])('%s → %s', (url, short) => expect(shortPath(url)).toBe(short));

	test('long paths are cut from the left to the limit', () => {
		const s = shortPath('https://x.test/a/very/long/path/that/goes/on/and/on', 12);
		expect(s).toBe('…/on/and/on');
		expect(s.length).toBeLessThanOrEqual(12);
		expect(s.startsWith('…')).toBe(true);
		expect(s.endsWith('/on')).toBe(true);
	});
});

describe('arrowLabels', () => {
	test('full labels: number, method, short path; the status', () => {
		expect(arrowLabels(ex('exchange'))).toEqual({
			main: '3 POST /oauth2/token',
			status: '✓ 200 OK'
		});
		expect(arrowLabels(ex('consent'))).toEqual({
			main: '1 GET /oauth2/auth',
			status: 'the browser navigates'
		});
		expect(arrowLabels(ex('callback'))).toEqual({
			main: '2 GET /callback',
			status: '✓ code received'
		});
		expect(arrowLabels(ex('check'))).toEqual({
			main: 'check GET /oauth2/auth',
			status: '✓ 200 OK'
		});
	});

	test('every step has its number', () => {
		const steps = [
			'consent',
			'callback',
			'exchange',
			'refresh',
			'userinfo',
			'api',
			'check'
		] as const;
		expect(steps.map((step) => arrowLabels(ex(step)).main.split(' ')[0])).toEqual([
			'1',
			'2',
			'3',
			'5',
			'4',
			'6',
			'check'
		]);
		expect(arrowLabels(ex('userinfo')).main).toBe('4 GET …/user-info');
		expect(arrowLabels(ex('api')).main).toBe('6 GET …/subscription/list');
	});

	test('failures carry a ✕ mark, not only a colour', () => {
		expect(arrowLabels(ex('userinfo', { response: notFound })).status).toBe('✕ 403 Forbidden');
		expect(
			arrowLabels(
				ex('exchange', { response: undefined, failure: { kind: 'timeout', message: '' } })
			).status
		).toBe('✕ timed out');
		expect(
			arrowLabels(ex('exchange', { findings: [{ level: 'error', code: 'x', message: 'x' }] }))
				.status
		).toBe('✕ 200 OK');
		expect(arrowLabels(ex('exchange')).status).not.toContain('✕');
	});

	test('a failure is drawn by its meaning: the OAuth error, a refusal read from a page, the failure in words', () => {
		const answer = (status: number, body: string) => ({
			...notFound,
			status,
			statusText: { 200: 'OK', 400: 'Bad Request', 401: 'Unauthorized' }[status] ?? '',
			body
		});
		const badSecret = ex('exchange', {
			response: answer(401, '{"error":"invalid_client","error_description":"Bad secret"}')
		});
		expect(arrowLabels(badSecret).status).toBe('✕ invalid_client');
		expect(statusCode(badSecret)).toBe('invalid_client');
		expect(arrowAriaLabel(badSecret)).toBe(
			'Step 3, POST /oauth2/token, invalid_client (code exchange, failed)'
		);
		const spent = ex('refresh', { response: answer(400, '{"error":"invalid_grant"}') });
		expect(arrowLabels(spent).status).toBe('✕ invalid_grant');
		// An error page: the refusal its finding names; no error at all: the status.
		const page = ex('check', {
			response: answer(400, '<html><p>error: invalid_redirect_uri</p></html>'),
			findings: [{ level: 'error', code: 'redirect_uri_mismatch', message: 'Refused.' }]
		});
		expect(arrowLabels(page).status).toBe('✕ redirect_uri_mismatch');
		const unnamed = ex('check', {
			response: answer(400, '<html>no</html>'),
			findings: [{ level: 'error', code: 'unknown-client', message: 'Unknown.' }]
		});
		expect(arrowLabels(unnamed).status).toBe('✕ 400 Bad Request');
		// A success's body is not read for an error.
		expect(arrowLabels(ex('userinfo', { response: answer(200, '{"error":"x_y"}') })).status).toBe(
			'✓ 200 OK'
		);
		const plain = ex('exchange', {
			response: undefined,
			failure: { kind: 'plain-http', message: 'This port speaks plain HTTP.' }
		});
		expect(arrowLabels(plain).status).toBe('✕ plain HTTP on this port');
	});

	test('short of room, the path is cut, then dropped; the number and status stay', () => {
		const e = ex('api');
		const cut = arrowLabels(e, 18);
		expect(cut.main.length).toBeLessThanOrEqual(18);
		expect(cut.main).toBe('6 GET …/list');
		expect(arrowLabels(e, 10).main).toBe('6 GET');
		const failed = arrowLabels(ex('userinfo', { response: notFound }), 8);
		expect(failed).toEqual({ main: '4 GET', status: '✕ 403' });
	});
});

describe('arrowAriaLabel', () => {
	test('names the step, the request and the answer', () => {
		expect(arrowAriaLabel(ex('exchange'))).toBe(
			'Step 3, POST /oauth2/token, 200 OK (code exchange)'
		);
		expect(arrowAriaLabel(ex('consent'))).toBe(
			'Step 1, GET /oauth2/auth, the browser navigates (consent)'
		);
		expect(arrowAriaLabel(ex('check'))).toBe('Registration check: GET /oauth2/auth, 200 OK');
	});
	test('says failed and current in words', () => {
		expect(arrowAriaLabel(ex('userinfo', { response: notFound }), 'userinfo')).toBe(
			'Step 4, GET …/user-info, 403 Forbidden (user-info, failed, current step)'
		);
		expect(
			arrowAriaLabel(
				ex('refresh', { response: undefined, failure: { kind: 'timeout', message: '' } }),
				'api'
			)
		).toBe('Step 5, POST /oauth2/token, timed out (refresh, failed)');
	});
	test('when the path is not shown, the name still gives it', () => {
		expect(arrowAriaLabel(ex('exchange'), undefined, 10)).toBe(
			'Step 3, POST, 200 OK (code exchange, /oauth2/token)'
		);
		expect(arrowAriaLabel(ex('api'), undefined, 18)).toBe(
			'Step 6, GET …/list, 200 OK (API call, …/subscription/list)'
		);
	});

	// The words shown on the arrow must appear, in order and together, in its name (the rule axe
	// checks as label-content-name-mismatch): letters and digits only, bracketed parts left out.
	const words = (t: string) =>
		t
			.replace(/\([^()]*\)/g, ' ')
			.toLowerCase()
			.split(/[^\p{L}\p{N}]+/u)
			.filter(Boolean);
	const contains = (hay: string[], needle: string[]) =>
		hay.some((_, i) => needle.every((w, j) => hay[i + j] === w));
	const all = [
		ex('consent'),
		ex('callback'),
		ex('exchange'),
		ex('refresh', { response: undefined, failure: { kind: 'timeout', message: '' } }),
		ex('userinfo', { response: notFound }),
		ex('api'),
		ex('check', { response: { ...notFound, status: 400, statusText: 'Bad Request' } }),
		// Unnumbered steps whose arrow shows a short name ("par", "jwks") other than their own.
		ex('par'),
		ex('jwks'),
		ex('discovery')
	];
	test.each([Infinity, 30, 18, 12, 8, 4])(
		'the shown words are in the name (room for %d characters)',
		(room) => {
			for (const e of all) {
				const l = arrowLabels(e, room);
				expect(
					contains(words(arrowAriaLabel(e, 'api', room)), words(`${l.main} ${l.status}`))
				).toBe(true);
			}
		}
	);
});

describe('layoutSequence', () => {
	const flow = [
		ex('consent'),
		ex('callback'),
		ex('exchange'),
		ex('userinfo', { response: notFound }),
		ex('api')
	];

	test('one row per exchange, in order, one lane position per end', () => {
		const l = layoutSequence(flow, { width: 640 });
		expect(l.rows.map((r) => r.id)).toEqual(flow.map((e) => e.id));
		const x = Object.fromEntries(l.lanes.map((lane) => [lane.id, lane.x]));
		expect(x.browser! < x.playground! && x.playground! < x.service!).toBe(true);
		expect([l.rows[0]!.x1, l.rows[0]!.x2]).toEqual([x.browser, x.service]);
		expect([l.rows[1]!.x1, l.rows[1]!.x2]).toEqual([x.browser, x.playground]);
		expect([l.rows[2]!.x1, l.rows[2]!.x2]).toEqual([x.playground, x.service]);
		expect(l.rows.map((r) => r.kind)).toEqual(['pending', 'ok', 'ok', 'failed', 'ok']);
	});

	test('the height grows with the number of exchanges', () => {
		const h = (n: number) => layoutSequence(flow.slice(0, n), { width: 640 }).height;
		expect(h(2) - h(1)).toBe(GEOMETRY.rowHeight);
		expect(h(5) - h(1)).toBe(4 * GEOMETRY.rowHeight);
		expect(layoutSequence([], { width: 640 }).height).toBeGreaterThan(GEOMETRY.firstRow);
	});

	test('the view box is as wide as the container, so text is never scaled down', () => {
		expect(layoutSequence(flow, { width: 390 }).width).toBe(390);
		expect(layoutSequence(flow, { width: 0 }).width).toBe(GEOMETRY.defaultWidth);
		expect(layoutSequence(flow, { width: 100 }).width).toBe(GEOMETRY.minWidth);
	});

	test('wide: full labels and lane names', () => {
		const l = layoutSequence(flow, { width: 900 });
		expect(l.compact).toBe(false);
		expect(l.lanes.map((lane) => lane.label)).toEqual(['Browser', 'Playground server', 'Service']);
		expect(l.rows[2]!.main).toBe('#3 POST /oauth2/token');
	});

	test('at 390 px: short lane names, labels that fit between their lanes, numbers and statuses kept', () => {
		const l = layoutSequence(flow, { width: 390 });
		expect(l.compact).toBe(true);
		expect(l.lanes[1]!.label).toBe('Playground');
		for (const r of l.rows) {
			const room = Math.abs(r.x2 - r.x1) - 12;
			expect(r.main.length * GEOMETRY.labelChar).toBeLessThanOrEqual(room);
			expect(r.status.length * GEOMETRY.labelChar).toBeLessThanOrEqual(room);
			expect(r.main).toMatch(/^#[1-5] (GET|POST)/);
		}
		expect(l.rows[3]!.status).toMatch(/^✕ 403/);
		expect(layoutSequence(flow, { width: 300 }).rows[3]!.status).toBe('✕ 403');
		for (const lane of l.lanes)
			expect(lane.boxWidth).toBeLessThanOrEqual((390 - 2 * GEOMETRY.pad) / 3);
	});

	test('marks the selected exchange and the current step', () => {
		const l = layoutSequence(flow, { width: 640, selectedId: 'id-exchange', current: 'userinfo' });
		expect(l.rows.filter((r) => r.selected).map((r) => r.id)).toEqual(['id-exchange']);
		expect(l.rows.filter((r) => r.current).map((r) => r.id)).toEqual(['id-userinfo']);
		expect(l.rows[3]!.ariaLabel).toContain('current step');
	});

	test('arrow heads point the way of the request', () => {
		const l = layoutSequence([ex('exchange')], { width: 640 });
		const r = l.rows[0]!;
		expect(r.x2).toBeGreaterThan(r.x1);
		expect(r.lineEnd).toBeLessThan(r.x2);
		expect(r.head.split(' ')[0]).toBe(`${r.x2},${r.arrowY}`);
	});

	test('the tooltip leaves the query out', () => {
		const l = layoutSequence([ex('consent')], { width: 640 });
		expect(l.rows[0]!.title).toBe(`GET ${SANDBOX}/oauth2/auth → the browser navigates`);
	});
});

describe('narrow labels never cut a word in two', () => {
	// With little room the path is cut to its last whole segments ("…/token") or dropped; the number
	// and the method always stay, and the label fits when they do.
	test.each([6, 8, 10, 12, 14, 16, 20])('room for %d characters', (room) => {
		for (const step of ['callback', 'exchange', 'userinfo', 'api'] as const) {
			const e = ex(step);
			const head = `${STEP_NUMBER[step]} ${e.request.method}`;
			const full = shortPath(e.request.url);
			const { main } = arrowLabels(e, room);
			expect(main.length).toBeLessThanOrEqual(Math.max(room, head.length));
			if (main === head) continue; // the path dropped whole
			expect(main.startsWith(`${head} `)).toBe(true);
			const shown = main.slice(head.length + 1);
			if (shown === full) continue;
			// A cut path is "…" and whole trailing segments of the full one.
			expect(shown.startsWith('…/')).toBe(true);
			expect(full.endsWith(shown.slice(1))).toBe(true);
		}
	});
	test.each([
		[6, ['2 GET', '3 POST', '4 GET', '6 GET']],
		[8, ['2 GET', '3 POST', '4 GET', '6 GET']],
		[10, ['2 GET', '3 POST', '4 GET', '6 GET']],
		[12, ['2 GET', '3 POST', '4 GET', '6 GET …/list']],
		[14, ['2 GET', '3 POST …/token', '4 GET', '6 GET …/list']],
		[16, ['2 GET /callback', '3 POST …/token', '4 GET', '6 GET …/list']],
		[20, ['2 GET /callback', '3 POST /oauth2/token', '4 GET …/user-info', '6 GET …/list']]
	])('with room for %d characters the labels read %j', (room, labels) => {
		expect(
			(['callback', 'exchange', 'userinfo', 'api'] as const).map(
				(s) => arrowLabels(ex(s), room).main
			)
		).toEqual(labels);
	});
	test('at 356 px the token endpoint shows as "…/token" or not at all', () => {
		const l = layoutSequence([ex('exchange'), ex('callback')], { width: 356 });
		expect(['#1 POST …/token', '#1 POST']).toContain(l.rows[0]!.main);
		expect(['#2 GET /callback', '#2 GET …/callback', '#2 GET']).toContain(l.rows[1]!.main);
	});
});
