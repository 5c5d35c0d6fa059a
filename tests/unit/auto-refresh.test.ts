import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { refreshDueAt, scheduleRefresh } from '$lib/ui/auto-refresh.svelte';

const T0 = Date.parse('2026-03-14T09:00:00.000Z');
const tokens = (lifetimeMs: number, { refreshable = true } = {}) => ({
	refresh_token: refreshable ? 'rt' : undefined,
	obtained_at: T0,
	expires_at: T0 + lifetimeMs
});

beforeEach(() => {
	vi.useFakeTimers();
	vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe('when the automatic refresh is due', () => {
	test('30 s before expiry for an hour-long token', () => {
		expect(refreshDueAt(tokens(3_600_000))).toBe(T0 + 3_570_000);
	});

	test('with a fifth of a short lifetime left (5 s token: after 4 s)', () => {
		expect(refreshDueAt(tokens(5_000))).toBe(T0 + 4_000);
		expect(refreshDueAt(tokens(150_000))).toBe(T0 + 120_000); // where the two rules meet
	});

	test('never without a refresh token or without an expiry', () => {
		expect(refreshDueAt(tokens(5_000, { refreshable: false }))).toBeNull();
		expect(
			refreshDueAt({ refresh_token: 'rt', obtained_at: T0, expires_at: undefined })
		).toBeNull();
	});
});

describe('scheduling it', () => {
	test('fires once, when due, and not a millisecond before', () => {
		const fire = vi.fn();
		scheduleRefresh(tokens(5_000), fire);
		vi.advanceTimersByTime(3_999);
		expect(fire).not.toHaveBeenCalled();
		vi.advanceTimersByTime(1);
		expect(fire).toHaveBeenCalledOnce();
		vi.advanceTimersByTime(60_000);
		expect(fire).toHaveBeenCalledOnce();
	});

	test('an overdue refresh fires at once', () => {
		const fire = vi.fn();
		vi.setSystemTime(T0 + 10_000); // the 5 s token expired 5 s ago
		scheduleRefresh(tokens(5_000), fire);
		vi.advanceTimersByTime(0);
		expect(fire).toHaveBeenCalledOnce();
	});

	test('cancelled (switch off, new tokens), it does not fire', () => {
		const fire = vi.fn();
		const cancel = scheduleRefresh(tokens(5_000), fire);
		vi.advanceTimersByTime(2_000);
		cancel();
		vi.advanceTimersByTime(60_000);
		expect(fire).not.toHaveBeenCalled();
	});

	test('nothing is scheduled for tokens that cannot be refreshed', () => {
		const fire = vi.fn();
		scheduleRefresh(tokens(5_000, { refreshable: false }), fire);
		expect(vi.getTimerCount()).toBe(0);
		vi.advanceTimersByTime(60_000);
		expect(fire).not.toHaveBeenCalled();
	});
});
