/**
 * What the HAR import (exchange/har/import.ts) decides about a file as a whole: the size limit,
 * the versions it reads, where the file comes from, which entries it keeps and skips, and the ids
 * it gives them. The messages are reviewed by reading; these check the reasons and the data.
 */
import { describe, expect, test } from 'vitest';
import { MAX_FILE_SECRETS, fromHar, readHar } from '$lib/exchange/har/import';
import { REDACTED } from '$lib/exchange/redact';
import { HAR_CREATOR } from '$lib/exchange/har/format';
import { utf8Length } from '$lib/exchange/text';

const entry = (url: string, extra: Record<string, unknown> = {}) => ({
	startedDateTime: '2026-03-14T09:26:53.000Z',
	time: 1,
	request: { method: 'GET', url, httpVersion: 'HTTP/1.1', headers: [] },
	timings: {},
	...extra
});
const API = 'https://reader.test/reader/api/0/subscription/list';
const OTHER = 'https://reader.test/favicon.ico';
const har = (entries: unknown[], log: Record<string, unknown> = {}) =>
	JSON.stringify({ log: { version: '1.2', entries, ...log } });

describe('the file as a whole', () => {
	test('versions 1.2 and 1.1 are read, and a file that names none; any other is refused', () => {
		for (const version of ['1.2', '1.1', undefined])
			expect(fromHar(har([entry(API)], { version })).ok, String(version)).toBe(true);
		for (const version of ['1.3', '2.0', 1.2, ''])
			expect(fromHar(har([entry(API)], { version })), String(version)).toMatchObject({
				ok: false,
				reason: 'version'
			});
	});

	test('the size limit is in UTF-8 bytes, and a file of exactly the limit is read', () => {
		const text = har([entry(`${API}?q=é`)]);
		const bytes = utf8Length(text);
		expect(bytes).toBeGreaterThan(text.length);
		expect(fromHar(text, { maxBytes: bytes }).ok).toBe(true);
		expect(fromHar(text, { maxBytes: bytes - 1 })).toMatchObject({
			ok: false,
			reason: 'too-large'
		});
	});

	test('the default limit is 5 MiB', () => {
		const pad = (n: number) =>
			har([entry(API, { _note: 'x' })]).replace('"x"', `"${'x'.repeat(n)}"`);
		const base = utf8Length(pad(0));
		expect(fromHar(pad(5 * 1024 * 1024 - base)).ok).toBe(true);
		expect(fromHar(pad(5 * 1024 * 1024 - base + 1))).toMatchObject({
			ok: false,
			reason: 'too-large'
		});
	});

	test('a byte order mark before the JSON is skipped, and one inside it is kept', () => {
		expect(fromHar('\uFEFF' + har([entry(API)])).ok).toBe(true);
		const inside = fromHar(har([entry(`${API}?q=\uFEFF`)]));
		if (!inside.ok) throw new Error(inside.message);
		expect(inside.exchanges[0]!.request.url).toBe(`${API}?q=\uFEFF`);
	});

	test('a file too large is told in bytes under 1 KB, then in KB, then in MB', () => {
		const text = (n: number) =>
			har([entry(API, { _note: 'x' })]).replace('"x"', `"${'x'.repeat(n)}"`);
		const small = text(0);
		expect(fromHar(small, { maxBytes: 100 })).toMatchObject({
			reason: 'too-large',
			message: `The file is ${utf8Length(small)} bytes; the import takes at most 100 bytes.`
		});
		const twoKB = text(2048 - utf8Length(small));
		expect(fromHar(twoKB, { maxBytes: 1024 })).toMatchObject({
			reason: 'too-large',
			message: 'The file is 2 KB; the import takes at most 1 KB.'
		});
		expect(fromHar(twoKB, { maxBytes: 1023 })).toMatchObject({
			message: 'The file is 2 KB; the import takes at most 1023 bytes.'
		});
	});

	test('text that is not a string is refused, not thrown at', () => {
		expect(readHar(42 as unknown as string)).toMatchObject({ ok: false, reason: 'not-text' });
		expect(fromHar(undefined as unknown as string)).toMatchObject({
			ok: false,
			reason: 'not-text'
		});
	});

	test('the playground’s own files are told from a browser’s by the creator name', () => {
		const source = (creator: unknown) => {
			const r = fromHar(har([entry(API)], { creator }));
			return r.ok ? r.source : r.reason;
		};
		expect(source({ name: HAR_CREATOR, version: '0.1.0' })).toBe('playground');
		expect(source({ name: 'WebInspector', version: '537.36' })).toBe('browser');
		expect(source({ name: `${HAR_CREATOR}x` })).toBe('browser');
		expect(source(undefined)).toBe('browser');
	});
});

