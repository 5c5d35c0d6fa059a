/**
 * The flow's steps and the page's actions, each defined once. Every other list of them is derived
 * from here: the step numbers and headings of the cards, the diagram's names, the exports' titles,
 * the HAR import's step names, which steps take their status from their exchanges, the progress
 * line's busy text and the live region's done text, and the form actions `+page.server.ts` must
 * answer (its `actions` object is checked against `ACTIONS`). How to add a step: docs/architecture.md.
 *
 * The numbers follow the order of the flow, as the page shows the cards: the token is used
 * (user-info) before it is refreshed (the service's API docs §5 steps 5 and 6). Introspection and
 * revocation come last: revoking ends what the others use. The registration check and the metadata
 * fetch belong to the setup, the pushed request to the consent step and the key fetch to the
 * tokens, so they have no number and no card of their own.
 */

interface StepEntry {
	/** The card's number; none for a request with no card of its own. */
	n?: number;
	/** Names an exchange in the views and the exports ("Code exchange"). */
	title: string;
	/** The step card's heading; none without a card. */
	heading?: string;
	/** The name inside a sentence and in the diagram ("code exchange"). */
	name: string;
	/** The step's status comes from its exchanges (step-status.ts), not from the flow's state. */
	fromExchanges?: true;
}

/** Every step an exchange can belong to. */
const STEP_TABLE = {
	consent: { n: 1, title: 'Consent redirect', heading: 'Consent redirect', name: 'consent' },
	callback: { n: 2, title: 'Callback', heading: 'Callback and state check', name: 'callback' },
	exchange: {
		n: 3,
		title: 'Code exchange',
		heading: 'Code exchange',
		name: 'code exchange',
		fromExchanges: true
	},
	userinfo: {
		n: 4,
		title: 'User-info',
		heading: 'User-info',
		name: 'user-info',
		fromExchanges: true
	},
	refresh: { n: 5, title: 'Refresh', heading: 'Refresh', name: 'refresh', fromExchanges: true },
	api: { n: 6, title: 'API call', heading: 'Any API call', name: 'API call', fromExchanges: true },
	introspect: {
		n: 7,
		title: 'Introspection',
		heading: 'Introspection',
		name: 'introspection',
		fromExchanges: true
	},
	revoke: {
		n: 8,
		title: 'Revocation',
		heading: 'Revocation',
		name: 'revocation',
		fromExchanges: true
	},
	check: { title: 'Registration check', name: 'registration check' },
	discovery: { title: 'Metadata', name: 'metadata' },
	par: { title: 'Pushed authorization request', name: 'pushed authorization request' },
	jwks: { title: 'Issuer keys (JWKS)', name: 'issuer keys' }
} as const satisfies Record<string, StepEntry>;

export type Step = keyof typeof STEP_TABLE;

/** Requests that belong to a numbered step or to the setup, with no card of their own. */
export type UnnumberedStep = {
	[K in Step]: (typeof STEP_TABLE)[K] extends { n: number } ? never : K;
}[Step];

/** The steps whose status comes from their exchanges. */
export type ExchangeStep = {
	[K in Step]: (typeof STEP_TABLE)[K] extends { fromExchanges: true } ? K : never;
}[Step];

export const STEPS: Readonly<
	Record<Exclude<Step, UnnumberedStep>, Required<Omit<StepEntry, 'fromExchanges'>>> &
		Record<UnnumberedStep, StepEntry & { n?: undefined; heading?: undefined }>
> = STEP_TABLE;

/** Every step, in the order of the table. */
export const STEP_NAMES = Object.keys(STEP_TABLE) as [Step, ...Step[]];

/** The steps whose status comes from their exchanges, in the page's order. */
export const EXCHANGE_STEPS = STEP_NAMES.filter(
	(s): s is ExchangeStep => 'fromExchanges' in STEP_TABLE[s]
);

interface ActionEntry {
	/**
	 * What the progress line says while the action's request is under way; none for the actions not
	 * posted through a step's form (the metadata fill and the fork show their own progress).
	 */
	busy?: string;
	/**
	 * What the live region says when it is done. Only the automatic ones (the exchange on return,
	 * the refresh before expiry) and those that move nothing into view need it: after any other,
	 * focus goes to the result, which says it.
	 */
	done?: string;
}

/**
 * The page's form actions (`?/name`), each answered by the same key in `+page.server.ts`. Done
 * texts carry the card's number, so a screen reader hears the step it sees.
 */
export const ACTIONS = {
	setup: { busy: 'Saving the setup…' },
	preset: { busy: 'Filling in the sandbox client…' },
	discover: {},
	restart: { busy: 'Preparing a new consent request…' },
	check: { busy: 'Checking the consent URL with the service…' },
	par: { busy: 'Pushing the authorization request…' },
	pasteback: { busy: 'Reading the pasted address…' },
	exchange: {
		busy: 'Exchanging the code for tokens…',
		done: `Step ${STEPS.exchange.n}: the code was exchanged for tokens.`
	},
	userinfo: { busy: 'Reading the user info…' },
	refresh: {
		busy: 'Refreshing the access token…',
		done: `Step ${STEPS.refresh.n}: the access token was refreshed.`
	},
	api: { busy: 'Calling the API…' },
	jwt: { busy: 'Fetching the issuer’s keys and checking the signature…' },
	introspect: { busy: 'Asking the server about the token (introspection)…' },
	revoke: { busy: 'Revoking the token, then trying it once more…' },
	replay: { busy: 'Replaying the code in a fork of this flow…' },
	closefork: { busy: 'Closing the fork…' },
	forscript: { busy: 'Opening the consent page for the script…' },
	reset: { busy: 'Starting over…', done: 'Started over.' },
	undo: { busy: 'Bringing the flow back…', done: 'The flow is back as it was before Start over.' },
	fork: {}
} as const satisfies Record<string, ActionEntry>;

export type ActionName = keyof typeof ACTIONS;

/** The progress line's text while `name` runs. */
export function busyText(name: string): string {
	return (ACTIONS as Record<string, ActionEntry>)[name]?.busy ?? 'Working…';
}

/** The live region's text when `name` is done. */
export function doneText(name: string): string {
	return (ACTIONS as Record<string, ActionEntry>)[name]?.done ?? 'Done.';
}
