import { describe, expect, test, vi } from 'vitest';
import { onShortcut, shortcutFor, type KeyPress } from '$lib/ui/shortcuts';

/** A target outside any field, and one inside a text field (closest() finds the field). */
const body = { closest: () => null } as unknown as EventTarget;
const inField = {
	closest: (sel: string) => (sel.includes('input') ? {} : null)
} as unknown as EventTarget;

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
	key,
	ctrlKey: false,
	metaKey: false,
	altKey: false,
	defaultPrevented: false,
	target: body,
	...more
});

describe('keyboard shortcuts', () => {
	test('n, g, t and ? ask for the next step, the transcript, dark mode and the list', () => {
		expect(shortcutFor(press('n'))).toBe('next');
		expect(shortcutFor(press('g'))).toBe('transcript');
		expect(shortcutFor(press('t'))).toBe('theme');
		expect(shortcutFor(press('?'))).toBe('help');
	});

	test('other keys are no shortcut, not even names on Object.prototype', () => {
		for (const key of ['x', 'N', 'Enter', ' ', 'constructor', 'toString'])
			expect(shortcutFor(press(key))).toBeNull();
	});

	test('with Ctrl, Meta or Alt the key belongs to the browser', () => {
		expect(shortcutFor(press('t', { ctrlKey: true }))).toBeNull();
		expect(shortcutFor(press('t', { metaKey: true }))).toBeNull();
		expect(shortcutFor(press('n', { altKey: true }))).toBeNull();
	});

	test('typing in a field is typing, and a key another handler took is left alone', () => {
		expect(shortcutFor(press('n', { target: inField }))).toBeNull();
		expect(shortcutFor(press('n', { defaultPrevented: true }))).toBeNull();
		expect(shortcutFor(press('n', { target: null }))).toBe('next');
	});

	test('the handler runs the action and keeps the key from doing anything else', () => {
		const actions = { next: vi.fn(), transcript: vi.fn(), theme: vi.fn(), help: vi.fn() };
		const handle = onShortcut(actions);
		const key = (k: string, target = body) => {
			const e = { ...press(k, { target }), preventDefault: vi.fn() };
			handle(e as unknown as KeyboardEvent);
			return e.preventDefault;
		};
		expect(key('t')).toHaveBeenCalledOnce();
		expect(actions.theme).toHaveBeenCalledOnce();
		expect(key('x')).not.toHaveBeenCalled();
		expect(key('g', inField)).not.toHaveBeenCalled();
		expect(actions.transcript).not.toHaveBeenCalled();
		expect(actions.next).not.toHaveBeenCalled();
		expect(actions.help).not.toHaveBeenCalled();
	});
});
