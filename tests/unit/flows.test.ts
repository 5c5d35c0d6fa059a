/**
 * The pure parts of "a flow is the unit": the flow id's shape, which flow a redirect's state finds,
 * the recent states a flow keeps, the byte cap's arithmetic and the dropped list, and where a tab
 * goes on load.
 */
import { describe, expect, test } from 'vitest';
import { flowAction, flowPage, flowParam, isFlowId, newFlowId } from '$lib/oauth/flow-id';
import { ignoredFinding, ignoredKind, routeCallback } from '$lib/oauth/callback';
import { raise } from '$lib/oauth/catalogue/raise';
import * as stateCheck from '$lib/oauth/catalogue/state-check';
import type { Exchange, Finding } from '$lib/exchange/types';
import {
	cookieBytes,
	droppedNotice,
	FLOW_BUDGET,
	flowsThatFit,
	flowsToDrop,
	formatDropped,
	MAX_COOKIE_BYTES,
	parseDropped,
	RESERVED_BYTES,
	updateDropped,
	closedNotice
} from '$lib/server/session/flow-cap';
import { tabTarget } from '$lib/ui/tab-flow';
import { forkIn, forkOf, refreshHold, revokedByFork } from '$lib/server/flow/fork';
import { callbackTargets } from '$lib/server/steps/callback-route';
import type { Session } from '$lib/server/session/session';

const ID = 'AbCdEfGhIjKl-_09';
const q = (s: string) => new URLSearchParams(s);

describe('the flow id', () => {
	test('16 characters of base64url, random', () => {
		const ids = new Set(Array.from({ length: 50 }, () => newFlowId()));
		expect(ids.size).toBe(50);
		for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
		expect(newFlowId(() => new Uint8Array(12).fill(0xfb))).toBe('-_v7-_v7-_v7-_v7');
	});

	test('the shape is checked: length, alphabet, type', () => {
		expect(isFlowId(ID)).toBe(true);
		for (const bad of [
			'',
			'short',
			ID + 'x',
			ID.slice(1),
			'AbCdEfGhIjKl/+09',
			'AbCdEfGhIjKl.=09',
			16,
			null
		])
			expect(isFlowId(bad), String(bad)).toBe(false);
		// Only a string: a number whose digits would pass is not an id.
		expect(isFlowId(1234567890123456)).toBe(false);
	});

	test('a request names its flow once, or says why not', () => {
		expect(flowParam(q(`flow=${ID}`))).toEqual({ ok: true, id: ID });
		expect(flowParam(q(''))).toMatchObject({ ok: false, reason: 'missing' });
		expect(flowParam(q('flow=x'))).toMatchObject({ ok: false, reason: 'malformed' });
		expect(flowParam(q(`flow=${ID}&flow=${ID}`))).toMatchObject({ ok: false, reason: 'malformed' });
		expect(flowParam(q('/exchange'))).toMatchObject({
			ok: false,
			message: expect.stringMatching(/names no flow/)
		});
	});

	test('the page and the form actions carry it', () => {
		expect(flowPage(ID)).toBe(`/?flow=${ID}`);
		expect(flowAction(ID, 'exchange')).toBe(`?flow=${ID}&/exchange`);
		// SvelteKit takes the action from the first query key that starts with "/".
		expect([...q(flowAction(ID, 'exchange').slice(1)).keys()]).toEqual(['flow', '/exchange']);
	});
});

