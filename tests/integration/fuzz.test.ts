/**
 * Generated malformed input against the real server: every form action of the playground, the
 * callback, the sandbox's consent page, token endpoint and API, and stray paths and methods; with
 * no session, a real session at each stage of the flow, and garbage or tampered session cookies;
 * urlencoded, multipart (well-formed, broken, with files) and other bodies; huge fields, unicode,
 * control characters and repeated fields. Requests are written byte for byte (tests/helpers/raw.ts).
 *
 * The property, for every request: no 5xx (for a form action called as the page calls it, the
 * action's own status counts); every 4xx answered as JSON says why; and the server still answers
 * /healthz at the end of each group. The seed is fixed; FUZZ_SEED=<n> reruns with another one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { parse as devalueParse } from 'devalue';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide } from '../helpers/client';
import { rawRequest, type RawRequest, type RawResponse } from '../helpers/raw';
import type { Exchange } from '../../src/lib/exchange/types';

const SEED = Number(process.env.FUZZ_SEED ?? 20_250_611);
const ACTIONS = [
	'setup',
	'preset',
	'restart',
	'exchange',
	'refresh',
	'userinfo',
	'api',
	'reset'
] as const;

let srv: TestServer;
/** Cookie headers of real sessions: each stage of the flow. */
const sessions: Record<string, string> = {};
/** The one flow id every fuzzed session runs: its cookie is `pg_flow_<FLOW>`, its actions `/?flow=<FLOW>&/name`. */
const FLOW = 'fuzzFlow-0000001';
/** Real credentials to mix into the sandbox requests. */
const real = { accessToken: '', refreshToken: '', code: '', state: '' };
const stats = { requests: 0, byStatus: new Map<number, number>(), started: 0 };

async function sessionAfter(
	stage: 'pending' | 'code' | 'tokens' | 'short' | 'no-secret'
): Promise<Client> {
	const c = new Client(srv.url, { flow: FLOW });
	if (stage === 'no-secret') {
		await c.action('setup', {
			base_url: `${srv.url}/sandbox`,
			client_id: 'sandbox-rw',
			redirect_uri: `${srv.url}/callback`,
			auto_exchange: 'true'
		});
		return c;
	}
	await c.action('preset', { preset: stage === 'short' ? 'sandbox-short' : 'sandbox-rw' });
	if (stage === 'pending') return c;
	const location = await decide(c, consentUrlFrom(await c.page()));
	await c.fetch(location);
	if (stage === 'code') return c;
	const ex = await c.action('exchange');
	const body = JSON.parse((ex.data.exchanges as Exchange[])[0]!.response!.body) as {
		access_token: string;
		refresh_token: string;
	};
	if (stage === 'tokens')
		Object.assign(real, { accessToken: body.access_token, refreshToken: body.refresh_token });
	return c;
}

beforeAll(async () => {
	srv = await startServer({ PLAYGROUND_LOG: 'off' });
	for (const stage of ['pending', 'code', 'tokens', 'short', 'no-secret'] as const)
		sessions[stage] = (await sessionAfter(stage)).cookieHeader();
	// A fresh code (never exchanged) and its state, for the token endpoint and the callback.
	const c = new Client(srv.url);
	await c.action('preset', { preset: 'sandbox-rw' });
	const loc = new URL(await decide(c, consentUrlFrom(await c.page())));
	real.code = loc.searchParams.get('code')!;
	real.state = loc.searchParams.get('state')!;
	stats.started = performance.now();
});

afterAll(async () => {
	if (stats.requests) {
		const secs = ((performance.now() - stats.started) / 1000).toFixed(1);
		const statuses = [...stats.byStatus]
			.sort(([a], [b]) => a - b)
			.map(([s, n]) => `${s}×${n}`)
			.join(' ');
		console.log(
			`fuzz: ${stats.requests} requests in ${secs} s (seed ${SEED}); statuses: ${statuses}`
		);
	}
	await srv?.stop();
});

// ------------------------------------------------------------------------------------------------
// Building blocks

