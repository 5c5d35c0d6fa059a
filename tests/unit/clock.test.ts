/** The page's one clock (ui/clock.svelte.ts), moved by fake timers. */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { Clock } from '$lib/ui/clock.svelte';

beforeEach(() => {
	vi.useFakeTimers();
	vi.setSystemTime(new Date('2026-03-14T09:00:00.000Z'));
});
afterEach(() => vi.useRealTimers());

const T0 = Date.parse('2026-03-14T09:00:00.000Z');

test('reads the time at once, and does not run a timer until a display starts it', () => {
	const clock = new Clock();
	expect(clock.now).toBe(T0);
	expect(clock.running).toBe(false);
	vi.advanceTimersByTime(5_000);
	expect(clock.now, 'nothing moves it before start()').toBe(T0);
});

test('ticks every 250 ms once started: the time moves on without a reload', () => {
	const clock = new Clock();
	const stop = clock.start();
	vi.advanceTimersByTime(249);
	expect(clock.now).toBe(T0);
	vi.advanceTimersByTime(1);
	expect(clock.now).toBe(T0 + 250);
	vi.advanceTimersByTime(10_000);
	expect(clock.now).toBe(T0 + 10_250);
	stop();
});

test('one timer however many displays use it; it stops when the last one stops', () => {
	const clock = new Clock();
	const before = vi.getTimerCount();
	const a = clock.start();
	const b = clock.start();
	expect(vi.getTimerCount() - before).toBe(1);
	a();
	a(); // a second stop of the same display changes nothing
	expect(clock.running).toBe(true);
	vi.advanceTimersByTime(250);
	expect(clock.now).toBe(T0 + 250);
	b();
	expect(clock.running).toBe(false);
	expect(vi.getTimerCount()).toBe(before);
	vi.advanceTimersByTime(1_000);
	expect(clock.now).toBe(T0 + 250);
});

test('the time source and the tick are injectable', () => {
	let t = 1_000;
	const clock = new Clock(() => t, 1_000);
	expect(clock.now).toBe(1_000);
	const stop = clock.start();
	t = 5_000;
	vi.advanceTimersByTime(999);
	expect(clock.now).toBe(1_000);
	vi.advanceTimersByTime(1);
	expect(clock.now).toBe(5_000);
	expect(clock.read()).toBe(5_000);
	stop();
});

test('start() reads the time afresh: a display that starts late does not show an old time', () => {
	const clock = new Clock();
	vi.advanceTimersByTime(60_000);
	const stop = clock.start();
	expect(clock.now).toBe(T0 + 60_000);
	stop();
});
