/**
 * The one way a form action of the page runs (+page.server.ts: the steps' actions made from the
 * table of runs by `stepActions`, the page's own one line each). `flowAction`: the request must
 * name its flow (`?flow=<id>`, flow-id.ts; 400 with the reason before anything is read), the flow
 * is opened from its cookie (sealed-flow.ts) with everything it needs of the request (`flowContext`:
 * the cookies, the URL, the app, the visitor, the abort signal; the page's `load` and /callback
 * open theirs the same way), a fork refuses at once (it is the record of a try, FORK_IS_RECORD),
 * the form is read and checked (the input a step's run names, or the page's own in step-forms.ts;
 * a form that does not pass answers 400 with the reason and its field), the verb runs, the flow is
 * sealed, and the verb's answer goes back as it is (the page's own verbs answer with nothing that
 * came from a service). A verb that refuses returns a named refusal (refusals.ts): this module, and
 * no other, turns it into the action's failure (`fail`), with its status and words.
 *
 * A step that calls the service runs through `stepAction`, the same with three more things: the
 * abuse limit and the in-flight cap (abuse.ts), a 409 for a flow dropped to make room, and its answer
 * made of the step's exchanges, which the step made fit for the page (send-step.ts), and what else
 * it has for the page, which leaves through `outward` (way-out.ts). Each step's action is one of
 * these (`stepActions`): its run (server/steps/runs.ts) on the flow (`flow.run`).
 */
import { error, fail, type ActionFailure, type RequestEvent } from '@sveltejs/kit';
import { flowParam } from '$lib/oauth/flow-id';
import { clientAddress } from '$lib/proxy.server';
import type { StepResult } from '../steps/flow-steps';
import { readForm } from './form';
import { inSlot, overLimit } from '../outbound/abuse';
import { SealedFlow } from './sealed-flow';
import type { FlowContext } from './context';
import { cookieSource } from '../session/session';
import { stampSetup } from './setup-id';
import { outward } from './way-out';
import type { FormInput } from './step-forms';
import type { StepRuns } from '../steps/runs';
import type { StepActionName } from '$lib/steps/registry';
import {
	FORK_IS_RECORD,
	flowDropped,
	formRefused,
	isRefused,
	refuse,
	type Refused
} from './refusals';

type Event = Pick<
	RequestEvent,
	'cookies' | 'url' | 'request' | 'getClientAddress' | 'setHeaders' | 'locals'
> &
	Partial<Pick<RequestEvent, 'platform'>>;

/** What a verb of the page answers: the form action's data, or a refusal. */
type Answer = (Record<string, unknown> & { ok?: never }) | Refused;

/** A refusal as the action's failure: its status, its words, and what else the verb gave for the page. */
function failure({ ok: _ok, status, ...data }: Refused) {
	return fail(status, data);
}

/** The flow the request names (`?flow=<id>`, flow-id.ts): a 400 with the reason before anything is read. */
function namesFlow(event: Event): void {
	const flow = flowParam(event.url.searchParams);
	if (!flow.ok) error(400, flow.message);
}

/** The form's input for the verb (`null`: the verb takes nothing from it, and the body is not read). */
async function readInput<T>(
	event: Event,
	input: FormInput<T> | null
): Promise<
	{ ok: true; value: T } | { ok: false; failure: ActionFailure<Record<string, unknown>> }
> {
	if (!input) return { ok: true, value: undefined as T };
	const body = await readForm(event.request);
	if (!body.ok) return body;
	const parsed = input(body.form);
	if (parsed.ok) return parsed;
	return { ok: false, failure: failure(refuse(formRefused(parsed.message, parsed.field))) };
}

/** What a flow is opened with, from the request: its flow is the one the request names (`?flow=`). */
export function flowContext(event: Event): FlowContext {
	const { app } = event.locals;
	return {
		app,
		cookies: event.cookies,
		source: cookieSource(app, event.url, event.request.headers),
		origin: event.url.origin,
		client: clientAddress(event, app.limits.proxy),
		signal: event.request.signal
	};
}

/**
 * An action of the page's own (the setup, a preset, Start over, …): read, open, verb, seal, answer.
 * A fork (replay.ts) is a record and runs none of them (FORK_IS_RECORD), but those that `inFork`
 * allows: a duplicated tab's own flow, a new flow with a copy of the setup.
 */
export function flowAction<T>(
	input: FormInput<T> | null,
	verb: (flow: SealedFlow, input: T) => Answer | Promise<Answer>,
	{ inFork = false }: { inFork?: boolean } = {}
) {
	return async (event: Event) => {
		namesFlow(event);
		const flow = await SealedFlow.open(flowContext(event));
		// Before the form is read: whatever it holds, a fork runs none of these.
		if (flow.opened.fork_of && !inFork) return failure(refuse(FORK_IS_RECORD));
		const read = await readInput(event, input);
		if (!read.ok) return read.failure;
		const answer = await verb(flow, read.value);
		await flow.seal();
		return isRefused(answer) ? failure(answer) : answer;
	};
}

/**
 * A step that calls the service: the new flow is sealed, the exchanges go to the tab's transcript,
 * and what else the step has for the page (`answer`) goes with them, through `outward`. A step
 * that left the flow as it was says so (`unchanged`): the page keeps its data (flow.svelte.ts).
 */
export function stepAction<T>(
	input: FormInput<T> | null,
	verb: (flow: SealedFlow, input: T) => Promise<StepResult>
) {
	return async (event: Event) => {
		namesFlow(event);
		const flow = await SealedFlow.open(flowContext(event));
		const before = flow.opened;
		// A fork is a record (replay.ts): it sends nothing more, not even a try of its own, whatever
		// the form holds.
		if (before.fork_of) {
			const { status, message } = FORK_IS_RECORD;
			return fail(status, { message, exchanges: [] });
		}
		const read = await readInput(event, input);
		if (!read.ok) return read.failure;
		const { limits, redactors } = event.locals.app;
		const limited = await overLimit(limits, event);
		if (limited) return limited;
		if (before.dropped) {
			const { status, message } = flowDropped(before.notice!);
			return fail(status, { message, exchanges: [] });
		}
		const held = await inSlot(limits, event, () => verb(flow, read.value));
		if (!held.ok) return held.failure;
		const result = held.value;
		await flow.seal();
		// The exchanges are fit for the page as the step returns them (send-step.ts); what else it has
		// for the page leaves through `outward`.
		const exchanges = stampSetup(result.exchanges ?? [], before);
		const answer = result.answer && outward(redactors, result.answer, before, result.session);
		if (!result.ok) return fail(result.status, { message: result.message, exchanges, ...answer });
		// Nothing the page data is made of changed (the flow, read without a notice, is as it was).
		return flow.changed || before.notice
			? { exchanges, ...answer }
			: { exchanges, ...answer, unchanged: true as const };
	};
}

/**
 * Every step's form action, from the table of runs (server/steps/runs.ts): each through
 * `stepAction`, with what the step reads from its form, and the flow running its step (`flow.run`).
 */
export function stepActions(runs: StepRuns) {
	return Object.fromEntries(
		Object.entries(runs).map(([name, step]) => [
			name,
			stepAction(step.input, (flow, input) => flow.run(step, input))
		])
	) as Record<StepActionName, ReturnType<typeof stepAction>>;
}