/** Percent-encodes the UTF-8 bytes of `s` (lone surrogates become U+FFFD, as in a browser). */
function pct(s: string): string {
	let out = '';
	for (const b of Buffer.from(s, 'utf8'))
		out += /[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
			? String.fromCharCode(b)
			: `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
	return out;
}

const NASTY = [
	'',
	' ',
	'\u0000',
	'\r\n',
	'\t',
	'%',
	'%zz',
	'%E0%A4%A',
	'%00',
	'\uFEFF',
	'\u202E',
	'\uD800',
	'\uDFFF\uD800',
	'é',
	'😀',
	'\u0301',
	'javascript:alert(1)',
	'http://169.254.169.254/latest/meta-data/',
	'http://[::1]:1/',
	'http://user:pass@127.0.0.1/',
	'file:///etc/passwd',
	'data:text/html,<b>x</b>',
	'ftp://x.test',
	'http://',
	'https://a.test/cb#frag',
	'//evil.test',
	'../../oauth2/token',
	'..%2F..%2F',
	'true',
	'false',
	'on',
	'0',
	'-1',
	'NaN',
	'1e309',
	'{}',
	'[]',
	'null',
	'undefined',
	'__proto__',
	'constructor',
	'toString',
	'<script>alert(1)</script>',
	'"><img src=x onerror=alert(1)>',
	'{@html x}',
	'{{7*7}}',
	'read write',
	'read "write"',
	'read\\write',
	'header',
	'query',
	'cookie',
	'sandbox-rw',
	'sandbox-ro',
	'sandbox-short',
	'sandbox-rw-secret',
	'GET',
	'POST',
	'DELETE',
	'user-info',
	'subscription/list',
	'edit-tag',
	'x'.repeat(501),
	'é'.repeat(251)
];

const controlChars = fc.string({
	unit: fc.integer({ min: 0, max: 0x1f }).map((n) => String.fromCharCode(n)),
	maxLength: 40
});
const anyText = fc.string({ unit: 'binary', maxLength: 120 });
const huge = fc
	.tuple(
		fc.integer({ min: 2_000, max: 90_000 }),
		fc.constantFrom('a', 'é', '😀', '%', '\u0000', '<', '&')
	)
	.map(([n, ch]) => ch.repeat(Math.ceil(n / ch.length)));
const value: fc.Arbitrary<string> = fc.oneof(
	{ arbitrary: fc.constantFrom(...NASTY), weight: 5 },
	{ arbitrary: anyText, weight: 4 },
	{ arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }), weight: 2 },
	{ arbitrary: controlChars, weight: 1 },
	{ arbitrary: fc.webUrl({ withQueryParameters: true, withFragments: true }), weight: 2 },
	{ arbitrary: fc.constant('').map(() => `${srv.url}/sandbox`), weight: 2 },
	{ arbitrary: fc.constant('').map(() => `${srv.url}/callback`), weight: 2 },
	{ arbitrary: huge, weight: 1 }
);

const SETUP_FIELDS = [
	'base_url',
	'client_id',
	'client_secret',
	'scope',
	'redirect_uri',
	'authorization_endpoint',
	'token_endpoint',
	'userinfo_endpoint',
	'token_location',
	'custom_state',
	'auto_exchange',
	'allow_invalid_tls'
];
const OTHER_FIELDS = [
	'preset',
	'method',
	'path',
	'query',
	'body',
	'ticket',
	'code',
	'state',
	'grant_type',
	'refresh_token',
	'client_id',
	'client_secret',
	'redirect_uri'
];
const fieldName = fc.oneof(
	{ arbitrary: fc.constantFrom(...SETUP_FIELDS, ...OTHER_FIELDS), weight: 6 },
	{ arbitrary: fc.constantFrom(...NASTY), weight: 1 },
	{ arbitrary: anyText, weight: 1 }
);
/** Form fields, repeats allowed. */
const fields = fc.array(fc.tuple(fieldName, value), { maxLength: 14 });

type Encoding =
	| 'urlencoded'
	| 'urlencoded-raw'
	| 'multipart'
	| 'multipart-file'
	| 'multipart-broken'
	| 'multipart-no-boundary'
	| 'multipart-wrong-boundary'
	| 'text-plain'
	| 'json'
	| 'none'
	| 'garbage-type';
const encoding = fc.constantFrom<Encoding>(
	'urlencoded',
	'urlencoded',
	'urlencoded',
	'urlencoded-raw',
	'multipart',
	'multipart',
	'multipart-file',
	'multipart-broken',
	'multipart-no-boundary',
	'multipart-wrong-boundary',
	'text-plain',
	'json',
	'none',
	'garbage-type'
);

function encode(enc: Encoding, pairs: [string, string][]): { type?: string; body: Buffer } {
	const boundary = '----fuzz7MA4YWxkTrZu0gW';
	const multipart = (file: boolean) =>
		Buffer.concat([
			...pairs.map(([k, v], i) =>
				Buffer.from(
					`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '_')}"${file && i % 2 === 0 ? '; filename="a.txt"\r\nContent-Type: application/octet-stream' : ''}\r\n\r\n${v}\r\n`,
					'utf8'
				)
			),
			Buffer.from(`--${boundary}--\r\n`)
		]);
	switch (enc) {
		case 'urlencoded':
			return {
				type: 'application/x-www-form-urlencoded',
				body: Buffer.from(new URLSearchParams(pairs).toString())
			};
		case 'urlencoded-raw':
			return {
				type: 'application/x-www-form-urlencoded; charset=utf-8',
				body: Buffer.from(pairs.map(([k, v]) => `${k}=${v}`).join('&'), 'utf8')
			};
		case 'multipart':
			return { type: `multipart/form-data; boundary=${boundary}`, body: multipart(false) };
		case 'multipart-file':
			return { type: `multipart/form-data; boundary=${boundary}`, body: multipart(true) };
		case 'multipart-broken':
			return {
				type: `multipart/form-data; boundary=${boundary}`,
				body: multipart(false).subarray(0, Math.max(0, multipart(false).length - 9))
			};
		case 'multipart-no-boundary':
			return { type: 'multipart/form-data', body: multipart(false) };
		case 'multipart-wrong-boundary':
			return { type: 'multipart/form-data; boundary=other', body: multipart(false) };
		case 'text-plain':
			return {
				type: 'text/plain',
				body: Buffer.from(pairs.map(([k, v]) => `${k}=${v}`).join('\r\n'), 'utf8')
			};
		case 'json':
			return {
				type: 'application/json',
				body: Buffer.from(JSON.stringify(Object.fromEntries(pairs)))
			};
		case 'none':
			return { body: Buffer.from(new URLSearchParams(pairs).toString()) };
		case 'garbage-type':
			return { type: 'x/y; boundary="', body: Buffer.from(pairs.map(([k, v]) => k + v).join('')) };
	}
}

