/**
 * Where focus goes after an action the user started: to the step's error when it failed, else to
 * its new result. Step components mark them with `data-error-of` / `data-result-of` (the action's
 * name; StepError and StepResult do it), each with tabindex="-1" and an accessible name. The
 * auto-refresh never moves focus: it is announced in the page's polite live region instead. The
 * exchange on return lands on the verdict (flow.svelte.ts) when the focus is still on <body>, and
 * is announced when the user has moved it.
 */
import { tick } from 'svelte';

/** The element to focus after `action`: its error first, then its result; none when neither is shown. */
function outcomeTarget(root: ParentNode, action: string): HTMLElement | null {
	return (
		root.querySelector<HTMLElement>(`[data-error-of~="${action}"]`) ??
		root.querySelector<HTMLElement>(`[data-result-of~="${action}"]`)
	);
}

/**
 * Once the page shows the answer, focuses its error or result. One that is not wholly in view is
 * scrolled into view, and one taller than the screen to its top, below the sticky bar (the root's
 * scroll-padding, app.css): the browser's own scroll on focus would show the end of a tall result,
 * and hide its title and its findings above it.
 */
export async function focusOutcome(action: string): Promise<void> {
	if (typeof document === 'undefined') return;
	await tick();
	const el = outcomeTarget(document, action);
	if (!el) return;
	el.focus({ preventScroll: true });
	const { top, bottom } = el.getBoundingClientRect();
	const below = parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0;
	if (top >= below && bottom <= window.innerHeight) return;
	// Taller than the screen below the bar: its top. Else the least scroll that shows all of it.
	const tall = bottom - top > window.innerHeight - below;
	el.scrollIntoView({ block: tall ? 'start' : 'nearest' });
}
