/**
 * The sandbox's demo data, kept in its store (in this process, or on a Redis-protocol server when
 * REDIS_URL is set; see store.server.ts and sandbox.server.ts). It is bounded and expires with the
 * grant it belongs to.
 */
import { ReaderState } from './demo.server';
import type { Sandbox } from './sandbox.server';
import { StoreUnavailable } from './store.server';

/**
 * Where a token's demo data and zone budgets live. Local mode: its client, as the service's API
 * docs describe per-client limits. Hosted mode: its grant (one sign-in), so that visitors sharing
 * a built-in client can neither spend nor change each other's.
 */
export function namespaceOf(
	{ mode }: Pick<Sandbox, 'mode'>,
	claims: { client_id: string; fam: string }
): string {
	return mode === 'hosted' ? `grant:${claims.fam}` : `client:${claims.client_id}`;
}

/** The demo data of a namespace (the demo's starting state until something changed it). */
export async function loadReader(
	sandbox: Pick<Sandbox, 'store'>,
	ns: string
): Promise<ReaderState> {
	return ReaderState.from(await (await sandbox.store()).readState(ns));
}

/**
 * Changes a namespace's demo data: `change` runs on the current state and, when it says ok and
 * changed something, the new state replaces the old one by compare-and-set, so that two instances
 * changing the same namespace at once lose neither change (the loser runs again on the winner's
 * state). The data lives until `until` (Unix seconds), the end of the grant.
 */
export async function updateReader<T extends { ok: boolean }>(
	sandbox: Pick<Sandbox, 'store'>,
	ns: string,
	until: number,
	change: (state: ReaderState) => T
): Promise<T> {
	const s = await sandbox.store();
	for (let attempt = 0; attempt < 8; attempt++) {
		const before = await s.readState(ns);
		const state = ReaderState.from(before);
		const result = change(state);
		const after = JSON.stringify(state);
		if (!result.ok || after === (before ?? JSON.stringify(new ReaderState()))) return result;
		if (await s.writeState(ns, before, after, until)) return result;
	}
	throw new StoreUnavailable(new Error('the demo data kept changing under this write'));
}
