/**
 * The sandbox's in-memory state, one of each per server process: grant families, rate-limit windows,
 * and each client's copy of the demo read/starred/label state. All of it is bounded (see each class).
 */
import { GrantStore } from './grants.server';
import { RateLimiter } from './ratelimit.server';
import { ReaderState } from './demo.server';

export const grants = new GrantStore();
export const limiter = new RateLimiter();

const readerStates = new Map<string, ReaderState>();

/** The demo state as one client sees it. Keyed by registered client_id only, so the map stays small. */
export function readerState(client_id: string): ReaderState {
	let state = readerStates.get(client_id);
	if (!state) {
		state = new ReaderState();
		readerStates.set(client_id, state);
	}
	return state;
}
