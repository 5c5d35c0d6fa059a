/**
 * The tab moves to the fork a replay made (server/steps/replay.ts): the fork's transcript starts as
 * a copy of this one with the replay's exchanges after it, the fork is recorded as this tab's own
 * (it opens without the banner of a flow the tab did not start), and the page goes there.
 */
import type { Exchange } from '$lib/exchange/types';
import { flowPage } from '$lib/oauth/flow-id';
import { transcript } from './transcript.svelte';
import { recordFlow } from './tab-flow';

/**
 * After a replay's action: the fork's id when the action answered with one, and whether it was a
 * refusal (the flow's fork already exists: its id, to link to). On success the tab moves there.
 */
export function followFork(outcome: (Record<string, unknown> & { failure?: true }) | undefined): {
	fork?: string;
	refused?: true;
} {
	const fork = typeof outcome?.fork === 'string' ? outcome.fork : undefined;
	if (!fork) return {};
	if (outcome?.failure) return { fork, refused: true };
	const sent = Array.isArray(outcome?.forkExchanges) ? (outcome.forkExchanges as Exchange[]) : [];
	const items = [...transcript.items, ...sent];
	transcript.load(fork);
	transcript.add(items);
	recordFlow(fork, true);
	location.assign(flowPage(fork));
	return { fork };
}
