import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import Ajv from 'ajv';
import fc from 'fast-check';
import { NOT_IMPORTED } from '$lib/exchange/har/entry';
import { harTimings, toHar } from '$lib/exchange/har/export';
import { fromHar, readHar, type ImportFailure, type ImportResult } from '$lib/exchange/har/import';
import type { Har } from '$lib/exchange/har/format';
import { REDACTED, prepareForExport } from '$lib/exchange/redact';
import type { Exchange } from '$lib/exchange/types';
import { diagnoseImported, importHar } from '$lib/oauth/imported';
import { ACCESS_1, CODE, SECRET, TOKENS, transcript } from './transcript';

const require = createRequire(import.meta.url);
const fixture = (name: string) =>
	readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

/** The HAR 1.2 JSON schema of the har-schema package (draft-06), checked by ajv in strict mode. */
function harValidator() {
	const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
	ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
	// The package uses keywords that are not JSON Schema ("min" where it means "minimum", "optional",
	// "unique"); they assert nothing. Formats are checked for real.
	ajv.addKeyword({ keyword: 'min', schemaType: 'number' });
	ajv.addKeyword({ keyword: 'optional', schemaType: 'boolean' });
	ajv.addKeyword({ keyword: 'unique', schemaType: 'boolean' });
	ajv.addFormat(
		'date-time',
		(s: string) =>
			/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) &&
			!Number.isNaN(Date.parse(s))
	);
	ajv.addFormat('uri', (s: string) => URL.canParse(s));
	ajv.addFormat('ipv4', /^(\d{1,3}\.){3}\d{1,3}$/);
	ajv.addFormat('ipv6', /^[0-9a-f:.]+$/i);
	const dir = dirname(require.resolve('har-schema/lib/har.json'));
	for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
		ajv.addSchema(JSON.parse(readFileSync(join(dir, file), 'utf8')) as object);
	return ajv.getSchema('har.json#')!;
}

const secretForms = (s: string) => [s, encodeURIComponent(s), btoa(`sandbox-rw:${s}`)];