/** A Cookie header value: none, a real session at some stage, or garbage. */
const cookie: fc.Arbitrary<Buffer | undefined> = fc.oneof(
	{ arbitrary: fc.constant(undefined), weight: 3 },
	{
		arbitrary: fc
			.constantFrom('pending', 'code', 'tokens', 'short', 'no-secret')
			.map((s) => Buffer.from(sessions[s]!)),
		weight: 6
	},
	{
		arbitrary: fc
			.tuple(
				fc.constantFrom('pending', 'code', 'tokens'),
				fc.nat(),
				fc.constantFrom('A', '-', '_', '.', '%', 'é')
			)
			.map(([s, at, ch]) => {
				const v = sessions[s]!;
				const i = v.indexOf('=') + 1 + (at % Math.max(1, v.length - v.indexOf('=') - 1));
				return Buffer.from(v.slice(0, i) + ch + v.slice(i + 1));
			}),
		weight: 2
	},
	{
		arbitrary: value.map((v) => Buffer.from(`pg_flow_${FLOW}=${v.replace(/[\r\n\0]/g, '')}`)),
		weight: 2
	},
	{
		arbitrary: fc
			.tuple(anyText, anyText)
			.map(([a, b]) =>
				Buffer.from(
					`pg_flow_${FLOW}=eyJ${a.replace(/[\r\n\0]/g, '')}; pg_flow_${FLOW}.1=${b.replace(/[\r\n\0]/g, '')}; pg_flow_${FLOW}.7=x; pg_session=old`
				)
			),
		weight: 1
	},
	{
		arbitrary: fc
			.uint8Array({ maxLength: 200 })
			.map((a) => Buffer.from(a.filter((b) => b >= 0x20 || b === 9))),
		weight: 1
	}
);

