/**
 * How a host's connections are shared among visitors' addresses (server/outbound/host-slots.ts): the choice
 * of the call to end for a newcomer, and the slots that hand its connection over. Small limits
 * stand for the sender's 64; nothing here touches the network or a clock.
 */
import { describe, expect, test } from 'vitest';
import { HostSlots, toEnd, type Call, type Slot } from '$lib/server/outbound/host-slots';

describe('the call ended for a newcomer', () => {
	const heldIn = (calls: Call[]) => (client: string) =>
		calls.filter((c) => c.client === client).length;
	const pick = (calls: Call[]) => toEnd(calls, heldIn(calls));
	const get = (client: string, since: number): Call => ({ client, get: true, since });
	const post = (client: string, since: number): Call => ({ client, get: false, since });

	test('the longest-running GET of the address holding the most connections', () => {
		const calls = [get('b', 0), get('a', 1), get('a', 2), get('b', 3), get('a', 4), get('c', 5)];
		expect(pick(calls)).toBe(calls[1]);
	});

	test('a POST is never ended, even the longest-running call of the address holding the most', () => {
		const calls = [post('a', 0), get('b', 1), get('a', 2), get('b', 3), get('a', 4)];
		expect(pick(calls)).toBe(calls[2]);
	});

	test('an address holding one connection keeps it: every holder has one, nothing is ended', () => {
		expect(pick([get('a', 0), get('b', 1), get('c', 2)])).toBeUndefined();
	});

	test('addresses holding more than one but no GET: nothing is ended', () => {
		expect(pick([post('a', 0), post('a', 1), get('b', 2)])).toBeUndefined();
	});

	test('between addresses holding as many, the one whose GET has run longest', () => {
		const calls = [get('a', 4), get('b', 2), get('a', 9), get('b', 8)];
		expect(pick(calls)).toBe(calls[1]);
	});

	test('an address counts the connections it holds, those not in the list included', () => {
		const calls = [get('a', 5), get('b', 1)];
		expect(toEnd(calls, (c) => (c === 'a' ? 2 : 1))).toBe(calls[0]);
	});
});

/** A host's slots with a small limit, and requests that say whether they have their connection yet. */
function host(limit: number) {
	let idle = 0;
	const slots = new HostSlots(limit, () => idle++);
	const ask = (client: string, get = true) => {
		const stop = new AbortController();
		const r = { slot: undefined as Slot | undefined, settled: false, stop };
		const taken = slots.take(client, get, stop.signal).then((s) => {
			r.settled = true;
			r.slot = s;
			return s;
		});
		return Object.assign(r, { taken });
	};
	/** Lets every pending promise callback run. */
	const settle = () => new Promise<void>((ok) => setImmediate(ok));
	return { slots, ask, settle, idles: () => idle };
}