describe('the entries', () => {
	test('only OAuth entries are kept, in order; the others and the malformed ones are listed as left out', () => {
		const r = fromHar(
			har([
				entry(`${OTHER}?access_token=not-shown-1234`),
				entry(API, { _id: 'a' }),
				{ request: 'nope' },
				entry('https://reader.test/oauth2/token', { _id: 'b' })
			])
		);
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		// Each by its place in the file; an address without its query, where a token would be.
		expect(r.leftOut).toStrictEqual([{ n: 1, method: 'GET', address: OTHER }, { n: 3 }]);
		expect(JSON.stringify(r.leftOut)).not.toContain('not-shown');
		if (!r.ok) return;
		expect(r.exchanges.map((e) => [e.id, e.step])).toEqual([
			['a', 'api'],
			['b', 'exchange']
		]);
	});

	test('a left-out entry shows at most 16 characters of method and 300 of address, and a method or a status only beside an address', () => {
		const long = `https://reader.test/${'p'.repeat(500)}`;
		const answered = { response: { status: 204 } };
		const r = fromHar(
			har([
				{ ...entry(long), request: { method: 'M'.repeat(40), url: long }, ...answered },
				{ ...entry(OTHER), request: { url: OTHER }, ...answered },
				{ ...entry(OTHER), request: { method: 'GET' }, ...answered },
				entry(API)
			])
		);
		if (!r.ok) throw new Error(r.message);
		expect(r.leftOut).toStrictEqual([
			{ n: 1, method: 'M'.repeat(16), address: long.slice(0, 300), status: 204 },
			{ n: 2, status: 204 },
			{ n: 3 }
		]);
	});

	test('ids: the entry’s own, else its place in the file; a repeated one gets its place added', () => {
		const r = fromHar(
			har([
				entry(OTHER),
				entry(API),
				entry(API, { _id: 'x' }),
				entry(API, { _id: 'x' }),
				entry(API, { _id: '' }),
				entry(API, { _id: 'har-2' })
			])
		);
		if (!r.ok) throw new Error(r.message);
		expect(r.exchanges.map((e) => e.id)).toEqual(['har-2', 'x', 'x-4', 'har-5', 'har-2-6']);
	});

	test('a request back to a consent’s redirect_uri, on any host, is its callback when its query has code, error or state', () => {
		const back = 'https://app.test/cb';
		const consent = `https://reader.test/oauth2/auth?client_id=c&redirect_uri=${encodeURIComponent(back)}&state=s`;
		const named = 'https://app.test/named-elsewhere';
		const r = fromHar(
			har([
				entry(consent),
				entry(`${back}?code=c1&state=s`),
				entry(`${back}?error=access_denied`),
				entry(`${back}?state=s`),
				entry(`${back}?other=1`),
				entry(back),
				entry('https://app.test/elsewhere?code=c1'),
				entry('https://other.test/cb?code=c1'),
				// A redirect_uri in a request that is not a consent names no way back.
				entry(`https://app.test/page?redirect_uri=${encodeURIComponent(named)}`),
				entry(`${named}?code=c2`)
			])
		);
		if (!r.ok) throw new Error(r.message);
		expect(r.exchanges.map((e) => [e.id, e.step])).toEqual([
			['har-1', 'consent'],
			['har-2', 'callback'],
			['har-3', 'callback'],
			['har-4', 'callback']
		]);
		expect(r.leftOut.map((l) => l.n)).toEqual([5, 6, 7, 8, 9, 10]);
	});

	test('no entries at all, or none of them OAuth, are two different reasons', () => {
		expect(fromHar(har([]))).toMatchObject({ ok: false, reason: 'no-entries' });
		expect(fromHar(har([entry(OTHER)]))).toMatchObject({ ok: false, reason: 'no-oauth-entries' });
		expect(fromHar(har([{ request: 'nope' }]))).toMatchObject({
			ok: false,
			reason: 'no-oauth-entries'
		});
	});

	test('a client secret left in an entry is scrubbed on the way in', () => {
		const r = fromHar(
			har([
				entry('https://reader.test/oauth2/token', {
					request: {
						method: 'POST',
						url: 'https://reader.test/oauth2/token',
						httpVersion: 'HTTP/1.1',
						headers: [],
						postData: {
							mimeType: 'application/x-www-form-urlencoded',
							text: 'grant_type=authorization_code&client_secret=hunter2-hunter2'
						}
					}
				})
			])
		);
		if (!r.ok) throw new Error(r.message);
		expect(r.exchanges[0]!.request.body).not.toContain('hunter2');
		expect(r.exchanges[0]!.redactions).toEqual([{ what: 'client_secret', length: 15 }]);
	});
});

