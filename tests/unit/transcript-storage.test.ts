/**
 * The transcript in the tab's sessionStorage: each exchange under its own key with a list of ids,
 * so that a new exchange writes itself and the list, not the whole transcript again.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Exchange } from '$lib/exchange/types';
import { KEY, OLD_KEY, transcript } from '$lib/ui/transcript.svelte';

/** A Storage in memory, with a quota in characters (keys and values) and a record of every write. */
class MemoryStorage implements Storage {
	map = new Map<string, string>();
	writes: { key: string; chars: number }[] = [];
	constructor(private quota = Infinity) {}
	get length() {
		return this.map.size;
	}
	key(i: number) {
		return [...this.map.keys()][i] ?? null;
	}
	getItem(k: string) {
		return this.map.get(k) ?? null;
	}
	setItem(k: string, v: string) {
		const used = [...this.map].reduce(
			(a, [kk, vv]) => a + (kk === k ? 0 : kk.length + vv.length),
			0
		);
		if (used + k.length + v.length > this.quota)
			throw new DOMException('full', 'QuotaExceededError');
		this.map.set(k, v);
		this.writes.push({ key: k, chars: v.length });
	}
	removeItem(k: string) {
		this.map.delete(k);
	}
	clear() {
		this.map.clear();
	}
}

const FLOW = 'AAAAAAAAAAAAAAAA';
const ex = (id: string, body = ''): Exchange =>
	({
		id,
		step: 'userinfo',
		startedAt: '2026-03-14T09:00:00.000Z',
		request: { method: 'GET', url: 'https://r.test/', httpVersion: '1.1', headers: [], body },
		timing: { total: 0 },
		findings: []
	}) as Exchange;

let store: MemoryStorage;
const use = (s: MemoryStorage) => {
	store = s;
	vi.stubGlobal('sessionStorage', s);
};
beforeEach(() => use(new MemoryStorage()));
afterEach(() => vi.unstubAllGlobals());

const ids = () => transcript.items.map((e) => e.id);

describe('the transcript in sessionStorage', () => {
	test('a new exchange writes itself and the list of ids, not the exchanges before it', () => {
		transcript.load(FLOW);
		const big = 'x'.repeat(5000);
		transcript.add(Array.from({ length: 30 }, (_, i) => ex(`e${i}`, big)));
		store.writes = [];
		transcript.add([ex('e30', big)]);
		expect(store.writes.map((w) => w.key)).toEqual([`${KEY}.${FLOW}/e30`, `${KEY}.${FLOW}`]);
		expect(store.writes.reduce((a, w) => a + w.chars, 0)).toBeLessThan(5000 + 1000);
	});

	test('a reload reads every exchange back, in order; another flow has its own', () => {
		transcript.load(FLOW);
		transcript.add([ex('a'), ex('b')]);
		transcript.add([ex('c')]);
		transcript.load('BBBBBBBBBBBBBBBB');
		expect(ids()).toEqual([]);
		transcript.add([ex('z')]);
		transcript.load(FLOW);
		expect(ids()).toEqual(['a', 'b', 'c']);
		expect(transcript.items[1]).toEqual(ex('b'));
	});

	test('an exchange seen before, or twice in one answer, is kept once', () => {
		transcript.load(FLOW);
		transcript.add([ex('a'), ex('a')]);
		transcript.add([ex('a'), ex('b')]);
		expect(ids()).toEqual(['a', 'b']);
		transcript.load(FLOW);
		expect(ids()).toEqual(['a', 'b']);
		expect(JSON.parse(store.getItem(`${KEY}.${FLOW}`)!)).toEqual(['a', 'b']);
	});

	test('over the quota the oldest stored go; the page keeps them all until it reloads', () => {
		use(new MemoryStorage(3 * 1400));
		transcript.load(FLOW);
		for (let i = 0; i < 6; i++) transcript.add([ex(`e${i}`, 'y'.repeat(1000))]);
		expect(ids()).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5']);
		transcript.load(FLOW);
		const kept = ids();
		expect(kept.length).toBeGreaterThan(0);
		expect(kept.length).toBeLessThan(6);
		expect(kept).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5'].slice(6 - kept.length));
		// Nothing left behind of the dropped ones.
		expect([...store.map.keys()].filter((k) => k.includes('/'))).toHaveLength(kept.length);
	});

	test('one exchange larger than the whole quota is not stored; the rest are', () => {
		use(new MemoryStorage(2000));
		transcript.load(FLOW);
		transcript.add([ex('small')]);
		transcript.add([ex('huge', 'z'.repeat(5000))]);
		transcript.load(FLOW);
		expect(ids()).toEqual([]);
		transcript.add([ex('after')]);
		transcript.load(FLOW);
		expect(ids()).toEqual(['after']);
	});

	test('an exchange that cannot be read back is skipped, the others stay', () => {
		transcript.load(FLOW);
		transcript.add([ex('a'), ex('b'), ex('c')]);
		store.map.set(`${KEY}.${FLOW}/b`, '{not json');
		transcript.load(FLOW);
		expect(ids()).toEqual(['a', 'c']);
	});

	test("Start over removes the flow's keys, and only its own", () => {
		transcript.load('BBBBBBBBBBBBBBBB');
		transcript.add([ex('other')]);
		transcript.load(FLOW);
		transcript.add([ex('a'), ex('b')]);
		transcript.clear();
		expect(ids()).toEqual([]);
		expect([...store.map.keys()].sort()).toEqual(
			[`${KEY}.BBBBBBBBBBBBBBBB`, `${KEY}.BBBBBBBBBBBBBBBB/other`].sort()
		);
	});

	test('a transcript kept the old way (one list) is read, then moved to the new keys', () => {
		store.map.set(`${OLD_KEY}.${FLOW}`, JSON.stringify([ex('a'), ex('b')]));
		transcript.load(FLOW);
		expect(ids()).toEqual(['a', 'b']);
		expect(store.getItem(`${OLD_KEY}.${FLOW}`)).toBeNull();
		transcript.load(FLOW);
		expect(ids()).toEqual(['a', 'b']);
	});

	test('storage turned off: the transcript works in the page alone', () => {
		vi.stubGlobal('sessionStorage', undefined);
		transcript.load(FLOW);
		transcript.add([ex('a')]);
		expect(ids()).toEqual(['a']);
		transcript.clear();
		expect(ids()).toEqual([]);
	});
});
