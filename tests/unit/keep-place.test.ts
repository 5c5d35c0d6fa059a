/**
 * keep-place.ts: after a Save or a preset the page keeps the setup's card where it was on the
 * screen and moves the focus to step 1's heading without following it, scrolling only when the
 * card would be above the screen or the heading off it. Run against a page of boxes at page
 * positions, in an 800 px window whose sticky bar ends 40 px below its top (the root's
 * scroll-padding).
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { keepPlace } from '$lib/ui/keep-place';

const HEIGHT = 800;
const BAR = 40;

/** A page scrolled to `scrollY`, with boxes at page positions that the test may move. */
function page(scrollY: number) {
	const at = { scrollY };
	const focused: { name: string; preventScroll?: boolean; tabIndex: number | null }[] = [];
	const scrolled: string[] = [];
	function box(name: string, top: number, height: number) {
		const b = {
			top,
			height,
			tabIndex: null as number | null,
			getBoundingClientRect: () => ({
				top: b.top - at.scrollY,
				bottom: b.top + b.height - at.scrollY
			}),
			scrollIntoView: (o: ScrollIntoViewOptions) => {
				scrolled.push(`${name} ${o.block}`);
				at.scrollY = b.top - BAR;
			},
			hasAttribute: (a: string) => a === 'tabindex' && b.tabIndex !== null,
			focus: (o?: FocusOptions) =>
				focused.push({ name, preventScroll: o?.preventScroll, tabIndex: b.tabIndex })
		};
		return b;
	}
	vi.stubGlobal('window', {
		innerHeight: HEIGHT,
		scrollBy: (_x: number, y: number) => (at.scrollY += y)
	});
	vi.stubGlobal('document', { documentElement: {} });
	vi.stubGlobal('getComputedStyle', () => ({ scrollPaddingTop: `${BAR}px` }));
	return { at, box, focused, scrolled };
}
const el = (b: object) => b as unknown as HTMLElement;

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('a Save or a preset keeps the user where they were', () => {
	test('the card in view stays where it is, and the heading under it takes the focus without a scroll', () => {
		const { at, box, focused, scrolled } = page(0);
		const card = box('card', 300, 1400);
		const heading = box('heading', 1720, 30);
		const place = keepPlace(el(card));
		// The setup folds: step 1 comes up under its line.
		card.height = 200;
		heading.top = 520;
		place(el(heading));
		expect(at.scrollY).toBe(0);
		expect(scrolled).toEqual([]);
		expect(focused).toEqual([{ name: 'heading', preventScroll: true, tabIndex: -1 }]);
	});

	test('a card that moved on the page meanwhile (a change above it) is put back in its place on the screen', () => {
		const { at, box } = page(100);
		const card = box('card', 300, 1400);
		const place = keepPlace(el(card));
		card.top = 360;
		card.height = 200;
		place(el(box('heading', 580, 30)));
		expect(at.scrollY).toBe(160);
		expect(card.getBoundingClientRect().top).toBe(200);
	});

	test('a card above the screen comes to just below the sticky bar, with the heading under it', () => {
		const { at, box, scrolled, focused } = page(1500);
		const card = box('card', 500, 2400);
		const heading = box('heading', 2920, 30);
		const place = keepPlace(el(card));
		card.height = 200;
		heading.top = 720;
		place(el(heading));
		expect(scrolled).toEqual(['card start']);
		expect(at.scrollY).toBe(500 - BAR);
		expect(focused.map((f) => f.name)).toEqual(['heading']);
	});

	test('a heading below the screen brings the card up to just below the sticky bar, not the heading to the top', () => {
		const { at, box, scrolled } = page(0);
		const card = box('card', 700, 1400);
		const heading = box('heading', 2120, 30);
		const place = keepPlace(el(card));
		card.height = 200;
		heading.top = 920;
		place(el(heading));
		expect(scrolled).toEqual(['card start']);
		expect(at.scrollY).toBe(700 - BAR);
	});

	test('a setup left open, the heading far below: the heading itself comes to just below the sticky bar', () => {
		const { at, box, scrolled, focused } = page(0);
		const card = box('card', 100, 2900);
		const heading = box('heading', 3020, 30);
		keepPlace(el(card))(el(heading));
		expect(scrolled).toEqual(['card start', 'heading start']);
		expect(at.scrollY).toBe(3020 - BAR);
		expect(focused).toEqual([{ name: 'heading', preventScroll: true, tabIndex: -1 }]);
	});

	test('a heading that is focusable already keeps its tabindex; no heading: only the place is kept', () => {
		const { at, box, focused } = page(0);
		const heading = box('heading', 520, 30);
		heading.tabIndex = 0;
		keepPlace(el(box('card', 300, 200)))(el(heading));
		expect(focused).toEqual([{ name: 'heading', preventScroll: true, tabIndex: 0 }]);
		const card = box('card', 300, 1400);
		const place = keepPlace(el(card));
		card.top = 340;
		place(null);
		expect(at.scrollY).toBe(40);
		expect(focused).toHaveLength(1);
	});
});
