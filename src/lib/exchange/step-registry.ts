/**
 * The page's form actions, each defined once: what the progress line says while one runs and what
 * the live region says when it is done, and the actions `+page.server.ts` must answer (its
 * `actions` object is checked against `ACTIONS`). A step's action is in its spec (`action`, in
 * `$lib/steps/<id>-step.ts`, gathered by `$lib/steps/registry`), and the server runs it from its
 * table of runs (server/steps/runs.ts); the page's own actions, which are not steps, are listed
 * here. How to add a step: docs/architecture.md.
 */
import { STEP_ACTIONS, type ActionSpec, type StepActionName } from '$lib/steps/registry';

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
 * The page's own actions: the setup, a preset, Start over and the rest, which are no step of the
 * flow (the replay of a code makes a fork of the flow, and the fork runs it).
 */
export const PAGE_ACTIONS = {
	setup: { busy: 'Saving the setup…' },
	preset: { busy: 'Filling in the sandbox client…' },
	restart: { busy: 'Preparing a new consent request…' },
	replay: { busy: 'Replaying the code in a fork of this flow…' },
	replayrefresh: { busy: 'Trying the previous refresh token in a fork of this flow…' },
	tworefreshes: { busy: 'Sending two refreshes at once in a fork of this flow…' },
	closefork: { busy: 'Closing the fork…' },
	takefork: {
		busy: 'Taking the fork’s newest tokens…',
		done: 'The fork’s newest tokens are this flow’s now, and the fork is closed.'
	},
	forscript: { busy: 'Opening the consent page for the script…' },
	reset: { busy: 'Starting over…', done: 'Started over.' },
	undo: { busy: 'Bringing the flow back…', done: 'The flow is back as it was before Start over.' },
	fork: {}
} as const satisfies Record<string, ActionEntry>;

/** Every action the page posts (`?/name`): the steps' and the page's own. */
export type ActionName = StepActionName | keyof typeof PAGE_ACTIONS;

/** A step's texts, from its spec: the done text carries the card's number, if it has a card. */
function stepEntry({ n, action: { busy, done } }: ActionSpec): ActionEntry {
	return {
		...(busy === undefined ? {} : { busy }),
		...(done === undefined ? {} : { done: n === undefined ? done : `Step ${n}: ${done}` })
	};
}

/**
 * The page's form actions (`?/name`), each answered by the same key in `+page.server.ts`: the
 * steps' actions, from their specs, and the page's own.
 */
export const ACTIONS: Readonly<Record<ActionName, ActionEntry>> = {
	...(Object.fromEntries(
		Object.entries(STEP_ACTIONS).map(([name, spec]) => [name, stepEntry(spec)])
	) as Record<StepActionName, ActionEntry>),
	...PAGE_ACTIONS
};

/** The progress line's text while `name` runs. */
export function busyText(name: string): string {
	return (ACTIONS as Record<string, ActionEntry>)[name]?.busy ?? 'Working…';
}

/** The live region's text when `name` is done. */
export function doneText(name: string): string {
	return (ACTIONS as Record<string, ActionEntry>)[name]?.done ?? 'Done.';
}
