/**
 * A host's connections, shared among visitors' addresses: at most `limit` requests to one host are
 * in flight at once, for all visitors together, and a few addresses cannot hold them against a
 * newcomer.
 *
 * The rule, in full:
 * - A request takes a connection while the host has fewer than `limit` in use.
 * - When all are in use and the request's address holds none to the host, the playground ends the
 *   longest-running GET of the address holding the most connections to the host (if that address
 *   holds more than one), and the connection goes to the newcomer as soon as the ended call has let
 *   go of its socket. A GET changes nothing at the service (RFC 9110 §9.2.1), so it can be sent
 *   again; anything else (an API write, a revocation, an introspection, a pushed request) may have
 *   been acted on, and is never ended.
 * - So that an address holding more than one always holds a GET, an address has at most one write
 *   (anything but a GET) in flight to a host: another waits for it.
 * - Otherwise the request waits, first come first served, except that a connection given back goes
 *   first to a waiting address that holds none.
 *
 * Together: while an address holding no connection to a host waits for one, every address holding
 * one holds exactly one. Delaying a visitor takes `limit` addresses, each holding a slow call to
 * that host. No part of the pool is kept back for newcomers: ending a GET makes room for them.
 */

/** A call holding one of the host's connections, as the choice of which to end sees it. */
export interface Call {
	/** The visitor's address (an IPv6 address per /64), as the in-flight limit counts it. */
	client: string;
	/** A GET: it changes nothing at the service, so it may be ended and sent again. */
	get: boolean;
	/** When it took its connection, in the order they were taken: the smallest ran longest. */
	since: number;
}

/**
 * The call to end for a newcomer: the longest-running GET of the address holding the most
 * connections (`held`), if that address holds more than one. Among addresses holding as many,
 * the one whose GET has run longest. Undefined when every address holds one, or when the addresses
 * holding more hold no GET.
 */
export function toEnd<C extends Call>(
	calls: Iterable<C>,
	held: (client: string) => number
): C | undefined {
	let pick: C | undefined;
	for (const c of calls) {
		const n = held(c.client);
		if (!c.get || n < 2) continue;
		if (!pick) pick = c;
		else {
			const most = held(pick.client);
			if (n > most || (n === most && c.since < pick.since)) pick = c;
		}
	}
	return pick;
}

/** What a request is given: its connection, and how it came by it. */
export interface Slot {
	/** Gives the connection back (once; later calls do nothing). */
	release: () => void;
	/** Aborted when the playground ends this call to give its connection to a newcomer. */
	ended: AbortSignal;
	/** It waited in line for the connection (not given at once, nor by ending another call). */
	waited: boolean;
}

interface Held extends Call {
	end: AbortController;
	/** Set when the call is ended: its connection then goes to the newcomer, not back to the host. */
	handOver?: () => void;
}

interface Waiter {
	client: string;
	get: boolean;
	grant: () => void;
}

export class HostSlots {
	#active = 0;
	#calls = new Set<Held>();
	/** Connections held (or about to be handed over) per address, and how many of them are writes. */
	#byClient = new Map<string, { all: number; writes: number }>();
	#waiting: Waiter[] = [];
	#taken = 0;

	/**
	 * `limit`: connections to the host for all visitors together. `idle` is called when the last
	 * connection is given back and no one waits (the host's entry goes).
	 */
	constructor(
		readonly limit: number,
		private readonly idle: () => void
	) {}

	/** A connection for a request from `client`; undefined when `stop` aborts first. */
	take(client: string, get: boolean, stop: AbortSignal): Promise<Slot | undefined> {
		if (stop.aborted) return Promise.resolve(undefined);
		if (this.#fits(client, get)) return Promise.resolve(this.#grant(client, get, false));
		if (this.#active >= this.limit && this.#held(client) === 0) {
			const call = toEnd(this.#calls, (c) => this.#held(c));
			if (call) return this.#takeOver(call, client, get, stop);
		}
		return new Promise((resolve) => {
			const w: Waiter = {
				client,
				get,
				grant: () => {
					stop.removeEventListener('abort', onStop);
					resolve(this.#grant(client, get, true));
				}
			};
			const onStop = () => {
				this.#waiting = this.#waiting.filter((x) => x !== w);
				this.#whenIdle();
				resolve(undefined);
			};
			stop.addEventListener('abort', onStop, { once: true });
			this.#waiting.push(w);
		});
	}

	#held(client: string): number {
		return this.#byClient.get(client)?.all ?? 0;
	}

	#fits(client: string, get: boolean): boolean {
		if (this.#active >= this.limit) return false;
		return get || !this.#byClient.get(client)?.writes;
	}

	#count(client: string, get: boolean, by: 1 | -1): void {
		const n = this.#byClient.get(client) ?? { all: 0, writes: 0 };
		n.all += by;
		if (!get) n.writes += by;
		if (n.all > 0) this.#byClient.set(client, n);
		else this.#byClient.delete(client);
	}

	/** The connection, counted (unless it was counted when it was promised to this request). */
	#grant(client: string, get: boolean, waited: boolean, counted = false): Slot {
		if (!counted) {
			this.#active++;
			this.#count(client, get, 1);
		}
		const call: Held = { client, get, since: this.#taken++, end: new AbortController() };
		this.#calls.add(call);
		let given = false;
		return {
			ended: call.end.signal,
			waited,
			release: () => {
				if (given) return;
				given = true;
				if (call.handOver) return call.handOver();
				this.#calls.delete(call);
				this.#free(client, get);
			}
		};
	}

	#free(client: string, get: boolean): void {
		this.#active--;
		this.#count(client, get, -1);
		this.#wake();
		this.#whenIdle();
	}

	/**
	 * Ends `call` for a newcomer: the connection counts as the newcomer's at once (so the next
	 * newcomer ends another call), and is handed over when the ended call gives it back.
	 */
	#takeOver(
		call: Held,
		client: string,
		get: boolean,
		stop: AbortSignal
	): Promise<Slot | undefined> {
		this.#calls.delete(call);
		this.#count(call.client, call.get, -1);
		this.#count(client, get, 1);
		return new Promise((resolve) => {
			let gaveUp = false;
			const onStop = () => {
				gaveUp = true;
				resolve(undefined);
			};
			stop.addEventListener('abort', onStop, { once: true });
			call.handOver = () => {
				stop.removeEventListener('abort', onStop);
				if (gaveUp) this.#free(client, get);
				else resolve(this.#grant(client, get, false, true));
			};
			call.end.abort();
		});
	}

	/** Connections given back go to those waiting: an address that holds none first, then in order. */
	#wake(): void {
		while (this.#active < this.limit) {
			const fitting = this.#waiting.filter((w) => this.#fits(w.client, w.get));
			const next = fitting.find((w) => this.#held(w.client) === 0) ?? fitting[0];
			if (!next) return;
			this.#waiting.splice(this.#waiting.indexOf(next), 1);
			next.grant();
		}
	}

	#whenIdle(): void {
		if (this.#active === 0 && this.#waiting.length === 0) this.idle();
	}
}