describe('a host’s slots', () => {
	test('a newcomer finding every connection in use ends a GET, and has its connection once that call gives it back', async () => {
		const { ask, settle } = host(4);
		const a = [ask('a'), ask('a'), ask('a')];
		const b = ask('b');
		await settle();
		expect([...a, b].every((r) => r.slot && !r.slot.ended.aborted)).toBe(true);

		const c = ask('c');
		await settle();
		// a's first (longest-running) GET is ended; c waits for it to let go of its socket.
		expect(a.map((r) => r.slot!.ended.aborted)).toEqual([true, false, false]);
		expect(b.slot!.ended.aborted).toBe(false);
		expect(c.settled).toBe(false);
		a[0]!.slot!.release();
		await settle();
		expect(c.slot).toBeDefined();
		// It did not wait in line: no "waited" on its card.
		expect(c.slot!.waited).toBe(false);
	});

	test('each newcomer ends a call of its own: the second ends the next one, not the same again', async () => {
		const { ask, settle } = host(4);
		const a = [ask('a'), ask('a'), ask('a'), ask('a')];
		await settle();
		const c = ask('c');
		const d = ask('d');
		await settle();
		expect(a.map((r) => r.slot!.ended.aborted)).toEqual([true, true, false, false]);
		a[1]!.slot!.release();
		a[0]!.slot!.release();
		await settle();
		expect(c.slot && d.slot).toBeDefined();
		// c now holds one, as does d: a fifth address ends another of a's.
		const e = ask('e');
		await settle();
		expect(a.map((r) => r.slot!.ended.aborted)).toEqual([true, true, true, false]);
		expect(c.slot!.ended.aborted || d.slot!.ended.aborted).toBe(false);
		a[2]!.slot!.release();
		await settle();
		expect(e.slot).toBeDefined();
	});

	test('an address that already holds a connection waits: it ends nothing', async () => {
		const { ask, settle } = host(3);
		const a = [ask('a'), ask('a')];
		const b = [ask('b')];
		await settle();
		b.push(ask('b'));
		await settle();
		expect(a.some((r) => r.slot!.ended.aborted)).toBe(false);
		expect(b[1]!.settled).toBe(false);
		a[1]!.slot!.release();
		await settle();
		expect(b[1]!.slot!.waited).toBe(true);
	});

	test('when every holder has one connection the newcomer waits, and the next connection given back is its own before any earlier waiter’s', async () => {
		const { ask, settle } = host(3);
		const holders = [ask('a'), ask('b'), ask('c')];
		await settle();
		const more = ask('a');
		const newcomer = ask('n');
		await settle();
		expect(holders.some((r) => r.slot!.ended.aborted)).toBe(false);
		expect(newcomer.settled || more.settled).toBe(false);
		holders[1]!.slot!.release();
		await settle();
		expect(newcomer.slot!.waited).toBe(true);
		expect(more.settled).toBe(false);
		holders[2]!.slot!.release();
		await settle();
		expect(more.slot).toBeDefined();
	});

	test('a POST is never ended: an address holding one POST and GETs loses a GET', async () => {
		const { ask, settle } = host(3);
		const write = ask('a', false);
		const reads = [ask('a'), ask('a')];
		await settle();
		ask('n');
		await settle();
		expect(write.slot!.ended.aborted).toBe(false);
		expect(reads.map((r) => r.slot!.ended.aborted)).toEqual([true, false]);
	});

	test('an address has one write in flight to a host: the second waits for the first, even with room, so that an address holding more than one always holds a GET', async () => {
		const { ask, settle } = host(4);
		const first = ask('a', false);
		const second = ask('a', false);
		const read = ask('a');
		await settle();
		expect(first.slot).toBeDefined();
		expect(read.slot).toBeDefined();
		expect(second.settled).toBe(false);
		first.slot!.release();
		await settle();
		expect(second.slot!.waited).toBe(true);
	});

	test('a newcomer’s write may end another address’s GET', async () => {
		const { ask, settle } = host(2);
		const a = [ask('a'), ask('a')];
		await settle();
		const w = ask('n', false);
		await settle();
		expect(a[0]!.slot!.ended.aborted).toBe(true);
		a[0]!.slot!.release();
		await settle();
		expect(w.slot).toBeDefined();
	});

	test('a newcomer that gives up before the ended call lets go: the connection goes to the next in line', async () => {
		const { ask, settle } = host(2);
		const a = [ask('a'), ask('a')];
		await settle();
		const gone = ask('n');
		await settle();
		const next = ask('a');
		gone.stop.abort();
		await settle();
		expect(gone.settled && gone.slot === undefined).toBe(true);
		a[0]!.slot!.release();
		await settle();
		expect(next.slot).toBeDefined();
	});

	test('a request that stops while waiting gets nothing; the host is idle once everything is given back, and a connection given back twice counts once', async () => {
		const { ask, settle, idles } = host(1);
		const a = ask('a');
		await settle();
		const later = ask('a');
		later.stop.abort();
		await settle();
		expect(later.settled && later.slot === undefined).toBe(true);
		expect(idles()).toBe(0);
		a.slot!.release();
		a.slot!.release();
		expect(idles()).toBe(1);
		// Given back twice, counted once: the host still has one connection, not two.
		const [b, c] = [ask('b'), ask('c')];
		await settle();
		expect(b.slot).toBeDefined();
		expect(c.settled).toBe(false);
	});
});
