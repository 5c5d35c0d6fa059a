/**
 * Start over's Undo in the tab: what Start over cleared here (the transcript, the errors) is kept
 * in memory while the server keeps the old flow (server/flow/start-over.ts), and handed back by Undo. The offer
 * ends after the time the server gave, or at the next action (Flow drops it).
 */
import { tick } from 'svelte';
import type { Exchange } from '$lib/exchange/types';
import type { FieldErrors } from '$lib/oauth/setup';

export interface Cleared {
	items: Exchange[];
	errors: Record<string, string>;
	setupErrors: FieldErrors;
}

/** The notice that holds the Undo button (UndoNotice.svelte). */
const NOTICE = '.undo-notice';

export class UndoOffer {
	/** What Start over cleared, while Undo is offered; null when it is not. */
	cleared = $state.raw<Cleared | null>(null);
	#timer: ReturnType<typeof setTimeout> | undefined;

	/**
	 * Offers Undo for `ms` (nothing when the server kept nothing to undo). When the time is up while
	 * the focus is on the Undo button, it goes back to the Start over button, not to the page's end.
	 */
	offer(cleared: Cleared, ms: number): void {
		this.drop();
		if (!(ms > 0)) return;
		this.cleared = cleared;
		this.#timer = setTimeout(() => {
			const focused = typeof document !== 'undefined' && !!document.activeElement?.closest(NOTICE);
			this.drop();
			if (focused)
				void tick().then(() =>
					document.querySelector<HTMLElement>('[data-result-of~="undo"]')?.focus()
				);
		}, ms);
	}

	drop(): void {
		clearTimeout(this.#timer);
		this.cleared = null;
	}

	/** The cleared state, once; the offer ends. */
	take(): Cleared | null {
		const c = this.cleared;
		this.drop();
		return c;
	}
}
