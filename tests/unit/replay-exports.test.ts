/**
 * A deliberate replay is shown by the exports that can be run and never sent by them, not even with
 * RUN_SPENDING_STEPS=1 (exchange/spending.ts `notResent`): the previous refresh token tried from a
 * fork, the current one sent after it, and a replayed code. The flow's own refresh is sent as
 * before, when the spending steps are asked for.
 */
import { describe, expect, test } from 'vitest';
import type { Exchange } from '$lib/exchange/types';
import { toCurl, toCurlScript } from '$lib/exchange/curl';
import { toNodeFetch } from '$lib/exchange/node-fetch';
import { notResent } from '$lib/exchange/spending';

function tokenRequest(step: 'refresh' | 'exchange', body: string, replay?: true): Exchange {
	return {
		id: `${step}-${body.length}-${replay ? 'r' : 'o'}`,
		step,
		startedAt: '2026-03-14T10:00:00.000Z',
		request: {
			method: 'POST',
			url: 'https://reader.example/oauth2/token',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body
		},
		response: {
			status: 400,
			statusText: 'Bad Request',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: '{"error":"invalid_grant"}',
			truncated: false
		},
		timing: { total: 1 },
		findings: [],
		...(replay ? { replay } : {})
	};
}

const tried = tokenRequest(
	'refresh',
	'grant_type=refresh_token&refresh_token=old-rt-1&client_id=c',
	true
);
const own = tokenRequest('refresh', 'grant_type=refresh_token&refresh_token=rt-2&client_id=c');
const replayedCode = tokenRequest(
	'exchange',
	'grant_type=authorization_code&code=c0de&client_id=c',
	true
);

describe('a deliberate replay in the exports', () => {
	test('why it is not re-sent; nothing for the flow’s own requests', () => {
		expect(notResent(tried)).toMatch(
			/^Not re-sent: part of a deliberate replay of a superseded refresh token/
		);
		expect(notResent(replayedCode)).toMatch(
			/^Not re-sent: a deliberate replay of a code already exchanged/
		);
		expect(notResent(own)).toBeUndefined();
		expect(
			notResent({ ...tokenRequest('refresh', 'x=1', true), step: 'userinfo' })
		).toBeUndefined();
	});

	test('curl: shown, never a curl command, even with the spending steps asked for', () => {
		const one = toCurl(tried);
		expect(one).toContain('Not re-sent: part of a deliberate replay of a superseded refresh token');
		expect(one).not.toContain('curl --silent');
		const script = toCurlScript([own, tried, replayedCode]);
		// The flow's own refresh is a command, run only with RUN_SPENDING_STEPS=1 (and printed when
		// skipped): its two; the replays have none.
		expect(script.match(/curl --silent/g)?.length ?? 0).toBe(2);
		expect(script).toContain(
			'Not re-sent: part of a deliberate replay of a superseded refresh token'
		);
		expect(script).toContain('Not re-sent: a deliberate replay of a code already exchanged');
	});

	test('Node fetch: shown, never fetched', () => {
		const js = toNodeFetch(tried);
		expect(js).toContain('Not re-sent: part of a deliberate replay of a superseded refresh token');
		expect(js).not.toContain('fetch(');
		expect(toNodeFetch(own)).toContain('fetch(');
	});
});

describe('a deliberate replay through a HAR', () => {
	test('exported with `_replay`, imported as a replay: the curl script still does not send it', async () => {
		const { toHar } = await import('$lib/exchange/har/export');
		const { fromHar } = await import('$lib/exchange/har/import');
		const har = toHar([own, tried]);
		expect(har.log.entries.map((e) => e._replay)).toEqual([undefined, true]);
		const back = fromHar(JSON.stringify(har));
		expect(back.ok).toBe(true);
		if (!back.ok) return;
		expect(back.exchanges.map((e) => e.replay)).toEqual([undefined, true]);
		expect(toCurlScript(back.exchanges)).toContain(
			'Not re-sent: part of a deliberate replay of a superseded refresh token'
		);
	});
});