describe('the client secrets of the whole file', () => {
	const TOKEN = 'https://reader.test/oauth2/token';
	/** A token request that sends `secret` in its form body; its answer says `answer`. */
	const tokenRequest = (secret: string, answer = '{"error":"invalid_client"}') =>
		entry(TOKEN, {
			request: {
				method: 'POST',
				url: TOKEN,
				httpVersion: 'HTTP/1.1',
				headers: [],
				postData: {
					mimeType: 'application/x-www-form-urlencoded',
					text: `grant_type=client_credentials&client_id=app&client_secret=${encodeURIComponent(secret)}`
				}
			},
			response: {
				status: 401,
				statusText: 'Unauthorized',
				httpVersion: 'HTTP/1.1',
				headers: [],
				content: { mimeType: 'application/json', text: answer }
			}
		});
	/** An API call whose answer echoes `echoed`, and names no client_secret field. */
	const echoing = (echoed: string) =>
		entry(API, {
			response: {
				status: 200,
				statusText: 'OK',
				httpVersion: 'HTTP/1.1',
				headers: [['X-Echo', echoed]].map(([name, value]) => ({ name, value })),
				content: { mimeType: 'application/json', text: JSON.stringify({ seen: echoed }) }
			}
		});
	const secretNo = (i: number) => `file-secret-${String(i).padStart(2, '0')}-0123456789`;

	test('attack: a secret sent in entry 1 and echoed in entry 2’s answer is redacted in both', () => {
		const secret = 'sent-in-one-echoed-in-another-42';
		const r = fromHar(
			har([tokenRequest(secret), echoing(secret), echoing(encodeURIComponent(secret))])
		);
		if (!r.ok) throw new Error(r.message);
		const text = JSON.stringify(r.exchanges);
		expect(text).not.toContain(secret);
		expect(r.exchanges[1]!.response!.body).toBe(`{"seen":"${REDACTED}"}`);
		expect(r.exchanges[1]!.response!.headers).toEqual([['X-Echo', REDACTED]]);
		expect(r.exchanges[2]!.response!.body).toBe(`{"seen":"${REDACTED}"}`);
		expect(r.exchanges[1]!.redactions).toEqual([
			{ what: 'client_secret (in the X-Echo header)', length: secret.length },
			{ what: 'client_secret (echoed in the response body)', length: secret.length }
		]);
	});

	test('attack: a secret echoed before the entry that sends it is redacted too', () => {
		const secret = 'echoed-first-then-sent-0042';
		const r = fromHar(har([echoing(secret), tokenRequest(secret)]));
		if (!r.ok) throw new Error(r.message);
		expect(JSON.stringify(r.exchanges)).not.toContain(secret);
	});

	test('attack: a secret that a left-out request sends is redacted where a kept one echoes it, and in the left-out list', () => {
		const secret = 'sent-to-the-app-itself-0042';
		const own = entry(`https://app.test/login/${secret}`, {
			request: {
				method: 'POST',
				url: `https://app.test/login/${secret}?x=1`,
				httpVersion: 'HTTP/1.1',
				headers: [],
				postData: { mimeType: 'application/json', text: JSON.stringify({ client_secret: secret }) }
			}
		});
		const r = fromHar(har([own, echoing(secret)]));
		if (!r.ok) throw new Error(r.message);
		expect(r.exchanges[0]!.response!.body).toBe(`{"seen":"${REDACTED}"}`);
		expect(r.leftOut).toEqual([
			{ n: 1, method: 'POST', address: `https://app.test/login/${REDACTED}` }
		]);
	});

	test('attack: a file with more different client secrets than the cap is refused, saying how many it holds; at the cap it is imported', () => {
		expect(MAX_FILE_SECRETS).toBe(16);
		const entries = (n: number) => Array.from({ length: n }, (_, i) => tokenRequest(secretNo(i)));
		// The same secrets again do not count twice, and a redacted or empty one not at all.
		const atCap = [...entries(16), ...entries(16), tokenRequest(REDACTED), tokenRequest('')];
		const r = fromHar(har(atCap));
		if (!r.ok) throw new Error(r.message);
		const text = JSON.stringify(r.exchanges);
		for (let i = 0; i < 16; i++) expect(text).not.toContain(secretNo(i));
		expect(fromHar(har([...atCap, tokenRequest(secretNo(16))]))).toEqual({
			ok: false,
			reason: 'too-many-secrets',
			message:
				'This HAR holds 17 different client secrets; the playground redacts at most 16 per file, so it did not import the file rather than show one it could not hide. Record one client’s flow at a time.'
		});
		// Secrets found anywhere count: in a Basic header, a query, a JSON answer.
		const spread = [
			...entries(14),
			entry(`${API}?client_secret=in-a-query-0123456`),
			entry(TOKEN, {
				request: {
					method: 'POST',
					url: TOKEN,
					httpVersion: 'HTTP/1.1',
					headers: [{ name: 'Authorization', value: `Basic ${btoa('app:in-a-basic-header-01')}` }]
				}
			}),
			echoing('x'),
			entry(API, {
				response: {
					status: 200,
					statusText: 'OK',
					httpVersion: 'HTTP/1.1',
					headers: [],
					content: { text: JSON.stringify({ client_secret: 'in-a-json-answer-0123' }) }
				}
			})
		];
		expect(fromHar(har(spread))).toMatchObject({ ok: false, reason: 'too-many-secrets' });
		expect(fromHar(har(spread.slice(1))).ok).toBe(true);
	});

	test('the import says how far it is, entry by entry, up to all of them', () => {
		const seen: [number, number][] = [];
		const r = fromHar(har([entry(OTHER), tokenRequest(secretNo(1)), echoing('x'), echoing('y')]), {
			onProgress: (done, total) => seen.push([done, total])
		});
		expect(r.ok).toBe(true);
		expect(seen.at(-1)).toEqual([4, 4]);
		for (const [k, [done, total]] of seen.entries()) {
			expect(total).toBe(4);
			if (k) expect(done).toBeGreaterThan(seen[k - 1]![0]);
		}
	});
});