describe('toHar', () => {
	test('the golden HAR of a realistic transcript is valid HAR 1.2 (har-schema)', async () => {
		const har = toHar(transcript(), { creatorVersion: '0.1.0' });
		const text = JSON.stringify(har, null, 2) + '\n';
		await expect(text).toMatchFileSnapshot('../fixtures/playground.har');
		const validate = harValidator();
		const ok = validate(JSON.parse(text));
		expect(validate.errors ?? []).toEqual([]);
		expect(ok).toBe(true);
		expect(har.log).toMatchObject({
			version: '1.2',
			creator: { name: 'feed-reader-oauth-playground', version: '0.1.0' }
		});
		expect(har.log.entries.map((e) => e._step)).toEqual([
			'consent',
			'callback',
			'exchange',
			'userinfo',
			'refresh',
			'api',
			'api'
		]);
	});

	test('the schema check is real: a broken HAR fails it', () => {
		const validate = harValidator();
		const har = JSON.parse(JSON.stringify(toHar(transcript()))) as {
			log: { entries: Record<string, unknown>[] };
		};
		delete har.log.entries[2]!.timings;
		(har.log.entries[3]!.request as Record<string, unknown>).url = 'not a url';
		expect(validate(har)).toBe(false);
		expect(validate.errors?.length).toBeGreaterThanOrEqual(2);
	});

	test('time is the sum of the non-negative timings; ssl is counted inside connect', () => {
		for (const e of toHar(transcript()).log.entries) {
			const t = e.timings;
			const sum = [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive]
				.filter((x) => x >= 0)
				.reduce((a, b) => a + b, 0);
			expect(e.time).toBeCloseTo(sum, 9);
			expect(t.send).toBeGreaterThanOrEqual(0);
			expect(t.wait).toBeGreaterThanOrEqual(0);
			expect(t.receive).toBeGreaterThanOrEqual(0);
		}
		expect(harTimings({ dns: 1.5, connect: 2, tls: 3.25, firstByte: 10, total: 12.5 })).toEqual({
			time: 12.5,
			timings: {
				blocked: -1,
				dns: 1.5,
				connect: 5.25,
				ssl: 3.25,
				send: 0,
				wait: 3.25,
				receive: 2.5
			}
		});
		// A kept-alive socket: no DNS, connect or TLS this time.
		expect(harTimings({ firstByte: 3.1, total: 3.4 }).timings).toMatchObject({
			dns: -1,
			connect: -1,
			ssl: -1,
			wait: 3.1,
			receive: 0.3
		});
	});

	test('an exchange without a response gets status 0; a failure travels in _failure', () => {
		const [consent, , exchange, , , , failed] = toHar(transcript()).log.entries;
		expect(consent!.response).toMatchObject({ status: 0, statusText: '', content: { size: 0 } });
		expect(consent!._failure).toBeUndefined();
		expect(failed!.response.status).toBe(0);
		expect(failed!._failure).toEqual({
			kind: 'refused',
			message: expect.stringContaining('refused')
		});
		expect(failed!._findings.map((f) => f.code)).toEqual(['connection-refused']);
		expect(exchange!._redactions).toEqual([{ what: 'client_secret', length: SECRET.length }]);
		expect(exchange!.request.postData?.params).toContainEqual({
			name: 'client_secret',
			value: REDACTED
		});
		// The true sent size, though the body shown says <redacted>.
		expect(exchange!.request.bodySize).toBe(
			Number(exchange!.request.headers.find((h) => h.name === 'Content-Length')!.value)
		);
	});

	test('tokens are shortened by default and written in full with includeTokens; the secret never appears', () => {
		const short = JSON.stringify(toHar(transcript()));
		for (const t of TOKENS) expect(short).not.toContain(t);
		expect(short).toContain(`${ACCESS_1.slice(0, 4)}…${ACCESS_1.slice(-4)}`);
		const full = JSON.stringify(toHar(transcript(), { includeTokens: true }));
		for (const t of TOKENS) expect(full).toContain(t);
		for (const text of [short, full])
			for (const form of secretForms(SECRET)) expect(text).not.toContain(form);
	});

	test('a secret the server missed (a Basic header, a query field) is scrubbed by the export too', () => {
		const ex = transcript()[2]!;
		const leaky: Exchange = {
			...ex,
			request: {
				...ex.request,
				url: `${ex.request.url}?client_secret=${encodeURIComponent('q&z=1')}`,
				headers: [
					...ex.request.headers,
					['Authorization', `Basic ${btoa('sandbox-rw:another-secret-value')}`]
				]
			}
		};
		const text = JSON.stringify(toHar([leaky]));
		expect(text).not.toContain('another-secret-value');
		expect(text).not.toContain(btoa('sandbox-rw:another-secret-value'));
		expect(text).not.toContain('q%26z%3D1');
		expect(toHar([leaky]).log.entries[0]!.request.queryString).toContainEqual({
			name: 'client_secret',
			value: REDACTED
		});
	});
});