/** Headers a browser or script might send with an action: the page's own, a plain form post, a foreign or missing origin. */
const actionHeaders = fc.record({
	style: fc.constantFrom('page', 'page', 'page', 'form', 'any'),
	origin: fc.constantFrom('own', 'own', 'own', 'own', 'null', 'evil', 'none'),
	fetchSite: fc.constantFrom(undefined, 'same-origin', 'cross-site')
});

function headersFor(
	h: { style: string; origin: string; fetchSite?: string },
	cookieValue?: Buffer,
	type?: string
): [string, string | Buffer][] {
	const out: [string, string | Buffer][] = [];
	if (h.style === 'page') out.push(['x-sveltekit-action', 'true'], ['accept', 'application/json']);
	else if (h.style === 'form') out.push(['accept', 'text/html']);
	else out.push(['accept', '*/*']);
	if (h.origin === 'own') out.push(['origin', srv.url]);
	else if (h.origin === 'null') out.push(['origin', 'null']);
	else if (h.origin === 'evil') out.push(['origin', 'https://evil.test']);
	if (h.fetchSite) out.push(['sec-fetch-site', h.fetchSite]);
	if (type) out.push(['content-type', type]);
	if (cookieValue) out.push(['cookie', cookieValue]);
	return out;
}

const queryPairs = fc.array(
	fc.tuple(
		fc.oneof(
			fc.constantFrom(
				'code',
				'state',
				'error',
				'error_description',
				'error_uri',
				'iss',
				'client_id',
				'redirect_uri',
				'response_type',
				'scope',
				'access_token'
			),
			anyText
		),
		value
	),
	{ maxLength: 10 }
);
const rawQuery = fc.oneof(
	{
		arbitrary: queryPairs.map((ps) => ps.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&')),
		weight: 6
	},
	{
		arbitrary: fc.constantFrom(
			'%',
			'%zz',
			'a=%E0%A4%A',
			'&&&==',
			'a',
			'=',
			'?',
			'state',
			'code=',
			'a=1&a=2&a=3',
			'%00=%00',
			'+'.repeat(100)
		),
		weight: 2
	},
	{
		arbitrary: fc.integer({ min: 2_000, max: 14_000 }).map((n) => `state=${'s'.repeat(n)}`),
		weight: 1
	}
);

// ------------------------------------------------------------------------------------------------
// The property

function reasonOf(v: unknown): string | undefined {
	if (!v || typeof v !== 'object') return undefined;
	const o = v as Record<string, unknown>;
	const err = o.error as Record<string, unknown> | string | undefined;
	const candidates = [
		o.message,
		o.error_description,
		typeof err === 'object' && err ? err.message : undefined,
		typeof err === 'string' ? err : undefined
	];
	if (o.errors && typeof o.errors === 'object')
		candidates.push(...Object.values(o.errors as Record<string, unknown>));
	return candidates.find((s): s is string => typeof s === 'string' && s.trim() !== '');
}

function describeRequest(r: RawRequest): string {
	const body = r.body ? r.body.toString('utf8') : '';
	const shorten = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s);
	return `${r.method} ${shorten(r.target)}\n${r.headers.map(([k, v]) => `${k}: ${shorten(v.toString())}`).join('\n')}\n\n${shorten(body)}`;
}

