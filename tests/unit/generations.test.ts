/**
 * The refresh tokens a flow received, generation by generation (exchange/generations.ts), and the
 * Markdown report's list of them: which answer gave each, which refresh replaced it, which sent it
 * back unchanged or gave none, its expiry when the answer said; always shortened.
 */
import { expect, test } from 'vitest';
import { refreshGenerations, shortened } from '$lib/exchange/generations';
import { toMarkdown } from '$lib/exchange/markdown';
import type { Exchange } from '$lib/exchange/types';

const T0 = Date.parse('2026-12-06T10:00:00.000Z');
let id = 0;
const RT = (n: number) => `rt0${n}-0123456789abcdef-e0${n}`;

function answer(
	step: 'exchange' | 'refresh',
	sent: number | undefined,
	status: number,
	body: object,
	at: number
): Exchange {
	return {
		id: `g${++id}`,
		step,
		startedAt: new Date(T0 + at * 1000).toISOString(),
		request: {
			method: 'POST',
			url: 'https://id.example.test/oauth2/token',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body:
				step === 'refresh'
					? `grant_type=refresh_token&refresh_token=${RT(sent!)}`
					: 'grant_type=authorization_code&code=c-0123456789'
		},
		response: {
			status,
			statusText: '',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: JSON.stringify(body),
			truncated: false
		},
		timing: { total: 3 },
		findings: []
	};
}
const tokens = (rt: number | undefined, extra: object = {}) => ({
	access_token: `access-${rt}-0123456789`,
	token_type: 'Bearer',
	expires_in: 3600,
	...(rt === undefined ? {} : { refresh_token: RT(rt) }),
	...extra
});

const flow = () => [
	answer('exchange', undefined, 200, tokens(1, { refresh_token_expires_in: 86400 }), 0),
	answer('refresh', 1, 200, tokens(2), 60),
	answer('refresh', 2, 200, tokens(2), 120),
	answer('refresh', 2, 200, tokens(undefined), 180),
	answer('refresh', 2, 400, { error: 'invalid_grant' }, 200),
	answer('refresh', 2, 200, tokens(3, { refresh_expires_in: 1800 }), 240),
	answer('exchange', undefined, 200, tokens(4), 300)
];

test('each refresh token: the answer that gave it, what replaced it, what sent it back, its expiry', () => {
	expect(refreshGenerations(flow())).toEqual([
		{
			short: 'rt01…-e01',
			from: 1,
			at: '2026-12-06T10:00:00.000Z',
			byCode: true,
			replacedBy: 2,
			returnedBy: [],
			keptBy: [],
			expiresAt: T0 + 86400_000,
			field: 'refresh_token_expires_in'
		},
		{
			short: 'rt02…-e02',
			from: 2,
			at: '2026-12-06T10:01:00.000Z',
			byCode: false,
			replacedBy: 6,
			returnedBy: [3],
			keptBy: [4]
		},
		{
			short: 'rt03…-e03',
			from: 6,
			at: '2026-12-06T10:04:00.000Z',
			byCode: false,
			returnedBy: [],
			keptBy: [],
			expiresAt: T0 + 240_000 + 1800_000,
			field: 'refresh_expires_in'
		},
		{
			short: 'rt04…-e04',
			from: 7,
			at: '2026-12-06T10:05:00.000Z',
			byCode: true,
			returnedBy: [],
			keptBy: []
		}
	]);
});

test('the page’s running numbers name the exchanges when given', () => {
	const exchanges = flow();
	const numbers = new Map(exchanges.map((e, i) => [e.id, i + 11]));
	expect(refreshGenerations(exchanges, numbers).map((g) => [g.from, g.replacedBy])).toEqual([
		[11, 12],
		[12, 16],
		[16, undefined],
		[17, undefined]
	]);
});

test('shortened: the first and last 4 characters; one an export shortened, or a short one, stays', () => {
	expect(shortened('abcdefghijklmnop')).toBe('abcd…mnop');
	expect(shortened('abcd…mnop')).toBe('abcd…mnop');
	expect(shortened('short-token')).toBe('short-token');
});

test('the Markdown report lists them, shortened even with the tokens included', () => {
	const md = toMarkdown(flow(), { includeTokens: true, generatedAt: new Date(T0) });
	const section = md.slice(
		md.indexOf('## Refresh tokens'),
		md.indexOf('\n## ', md.indexOf('## Refresh tokens') + 1)
	);
	expect(section.split('\n').filter((l) => /^\d\./.test(l))).toEqual([
		'1. `rt01…-e01` from #1 (code exchange) at 2026-12-06T10:00:00.000Z; replaced by #2; expires 2026-12-07T10:00:00.000Z (refresh_token_expires_in)',
		'2. `rt02…-e02` from #2 (refresh) at 2026-12-06T10:01:00.000Z; replaced by #6; sent back unchanged by #3; kept by #4',
		'3. `rt03…-e03` from #6 (refresh) at 2026-12-06T10:04:00.000Z; not replaced: a later code exchange started another grant; expires 2026-12-06T10:34:00.000Z (refresh_expires_in)',
		'4. `rt04…-e04` from #7 (code exchange) at 2026-12-06T10:05:00.000Z; current'
	]);
	expect(toMarkdown([])).not.toContain('## Refresh tokens');
});
