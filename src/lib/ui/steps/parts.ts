/**
 * The parts of the playground page that load when the page needs them, so that a fresh visit
 * fetches the script of its first render only (the setup, and WaitingSteps for the rest):
 *
 * - the steps after the setup (FlowSteps), once there is something for them to show: a setup, a
 *   redirect back, an exchange sent to this tab, or an exchange of the tab's own transcript;
 * - the verdict's module (exchange/verdict.ts), with the steps after the setup: before them there
 *   is nothing to judge (an import, which may come first, loads it itself: Flow.loadVerdicts);
 * - a docs link's banner and its reminder, on the page that was opened with such a link.
 *
 * The page's universal load awaits them from the page data, on the server and in the browser
 * alike, so the server's render and the browser's hydration use the same components, and an
 * action's reload brings a newly needed part with the data that needs it.
 */
import type { Exchange } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';
import type FlowStepsComponent from './FlowSteps.svelte';
import type * as Prefill from '$lib/ui/prefill-parts';
import type * as Verdicts from '$lib/exchange/verdict';

/** The page data that decides which parts the page needs. */
export interface PartsFacts {
	setup: unknown;
	callback: unknown;
	/** Exchanges the server handed to this tab (an ignored redirect). */
	outbox?: unknown;
	prefill?: unknown;
}

/** Whether the steps after the setup have anything to show beyond their waiting cards. */
export function needsFlowSteps(d: PartsFacts, transcript: readonly Exchange[] = []): boolean {
	return (
		!!d.setup ||
		!!d.callback ||
		(Array.isArray(d.outbox) && d.outbox.length > 0) ||
		// The metadata fill belongs to the setup; any other exchange has a step card.
		transcript.some((ex) => specOf(ex.step).belongsTo !== 'setup')
	);
}

export const loadFlowSteps = async (): Promise<typeof FlowStepsComponent> =>
	(await import('./FlowSteps.svelte')).default;

export type VerdictModule = typeof Verdicts;

export const loadVerdicts = (): Promise<VerdictModule> => import('$lib/exchange/verdict');

export interface PageParts {
	FlowSteps?: typeof FlowStepsComponent;
	verdicts?: VerdictModule;
	PrefillBanner?: typeof Prefill.PrefillBanner;
	PrefillReminder?: typeof Prefill.PrefillReminder;
}

/** The parts the page data asks for, loaded. */
export async function pageParts(d: PartsFacts): Promise<PageParts> {
	const steps = needsFlowSteps(d);
	const [FlowSteps, verdicts, prefill] = await Promise.all([
		steps ? loadFlowSteps() : undefined,
		steps ? loadVerdicts() : undefined,
		d.prefill ? import('$lib/ui/prefill-parts') : undefined
	]);
	return {
		FlowSteps,
		verdicts,
		PrefillBanner: prefill?.PrefillBanner,
		PrefillReminder: prefill?.PrefillReminder
	};
}