/** Sends one request and checks the property; throws with the request and the answer when it fails. */
async function check(req: RawRequest): Promise<RawResponse> {
	const res = await rawRequest(srv.port, req);
	stats.requests++;
	let status = res.status;
	let reason: string | undefined;
	const isJson = /json/i.test(res.headers['content-type'] ?? '') && req.method !== 'HEAD';
	let parsed: unknown;
	if (isJson) {
		try {
			parsed = JSON.parse(res.body);
		} catch {
			throw new Error(
				`The answer says JSON but is not:\n${describeRequest(req)}\n→ ${res.status} ${res.body.slice(0, 500)}`
			);
		}
		const o = parsed as { type?: string; status?: number; data?: string };
		if (o && o.type === 'failure' && typeof o.status === 'number') {
			status = o.status; // a form action's failure: HTTP 200, the action's status inside
			reason = reasonOf(typeof o.data === 'string' ? devalueParse(o.data) : undefined);
		} else reason = reasonOf(parsed);
	}
	stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
	if (status >= 500)
		throw new Error(
			`A ${status}:\n${describeRequest(req)}\n→ ${res.status} ${res.body.slice(0, 800)}`
		);
	if (isJson && status >= 400 && !reason)
		throw new Error(
			`A ${status} in JSON without a reason:\n${describeRequest(req)}\n→ ${res.body.slice(0, 500)}`
		);
	return res;
}

async function healthy(): Promise<void> {
	const r = await fetch(`${srv.url}/healthz`);
	expect(r.status).toBe(200);
	expect(await r.json()).toEqual({ ok: true });
}

async function run<T>(
	name: string,
	arb: fc.Arbitrary<T>,
	numRuns: number,
	toRequest: (t: T) => RawRequest
): Promise<void> {
	try {
		await fc.assert(
			fc.asyncProperty(arb, async (t) => {
				await check(toRequest(t));
			}),
			{ numRuns, seed: SEED }
		);
	} catch (e) {
		// Counterexamples can hold 90 KB fields: squeeze long runs of one character and cap the length.
		const message = (e as Error).message
			.replace(/(.)\1{80,}/gs, (run, ch: string) => `${ch.repeat(8)}…(${run.length}×)`)
			.slice(0, 8000);
		throw new Error(
			`Fuzz "${name}" failed with seed ${SEED} (rerun: FUZZ_SEED=${SEED}).\n${message}`,
			{ cause: e }
		);
	}
	await healthy();
}

// ------------------------------------------------------------------------------------------------

