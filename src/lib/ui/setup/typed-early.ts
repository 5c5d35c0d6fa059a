/**
 * What a user typed in the setup form before the page's script ran. The form is rendered on the
 * server, so it can be typed in at once; hydration then writes the values the server rendered back
 * over the fields (a `value={…}` field is the server's until the script runs), and what was typed
 * would be lost. The form reads them before that (`typedEarly`, at the component's start) and
 * puts them back once it is mounted (`restoreTyped`), as the user left them. Hydration keeps the
 * server's elements, so each is known by the element itself.
 */

type Field = HTMLInputElement | HTMLTextAreaElement;

/**
 * Whether this page was opened afresh (a link, an address typed), not come back to (Back, Forward,
 * a reload), where the browser itself fills the fields in from before: a field that differs from
 * what the server rendered is then the browser's, not the user's.
 */
export function freshNavigation(): boolean {
	const entry = performance.getEntriesByType?.('navigation')[0] as
		PerformanceNavigationTiming | undefined;
	return !entry || entry.type === 'navigate';
}

/** A field the user changed: its text, or its checked state. */
export type Typed = { el: Field; value: string } | { el: HTMLInputElement; checked: boolean };

/** The fields of `form` whose value differs from what the server rendered: typed by the user. */
export function typedEarly(form: HTMLFormElement | null): Typed[] {
	if (!form) return [];
	const typed: Typed[] = [];
	for (const el of form.querySelectorAll<Field>('input, textarea')) {
		if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
			if (el.checked !== el.defaultChecked) typed.push({ el, checked: el.checked });
		} else if (el.type !== 'hidden' && el.value !== el.defaultValue)
			typed.push({ el, value: el.value });
	}
	return typed;
}

/**
 * Puts `typed` back, each with the event typing gives (`input`, or `change` for a checkbox), so the
 * form's checks of a field see it as typed.
 */
export function restoreTyped(typed: readonly Typed[]): void {
	for (const t of typed) {
		if (!t.el.isConnected) continue;
		if ('checked' in t) {
			if (t.el.checked === t.checked) continue;
			t.el.checked = t.checked;
			t.el.dispatchEvent(new Event('change', { bubbles: true }));
		} else if (t.el.value !== t.value) {
			t.el.value = t.value;
			t.el.dispatchEvent(new Event('input', { bubbles: true }));
		}
	}
}