describe('importHar: round trip', () => {
	const codes = (list: Exchange[]) => list.map((e) => e.findings.map((f) => f.code));

	test('toHar → JSON → fromHar gives the same steps, requests, responses and finding codes', () => {
		const original = transcript();
		const back = importHar(JSON.stringify(toHar(original, { includeTokens: true })));
		if (!back.ok) throw new Error(back.message);
		expect(back.source).toBe('playground');
		expect(back.leftOut).toEqual([]);
		expect(back.exchanges.map((e) => e.step)).toEqual(original.map((e) => e.step));
		expect(back.exchanges.map((e) => e.id)).toEqual(original.map((e) => e.id));
		expect(back.exchanges.map((e) => e.request)).toEqual(original.map((e) => e.request));
		expect(back.exchanges.map((e) => e.response)).toEqual(original.map((e) => e.response));
		expect(back.exchanges.map((e) => e.failure)).toEqual(original.map((e) => e.failure));
		expect(back.exchanges.map((e) => e.redactions)).toEqual(original.map((e) => e.redactions));
		expect(back.exchanges.map((e) => e.note)).toEqual(original.map((e) => e.note));
		expect(back.exchanges.map((e) => e.startedAt)).toEqual(original.map((e) => e.startedAt));
		expect(codes(back.exchanges)).toEqual(codes(original));
		expect(back.exchanges[2]!.timing).toEqual(original[2]!.timing);
	});

	test('the findings are recomputed, not copied: a doctored _findings list is ignored', () => {
		const har = toHar(transcript(), { includeTokens: true });
		har.log.entries[5]!._findings = [
			{ level: 'info', code: 'all-good', message: 'nothing to see' }
		];
		const back = importHar(JSON.stringify(har));
		if (!back.ok) throw new Error(back.message);
		expect(back.exchanges[5]!.findings.map((f) => f.code)).toEqual(['insufficient_scope']);
	});

	test('with tokens shortened (the default export) the same findings come back', () => {
		const original = transcript();
		const back = importHar(JSON.stringify(toHar(original)));
		if (!back.ok) throw new Error(back.message);
		expect(codes(back.exchanges)).toEqual(codes(original));
		expect(JSON.stringify(back)).not.toContain(ACCESS_1);
	});

	test('the default export comes back losslessly except for the redactions: tokens and codes shortened, nothing else changed', () => {
		const original = transcript();
		const back = importHar(JSON.stringify(toHar(original)));
		if (!back.ok) throw new Error(back.message);
		const expected = prepareForExport(original);
		for (const key of [
			'id',
			'step',
			'startedAt',
			'request',
			'response',
			'failure',
			'redactions',
			'note'
		] as const)
			expect(
				back.exchanges.map((e) => e[key]),
				key
			).toEqual(expected.map((e) => e[key]));
		const text = JSON.stringify(back);
		expect(text).not.toContain(CODE);
		expect(back.exchanges[1]!.request.url).toContain(
			`code=${CODE.slice(0, 4)}…${CODE.slice(-4)} <${CODE.length} chars>&state=`
		);
		expect(back.exchanges[2]!.request.body).toMatch(/^code=eyJh…cXV4 <\d+ chars>&redirect_uri=/);
	});

	test('scope context is rebuilt from the consent URL: a narrower grant is flagged again', () => {
		const t = transcript();
		const consent = t[0]!;
		const wider = {
			...consent,
			request: {
				...consent.request,
				url: consent.request.url.replace('scope=read', 'scope=read+write')
			}
		};
		const back = importHar(JSON.stringify(toHar([wider, ...t.slice(1)])));
		if (!back.ok) throw new Error(back.message);
		expect(back.exchanges[2]!.findings.map((f) => f.code)).toContain('scope-differs');
	});
});

