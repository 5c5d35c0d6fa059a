/**
 * Which flow this tab runs. The flow id is in the address (`/?flow=<id>`); sessionStorage remembers
 * it only for a bare `/` (a reload of the bare address, or the address typed again in the same
 * tab). A tab that finds its id already open in another tab (a duplicated tab: the browser copied
 * the address and the sessionStorage) forks: it asks the other tabs over a BroadcastChannel, and on
 * an answer moves to a copy of the flow under a new id (the `fork` action).
 *
 * sessionStorage also keeps the tab's record of the flows it started or forked (`SeenFlows`): a
 * flow the tab is asked to show without one is a flow someone else may have sealed (in local mode
 * another app on another port of the same host can set a `pg_flow_<id>` cookie and send the tab to
 * `/?flow=<id>`), and the page names its hosts to check before the secret is typed.
 */
import { FLOW_PARAM, flowPage, isFlowId } from '$lib/oauth/flow-id';

const TAB_KEY = 'playground.flow';
const CHANNEL = 'playground.flows';

export function rememberedFlow(): string | undefined {
	try {
		const id = sessionStorage.getItem(TAB_KEY);
		return isFlowId(id) ? id : undefined;
	} catch {
		return undefined;
	}
}

export function rememberFlow(id: string): void {
	try {
		sessionStorage.setItem(TAB_KEY, id);
	} catch {
		/* storage may be off */
	}
}

const SEEN_KEY = 'playground.flows.seen';
/** The record keeps this many flows, the newest (a browser holds far fewer under the byte cap). */
const SEEN_MAX = 32;

/**
 * What this tab knows of the flows it started or forked: each flow's id and the id of the setup it
 * last showed in this tab (null: none saved), or `true` for a fork the tab is about to open (its
 * setup is the one it was forked with). A flow the tab saw sealed again under its id with another
 * setup, which the tab did not save (another app can overwrite a cookie it knows the name of), no
 * longer matches.
 */
export type SeenFlows = Record<string, string | null | true>;

export function seenFlows(): SeenFlows {
	try {
		const seen: unknown = JSON.parse(sessionStorage.getItem(SEEN_KEY) ?? '{}');
		if (!seen || typeof seen !== 'object' || Array.isArray(seen)) return {};
		return Object.fromEntries(
			Object.entries(seen).filter(
				([id, setup]) =>
					isFlowId(id) && (setup === null || setup === true || typeof setup === 'string')
			)
		) as SeenFlows;
	} catch {
		return {};
	}
}

/** Records that this tab started, forked or kept the flow `id`, showing the setup `setup`. */
export function recordFlow(id: string, setup: string | null | true): void {
	const seen = seenFlows();
	delete seen[id];
	seen[id] = setup;
	const kept = Object.entries(seen).slice(-SEEN_MAX);
	try {
		sessionStorage.setItem(SEEN_KEY, JSON.stringify(Object.fromEntries(kept)));
	} catch {
		/* storage may be off: the banner then shows on a reload, which says nothing worse than "check" */
	}
}

/**
 * Whether the tab shows a flow it did not start: not one the server minted for this load
 * (`started`), and not one the tab's record has with this setup.
 */
export function notStartedHere(
	seen: SeenFlows,
	id: string,
	setup: string | null,
	started: boolean
): boolean {
	if (started) return false;
	if (!Object.hasOwn(seen, id)) return true;
	return seen[id] !== true && seen[id] !== setup;
}

/**
 * Where the tab goes on load: nowhere when its address names a flow; to the remembered flow on a
 * bare `/` (then its data must load); else to the flow the server minted (a docs link's values leave
 * the address, which keeps only the flow id).
 */
export function tabTarget(
	url: URL,
	minted: string,
	remembered: string | undefined
): { href: string; load: boolean } | null {
	if (
		isFlowId(url.searchParams.get(FLOW_PARAM)) &&
		url.searchParams.getAll(FLOW_PARAM).length === 1
	)
		return null;
	if (url.search === '' && remembered && remembered !== minted)
		return { href: flowPage(remembered), load: true };
	return { href: flowPage(minted), load: false };
}

/**
 * Answers other tabs that ask for this tab's flow id, and asks once: `onDuplicate` runs when
 * another tab already runs `id()`. Of two tabs with one id, the newer document forks (a duplicated
 * tab is newer than its original), so two tabs restored at once do not both move. Returns the
 * function that stops listening.
 */
export function watchDuplicates(id: () => string, onDuplicate: () => void): () => void {
	if (typeof BroadcastChannel === 'undefined') return () => {};
	const channel = new BroadcastChannel(CHANNEL);
	const me = crypto.randomUUID();
	const since = performance.timeOrigin;
	/** Whether the other tab's document is older than this one (ties broken by the tabs' ids). */
	const older = (m: { since?: number; from?: string }) =>
		typeof m.since === 'number' && (m.since < since || (m.since === since && String(m.from) < me));
	channel.onmessage = (e: MessageEvent) => {
		const m = e.data as {
			type?: string;
			id?: string;
			from?: string;
			to?: string;
			since?: number;
		} | null;
		if (!m || m.id !== id() || m.from === me) return;
		if (m.type === 'who') {
			// The asking tab is the older one: this tab is the copy.
			if (older(m)) onDuplicate();
			else channel.postMessage({ type: 'here', id: m.id, to: m.from, from: me, since });
		} else if (m.type === 'here' && m.to === me && older(m)) onDuplicate();
	};
	channel.postMessage({ type: 'who', id: id(), from: me, since });
	return () => channel.close();
}
