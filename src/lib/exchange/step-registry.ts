/**
 * The page's form actions, each defined once: what the progress line says while one runs and what
 * the live region says when it is done, and the actions `+page.server.ts` must answer (its
 * `actions` object is checked against `ACTIONS`). The steps themselves are specs, one per step,
 * gathered in `$lib/steps/registry`; how to add a step: docs/architecture.md.
 */
import { STEPS } from '$lib/steps/registry';

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