describe('importHar: a browser HAR (Chromium "Save all as HAR")', () => {
	// Read in each test, not when the file is collected: code run at collection is covered by no
	// test, so each of its mutants would run the whole unit suite (a "static" mutant).
	const browserHar = () => {
		const text = fixture('browser.har');
		const result = importHar(text);
		if (!result.ok) throw new Error(result.message);
		return { text, result, exchanges: result.exchanges };
	};
	const BROWSER_SECRET = 'inkwell-web-Zq9vL2pX7rT4';

	test('keeps only the OAuth entries, in order, with their steps', () => {
		const { result, exchanges } = browserHar();
		expect(result.source).toBe('browser');
		// the page, a .js, a .css, the favicon and a font
		expect(result.leftOut.map((l) => l.address?.split('.').pop())).toHaveLength(5);
		expect(exchanges.map((e) => e.step)).toEqual([
			'consent',
			'callback',
			'exchange',
			'userinfo',
			'refresh',
			'api',
			'api'
		]);
		expect(new Set(exchanges.map((e) => e.id)).size).toBe(exchanges.length);
	});

	test('HTTP/2 pseudo-headers are dropped and the version is kept', () => {
		const { exchanges } = browserHar();
		for (const ex of exchanges) {
			expect(ex.request.headers.filter(([n]) => n.startsWith(':'))).toEqual([]);
			expect(ex.request.httpVersion).toBe('2.0');
		}
	});

	test('base64 bodies are decoded', () => {
		const { exchanges } = browserHar();
		const tokens = JSON.parse(exchanges[2]!.response!.body) as Record<string, unknown>;
		expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3599, scope: 'read' });
		expect(JSON.parse(exchanges[3]!.response!.body)).toMatchObject({ userName: 'Grace' });
		expect(exchanges[1]!.response!.body).toMatch(/^<!doctype html>/);
	});

	test('cookie and Set-Cookie values are not imported', () => {
		const { result, exchanges } = browserHar();
		const cookies = exchanges
			.flatMap((e) => [...e.request.headers, ...(e.response?.headers ?? [])])
			.filter(([n]) => /^(set-)?cookie$/i.test(n));
		expect(cookies.length).toBe(4);
		for (const [, v] of cookies) expect(v).toBe(NOT_IMPORTED);
		const all = JSON.stringify(result);
		for (const value of [
			'aXq9LmN2pR4tV6xZ8bD0fH2j',
			'bYr0MnO3qS5uW7yA9cE1gI3k',
			'eyJ1aWQiOm51bGwsImNzcmYiOiJhYmMxMjMifQ',
			'Zm9vYmFyYmF6cXV4MTIzNDU2'
		])
			expect(all).not.toContain(value);
	});

	test('the client secret of the browser app is redacted, in the form body and in the Basic header', () => {
		const { text, result, exchanges } = browserHar();
		expect(text).toContain(BROWSER_SECRET); // the fixture does hold it
		const all = JSON.stringify(result);
		for (const form of [
			BROWSER_SECRET,
			encodeURIComponent(BROWSER_SECRET),
			btoa(`inkwell-web:${BROWSER_SECRET}`)
		])
			expect(all).not.toContain(form);
		expect(exchanges[2]!.request.body).toContain(`client_secret=${REDACTED}`);
		expect(exchanges[2]!.redactions).toEqual([
			{ what: 'client_secret', length: BROWSER_SECRET.length }
		]);
		expect(exchanges[4]!.request.headers).toContainEqual(['authorization', `Basic ${REDACTED}`]);
		expect(exchanges[4]!.redactions?.[0]).toMatchObject({
			what: expect.stringContaining('Basic'),
			length: BROWSER_SECRET.length
		});
	});

	test('the findings are those of diagnose(): 403 insufficient_scope, a timed-out request', () => {
		const { exchanges } = browserHar();
		expect(exchanges[5]!.findings.map((f) => f.code)).toEqual(['insufficient_scope']);
		expect(exchanges[6]!.failure).toMatchObject({ kind: 'timeout' });
		expect(exchanges[6]!.response).toBeUndefined();
		expect(exchanges[6]!.findings.map((f) => f.code)).toEqual(['timeout']);
		expect(exchanges[2]!.findings.filter((f) => f.level !== 'info')).toEqual([]);
	});

	test('timings: ssl comes out of connect, and time is the total', () => {
		const { exchanges } = browserHar();
		const consent = exchanges[0]!;
		expect(consent.timing).toEqual({
			dns: 18.2,
			connect: 17.2,
			tls: 38.1,
			firstByte: 167.1,
			total: 167.6
		});
	});

	test('an export of the import passes the schema and holds no cookie or secret', () => {
		const { exchanges } = browserHar();
		const validate = harValidator();
		const har: Har = toHar(exchanges);
		expect(validate(JSON.parse(JSON.stringify(har)))).toBe(true);
		expect(JSON.stringify(har)).not.toContain(BROWSER_SECRET);
	});
});

