/** The page's keyboard shortcuts: `n` next step, `g` the transcript, `t` dark mode, `?` the list. */

export type Shortcut = 'next' | 'transcript' | 'theme' | 'help';

const KEYS = new Map<string, Shortcut>([
	['n', 'next'],
	['g', 'transcript'],
	['t', 'theme'],
	['?', 'help']
]);

/** The parts of a key press that decide whether it is a shortcut. */
export interface KeyPress {
	key: string;
	ctrlKey: boolean;
	metaKey: boolean;
	altKey: boolean;
	defaultPrevented: boolean;
	target: EventTarget | null;
}

/**
 * The shortcut a key press asks for, or null: never with Ctrl, Meta or Alt (the browser's own
 * keys), never when another handler took the key, never while typing in a field.
 */
export function shortcutFor(e: KeyPress): Shortcut | null {
	if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return null;
	const el = e.target as Partial<Element> | null;
	if (el?.closest?.('input, textarea, select, [contenteditable="true"]')) return null;
	return KEYS.get(e.key) ?? null;
}

/** A keydown handler: a shortcut runs its action, and the key does nothing else. */
export function onShortcut(actions: Record<Shortcut, () => void>): (e: KeyboardEvent) => void {
	return (e) => {
		const s = shortcutFor(e);
		if (!s) return;
		e.preventDefault();
		actions[s]();
	};
}

/**
 * `n`: the step that is next (or failed, cancelled or declined), else the first one not yet done, scrolls into view, and
 * the focus goes to its first control (or the card itself).
 */
export function focusNextStep(doc: Document = document): void {
	const card =
		doc.querySelector<HTMLElement>('.step-current, .step-failed, .step-cancelled, .step-denied') ??
		doc.querySelector<HTMLElement>('.step-todo');
	const target = card?.querySelector<HTMLElement>(
		'a.button, button:not([disabled]), input:not([type=hidden]), textarea, select'
	);
	card?.scrollIntoView({ block: 'start', behavior: 'smooth' });
	(target ?? card)?.focus();
}