describe('which flow a redirect finds', () => {
	const flows = [
		{ id: 'a', pending: 'sa', recent: ['ra1', 'ra2'] },
		{ id: 'b', pending: 'sb', recent: ['sa-old'] },
		{ id: 'c', recent: ['rc'] }
	];

	test('a pending state: that flow (outcome 1)', () => {
		expect(routeCallback(q('state=sa&code=x'), flows)).toEqual({ kind: 'pending', id: 'a' });
		expect(routeCallback(q('state=sb&error=access_denied'), flows)).toEqual({
			kind: 'pending',
			id: 'b'
		});
	});

	test('a recent state: that flow, stale (outcome 2)', () => {
		expect(routeCallback(q('state=ra2&code=x'), flows)).toEqual({ kind: 'recent', id: 'a' });
		expect(routeCallback(q('state=rc&code=x'), flows)).toEqual({ kind: 'recent', id: 'c' });
	});

	test('a pending state wins over the same state recent in another flow', () => {
		expect(
			routeCallback(q('state=s'), [
				{ id: 'old', recent: ['s'] },
				{ id: 'now', pending: 's' }
			])
		).toEqual({ kind: 'pending', id: 'now' });
	});

	test('nothing matches, no state, two states, or a state pending in two flows: none (outcome 3)', () => {
		for (const query of ['state=zz&code=x', 'code=x', 'state=sa&state=sa', 'state=', 'state=s'])
			expect(
				routeCallback(q(query), [...flows, { id: 'd', pending: 's' }, { id: 'e', pending: 's' }]),
				query
			).toEqual({ kind: 'none' });
		expect(routeCallback(q('state=sa'), [])).toEqual({ kind: 'none' });
		expect(routeCallback(q('state=SA'), flows)).toEqual({ kind: 'none' });
		// Pending in two flows is none even when a third flow used the same state lately.
		expect(
			routeCallback(q('state=s'), [
				{ id: 'd', pending: 's' },
				{ id: 'e', pending: 's' },
				{ id: 'f', recent: ['s'] }
			])
		).toEqual({ kind: 'none' });
	});

	test('an ignored redirect says which kind it was, whatever else was found', () => {
		const record = (findings: Finding[]) => ({ step: 'callback', findings }) as unknown as Exchange;
		const other: Finding = { level: 'warning', code: 'other', message: 'x' };
		expect(ignoredKind(record([ignoredFinding('stale')]))).toBe('stale');
		expect(ignoredKind(record([other, ignoredFinding('stale')]))).toBe('stale');
		expect(ignoredKind(record([ignoredFinding('unsolicited')]))).toBe('unsolicited');
		expect(ignoredKind(record([other, ignoredFinding('unsolicited')]))).toBe('unsolicited');
	});

	test('only outcome 3 names a forgery', () => {
		for (const why of ['exchanged', 'received', 'answered', 'replaced'] as const) {
			expect(ignoredFinding('stale', why)).toEqual(raise(stateCheck.STALE_CALLBACK, why));
			expect(ignoredFinding('stale', why).message).not.toMatch(/forg/i);
		}
		// Each case in its own words; a stale redirect is a replaced request unless told otherwise.
		const said = ['exchanged', 'received', 'answered', 'replaced'].map(
			(why) => ignoredFinding('stale', why as 'replaced').message
		);
		expect(new Set(said).size).toBe(4);
		expect(ignoredFinding('stale').message).toBe(said[3]);
		expect(ignoredFinding('unsolicited').message).toMatch(/forged \(cross-site request forgery/);
	});
});

describe('a redirect and a fork', () => {
	test('a fork waits for no redirect: its consent request’s state finds no flow, and the others are found as before', () => {
		const flows = [
			{ id: 'parent', session: { v: 1, pending: { state: 'p-state' }, recent_states: ['old'] } },
			{
				id: 'fork',
				session: {
					v: 1,
					pending: { state: 'f-state' },
					recent_states: ['f-old'],
					fork_of: { flow: 'parent', by: 'code' }
				}
			}
		] as unknown as { id: string; session: Session }[];
		const targets = callbackTargets(flows);
		const route = (q: string) => routeCallback(new URLSearchParams(q), targets);
		expect(route('state=f-state&code=c')).toEqual({ kind: 'none' });
		expect(route('state=f-old&code=c')).toEqual({ kind: 'none' });
		expect(route('state=p-state&code=c')).toEqual({ kind: 'pending', id: 'parent' });
		expect(route('state=old&code=c')).toEqual({ kind: 'recent', id: 'parent' });
	});
});

describe('the recent states of a flow', () => {
	test('newest first, no duplicates, at most four', async () => {
		const { rememberState, RECENT_STATES } = await import('$lib/server/session/session');
		expect(RECENT_STATES).toBe(4);
		expect(rememberState(undefined, undefined)).toEqual([]);
		expect(rememberState(['a'], undefined)).toEqual(['a']);
		let list: string[] = [];
		for (const s of ['s1', 's2', 's3', 's4', 's5']) list = rememberState(list, s);
		expect(list).toEqual(['s5', 's4', 's3', 's2']);
		expect(rememberState(list, 's3')).toEqual(['s3', 's5', 's4', 's2']);
	});
});

describe('the byte cap', () => {
	test('12,000 bytes for all the cookies, 200 of them for the theme and the dropped list', () => {
		expect(MAX_COOKIE_BYTES).toBe(12_000);
		expect(RESERVED_BYTES).toBe(200);
		expect(FLOW_BUDGET).toBe(11_800);
		// The longest theme and dropped-list cookies fit in what is reserved.
		const dropped = formatDropped(Array.from({ length: 9 }, (_, i) => ({ id: ID, fit: 9999 - i })));
		expect(
			cookieBytes('__Host-pg_theme', 'light') + cookieBytes('__Host-pg_dropped', dropped)
		).toBeLessThanOrEqual(RESERVED_BYTES);
	});

	test('a cookie costs its name, its value, "=" and "; "', () => {
		expect(cookieBytes('pg_flow_x', 'abc')).toBe(9 + 3 + 3);
	});

	test('nothing is dropped while the flow fits', () => {
		const others = [
			{ id: 'a', bytes: 4000, usedAt: 1 },
			{ id: 'b', bytes: 4000, usedAt: 2 }
		];
		expect(flowsToDrop(3800, others)).toEqual([]);
		expect(flowsToDrop(0, [])).toEqual([]);
	});

	test('the least recently used go first, only as many as needed', () => {
		const others = [
			{ id: 'new', bytes: 4000, usedAt: 30 },
			{ id: 'old', bytes: 4000, usedAt: 10 },
			{ id: 'mid', bytes: 4000, usedAt: 20 }
		];
		expect(flowsToDrop(3801, others)).toEqual(['old', 'mid']);
		expect(flowsToDrop(4000, others.slice(0, 2))).toEqual(['old']);
		expect(flowsToDrop(3800, others.slice(0, 2))).toEqual([]);
		// A flow that does not open (garbage) has no time: it goes first.
		expect(
			flowsToDrop(4000, [...others.slice(0, 2), { id: 'junk', bytes: 10, usedAt: 0 }])
		).toEqual(['junk', 'old']);
		expect(flowsToDrop(10, [{ id: 'x', bytes: 20, usedAt: 1 }], 25)).toEqual(['x']);
	});

	test('writing a fork never drops its parent to make room: a newer flow goes instead', () => {
		const others = [
			{ id: 'parent', bytes: 4000, usedAt: 10 },
			{ id: 'newer', bytes: 4000, usedAt: 20 },
			{ id: 'newest', bytes: 4000, usedAt: 30 }
		];
		expect(flowsToDrop(3801, others)).toEqual(['parent', 'newer']);
		expect(flowsToDrop(3801, others, FLOW_BUDGET, 'parent')).toEqual(['newer', 'newest']);
		// Without the parent's id, or with another flow's, the least recently used go first as ever.
		expect(flowsToDrop(3801, others, FLOW_BUDGET, 'elsewhere')).toEqual(['parent', 'newer']);
	});

	test('a fork that cannot fit beside its parent is not written: null, and nothing is dropped', () => {
		const parent = { id: 'parent', bytes: 6000, usedAt: 10 };
		expect(
			flowsToDrop(5801, [parent, { id: 'x', bytes: 10, usedAt: 20 }], FLOW_BUDGET, 'parent')
		).toBeNull();
		expect(
			flowsToDrop(5800, [parent, { id: 'x', bytes: 10, usedAt: 20 }], FLOW_BUDGET, 'parent')
		).toEqual(['x']);
		expect(flowsToDrop(5800, [parent], FLOW_BUDGET, 'parent')).toEqual([]);
	});

	test('writing a fork counts as a use of its parent: the parent outlives flows older than its fork, and the fork goes first', () => {
		const flows = [
			{ id: 'parent', bytes: 4000, usedAt: 10 },
			{ id: 'other', bytes: 4000, usedAt: 20 },
			{ id: 'fork', bytes: 3000, usedAt: 30, forkOf: 'parent' }
		];
		// Room for one more flow of 4,000 bytes: the other flow goes, though the parent was written before it.
		expect(flowsToDrop(4000, flows)).toEqual(['other']);
		// Room for more: the fork before its parent, though the two count as used at once.
		expect(flowsToDrop(7000, flows)).toEqual(['other', 'fork']);
		expect(flowsToDrop(11_800, flows)).toEqual(['other', 'fork', 'parent']);
		// A fork whose parent is gone is a flow like any other.
		expect(flowsToDrop(4801, flows.slice(1))).toEqual(['other']);
		// A parent written after its fork is last used then.
		const later = [{ ...flows[0]!, usedAt: 40 }, flows[1]!, flows[2]!];
		expect(flowsToDrop(7000, later)).toEqual(['other', 'fork']);
	});

	test('about how many flows of a size fit', () => {
		expect(flowsThatFit(4000)).toBe(2);
		expect(flowsThatFit(3933)).toBe(3);
		expect(flowsThatFit(20_000)).toBe(1);
		expect(flowsThatFit(0)).toBe(FLOW_BUDGET);
	});

	test('the dropped list: newest first, at most four, the rewritten flow leaves it, garbage is ignored', () => {
		const id = (c: string) => c.repeat(16);
		const list = [{ id: id('a'), fit: 3 }];
		const after = updateDropped(list, [{ id: id('b'), fit: 2 }], id('c'));
		expect(after).toEqual([
			{ id: id('b'), fit: 2 },
			{ id: id('a'), fit: 3 }
		]);
		expect(parseDropped(formatDropped(after))).toEqual(after);
		expect(updateDropped(after, [], id('a'))).toEqual([{ id: id('b'), fit: 2 }]);
		const many = updateDropped(
			after,
			['d', 'e', 'f'].map((c) => ({ id: id(c), fit: 1 })),
			id('z')
		);
		expect(many.map((d) => d.id[0])).toEqual(['d', 'e', 'f', 'b']);
		expect(parseDropped(`${id('a')}~3.bad~1.${id('b')}~x.<script>.${id('c')}~12345`)).toEqual([
			{ id: id('a'), fit: 3 }
		]);
		expect(parseDropped(undefined)).toEqual([]);
	});

	test('a fork closed from its parent is listed as closed, and its tab says so', () => {
		const id = (c: string) => c.repeat(16);
		const list = updateDropped(
			[{ id: id('a'), fit: 3 }],
			[{ id: id('f'), fit: 0, closed: true }],
			id('z')
		);
		expect(formatDropped(list)).toBe(`${id('f')}~c.${id('a')}~3`);
		expect(parseDropped(formatDropped(list))).toEqual(list);
		expect(parseDropped(`${id('f')}~cc.${id('g')}~C`)).toEqual([]);
		expect(closedNotice).toBe(
			'This flow was a fork, closed from the flow it was made from (“Close that fork”): its copy of the setup and tokens is gone from this browser. Start again.'
		);
	});

	test('the notice names about how many flows of this size fit', () => {
		expect(droppedNotice(3)).toBe(
			"This tab's flow was dropped to make room for newer ones: the browser holds about 3 flows of this size. Start again."
		);
		expect(droppedNotice(1)).toMatch(/about 1 flow of this size/);
	});
});

describe('one fork at a time', () => {
	test('a parent finds its fork by what the fork records; nothing else is its fork', () => {
		const fork = (of: string) => ({ v: 1 as const, fork_of: { flow: of, by: 'code' as const } });
		const flows = [
			{ id: 'parent', session: { v: 1 as const } },
			{ id: 'other', session: fork('elsewhere') },
			{ id: 'copy', session: { v: 1 as const, setup: undefined } },
			{ id: 'fork', session: fork('parent') }
		];
		expect(forkIn(flows, 'parent')).toBe('fork');
		expect(forkIn(flows, 'elsewhere')).toBe('other');
		expect(forkIn(flows, 'fork')).toBeUndefined();
		expect(forkIn(flows.slice(0, 3), 'parent')).toBeUndefined();
		// A flow is never its own fork, whatever it records.
		expect(forkIn([{ id: 'self', session: fork('self') }], 'self')).toBeUndefined();
	});

	test('what a fork found about the tokens both hold: the live fork’s word, else a closed one’s, only for that token set', () => {
		const held = (obtained_at: number, more: Partial<Session> = {}): Session =>
			({ v: 1, tokens: { obtained_at }, ...more }) as Session;
		const revokedAt = (at: number, by: 'code' | 'refresh') =>
			forkOf(
				[{ id: 'fork', session: { v: 1, fork_of: { flow: 'parent', by, revoked: at } } }],
				'parent'
			);
		expect(revokedByFork(held(10), revokedAt(10, 'refresh'))).toBe('refresh');
		// Newer tokens than those the fork found revoked: not said of them.
		expect(revokedByFork(held(11), revokedAt(10, 'refresh'))).toBeNull();
		expect(revokedByFork({ v: 1 }, revokedAt(10, 'code'))).toBeNull();
		expect(revokedByFork(held(10), forkOf([], 'parent'))).toBeNull();
		// The fork closed: what it found stays, for the same set only.
		const closed = { fork_found: { by: 'code' as const, revoked: 10 } };
		expect(revokedByFork(held(10, closed), undefined)).toBe('code');
		expect(revokedByFork(held(12, closed), undefined)).toBeNull();
	});

	test('refreshes held: while the fork that superseded the refresh token lives, and after it was dropped, for that token set only', () => {
		const held = (obtained_at: number, more: Partial<Session> = {}): Session =>
			({ v: 1, tokens: { obtained_at }, ...more }) as Session;
		const live = (by: 'code' | 'refresh', superseded: boolean) =>
			forkOf(
				[
					{
						id: 'fork',
						session: {
							v: 1,
							fork_of: { flow: 'parent', by, ...(superseded ? { superseded } : {}) }
						}
					}
				],
				'parent'
			);
		expect(refreshHold(held(10), live('refresh', true))).toBe('fork');
		expect(refreshHold(held(10), live('refresh', false))).toBeUndefined();
		expect(refreshHold(held(10), live('code', true))).toBeUndefined();
		expect(refreshHold(held(10), undefined)).toBeUndefined();
		// The fork gone, the token it superseded is still superseded: held, said as such.
		const superseded = { fork_superseded: 10 };
		expect(refreshHold(held(10, superseded), undefined)).toBe('gone');
		expect(refreshHold(held(10, superseded), live('code', false))).toBe('gone');
		expect(refreshHold(held(10, superseded), live('refresh', true))).toBe('fork');
		// Other tokens (taken from the fork, or a new flow's): nothing is held.
		expect(refreshHold(held(11, superseded), undefined)).toBeUndefined();
		expect(refreshHold({ v: 1, ...superseded }, undefined)).toBeUndefined();
	});
});

describe('where a tab goes on load', () => {
	const at = (path: string) => new URL(path, 'http://127.0.0.1:5173');
	const MINTED = 'mintedMintedMint';

	test('an address with a flow id stays', () => {
		expect(tabTarget(at(`/?flow=${ID}`), MINTED, 'rememberedRememb')).toBeNull();
	});

	test('a bare / goes back to the flow the tab remembers, and loads it', () => {
		expect(tabTarget(at('/'), MINTED, ID)).toEqual({ href: `/?flow=${ID}`, load: true });
	});

	test('a bare / with nothing remembered, a docs link, or a malformed id: the new flow, and only its id in the address', () => {
		expect(tabTarget(at('/'), MINTED, undefined)).toEqual({
			href: `/?flow=${MINTED}`,
			load: false
		});
		expect(tabTarget(at('/?client_id=docs-app&base_url=x'), MINTED, ID)).toEqual({
			href: `/?flow=${MINTED}`,
			load: false
		});
		expect(tabTarget(at('/?flow=bad'), MINTED, ID)).toEqual({
			href: `/?flow=${MINTED}`,
			load: false
		});
		expect(tabTarget(at(`/?flow=${ID}&flow=${ID}`), MINTED, undefined)).toEqual({
			href: `/?flow=${MINTED}`,
			load: false
		});
	});
});

describe('a duplicated tab', () => {
	test('of two tabs with one flow id, exactly one forks; a tab of another flow does not', async () => {
		const { watchDuplicates } = await import('$lib/ui/tab-flow');
		const forks: string[] = [];
		let forked!: () => void;
		const first = new Promise<void>((ok) => (forked = ok));
		const on = (name: string) => () => {
			forks.push(name);
			forked();
		};
		const stops = [
			watchDuplicates(() => 'otherFlowOtherFl', on('other')),
			watchDuplicates(() => ID, on('one')),
			watchDuplicates(() => ID, on('two'))
		];
		await first;
		for (const stop of stops) stop();
		expect(forks).toHaveLength(1);
		expect(['one', 'two']).toContain(forks[0]);
	});
});