describe('fromHar: bad files get a clear message', () => {
	test('not JSON', () => {
		expect(fromHar('<html>not a har</html>')).toEqual({
			ok: false,
			reason: 'not-json',
			message: expect.stringMatching(/^This file is not JSON: /)
		});
		expect(fromHar('')).toMatchObject({
			ok: false,
			reason: 'not-json',
			message: expect.stringMatching(/^This file is not JSON/)
		});
	});
	test('JSON, but not a HAR', () => {
		for (const text of ['{}', '[]', '{"log":{}}', '{"log":{"entries":{}}}', 'null', '42'])
			expect(fromHar(text)).toEqual({
				ok: false,
				reason: 'not-har',
				message: expect.stringMatching(
					/^This file is JSON, but not a HAR: it has no log\.entries list/
				)
			});
	});
	test('a wrong version', () => {
		expect(fromHar('{"log":{"version":"2.0","entries":[]}}')).toEqual({
			ok: false,
			reason: 'version',
			message: expect.stringMatching(/version "2\.0"; the import reads HAR 1\.2/)
		});
	});
	test('too large', () => {
		const big = ' '.repeat(12 * 1024 * 1024 + 300_000) + '{}';
		expect(fromHar(big)).toEqual({
			ok: false,
			reason: 'too-large',
			message: 'The file is 12.3 MB; the import takes at most 5 MB.'
		});
		expect(fromHar(fixture('browser.har'), { maxBytes: 10_000 })).toEqual({
			ok: false,
			reason: 'too-large',
			message: expect.stringMatching(/^The file is 5\d\.\d KB; the import takes at most 9\.7 KB\.$/)
		});
	});
	test('a HAR with no OAuth requests', () => {
		const har = JSON.parse(fixture('browser.har')) as {
			log: { entries: { request: { url: string } }[] };
		};
		const entries = har.log.entries.filter(
			(e) => !/oauth2|callback|reader\/api/.test(e.request.url)
		);
		const many = Array.from({ length: 42 }, (_, i) => entries[i % entries.length]);
		expect(fromHar(JSON.stringify({ log: { ...har.log, entries: many } }))).toEqual({
			ok: false,
			reason: 'no-oauth-entries',
			message: expect.stringMatching(
				/^This HAR has 42 requests, none of them to \/oauth2\/ or \/reader\/api\/0\//
			)
		});
		expect(fromHar('{"log":{"version":"1.2","entries":[]}}')).toEqual({
			ok: false,
			reason: 'no-entries',
			message: 'This HAR has no requests in it.'
		});
	});
	test('malformed entries are skipped and counted; the good ones come through', () => {
		const har = JSON.parse(fixture('playground.har')) as { log: { entries: unknown[] } };
		har.log.entries.splice(1, 0, { request: 'nope' }, null, 7);
		const r = fromHar(JSON.stringify(har));
		expect(r.ok && r.leftOut).toEqual([{ n: 2 }, { n: 3 }, { n: 4 }]);
	});
	test('a client secret too long to redact: the file is refused, and the message holds none of it', () => {
		const har = toHar(transcript());
		const long = '😀'.repeat(2048); // 4,096 UTF-16 units: its pattern would be too large to run
		const exchange = har.log.entries.findIndex((e) =>
			e.request.postData?.text?.includes('grant_type')
		);
		har.log.entries[exchange]!.request.postData!.text +=
			`&client_secret=${encodeURIComponent(long)}`;
		const r = readHar(JSON.stringify(har));
		expect(r).toEqual({
			ok: false,
			reason: 'secret-too-long',
			message: `Request ${exchange + 1} of this HAR holds a client secret of 4096 characters. The playground redacts secrets of up to 1024 characters, so it did not import the file rather than show one it could not hide.`
		});
	});
	test('a client secret at the longest redacted is found in every form', () => {
		const har = toHar(transcript());
		const longest = '😀'.repeat(512) + 'é'; // 1,025 units, one over: refused
		const exchange = har.log.entries.findIndex((e) =>
			e.request.postData?.text?.includes('grant_type')
		);
		const entry = har.log.entries[exchange]!;
		entry.request.postData!.text += `&client_secret=${encodeURIComponent(longest)}`;
		expect(readHar(JSON.stringify(har))).toMatchObject({ ok: false, reason: 'secret-too-long' });
		const fits = '😀'.repeat(512); // 1,024 units
		entry.request.postData!.text = entry.request.postData!.text.replace(
			encodeURIComponent(longest),
			encodeURIComponent(fits)
		);
		entry.response.content.text = JSON.stringify({ echo: fits });
		const r = readHar(JSON.stringify(har));
		if (!r.ok) throw new Error(r.message);
		const text = JSON.stringify(r.exchanges);
		expect(text).not.toContain('😀');
		expect(text).not.toContain(encodeURIComponent('😀'));
		expect(text).not.toContain('\\ud83d');
	});
	test('repeated ids are made unique', () => {
		const har = toHar(transcript());
		for (const e of har.log.entries) e._id = 'same';
		const r = fromHar(JSON.stringify(har));
		if (!r.ok) throw new Error(r.message);
		expect(new Set(r.exchanges.map((e) => e.id)).size).toBe(har.log.entries.length);
	});
});

