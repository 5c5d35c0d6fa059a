/**
 * The refresh token a rotation replaced, kept for "Replay the previous refresh token"
 * (server/flow/tokens.ts, server/steps/replay.ts): kept in full, with when it was replaced and by
 * which exchange, under which setup; only the one before the current token (an older one is
 * dropped); none after a code exchange (a new grant) or when the service answered the same refresh
 * token. The try is offered only while the flow holds the tokens that replaced it, under that setup.
 */
import { describe, expect, test } from 'vitest';
import { createRedactors } from '$lib/exchange/redact';
import type { Exchange } from '$lib/exchange/types';
import { receiveTokens } from '$lib/server/flow/tokens';
import { canRaceRefresh, canReplay, canReplayRefresh } from '$lib/server/steps/replay';
import type { Session } from '$lib/server/session/session';

let n = 0;
function answer(step: 'exchange' | 'refresh', body: Record<string, unknown>): Exchange {
	return {
		id: `ex-${++n}`,
		step,
		startedAt: '2026-03-14T10:00:00.000Z',
		request: {
			method: 'POST',
			url: 'https://reader.example/oauth2/token',
			httpVersion: '1.1',
			headers: [],
			body: ''
		},
		response: {
			status: 200,
			statusText: 'OK',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: JSON.stringify({ token_type: 'Bearer', expires_in: 3600, ...body }),
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

function receive(session: Session, ex: Exchange, now: number): Session {
	const next = receiveTokens(
		createRedactors(),
		session,
		ex,
		ex,
		'read',
		now,
		ex.step === 'refresh'
	);
	expect(next).toBeDefined();
	return next!;
}

const start: Session = { v: 1, setup_id: 'setup-1' };

describe('the previous refresh token', () => {
	test('kept after a rotation: the one sent, when, and by which exchange; only one generation back', () => {
		const first = receive(
			start,
			answer('exchange', { access_token: 'a1', refresh_token: 'r1' }),
			1_000
		);
		expect(first.previous_refresh).toBeUndefined();
		expect(canReplayRefresh(first)).toBe(false);
		const rotate = answer('refresh', { access_token: 'a2', refresh_token: 'r2' });
		const second = receive(first, rotate, 2_000);
		expect(second.previous_refresh).toEqual({
			value: 'r1',
			replaced_at: 2_000,
			by: rotate.id,
			setup_id: 'setup-1'
		});
		expect(canReplayRefresh(second)).toBe(true);
		const third = receive(
			second,
			answer('refresh', { access_token: 'a3', refresh_token: 'r3' }),
			3_000
		);
		expect(third.previous_refresh?.value).toBe('r2');
	});

	test('the same refresh token answered (or none): the previous one stays what it was', () => {
		const first = receive(
			start,
			answer('exchange', { access_token: 'a1', refresh_token: 'r1' }),
			1_000
		);
		const same = receive(
			first,
			answer('refresh', { access_token: 'a2', refresh_token: 'r1' }),
			2_000
		);
		expect(same.previous_refresh).toBeUndefined();
		expect(canReplayRefresh(same)).toBe(false);
		const rotated = receive(
			same,
			answer('refresh', { access_token: 'a3', refresh_token: 'r2' }),
			3_000
		);
		const kept = receive(rotated, answer('refresh', { access_token: 'a4' }), 4_000);
		expect(kept.previous_refresh?.value).toBe('r1');
	});

	test('none after a code exchange: a new grant', () => {
		const first = receive(
			start,
			answer('exchange', { access_token: 'a1', refresh_token: 'r1' }),
			1_000
		);
		const rotated = receive(
			first,
			answer('refresh', { access_token: 'a2', refresh_token: 'r2' }),
			2_000
		);
		const again = receive(
			rotated,
			answer('exchange', { access_token: 'b1', refresh_token: 's1' }),
			3_000
		);
		expect(again.previous_refresh).toBeUndefined();
	});

	test('offered only under the setup it was replaced under, while the flow holds a refresh token', () => {
		const first = receive(
			start,
			answer('exchange', { access_token: 'a1', refresh_token: 'r1' }),
			1_000
		);
		const rotated = receive(
			first,
			answer('refresh', { access_token: 'a2', refresh_token: 'r2' }),
			2_000
		);
		expect(canReplayRefresh({ ...rotated, setup_id: 'setup-2' })).toBe(false);
		expect(canReplayRefresh({ ...rotated, tokens: undefined, token_values: undefined })).toBe(
			false
		);
		// A fork is the record of a try: it offers none of its own, though it holds what a flow
		// that offers them holds.
		const spent = {
			...rotated,
			setup: rotated.setup ?? { client_id: 'sandbox-rw' },
			spent: { setup_id: rotated.setup_id! }
		} as typeof rotated;
		expect([canReplayRefresh(spent), canRaceRefresh(spent), canReplay(spent)]).toEqual([
			true,
			true,
			true
		]);
		const fork = { ...spent, fork_of: { flow: 'parent-flow-id-0', by: 'refresh' as const } };
		expect([canReplayRefresh(fork), canRaceRefresh(fork), canReplay(fork)]).toEqual([
			false,
			false,
			false
		]);
	});
});
