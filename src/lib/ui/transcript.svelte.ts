/**
 * The transcript: every Exchange of this tab's flow, in order. It lives in the tab (sessionStorage,
 * one list per flow id), so it survives the trip through the consent page and a reload; the server
 * never needs it back. Each exchange is stored under its own key, with a list of their ids: a new
 * exchange writes itself and the list, never the whole transcript again.
 */
import type { Exchange } from '$lib/exchange/types';

/** The list of ids is `${KEY}.<flow>`; each exchange `${KEY}.<flow>/<id>`. */
export const KEY = 'playground.transcript.v2';
/** Before: the whole list as one value, read once and moved to the keys above. */
export const OLD_KEY = 'playground.transcript.v1';

/** sessionStorage, or none (storage turned off, or outside a browser). */
function storage(): Storage | undefined {
	try {
		return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
	} catch {
		return undefined;
	}
}

function readJson(store: Storage, key: string): unknown {
	try {
		const raw = store.getItem(key);
		return raw ? JSON.parse(raw) : undefined;
	} catch {
		return undefined;
	}
}

class Transcript {
	// Replaced, never changed in place: no deep proxy over every header of every exchange.
	items = $state.raw<Exchange[]>([]);
	#flow = '';
	/** The ids stored, in order (what the list in storage says). */
	#stored: string[] = [];

	get #list(): string {
		return this.#flow ? `${KEY}.${this.#flow}` : KEY;
	}

	#itemKey(id: string): string {
		return `${this.#list}/${id}`;
	}

	/** Reads the transcript of the flow `flow` (the tab's). */
	load(flow?: string): void {
		this.#flow = flow ?? '';
		this.items = [];
		this.#stored = [];
		const store = storage();
		if (!store) return;
		const ids = readJson(store, this.#list);
		if (Array.isArray(ids)) {
			const items: Exchange[] = [];
			for (const id of ids) {
				const ex = typeof id === 'string' ? readJson(store, this.#itemKey(id)) : undefined;
				if (ex && typeof ex === 'object') items.push(ex as Exchange);
			}
			this.items = items;
			this.#stored = items.map((e) => e.id);
			return;
		}
		const oldKey = flow ? `${OLD_KEY}.${flow}` : OLD_KEY;
		const old = readJson(store, oldKey);
		if (Array.isArray(old)) this.add(old as Exchange[]);
		try {
			store.removeItem(oldKey);
		} catch {
			/* storage may be off */
		}
	}

	add(list: Exchange[]): void {
		if (!list.length) return;
		const known = new Set(this.items.map((e) => e.id));
		// New ones only, each once (an answer holds a few exchanges).
		const fresh = list.filter(
			(ex, i) => !known.has(ex.id) && list.findIndex((o) => o.id === ex.id) === i
		);
		if (!fresh.length) return;
		this.items = [...this.items, ...fresh];
		this.#write(fresh);
	}

	clear(): void {
		this.items = [];
		const store = storage();
		if (store)
			try {
				for (const id of this.#stored) store.removeItem(this.#itemKey(id));
				store.removeItem(this.#list);
			} catch {
				/* storage may be off */
			}
		this.#stored = [];
	}

	latest(step: Exchange['step']): Exchange | undefined {
		for (let i = this.items.length - 1; i >= 0; i--)
			if (this.items[i]!.step === step) return this.items[i];
		return undefined;
	}

	/** Stores the new exchanges and the list; over the quota, the oldest stored go until they fit. */
	#write(fresh: Exchange[]): void {
		const store = storage();
		if (!store) return;
		for (const ex of fresh) {
			const text = JSON.stringify(ex);
			for (;;) {
				try {
					store.setItem(this.#itemKey(ex.id), text);
					this.#stored.push(ex.id);
					break;
				} catch {
					if (!this.#dropOldest(store)) break; // this one alone does not fit: not kept
				}
			}
		}
		for (;;) {
			try {
				store.setItem(this.#list, JSON.stringify(this.#stored));
				return;
			} catch {
				if (!this.#dropOldest(store)) return;
			}
		}
	}

	#dropOldest(store: Storage): boolean {
		const oldest = this.#stored.shift();
		if (oldest === undefined) return false;
		try {
			store.removeItem(this.#itemKey(oldest));
		} catch {
			/* storage may be off */
		}
		return true;
	}
}

export const transcript = new Transcript();