describe(`fuzz (seed ${SEED})`, () => {
	test('every form action: any body, encoding, headers and session', async () => {
		const arb = fc.record({
			action: fc.constantFrom(...ACTIONS, ...ACTIONS, 'nope', ''),
			enc: encoding,
			fields,
			h: actionHeaders,
			cookie,
			chunked: fc.boolean(),
			query: fc.option(rawQuery, { freq: 8 }),
			flow: fc.constantFrom(`flow=${FLOW}&`, `flow=${FLOW}&`, `flow=${FLOW}&`, '', 'flow=x%00&')
		});
		const seen = new Map<string, number>();
		await run(
			'actions',
			arb,
			560,
			({ action, enc, fields: pairs, h, cookie: ck, chunked, query, flow }) => {
				seen.set(action, (seen.get(action) ?? 0) + 1);
				const { type, body } = encode(enc, pairs);
				return {
					method: 'POST',
					target: `/?${flow}/${action}${query ? `&${query}` : ''}`,
					headers: headersFor(h, ck, type),
					body,
					chunked: chunked && body.length < 60_000
				};
			}
		);
		for (const a of ACTIONS) expect(seen.get(a), a).toBeGreaterThan(20);
	});

	test('the actions with each real session, well-formed bodies (so the steps really run)', async () => {
		const arb = fc.record({
			action: fc.constantFrom(...ACTIONS),
			stage: fc.constantFrom('pending', 'code', 'tokens', 'short', 'no-secret'),
			fields: fc.array(
				fc.tuple(
					fc.constantFrom(...SETUP_FIELDS, 'preset', 'method', 'path', 'query', 'body'),
					value
				),
				{ maxLength: 10 }
			),
			multipart: fc.boolean()
		});
		await run('actions with a session', arb, 160, ({ action, stage, fields: pairs, multipart }) => {
			const { type, body } = encode(multipart ? 'multipart' : 'urlencoded', pairs);
			return {
				method: 'POST',
				target: `/?flow=${FLOW}&/${action}`,
				headers: headersFor({ style: 'page', origin: 'own' }, Buffer.from(sessions[stage]!), type),
				body
			};
		});
	});

	test('/callback with any query string and session', async () => {
		const arb = fc.record({ query: rawQuery, cookie, withRealState: fc.boolean() });
		await run('callback', arb, 120, ({ query, cookie: ck, withRealState }) => ({
			method: 'GET',
			target: `/callback?${withRealState ? `code=${pct(real.code)}&state=${pct(real.state)}&` : ''}${query}`,
			headers: ck ? [['cookie', ck]] : []
		}));
	});

	test('the sandbox consent page: any parameters, and decisions with any ticket', async () => {
		const param = fc.oneof(
			fc.tuple(
				fc.constant('client_id'),
				fc.oneof(fc.constantFrom('sandbox-rw', 'sandbox-ro', 'sandbox-short'), value)
			),
			fc.tuple(
				fc.constant('redirect_uri'),
				fc.oneof(
					fc.constant('').map(() => `${srv.url}/callback`),
					fc.constant('').map(() => `${srv.url}/sandbox/landing`),
					value
				)
			),
			fc.tuple(
				fc.constant('response_type'),
				fc.oneof(fc.constantFrom('code', 'token', 'code token', ''), value)
			),
			fc.tuple(
				fc.constant('scope'),
				fc.oneof(fc.constantFrom('read', 'read write', 'write', '', 'read read'), value)
			),
			fc.tuple(fc.constant('state'), fc.oneof(anyText, fc.constant('s'.repeat(501)), value)),
			fc.tuple(anyText, value)
		);
		const arb = fc.record({
			params: fc.array(param, { maxLength: 9 }),
			decision: fc.option(
				fc.record({
					name: fc.constantFrom('authorize', 'deny', 'other'),
					ticket: value,
					enc: encoding,
					h: actionHeaders
				}),
				{ freq: 3 }
			),
			accept: fc.constantFrom('text/html', 'application/json', '*/*')
		});
		await run('sandbox consent', arb, 140, ({ params, decision, accept }) => {
			const q = params.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&');
			if (!decision)
				return {
					method: 'GET',
					target: `/sandbox/oauth2/auth?${q}`,
					headers: [['accept', accept]]
				};
			const { type, body } = encode(decision.enc, [['ticket', decision.ticket]]);
			return {
				method: 'POST',
				target: `/sandbox/oauth2/auth?/${decision.name}`,
				headers: headersFor(decision.h, undefined, type),
				body
			};
		});
	});

	test('the sandbox token endpoint: any body, content type and credentials', async () => {
		const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
		const auth = fc.oneof(
			fc.constant(undefined),
			fc.constant('Basic ' + b64('sandbox-rw:sandbox-rw-secret')),
			fc.tuple(value, value).map(([a, b]) => 'Basic ' + b64(`${a}:${b}`)),
			value.map((v) => 'Basic ' + b64(v)),
			value.map((v) => `Basic ${v.replace(/[\r\n\0]/g, '')}`),
			fc.constantFrom(
				'Basic',
				'Basic ',
				'Bearer x',
				'basic ' + b64('sandbox-ro:sandbox-ro-secret'),
				'Digest a=b'
			)
		);
		const tokenField = fc.oneof(
			fc.tuple(
				fc.constant('grant_type'),
				fc.oneof(
					fc.constantFrom(
						'authorization_code',
						'refresh_token',
						'client_credentials',
						'password',
						''
					),
					value
				)
			),
			fc.tuple(
				fc.constant('code'),
				fc.oneof(
					fc.constant('').map(() => real.code),
					value
				)
			),
			fc.tuple(
				fc.constant('refresh_token'),
				fc.oneof(
					fc.constant('').map(() => real.refreshToken),
					value
				)
			),
			fc.tuple(
				fc.constant('client_id'),
				fc.oneof(fc.constantFrom('sandbox-rw', 'sandbox-ro'), value)
			),
			fc.tuple(
				fc.constant('client_secret'),
				fc.oneof(fc.constantFrom('sandbox-rw-secret', 'sandbox-ro-secret'), value)
			),
			fc.tuple(
				fc.constant('redirect_uri'),
				fc.oneof(
					fc.constant('').map(() => `${srv.url}/callback`),
					value
				)
			),
			fc.tuple(fc.constant('scope'), value),
			fc.tuple(anyText, value)
		);
		const arb = fc.record({
			method: fc.constantFrom(
				'POST',
				'POST',
				'POST',
				'POST',
				'GET',
				'PUT',
				'DELETE',
				'PATCH',
				'OPTIONS',
				'HEAD',
				'FUZZ'
			),
			fields: fc.array(tokenField, { maxLength: 10 }),
			enc: encoding,
			auth,
			origin: fc.constantFrom(undefined, 'https://evil.test')
		});
		await run('sandbox token', arb, 160, ({ method, fields: pairs, enc, auth: a, origin }) => {
			const { type, body } = encode(enc, pairs);
			const headers: [string, string][] = [['accept', 'application/json']];
			if (type) headers.push(['content-type', type]);
			if (a) headers.push(['authorization', a]);
			if (origin) headers.push(['origin', origin]);
			return {
				method,
				target: '/sandbox/oauth2/token',
				headers,
				body: method === 'GET' || method === 'HEAD' ? undefined : body
			};
		});
	});

	test('the sandbox API: any path, method, token and body', async () => {
		const segment = fc.oneof(
			fc.constantFrom(
				'user-info',
				'subscription',
				'list',
				'tag',
				'unread-count',
				'stream',
				'items',
				'ids',
				'contents',
				'edit-tag',
				'mark-all-as-read',
				'feed%2Fhttp%3A%2F%2Fx.test%2Frss',
				'..',
				'.',
				'%2e%2e',
				'%2F',
				'',
				'%00'
			),
			anyText.map(pct)
		);
		const token = fc.oneof(
			fc.constant(undefined),
			fc.constant('').map(() => `Bearer ${real.accessToken}`),
			value.map((v) => `Bearer ${v.replace(/[\r\n\0]/g, '')}`),
			fc.constantFrom(
				'Bearer',
				'Bearer ',
				'bearer eyJhbGciOiJub25lIn0.e30.',
				'Basic eDp5',
				'Bearer a b c',
				'Bearer eyJ.eyJ.sig'
			)
		);
		const arb = fc.record({
			method: fc.constantFrom(
				'GET',
				'GET',
				'GET',
				'POST',
				'POST',
				'PUT',
				'DELETE',
				'PATCH',
				'OPTIONS',
				'HEAD',
				'FUZZ'
			),
			path: fc.array(segment, { minLength: 1, maxLength: 5 }),
			query: fc.option(rawQuery, { freq: 2 }),
			token,
			fields,
			enc: encoding
		});
		await run('sandbox API', arb, 160, ({ method, path, query, token: t, fields: pairs, enc }) => {
			const { type, body } = encode(enc, pairs);
			const headers: [string, string][] = [['accept', 'application/json']];
			if (t) headers.push(['authorization', t]);
			if (type && method !== 'GET' && method !== 'HEAD') headers.push(['content-type', type]);
			return {
				method,
				target: `/sandbox/reader/api/0/${path.join('/')}${query ? `?${query}` : ''}`,
				headers,
				body: method === 'GET' || method === 'HEAD' ? undefined : body
			};
		});
	});

	test('any path and method, with any cookie', async () => {
		const arb = fc.record({
			method: fc.constantFrom('GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'FUZZ'),
			path: fc.oneof(
				fc.constantFrom(
					'/',
					'/callback',
					'/healthz',
					'/sandbox',
					'/sandbox/',
					'/sandbox/landing',
					'/sandbox/oauth2',
					'/sandbox/reader',
					'/_app/x.js',
					'/favicon.ico',
					'//evil.test',
					'/%2e%2e/%2e%2e/etc/passwd',
					'/?/',
					'/?/setup',
					`/?flow=${FLOW}`,
					`/?flow=${FLOW}&/setup`
				),
				anyText.map((s) => '/' + pct(s))
			),
			query: fc.option(rawQuery, { freq: 2 }),
			cookie,
			accept: fc.constantFrom('text/html', 'application/json', '*/*', 'x/y;;;q=z')
		});
		await run('paths', arb, 120, ({ method, path, query, cookie: ck, accept }) => {
			const headers: [string, string | Buffer][] = [
				['accept', accept],
				['origin', srv.url]
			];
			if (ck) headers.push(['cookie', ck]);
			return {
				method,
				target: `${path}${query ? (path.includes('?') ? '&' : '?') + query : ''}`,
				headers,
				body: method === 'POST' || method === 'PUT' ? Buffer.from('a=1') : undefined
			};
		});
		expect(stats.requests).toBeGreaterThanOrEqual(1000);
	});
});

describe('what the fuzz found, pinned', () => {
	const post = (target: string, type: string, body: string, cookieHeader?: string) =>
		rawRequest(srv.port, {
			method: 'POST',
			target,
			headers: [
				['origin', srv.url],
				['x-sveltekit-action', 'true'],
				['accept', 'application/json'],
				['content-type', type],
				...(cookieHeader ? ([['cookie', cookieHeader]] as [string, string][]) : [])
			],
			body: Buffer.from(body)
		});

	test.each([
		[
			'multipart/form-data; boundary=other',
			'--x\r\nContent-Disposition: form-data; name="preset"\r\n\r\nsandbox-rw\r\n--x--\r\n'
		],
		['multipart/form-data', 'preset=sandbox-rw'],
		['text/plain', 'preset=sandbox-rw']
	])(
		'an action body that is not a readable form (%s) is a 400 that says so',
		async (type, body) => {
			for (const action of ['setup', 'preset', 'api']) {
				const res = await post(`/?flow=${FLOW}&/${action}`, type, body);
				const result = JSON.parse(res.body) as { type: string; status: number; data: string };
				expect(result.type, action).toBe('failure');
				expect(result.status).toBe(400);
				expect((devalueParse(result.data) as { message: string }).message).toMatch(
					/^The form body could not be read/
				);
			}
		}
	);

	test('a consent decision that is not a readable form is a 400', async () => {
		const res = await rawRequest(srv.port, {
			method: 'POST',
			target: '/sandbox/oauth2/auth?/authorize',
			headers: [
				['origin', srv.url],
				['accept', 'application/json'],
				['content-type', 'multipart/form-data']
			],
			body: Buffer.from('ticket=x')
		});
		expect(res.status).toBe(400);
		expect(JSON.parse(res.body).error.message).toMatch(/could not be read/);
	});

	test('a redirect back with an over-long query string is not read: unsolicited, and the flow stays usable', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const consent = consentUrlFrom(await c.page());
		const cb = await c.fetch(`/callback?code=x&state=${'s'.repeat(6000)}`);
		expect(cb.res.status).toBe(400);
		expect(cb.body).toContain('unsolicited');
		expect(cb.body).not.toContain('sss');
		expect(cb.res.headers.getSetCookie()).toEqual([]);
		expect(consentUrlFrom(await c.page())).toBe(consent);
		expect((await c.action('exchange')).status).toBe(409);
	});

	test('a setup too large for the session cookie is a 400, and the browser is not locked out', async () => {
		const c = new Client(srv.url);
		await c.action('preset', { preset: 'sandbox-rw' });
		const long = (path: string) => `http://a.test/${path}/${'é'.repeat(1900)}`;
		const r = await c.action('setup', {
			base_url: long('b'),
			client_id: 'sandbox-rw',
			redirect_uri: long('r'),
			authorization_endpoint: long('a'),
			token_endpoint: long('t'),
			userinfo_endpoint: long('u')
		});
		expect(r.status).toBe(400);
		expect(String(r.data.message)).toMatch(/too large to keep in a cookie/);
		const page = await c.fetch(c.pagePath, { headers: { accept: 'text/html' } });
		expect(page.res.status).toBe(200);
		expect(page.body).toContain('client_id=sandbox-rw'); // the earlier session is still there
	});
});
