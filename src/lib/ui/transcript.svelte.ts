/**
 * The transcript: every Exchange of this tab's flow, in order. It lives in the tab (sessionStorage,
 * one list per flow id), so it survives the trip through the consent page and a reload; the server
 * never needs it back.
 */
import type { Exchange } from '$lib/exchange/types';

const KEY = 'playground.transcript.v1';

class Transcript {
	items = $state<Exchange[]>([]);
	#key = KEY;

	/** Reads the transcript of the flow `flow` (the tab's). */
	load(flow?: string): void {
		this.#key = flow ? `${KEY}.${flow}` : KEY;
		try {
			const raw = sessionStorage.getItem(this.#key);
			const parsed: unknown = raw ? JSON.parse(raw) : [];
			this.items = Array.isArray(parsed) ? (parsed as Exchange[]) : [];
		} catch {
			this.items = [];
		}
	}

	add(list: Exchange[]): void {
		if (!list.length) return;
		const seen = new Set(this.items.map((e) => e.id));
		this.items = [...this.items, ...list.filter((e) => !seen.has(e.id))];
		this.persist();
	}

	clear(): void {
		this.items = [];
		try {
			sessionStorage.removeItem(this.#key);
		} catch {
			/* storage may be off */
		}
	}

	latest(step: Exchange['step']): Exchange | undefined {
		for (let i = this.items.length - 1; i >= 0; i--)
			if (this.items[i]!.step === step) return this.items[i];
		return undefined;
	}

	private persist(): void {
		let items = this.items;
		for (;;) {
			try {
				sessionStorage.setItem(this.#key, JSON.stringify(items));
				return;
			} catch {
				// Over the storage quota: drop the oldest exchanges until it fits.
				if (items.length <= 1) return;
				items = items.slice(1);
			}
		}
	}
}

export const transcript = new Transcript();
