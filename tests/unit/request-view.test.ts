/**
 * How a step's card shows its request (ui/request-view.ts): a long bearer token shortened and said
 * so, the whole head a click away; everything else as it went on the wire.
 */
import { expect, test } from 'vitest';
import { shortToken, shownRequest } from '$lib/ui/request-view';
import type { ExchangeRequest } from '$lib/exchange/types';

const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.' + 'x'.repeat(300) + '.sig-Tzp9EE';
const req = (headers: [string, string][]): ExchangeRequest => ({
	method: 'GET',
	url: 'https://reader.test/reader/api/0/user-info',
	httpVersion: '1.1',
	headers,
	body: ''
});

test('a long bearer token is shortened to its first 4 and last 6 characters, with its length', () => {
	expect(shortToken(TOKEN)).toBe('eyJh…Tzp9EE');
	const shown = shownRequest(
		req([
			['Host', 'reader.test'],
			['Authorization', `Bearer ${TOKEN}`],
			['Connection', 'keep-alive']
		])
	);
	expect(shown.head).toBe(
		'GET /reader/api/0/user-info HTTP/1.1\nHost: reader.test\nAuthorization: Bearer eyJh…Tzp9EE\nConnection: keep-alive'
	);
	expect(shown.shortened).toEqual({
		short: 'eyJh…Tzp9EE',
		length: TOKEN.length,
		whole: `GET /reader/api/0/user-info HTTP/1.1\nHost: reader.test\nAuthorization: Bearer ${TOKEN}\nConnection: keep-alive`
	});
});

test('the scheme keeps its spelling and spacing; a header of another name is not touched', () => {
	const shown = shownRequest(
		req([
			['X-Token', `Bearer ${TOKEN}`],
			['authorization', `bearer  ${TOKEN}`]
		])
	);
	expect(shown.head).toContain(`X-Token: Bearer ${TOKEN}\n`);
	expect(shown.head).toMatch(/\nauthorization: bearer {2}eyJh…Tzp9EE$/);
});

test('a short token, a Basic header or no header is shown whole, with nothing said', () => {
	for (const headers of [
		[['Authorization', 'Bearer abcdefghijklmnopqrstuvwx']],
		[['Authorization', `Basic ${'QWxhZGRpbjpvcGVuIHNlc2FtZQ=='.repeat(3)}`]],
		[]
	] as [string, string][][]) {
		const shown = shownRequest(req(headers));
		expect(shown.shortened).toBeUndefined();
		expect(shown.head).toBe(
			['GET /reader/api/0/user-info HTTP/1.1', ...headers.map(([n, v]) => `${n}: ${v}`)].join('\n')
		);
	}
	// One more character than the limit is shortened.
	expect(shownRequest(req([['Authorization', `Bearer ${'a'.repeat(25)}`]])).shortened?.length).toBe(
		25
	);
});
