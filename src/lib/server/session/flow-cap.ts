/**
 * The byte cap on this browser's flows, as pure arithmetic. Every flow is sealed in its own cookie,
 * and a browser sends every cookie back on every request: Node refuses request headers over 16 KB
 * (431), which would lock the browser out, so all the playground's cookies together stay under
 * MAX_COOKIE_BYTES (session.ts). Writing a flow that would go over drops the least recently used
 * other flows until it fits, and their ids are remembered in a small plain cookie so that their
 * tabs can say why their flow is gone.
 *
 * A fork (fork.ts) and the flow it was made from go together: writing a fork counts as a use of
 * its parent, a fork goes before its parent, and writing a fork never drops its parent to make
 * room for it.
 */
import { FLOW_ID_RE } from '$lib/oauth/flow-id';

/**
 * All the playground's cookies together, as the browser sends them (names, values, separators):
 * under Node's 16 KB of request headers, with room left for the rest of the request.
 */
export const MAX_COOKIE_BYTES = 12_000;
/** Kept for the theme cookie and the list of dropped flows, which are counted in the cap. */
export const RESERVED_BYTES = 200;
/** What the flows themselves may take. */
export const FLOW_BUDGET = MAX_COOKIE_BYTES - RESERVED_BYTES;
/** How many dropped flow ids are remembered. */
const MAX_DROPPED = 4;

/** What one cookie adds to the Cookie header: `name=value; `. */
export const cookieBytes = (name: string, value: string) => name.length + value.length + 3;

export interface FlowSize {
	id: string;
	/** Its cookies' bytes in the Cookie header. */
	bytes: number;
	/** When it was last written (milliseconds); 0 when it does not open (garbage goes first). */
	usedAt: number;
	/** The flow it is a fork of (fork.ts), if it is one. */
	forkOf?: string;
}

/**
 * The other flows to drop, least recently used first, so that a flow of `own` bytes fits beside the
 * rest; none when it already fits. A flow that alone is over the budget is refused before this.
 * A parent counts as used when its fork last was, if that is later, and its fork goes before it.
 * `parent`, the flow that the one being written is a fork of, is never dropped for it: null when the
 * fork cannot fit beside it.
 */
export function flowsToDrop(
	own: number,
	others: FlowSize[],
	budget = FLOW_BUDGET,
	parent?: string
): string[] | null {
	let total = own + others.reduce((n, f) => n + f.bytes, 0);
	const forkUse = new Map<string, number>();
	for (const f of others)
		if (f.forkOf) forkUse.set(f.forkOf, Math.max(forkUse.get(f.forkOf) ?? 0, f.usedAt));
	const used = (f: FlowSize) => Math.max(f.usedAt, forkUse.get(f.id) ?? 0);
	const order = others
		.filter((f) => f.id !== parent)
		.sort(
			(a, b) =>
				used(a) - used(b) ||
				Number(forkUse.has(a.id)) - Number(forkUse.has(b.id)) ||
				a.id.localeCompare(b.id)
		);
	const drop: string[] = [];
	for (const f of order) {
		if (total <= budget) break;
		drop.push(f.id);
		total -= f.bytes;
	}
	return total <= budget ? drop : null;
}

/** About how many flows of `bytes` bytes the browser holds. */
export const flowsThatFit = (bytes: number, budget = FLOW_BUDGET) =>
	Math.max(1, Math.floor(budget / Math.max(1, bytes)));

export interface Dropped {
	id: string;
	/** About how many flows of its size fit. */
	fit: number;
	/** Not dropped to make room: a fork closed from its parent ("Close that fork", fork.ts). */
	closed?: true;
}

/** The dropped-flows cookie's value: `id~fit.id~fit`, newest first; a closed fork is `id~c`. */
export function formatDropped(list: Dropped[]): string {
	return list
		.slice(0, MAX_DROPPED)
		.map((d) => `${d.id}~${d.closed ? 'c' : d.fit}`)
		.join('.');
}

export function parseDropped(value: string | undefined): Dropped[] {
	if (!value) return [];
	const out: Dropped[] = [];
	for (const part of value.split('.')) {
		const [id = '', fit = ''] = part.split('~');
		if (!FLOW_ID_RE.test(id)) continue;
		if (fit === 'c') out.push({ id, fit: 0, closed: true });
		else if (/^\d{1,4}$/.test(fit)) out.push({ id, fit: Number(fit) });
	}
	return out.slice(0, MAX_DROPPED);
}

/** The list after `dropped` were dropped and `written` was written again. */
export function updateDropped(list: Dropped[], dropped: Dropped[], written: string): Dropped[] {
	const gone = new Set([written, ...dropped.map((d) => d.id)]);
	return [...dropped.filter((d) => d.id !== written), ...list.filter((d) => !gone.has(d.id))].slice(
		0,
		MAX_DROPPED
	);
}

/** What a tab whose flow was dropped says. */
export const droppedNotice = (fit: number) =>
	`This tab's flow was dropped to make room for newer ones: the browser holds about ${fit} flow${fit === 1 ? '' : 's'} of this size. Start again.`;

/** What the tab of a fork closed from its parent says. */
export const closedNotice =
	'This flow was a fork, closed from the flow it was made from (“Close that fork”): its copy of the setup and tokens is gone from this browser. Start again.';
