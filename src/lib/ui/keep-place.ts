/**
 * A Save or a preset keeps the user where they were. The setup folds into its one line and the
 * next step comes up under it; the page does not follow the focus down to it. Before the action
 * `keepPlace` notes where the setup's card is on the screen; once the page shows the answer, the
 * function it returns puts the card back there, and moves the focus to the next step's heading
 * without scrolling. The page scrolls only so far as it must: when the card would be above the
 * screen (or under the sticky bar), or the heading below it, the card's top comes to just below
 * the sticky bar (the root's scroll-padding, app.css); should the heading still not be wholly on
 * the screen (a setup left open), the heading comes there instead.
 */
export function keepPlace(card: HTMLElement): (heading: HTMLElement | null) => void {
	const before = card.getBoundingClientRect().top;
	return (heading) => {
		window.scrollBy(0, card.getBoundingClientRect().top - before);
		const below = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
		const inView = (el: HTMLElement) => {
			const { top, bottom } = el.getBoundingClientRect();
			return top >= below && bottom <= window.innerHeight;
		};
		if (card.getBoundingClientRect().top < below || (heading && !inView(heading)))
			card.scrollIntoView({ block: 'start' });
		if (!heading) return;
		if (!inView(heading)) heading.scrollIntoView({ block: 'start' });
		// A heading is not in the tab order; it takes the focus from here, as a result does.
		if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
		heading.focus({ preventScroll: true });
	};
}
