/**
 * The one way a step's form action runs: read the form and check what the step takes from it
 * (step-forms.ts; a form that does not pass answers 400 with the reason), then `runStep` (page.ts):
 * the abuse limit, the session, the verb, the sealed cookie and the answer, which leaves through
 * `outward`. Each step's action in `+page.server.ts` is one line through here.
 */
import { fail, type RequestEvent } from '@sveltejs/kit';
import type { StepResult } from './flow';
import { readForm } from './form';
import { runStep } from './page';
import type { Sender } from './send';
import type { Session } from './session';
import type { FormInput } from './step-forms';

/** What a step's verb may use besides the session and its input. */
export interface VerbContext {
	sender: Sender;
	/** The visitor's address, which the sender's pool counts connections by. */
	client: string | undefined;
	/** Aborted when the browser gives up on the request. */
	signal: AbortSignal;
	/** The playground's own origin, as the browser reached it. */
	origin: string;
}

export type Verb<T> = (session: Session, input: T, context: VerbContext) => Promise<StepResult>;

/**
 * A step's form action: `input` reads its form (`null`: the step takes nothing from it, and its body
 * is not read), `verb` runs it.
 */
export function stepAction<T>(input: FormInput<T> | null, verb: Verb<T>) {
	return async (event: RequestEvent) => {
		let value = undefined as T;
		if (input) {
			const body = await readForm(event.request);
			if (!body.ok) return body.failure;
			const parsed = input(body.form);
			if (!parsed.ok) {
				const { message, field } = parsed;
				return fail(400, field === undefined ? { message } : { message, field });
			}
			value = parsed.value;
		}
		const { signal } = event.request;
		const { origin } = event.url;
		return runStep(event, (s, { sender, client }) =>
			verb(s, value, { sender, client, signal, origin })
		);
	};
}
