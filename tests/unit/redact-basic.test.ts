/**
 * HTTP Basic credentials (RFC 6749 §2.3.1) in redaction: what is read as a `Basic` header, by the
 * server (which knows the secret) and by the exports (which find the password by its place), and
 * how each place is noted.
 */
import { describe, expect, test } from 'vitest';
import { REDACTED, scrubSecrets } from '$lib/exchange/redact';
import { redactExchange, redactText } from '../helpers/redact';
import type { Exchange, HeaderList } from '$lib/exchange/types';

function exchange(headers: HeaderList, echo: string): Exchange {
	return {
		id: 'b',
		step: 'exchange',
		startedAt: '2026-01-01T00:00:00Z',
		request: {
			method: 'POST',
			url: 'https://svc.test/token',
			httpVersion: '1.1',
			headers,
			body: ''
		},
		response: {
			status: 400,
			statusText: 'Bad Request',
			httpVersion: '1.1',
			headers: [],
			body: `echo ${echo}`,
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

describe('basic: the server, which knows the secret', () => {
	const y = [{ name: 'client_secret', value: 'y' }];
	const long = [{ name: 'client_secret', value: 'abcdefgh' }];

	test('basic: a short secret sent as it is or form-encoded is the password, whatever its characters', () => {
		const plus = [{ name: 's', value: '1+1=2' }];
		expect(redactText(`Basic ${btoa('app:1+1=2')}`, plus)).toBe(`Basic ${REDACTED}`);
		expect(redactText(`Basic ${btoa('app:1%2B1%3D2')}`, plus)).toBe(`Basic ${REDACTED}`);
		expect(redactText(`Basic ${btoa('app:1 1=2')}`, plus)).toBe(`Basic ${btoa('app:1 1=2')}`);
	});

	test('basic: a short secret is the password only as the whole password, not elsewhere in the credentials', () => {
		for (const cred of ['y:app', 'app:y x', 'app:xy'])
			expect(redactText(`Basic ${btoa(cred)}`, y), cred).toBe(`Basic ${btoa(cred)}`);
	});

	test('basic: credentials without a colon have no password', () => {
		// `%79` is the form encoding of `y`, but with no colon it is no password.
		expect(btoa('%79')).toBe('JTc5');
		expect(redactText('Basic JTc5', y)).toBe('Basic JTc5');
	});

	test('basic: a long secret anywhere in the credentials redacts them whole', () => {
		expect(redactText(`Basic ${btoa('app:pre-abcdefgh-post')}`, long)).toBe(`Basic ${REDACTED}`);
		expect(redactText(`Basic ${btoa('abcdefgh:x')}`, long)).toBe(`Basic ${REDACTED}`);
	});

	test('basic: credentials that are not base64 are left as they are, without an error', () => {
		expect(redactText('Basic a', y)).toBe('Basic a');
		expect(redactText('Basic abcde', long)).toBe('Basic abcde');
	});
});

describe('basic: how the place of a redacted secret is noted', () => {
	const s = 'place-secret-1234';
	const secrets = [{ name: 'client_secret', value: s }];
	const where = (headers: HeaderList) =>
		redactExchange(exchange(headers, ''), secrets).redactions?.map((r) => r.what);

	test('basic: an Authorization header whose scheme is Basic, after any blanks, in any case', () => {
		for (const value of [`Basic ${btoa(`app:${s}`)}`, ` \tbasic\t${btoa(`app:${s}`)}`])
			expect(where([['authorization', value]]), value).toEqual([
				'client_secret (in the Authorization: Basic header)'
			]);
	});

	test('basic: another scheme, a word ending in basic, or another header is noted by the header name', () => {
		expect(where([['Authorization', `Bearer ${s}`]])).toEqual([
			'client_secret (in the Authorization header)'
		]);
		expect(where([['Authorization', `xBasic ${s}`]])).toEqual([
			'client_secret (in the Authorization header)'
		]);
		expect(where([['Authorization', `Basic${s}`]])).toEqual([
			'client_secret (in the Authorization header)'
		]);
		expect(where([['X-Echo', `Basic ${btoa(`app:${s}`)}`]])).toEqual([
			'client_secret (in the X-Echo header)'
		]);
	});
});

describe('basic: the exports, which find the password by its place', () => {
	const pw = 'basic-password-42';
	const cred = btoa(`app:${pw}`);

	test('basic: the password of an Authorization: Basic header, after any blanks, in any case, is redacted where echoed', () => {
		for (const [name, value] of [
			['Authorization', `Basic ${cred}`],
			['authorization', `basic  ${cred}`],
			['AUTHORIZATION', ` \tBASIC\t${cred} \t`]
		] as const) {
			const out = scrubSecrets(exchange([[name, value]], pw));
			expect(out.response!.body, value).toBe(`echo ${REDACTED}`);
		}
	});

	test('basic: an empty user name, and credentials that are not base64', () => {
		const out = scrubSecrets(exchange([['Authorization', `Basic ${btoa(`:${pw}`)}`]], pw));
		expect(out.response!.body).toBe(`echo ${REDACTED}`);
		const bad = exchange(
			[
				['Authorization', 'Basic abcde'],
				['Authorization', `Basic ${cred}`]
			],
			pw
		);
		expect(scrubSecrets(bad).response!.body).toBe(`echo ${REDACTED}`);
	});

	test('basic: credentials without a colon hold no password', () => {
		const text = 'no-colon-password-42';
		const e = exchange([['Authorization', `Basic ${btoa(text)}`]], text);
		expect(scrubSecrets(e)).toBe(e);
	});

	test('basic: a value that is not exactly `Basic <credentials>` in an Authorization header holds no password', () => {
		for (const [name, value] of [
			['Authorization', `xBasic ${cred}`],
			['Authorization', `Basic ${cred} more`],
			['Authorization', `Basic ${btoa(`app-${pw}`)}`],
			['Authorization', `Basic${cred}`],
			['X-Authorization', `Basic ${cred}`]
		] as const) {
			const e = exchange([[name, value]], pw);
			expect(scrubSecrets(e).response!.body, value).toBe(`echo ${pw}`);
		}
	});
});
