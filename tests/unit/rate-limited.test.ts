/**
 * A 429's finding (diagnose.ts): which budget its headers show spent, in any service's shape, when
 * it resets and when the service asks to be called again, and whose budget it is: the sandbox's own
 * count (per client locally, per sign-in when hosted), or, for another service, the likely one.
 */
import { expect, test } from 'vitest';
import { diagnose, type DiagnoseContext } from '$lib/oauth/diagnose';
import type { Exchange, HeaderList } from '$lib/exchange/types';

const call = (headers: HeaderList): Exchange => ({
	id: 'r1',
	step: 'api',
	startedAt: '2026-12-06T10:00:00.000Z',
	request: {
		method: 'GET',
		url: 'https://reader.test/reader/api/0/subscription/list',
		httpVersion: '1.1',
		headers: [['Authorization', 'Bearer abc']],
		body: ''
	},
	response: {
		status: 429,
		statusText: 'Too Many Requests',
		httpVersion: '1.1',
		headers: [['Date', 'Sun, 06 Dec 2026 10:00:00 GMT'], ...headers],
		body: '',
		truncated: false
	},
	timing: { total: 0 },
	findings: []
});
const SERVICE: HeaderList = [
	['X-Reader-Zone1-Usage', '5'],
	['X-Reader-Zone1-Limit', '5'],
	['X-Reader-Zone2-Usage', '0'],
	['X-Reader-Zone2-Limit', '10'],
	['X-Reader-Limits-Reset-After', '540']
];
const message = (headers: HeaderList, budget?: DiagnoseContext['budget']) => {
	const found = diagnose(call(headers), budget ? { budget } : {}).filter(
		(f) => f.code === 'rate-limited'
	);
	expect(found).toHaveLength(1);
	return found[0]!.message;
};

test('the sandbox, local: zone 1 spent, its reset, and every user of the client id spends it', () => {
	expect(message(SERVICE, { owner: 'client', clientId: 'sandbox-rw' })).toBe(
		'The service\'s rate limit is reached (429): zone 1 (reads) is spent. It resets in 540 s. The sandbox counts this budget per client: every user of client id "sandbox-rw" spends the same one.'
	);
});

test('the sandbox, hosted: the budget is this sign-in’s own', () => {
	expect(message(SERVICE, { owner: 'sign-in', clientId: 'sandbox-rw' })).toContain(
		'The hosted sandbox counts this budget per sign-in: only this sign-in spent it.'
	);
});

test('another service: per application, as likely; Retry-After said', () => {
	const text = message([...SERVICE, ['Retry-After', '120']], {
		owner: undefined,
		clientId: 'app-1'
	});
	expect(text).toContain('The service asks to be called again in 120 s (Retry-After).');
	expect(text).toContain(
		'Feed-reader services usually count limits per application, so every user of client id "app-1" may be spending the same budget.'
	);
});

test("GitHub's headers: the spent budget named by its resource, the epoch reset in seconds", () => {
	const text = message([
		['X-RateLimit-Limit', '60'],
		['X-RateLimit-Remaining', '0'],
		['X-RateLimit-Used', '60'],
		['X-RateLimit-Reset', String(Date.parse('2026-12-06T10:15:00Z') / 1000)],
		['X-RateLimit-Resource', 'core']
	]);
	expect(text).toMatch(
		/^The service's rate limit is reached \(429\): requests \(core\) is spent\. It resets in 900 s\./
	);
});

test('no headers: the 429 alone, and the fix says how to spend fewer calls', () => {
	const [found] = diagnose(call([])).filter((f) => f.code === 'rate-limited');
	expect(found!.message).toMatch(
		/^The service's rate limit is reached \(429\)\. Feed-reader services usually/
	);
	expect(found!.fix).toContain('the reading list');
});
