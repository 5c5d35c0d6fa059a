/**
 * Which redirects back may touch the flow (oauth/callback.ts, RFC 6749 §10.12): only one whose
 * single state is the pending one. The others are recorded once, as ignored.
 */
import { describe, expect, test } from 'vitest';
import { ignoredFinding, ignoredKind, isIgnoredCallback, routeCallback } from '$lib/oauth/callback';
import type { Exchange, Step } from '$lib/exchange/types';

const SAVED = 'q8Jx2mZ0VbYtN4kP7sLwR1cF9hD3gA6eU5iO0nMzXyQ';
const q = (s: string) => new URLSearchParams(s);

/**
 * Whether a redirect back is the one flow's, by its state: `routeCallback` of a flow whose saved
 * state is `saved` (none pending when undefined) finds it, or finds no flow.
 */
const matches = (query: string, saved: string | undefined) =>
	routeCallback(q(query), [{ id: 'f', pending: saved }]).kind === 'pending';

describe("the state a redirect back carries, against the one flow's saved state", () => {
	test('the one state, exactly the saved one, matches', () => {
		expect(routeCallback(q(`code=c&state=${SAVED}`), [{ id: 'f', pending: SAVED }])).toEqual({
			kind: 'pending',
			id: 'f'
		});
	});

	test('forged callback: a state that is not the saved one does not match', () => {
		expect(matches('code=c&state=x', SAVED)).toBe(false);
		expect(matches(`state=${SAVED}x`, SAVED)).toBe(false);
		expect(matches(`state=${SAVED.slice(0, -1)}`, SAVED)).toBe(false);
		expect(matches('', SAVED)).toBe(false);
	});

	test('repeated state: two states never match, even when one or both are the saved one', () => {
		expect(matches(`state=${SAVED}&state=${SAVED}`, SAVED)).toBe(false);
		expect(matches(`state=x&state=${SAVED}`, SAVED)).toBe(false);
		expect(matches(`state=${SAVED}&state=x`, SAVED)).toBe(false);
	});

	test('stray redirect: with no consent request pending, nothing matches, not even an empty state', () => {
		expect(matches(`state=${SAVED}`, undefined)).toBe(false);
		expect(matches('state=', undefined)).toBe(false);
		expect(matches('state=undefined', undefined)).toBe(false);
	});
});

describe('ignored redirects', () => {
	test('the finding has its own code and the RFC section: a warning when stale, an error when unsolicited', () => {
		expect(ignoredFinding('stale')).toMatchObject({
			level: 'warning',
			code: 'callback-ignored',
			ref: 'RFC 6749 §10.12'
		});
		expect(ignoredFinding('unsolicited')).toMatchObject({
			level: 'error',
			code: 'callback-ignored',
			ref: 'RFC 6749 §10.12'
		});
		const record = (kind: 'stale' | 'unsolicited') =>
			({ step: 'callback', findings: [ignoredFinding(kind)] }) as unknown as Exchange;
		expect(ignoredKind(record('stale'))).toBe('stale');
		expect(ignoredKind(record('unsolicited'))).toBe('unsolicited');
	});

	test('isIgnoredCallback: a callback record carrying that finding, and only that', () => {
		const ex = (step: Step, codes: string[]) =>
			({
				step,
				findings: codes.map((code) => ({ level: 'info', code, message: 'm' }))
			}) as Exchange;
		expect(isIgnoredCallback(ex('callback', ['state-ok', 'callback-ignored']))).toBe(true);
		expect(isIgnoredCallback(ex('callback', ['callback-ignored']))).toBe(true);
		expect(isIgnoredCallback(ex('callback', ['state-ok']))).toBe(false);
		expect(isIgnoredCallback(ex('callback', []))).toBe(false);
		expect(isIgnoredCallback(ex('exchange', ['callback-ignored']))).toBe(false);
	});
});