// readHar is fromHar without its last-resort catch, so an exception fails these properties; and each
// checks what the result must be, not only that there is one.
describe('readHar: hostile input gets its own reason, never an exception', () => {
	// Made in the test that uses it, not at collection (see browserHar above).
	const goldenHar = () => JSON.parse(JSON.stringify(toHar(transcript()))) as unknown;
	const entryLike = fc.record(
		{
			startedDateTime: fc.oneof(
				fc.string(),
				fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
				fc.anything()
			),
			time: fc.oneof(fc.double(), fc.anything()),
			request: fc.record(
				{
					method: fc.oneof(fc.constantFrom('GET', 'POST'), fc.string()),
					url: fc.oneof(
						fc.constantFrom(
							'https://r.test/oauth2/token',
							'https://r.test/oauth2/auth?scope=read',
							'https://r.test/callback?error=access_denied',
							'https://r.test/reader/api/0/user-info',
							'https://r.test/reader/api/0/x?client_secret=s3'
						),
						fc.webUrl(),
						fc.string(),
						fc.anything()
					),
					httpVersion: fc.oneof(fc.constantFrom('h2', 'http/2.0', 'HTTP/1.1', ''), fc.anything()),
					headers: fc.oneof(
						fc.array(
							fc.record({
								name: fc.oneof(
									fc.constantFrom(':path', 'Authorization', 'Cookie', 'Content-Type'),
									fc.string()
								),
								value: fc.oneof(
									fc.constantFrom('Basic Og==', 'Basic !!!', 'Bearer x', `Basic ${btoa('a:b')}`),
									fc.string(),
									fc.anything()
								)
							})
						),
						fc.anything()
					),
					postData: fc.oneof(
						fc.record(
							{
								mimeType: fc.constantFrom('application/x-www-form-urlencoded', 'application/json'),
								text: fc.oneof(
									fc.string(),
									fc.constantFrom(
										'grant_type=refresh_token&client_secret=%E0%A4%A',
										'{"client_secret":"abc","a":[{"client_secret":1}]}'
									)
								),
								params: fc.anything()
							},
							{ requiredKeys: [] }
						),
						fc.anything()
					)
				},
				{ requiredKeys: [] }
			),
			response: fc.oneof(
				fc.record(
					{
						status: fc.oneof(fc.integer({ min: -5, max: 700 }), fc.anything()),
						headers: fc.anything(),
						content: fc.oneof(
							fc.record({
								text: fc.oneof(fc.string(), fc.base64String()),
								encoding: fc.constantFrom('base64', 'utf8', '')
							}),
							fc.anything()
						),
						_error: fc.anything()
					},
					{ requiredKeys: [] }
				),
				fc.anything()
			),
			timings: fc.oneof(
				fc.dictionary(
					fc.constantFrom('blocked', 'dns', 'connect', 'ssl', 'send', 'wait', 'receive'),
					fc.oneof(fc.double(), fc.anything())
				),
				fc.anything()
			),
			_step: fc.oneof(
				fc.constantFrom(
					'consent',
					'callback',
					'exchange',
					'refresh',
					'userinfo',
					'api',
					'check',
					'bogus'
				),
				fc.anything()
			),
			_id: fc.anything(),
			_findings: fc.anything(),
			_failure: fc.anything(),
			_redactions: fc.anything()
		},
		{ requiredKeys: [] }
	);

	const isRecord = (v: unknown): v is Record<string, unknown> =>
		typeof v === 'object' && v !== null && !Array.isArray(v);

	/** What the file-level checks must answer for parsed JSON; 'entries' when it comes down to its entries. */
	function expectedFor(json: unknown): ImportFailure | 'entries' {
		const log = isRecord(json) ? json.log : undefined;
		if (!isRecord(log) || !Array.isArray(log.entries)) return 'not-har';
		if (log.version !== undefined && log.version !== '1.2' && log.version !== '1.1')
			return 'version';
		return log.entries.length === 0 ? 'no-entries' : 'entries';
	}

	/** A file that comes down to its entries: each one is imported or skipped, and what is imported is sound. */
	function checkEntries(r: ImportResult, entries: number) {
		if (!r.ok) {
			expect(r.reason).toBe('no-oauth-entries');
			return;
		}
		expect(r.exchanges.length + r.leftOut.length).toBe(entries);
		expect(new Set(r.exchanges.map((e) => e.id)).size).toBe(r.exchanges.length);
		for (const ex of r.exchanges) {
			expect(typeof ex.request.url).toBe('string');
			expect(Array.isArray(ex.findings)).toBe(true);
			expect(JSON.stringify(ex)).not.toMatch(/client_secret=s3|"client_secret":"abc"/);
		}
		// The diagnostics run on whatever was imported, and what was imported exports again.
		const diagnosed = diagnoseImported(r.exchanges);
		expect(diagnosed.map((e) => e.id)).toEqual(r.exchanges.map((e) => e.id));
		for (const ex of diagnosed) expect(Array.isArray(ex.findings)).toBe(true);
		expect(toHar(diagnosed).log.entries.length).toBe(r.exchanges.length);
	}

	test('random strings: not JSON, or JSON that is not a HAR', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary' }), (s) => {
				let json = true;
				try {
					JSON.parse(s.replace(/^\uFEFF/, ''));
				} catch {
					json = false;
				}
				expect(readHar(s)).toMatchObject({ ok: false, reason: json ? 'not-har' : 'not-json' });
			}),
			{ numRuns: 300 }
		);
	});

	test('random JSON values', () => {
		fc.assert(
			fc.property(fc.jsonValue(), (v) => {
				const text = JSON.stringify(v) ?? 'undefined';
				const r = readHar(text);
				const expected = expectedFor(JSON.parse(text));
				if (expected === 'entries')
					checkEntries(r, (JSON.parse(text) as { log: { entries: unknown[] } }).log.entries.length);
				else expect(r).toMatchObject({ ok: false, reason: expected });
			}),
			{ numRuns: 300 }
		);
	});

	test('HAR-shaped files with random entries', () => {
		fc.assert(
			fc.property(
				fc.constantFrom('1.2', '1.1', undefined),
				fc.array(fc.oneof(entryLike, fc.anything()), { maxLength: 8 }),
				(version, entries) => {
					const r = readHar(
						JSON.stringify({
							log: {
								version,
								creator: { name: 'feed-reader-oauth-playground', version: 'x' },
								entries
							}
						})
					);
					if (entries.length === 0) expect(r).toMatchObject({ ok: false, reason: 'no-entries' });
					else checkEntries(r, entries.length);
				}
			),
			{ numRuns: 200 }
		);
	}, 30_000);

	test('the golden HAR with one random value swapped in anywhere', () => {
		const golden = goldenHar();
		const paths: (string | number)[][] = [];
		const walk = (node: unknown, path: (string | number)[], depth: number) => {
			paths.push(path);
			if (depth > 6 || node === null || typeof node !== 'object') return;
			for (const [k, v] of Object.entries(node))
				walk(v, [...path, Array.isArray(node) ? Number(k) : k], depth + 1);
		};
		walk(golden, [], 0);
		const entries = (golden as Har).log.entries.length;
		fc.assert(
			fc.property(
				fc.constantFrom(...paths.filter((p) => p.length > 0)),
				fc.anything(),
				(path, value) => {
					const copy = structuredClone(golden) as Record<string | number, unknown>;
					let node = copy as Record<string | number, unknown>;
					for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
					node[path[path.length - 1]!] = value;
					const text = JSON.stringify(copy);
					const r = readHar(text);
					// Below log.entries (one entry, or a field of one) or in log.creator, the other
					// entries still come through: the file is imported.
					if (path.length >= 3) {
						expect(r.ok).toBe(true);
						checkEntries(r, entries);
						return;
					}
					const expected = expectedFor(JSON.parse(text));
					if (expected === 'entries')
						checkEntries(
							r,
							(JSON.parse(text) as { log: { entries: unknown[] } }).log.entries.length
						);
					else expect(r).toMatchObject({ ok: false, reason: expected });
				}
			),
			{ numRuns: 250 }
		);
	}, 30_000);
});
