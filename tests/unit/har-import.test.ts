/**
 * What the HAR import (exchange/har/import.ts) decides about a file as a whole: the size limit,
 * the versions it reads, where the file comes from, which entries it keeps and skips, and the ids
 * it gives them. The messages are reviewed by reading; these check the reasons and the data.
 */
import { describe, expect, test } from 'vitest';
import { fromHar, readHar } from '$lib/exchange/har/import';
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
