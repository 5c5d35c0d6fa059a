/**
 * Which redirects back may touch the flow (oauth/callback.ts, RFC 6749 §10.12): only one whose
 * single state is the pending one. The others are recorded once, as ignored.
 */
import { describe, expect, test } from 'vitest';
import { ignoredFinding, ignoredKind, isIgnoredCallback, stateMatches } from '$lib/oauth/callback';
import type { Exchange, Step } from '$lib/exchange/types';

const SAVED = 'q8Jx2mZ0VbYtN4kP7sLwR1cF9hD3gA6eU5iO0nMzXyQ';
const q = (s: string) => new URLSearchParams(s);

describe('stateMatches', () => {
	test('the one state, exactly the saved one, matches', () => {
		expect(stateMatches(q(`code=c&state=${SAVED}`), SAVED)).toBe(true);
	});

	test('forged callback: a state that is not the saved one does not match', () => {
		expect(stateMatches(q('code=c&state=x'), SAVED)).toBe(false);
		expect(stateMatches(q(`state=${SAVED}x`), SAVED)).toBe(false);
		expect(stateMatches(q(`state=${SAVED.slice(0, -1)}`), SAVED)).toBe(false);
		expect(stateMatches(q(''), SAVED)).toBe(false);
	});

	test('repeated state: two states never match, even when one or both are the saved one', () => {
		expect(stateMatches(q(`state=${SAVED}&state=${SAVED}`), SAVED)).toBe(false);
		expect(stateMatches(q(`state=x&state=${SAVED}`), SAVED)).toBe(false);
		expect(stateMatches(q(`state=${SAVED}&state=x`), SAVED)).toBe(false);
	});

	test('stray redirect: with no consent request pending, nothing matches, not even an empty state', () => {
		expect(stateMatches(q(`state=${SAVED}`), undefined)).toBe(false);
		expect(stateMatches(q('state='), undefined)).toBe(false);
		expect(stateMatches(q('state=undefined'), undefined)).toBe(false);
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
