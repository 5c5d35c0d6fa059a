import { describe, expect, test } from 'vitest';
import {
	checkCallback,
	consentUrl,
	explainAuthorizationError,
	makeState,
	sameString,
	stateBytes
} from '$lib/oauth/consent';
import { MAX_STATE_BYTES } from '$lib/oauth/setup-fields';
import { raise } from '$lib/oauth/catalogue/raise';
import * as authorizationError from '$lib/oauth/catalogue/authorization-error';

/** The authorization errors the catalogue has words for, and the meaning of each (its fix). */
const MEANINGS = Object.values(authorizationError)
	.filter((e): e is Extract<typeof e, { oauthError: true }> => e.oauthError === true)
	.map((e) => raise(e, undefined))
	.map((f) => [f.code, f.fix] as const);

describe('state', () => {
	test('its size is counted in UTF-8 bytes', () => {
		expect(MAX_STATE_BYTES).toBe(500);
		expect(stateBytes('')).toBe(0);
		expect(stateBytes('aé€😀')).toBe(1 + 2 + 3 + 4);
	});
	test('makeState asks for 32 bytes and spells them in unpadded base64url', () => {
		const asked: number[] = [];
		const bytes = new Uint8Array(32).map((_, i) => (i % 2 ? 0xfb : 0xff));
		const s = makeState((n) => {
			asked.push(n);
			return bytes;
		});
		expect(asked).toEqual([32]);
		expect(s).toBe(Buffer.from(bytes).toString('base64url'));
		expect(s).toMatch(/[-_]/);
		expect(makeState((n) => new Uint8Array(n))).toBe('A'.repeat(43));
	});
	test('a state of exactly 500 bytes is sent; 501 is refused', () => {
		const req = {
			client_id: 'c',
			redirect_uri: 'https://a.test/cb',
			scope: '',
			state: 's'.repeat(500)
		};
		expect(new URL(consentUrl('https://r.test/auth', req)).searchParams.get('state')).toHaveLength(
			500
		);
		expect(() => consentUrl('https://r.test/auth', { ...req, state: 's'.repeat(501) })).toThrow(
			RangeError
		);
	});
	test('the consent URL replaces each of its own parameters that the endpoint already carries', () => {
		const u = new URL(
			consentUrl(
				'https://r.test/auth?client_id=old&redirect_uri=old&response_type=token&scope=old&state=old&keep=1',
				{ client_id: 'c', redirect_uri: 'https://a.test/cb', scope: '', state: 's' }
			)
		);
		expect([...u.searchParams]).toEqual([
			['keep', '1'],
			['client_id', 'c'],
			['redirect_uri', 'https://a.test/cb'],
			['response_type', 'code'],
			['scope', ''],
			['state', 's']
		]);
	});
});

describe('sameString', () => {
	test('differs at the first, the last, or any character', () => {
		expect(sameString('', '')).toBe(true);
		expect(sameString('xbc', 'abc')).toBe(false);
		expect(sameString('abx', 'abc')).toBe(false);
		expect(sameString('a', '')).toBe(false);
		expect(sameString('é', 'è')).toBe(false);
	});
});

describe('checkCallback', () => {
	const p = (q: string) => new URLSearchParams(q);
	test('each repeated parameter is malformed, before the state is compared', () => {
		for (const q of ['state=s&state=s&code=c', 'state=s&code=a&code=b', 'state=s&error=a&error=b'])
			expect(checkCallback(p(q), 's').kind, q).toBe('malformed');
		expect(checkCallback(p('state=x&state=y&code=c'), 's').kind).toBe('malformed');
	});
	test('an error that carries the state: its description and uri when given, undefined when not', () => {
		expect(
			checkCallback(p('state=s&error=access_denied&error_description=no&error_uri=https://e'), 's')
		).toEqual({ kind: 'error', error: 'access_denied', description: 'no', uri: 'https://e' });
		expect(checkCallback(p('state=s&error=x&code=c'), 's')).toEqual({
			kind: 'error',
			error: 'x',
			description: undefined,
			uri: undefined
		});
	});
	test('an empty code is malformed; a state that is only a prefix or longer does not match', () => {
		expect(checkCallback(p('state=s&code='), 's').kind).toBe('malformed');
		expect(checkCallback(p('state=s&code=c'), 's')).toEqual({ kind: 'code', code: 'c' });
		expect(checkCallback(p('state=ab&code=c'), 'abc').kind).toBe('state-mismatch');
		expect(checkCallback(p('state=abcd&code=c'), 'abc').kind).toBe('state-mismatch');
		expect(checkCallback(p('state=&code=c'), '').kind).toBe('code');
		expect(checkCallback(p('code=c'), '').kind).toBe('state-mismatch');
	});
	test('no pending state wins over everything else', () => {
		expect(checkCallback(p('state=a&state=b'), undefined)).toEqual({ kind: 'no-pending-state' });
	});
});

describe('authorization errors', () => {
	test('the catalogue covers the errors of RFC 6749 §4.1.2.1, and invalid_request_uri (RFC 9126 §4)', () => {
		expect(MEANINGS.map(([code]) => code).sort()).toEqual([
			'access_denied',
			'invalid_request',
			'invalid_request_uri',
			'invalid_scope',
			'server_error',
			'temporarily_unavailable',
			'unauthorized_client',
			'unsupported_response_type'
		]);
	});
	test('a known error is explained by its meaning; an unknown one, even a name on Object.prototype, by a general text', () => {
		for (const [code, meaning] of MEANINGS) expect(explainAuthorizationError(code)).toBe(meaning);
		const general = explainAuthorizationError('made_up');
		expect(general).toEqual(expect.any(String));
		expect(MEANINGS.map(([, meaning]) => meaning)).not.toContain(general);
		expect(explainAuthorizationError('toString')).toBe(general);
		expect(explainAuthorizationError('__proto__')).toBe(general);
	});
});

test('a repeated error is malformed even when a code comes with it', () => {
	expect(checkCallback(new URLSearchParams('state=s&error=a&error=b&code=c'), 's').kind).toBe(
		'malformed'
	);
});

test('every authorization error has a meaning, and each consent parameter its help', async () => {
	for (const [code, meaning] of MEANINGS)
		expect(meaning, code).toEqual(expect.stringMatching(/\S/));
	const { CONSENT_PARAM_HELP } = await import('$lib/oauth/consent');
	expect(Object.keys(CONSENT_PARAM_HELP)).toEqual([
		'client_id',
		'redirect_uri',
		'response_type',
		'scope',
		'state',
		'code_challenge',
		'code_challenge_method',
		'request_uri'
	]);
});

test('makeState strips padding of any length from what it is given', () => {
	expect(makeState(() => new Uint8Array(31))).toBe('A'.repeat(42));
	expect(makeState(() => new Uint8Array(30))).toBe('A'.repeat(40));
});
