/**
 * What a form action reads from its form, checked: the type of a form's input and its two helpers,
 * which each step's input is written with beside its run (in server/steps/, named in the table of
 * runs, server/steps/runs.ts), and the inputs of the page's own actions. A form that does not pass
 * answers 400 with the reason and, where there is one, the field it is about, before anything is
 * sent (`stepAction`, flow/action.ts).
 */
import { z } from 'zod';
import { isFlowId } from '$lib/oauth/flow-id';

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; field?: string };

/** A step's input, read from its form. */
export type FormInput<T> = (form: FormData) => Parsed<T>;

/** The form passed: `value` is what the action gets. */
export const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });

/** zod's first message (a failed parse has at least one); `field` when the failure names one. */
export function refused(error: z.ZodError, field?: string): Parsed<never> {
	const message = error.issues[0]?.message ?? 'Invalid input';
	return field === undefined ? { ok: false, message } : { ok: false, message, field };
}

/** The setup form, a preset's or Start over's: the verb reads the whole form. */
export const wholeForm: FormInput<FormData> = (form) => ok(form);

/** "Replay this code": only once confirmed, since the service may revoke the tokens issued from it. */
export const replayConfirmed: FormInput<true> = (form) =>
	form.get('confirm') === 'replay'
		? ok(true)
		: {
				ok: false,
				message:
					'A code is replayed only after its confirmation: the service may revoke the tokens issued from it.'
			};

/**
 * "Replay the previous refresh token": only once confirmed, since the service may revoke every
 * token of the grant.
 */
export const replayRefreshConfirmed: FormInput<true> = (form) =>
	form.get('confirm') === 'replay-refresh'
		? ok(true)
		: {
				ok: false,
				message:
					'The previous refresh token is sent only after its confirmation: the service may revoke every token of the grant.'
			};

/**
 * "Two refreshes at once": only once confirmed, since on a rotating server the second is a reuse
 * and may get the grant revoked.
 */
export const raceConfirmed: FormInput<true> = (form) =>
	form.get('confirm') === 'two-refreshes'
		? ok(true)
		: {
				ok: false,
				message:
					'Two refreshes are sent at once only after their confirmation: on a rotating server the second is a reuse, and the service may revoke the grant.'
			};

/** "Close that fork", confirmed: the fork's flow id, as the refusal of a second replay named it. */
export const forkToClose: FormInput<string> = (form) => {
	const fork = form.get('fork');
	return isFlowId(fork)
		? ok(fork)
		: {
				ok: false,
				message:
					'Name the fork to close by its flow id (16 characters of A-Z, a-z, 0-9, "-" and "_"): nothing was closed.',
				field: 'fork'
			};
};
