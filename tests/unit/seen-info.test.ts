import { afterEach, describe, expect, test, vi } from 'vitest';

/** A fresh copy of the module (its list is read once per page) over a storage holding `stored`. */
async function load(stored?: string) {
	const items = new Map<string, string>();
	if (stored !== undefined) items.set('playground.seen-info.v1', stored);
	vi.stubGlobal('localStorage', {
		getItem: (k: string) => items.get(k) ?? null,
		setItem: (k: string, v: string) => void items.set(k, v)
	});
	vi.resetModules();
	return { m: await import('$lib/ui/seen-info'), items };
}

afterEach(() => vi.unstubAllGlobals());

describe('seen-info: an explanation shows whole once, then folds', () => {
	test('a code marked shown counts from the next page load on, which reads it back from the browser', async () => {
		const { m, items } = await load();
		expect(m.shownBefore('pkce-hint')).toBe(false);
		m.markShown(['pkce-hint', 'pkce-hint']);
		// Not in this page load: the card and the transcript show the same finding alike.
		expect(m.shownBefore('pkce-hint')).toBe(false);
		expect(JSON.parse(items.get(m.SEEN_KEY)!)).toEqual(['pkce-hint']);
		// The next page reads it back.
		const next = await load(items.get(m.SEEN_KEY));
		expect(next.m.shownBefore('pkce-hint')).toBe(true);
		expect(next.m.shownBefore('other')).toBe(false);
	});

	test('storage that holds something else, or is off, means nothing was shown', async () => {
		for (const bad of ['{"a":1}', 'not json', '[1, null]']) {
			const { m } = await load(bad);
			expect(m.shownBefore('a')).toBe(false);
		}
		vi.stubGlobal('localStorage', {
			getItem: () => {
				throw new Error('SecurityError');
			},
			setItem: () => {
				throw new Error('SecurityError');
			}
		});
		vi.resetModules();
		const m = await import('$lib/ui/seen-info');
		expect(m.shownBefore('a')).toBe(false);
		m.markShown(['a']);
		expect(m.shownBefore('a')).toBe(false);
	});

	test('at most 200 codes are kept, the oldest dropped first', async () => {
		const { m, items } = await load();
		m.markShown(Array.from({ length: 205 }, (_, i) => `c${i}`));
		const kept = JSON.parse(items.get(m.SEEN_KEY)!);
		expect(kept).toHaveLength(200);
		expect(kept[0]).toBe('c5');
		const next = await load(items.get(m.SEEN_KEY));
		expect(next.m.shownBefore('c4')).toBe(false);
		expect(next.m.shownBefore('c5')).toBe(true);
		expect(next.m.shownBefore('c204')).toBe(true);
	});

	test('firstSentence splits at the end of the first sentence only', async () => {
		const { m } = await load();
		expect(m.firstSentence('The token is a JWT. Its signature was checked.')).toEqual({
			first: 'The token is a JWT.',
			rest: 'Its signature was checked.'
		});
		expect(m.firstSentence('Use e.g. read. Then go on.')).toEqual({
			first: 'Use e.g. read.',
			rest: 'Then go on.'
		});
		expect(m.firstSentence('One sentence only.')).toEqual({
			first: 'One sentence only.',
			rest: ''
		});
		expect(m.firstSentence('See https://x.test/a.b for more. Next.').first).toBe(
			'See https://x.test/a.b for more.'
		);
	});
});
