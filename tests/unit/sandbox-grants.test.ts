import { describe, expect, it } from 'vitest';
import { GrantStore } from '$lib/sandbox/grants.server';
import { MemoryStore } from '$lib/sandbox/store.server';
import { ReaderState } from '$lib/sandbox/demo.server';

function clock(start = 1_700_000_000_000) {
	let t = start;
	return { now: () => t, advance: (ms: number) => (t += ms), sec: () => Math.floor(t / 1000) };
}

describe('sandbox grant state: single-use codes and rotating refresh tokens', () => {
	it('remembers a used code and the family it started', () => {
		const c = clock();
		const g = new GrantStore(c.now);
		const code = { jti: 'code-1', exp: c.sec() + 60, fam: 'fam-1', client_id: 'sandbox-rw' };
		expect(g.usedCode('code-1')).toBeUndefined();
		g.redeemCode(code, 'rt-1', c.sec() + 3600);
		expect(g.usedCode('code-1')).toMatchObject({ fam: 'fam-1' });
		expect(g.isRevoked('fam-1')).toBe(false);
		g.revoke('fam-1', c.sec() + 60);
		expect(g.isRevoked('fam-1')).toBe(true);
		// The mark lasts as long as the family's own tokens, even when asked for less.
		c.advance(120_000);
		g.prune();
		expect(g.isRevoked('fam-1')).toBe(true);
	});

	it('rotates: the current refresh token works once, an old one revokes the family', () => {
		const c = clock();
		const g = new GrantStore(c.now);
		g.redeemCode({ jti: 'c', exp: c.sec() + 60, fam: 'f', client_id: 'x' }, 'rt-1', c.sec() + 3600);
		expect(g.rotate('f', 'x', 'rt-1', 'rt-2', c.sec() + 3600)).toBe('ok');
		expect(g.rotate('f', 'x', 'rt-2', 'rt-3', c.sec() + 3600)).toBe('ok');
		expect(g.isRevoked('f')).toBe(false);
		expect(g.rotate('f', 'x', 'rt-1', 'rt-4', c.sec() + 3600)).toBe('reused');
		expect(g.isRevoked('f')).toBe(true);
		expect(g.rotate('f', 'x', 'rt-3', 'rt-5', c.sec() + 3600)).toBe('revoked');
	});

	it('trusts an unknown family (after a restart) and starts tracking it', () => {
		const c = clock();
		const g = new GrantStore(c.now);
		expect(g.rotate('new-fam', 'x', 'rt-a', 'rt-b', c.sec() + 100)).toBe('ok');
		expect(g.rotate('new-fam', 'x', 'rt-a', 'rt-c', c.sec() + 100)).toBe('reused');
	});

	it('revokes a family it has never seen, so its access tokens stop working', () => {
		const c = clock();
		const g = new GrantStore(c.now);
		g.revoke('ghost', c.sec() + 30 * 24 * 3600);
		expect(g.isRevoked('ghost')).toBe(true);
		// Kept for as long as asked (a refresh token's 30 days), not a fixed day.
		c.advance(29 * 24 * 3600 * 1000);
		g.prune();
		expect(g.isRevoked('ghost')).toBe(true);
	});

	it('forgets expired codes and families when pruning', () => {
		const c = clock();
		const g = new GrantStore(c.now);
		g.redeemCode({ jti: 'c1', exp: c.sec() + 60, fam: 'f1', client_id: 'x' }, 'r1', c.sec() + 120);
		g.redeemCode(
			{ jti: 'c2', exp: c.sec() + 60, fam: 'f2', client_id: 'x' },
			'r2',
			c.sec() + 10_000
		);
		expect(g.size()).toEqual({ codes: 2, families: 2 });
		c.advance(61_000);
		g.prune();
		expect(g.size()).toEqual({ codes: 0, families: 2 });
		c.advance(60_000);
		g.prune();
		expect(g.size()).toEqual({ codes: 0, families: 1 });
	});

	it('prunes by itself as time passes', () => {
		const c = clock();
		const g = new GrantStore(c.now);
		g.redeemCode({ jti: 'c1', exp: c.sec() + 10, fam: 'f1', client_id: 'x' }, 'r1', c.sec() + 10);
		c.advance(120_000);
		expect(g.usedCode('c1')).toBeUndefined();
		expect(g.size()).toEqual({ codes: 0, families: 0 });
	});

	it('never holds more than its cap of families', () => {
		const c = clock();
		const g = new GrantStore(c.now, 10);
		for (let i = 0; i < 25; i++)
			g.redeemCode(
				{ jti: `c${i}`, exp: c.sec() + 60, fam: `f${i}`, client_id: 'x' },
				`r${i}`,
				c.sec() + 3600
			);
		expect(g.size().families).toBe(10);
		// The newest survive.
		expect(g.rotate('f24', 'x', 'r24', 'r24b', c.sec() + 3600)).toBe('ok');
	});

	it('over its cap, evicts families that are not revoked, never a revocation', () => {
		const c = clock();
		const g = new GrantStore(c.now, 10);
		g.redeemCode({ jti: 'c0', exp: c.sec() + 60, fam: 'f0', client_id: 'x' }, 'r0', c.sec() + 3600);
		g.revoke('f0', c.sec() + 3600);
		for (let i = 1; i < 25; i++)
			g.redeemCode(
				{ jti: `c${i}`, exp: c.sec() + 60, fam: `f${i}`, client_id: 'x' },
				`r${i}`,
				c.sec() + 3600
			);
		expect(g.size().families).toBe(10);
		expect(g.isRevoked('f0')).toBe(true);
		expect(g.rotate('f0', 'x', 'r0', 'r0b', c.sec() + 3600)).toBe('revoked');
	});
});

describe('demo data in the memory store', () => {
	it('round-trips through JSON: reads, stars and labels', () => {
		const s = new ReaderState();
		s.read.add(1001);
		s.starred.delete(1002);
		s.labels.set(1004, new Set(['user/-/label/Later', 'user/-/label/Work']));
		const back = ReaderState.from(JSON.stringify(s));
		expect([...back.read].sort()).toEqual([...s.read].sort());
		expect([...back.starred]).toEqual([]);
		expect([...back.labels.get(1004)!]).toEqual(['user/-/label/Later', 'user/-/label/Work']);
		expect(ReaderState.from(undefined)).toEqual(new ReaderState());
	});

	it('expires with its grant, and keeps at most its cap of namespaces (the oldest write goes)', async () => {
		const c = clock();
		const m = new MemoryStore(new GrantStore(c.now), c.now, 3);
		for (const ns of ['a', 'b', 'c']) await m.writeState(ns, undefined, ns, c.sec() + 60);
		await m.writeState('a', 'a', 'a2', c.sec() + 60);
		await m.writeState('d', undefined, 'd', c.sec() + 60);
		expect(await m.readState('b')).toBeUndefined();
		expect(await m.readState('a')).toBe('a2');
		c.advance(61_000);
		expect(await m.readState('a')).toBeUndefined();
		expect(await m.writeState('a', undefined, 'fresh', c.sec() + 60)).toBe(true);
	});
});
