/**
 * What the redirect back from the consent page says (RFC 6749 §4.1.2, §10.12, and the service's
 * API docs §5 step 3): the state matches, or does not, or nothing was waiting for it; the redirect
 * is malformed; the redirect was ignored, stale or unsolicited; its code was kept for the exported
 * script ("Get a code for the script"); an imported recording's redirect
 * answers no consent it holds. An error sent back in place of a code is `authorization-error.ts`'s.
 * `diagnoseCallback` in `diagnose.ts` raises them by the callback's verdict, `callback.ts` the
 * ignored ones, `imported.ts` the recording's.
 */
import type { StaleWhy } from '../callback';
import { STEPS } from '$lib/steps/registry';
import { apiDocs } from '../docs';
import { entry } from './raise';

const CSRF = 'RFC 6749 §10.12';

/**
 * The returned state is not the saved one (or is missing): the redirect is ignored and the code not
 * used.
 */
export const STATE_MISMATCH = entry({
	code: 'state-mismatch',
	level: 'error',
	message: (description: string | undefined) =>
		`${description ?? 'The returned state does not match the saved one.'} The response may be forged (CSRF), so the playground ignored it and the code was not used.`,
	fix: 'The consent request is still pending: open the consent page again, or start over with "Try again". If it repeats, check that nothing rewrites the redirect, and that only one tab runs the flow.',
	ref: `${apiDocs('§5 step 3')}; ${CSRF}`
});

/** A redirect arrived with no consent request pending (the state is single-use). */
export const NO_PENDING_STATE = entry({
	code: 'no-pending-state',
	level: 'error',
	message:
		'A redirect arrived, but the playground was not waiting for one: its state was used already or the session was reset.',
	fix: 'State values are single-use. Start the flow again from the consent step.',
	ref: CSRF
});

/** The redirect back is malformed (repeated or missing parameters). */
export const MALFORMED_CALLBACK = entry({
	code: 'malformed-callback',
	level: 'error',
	message: (description: string | undefined) => description ?? 'The redirect is malformed.',
	ref: 'RFC 6749 §4.1.2'
});

/** The returned state matches the saved one. */
export const STATE_OK = entry({
	code: 'state-ok',
	level: 'info',
	message: 'The returned state matches the saved one.',
	ref: apiDocs('§5 step 3')
});

/** What became of the consent request a stale redirect answers (callback.ts), in the user's terms. */
const STALE: Record<StaleWhy, string> = {
	exchanged: `This address’s code was already used: it came back in step ${STEPS.callback.n} and step ${STEPS.exchange.n} exchanged it. A code is used once, so nothing of it was sent again, and the flow’s tokens stay as they were.`,
	received: `This address’s code already came back in step ${STEPS.callback.n} and waits for its exchange in step ${STEPS.exchange.n}: it was not taken a second time.`,
	answered: `This address answers a consent request whose answer already came back in step ${STEPS.callback.n}, as an error (declined or refused). A consent request is answered once, so its code was not taken, and the flow stays as it was: to authorize now, prepare a new consent request (Try again) and open it.`,
	replaced:
		'This address answers a consent request this flow has since replaced (it was restarted, or its setup saved again), so nothing of it was exchanged, and the flow’s code and tokens stay as they were: start again from the consent step.'
};

/**
 * A redirect for a consent this flow has since replaced, or whose code came back already: ignored.
 */
export const STALE_CALLBACK = entry({
	code: 'callback-ignored',
	level: 'warning',
	message: (why: StaleWhy) => STALE[why],
	ref: CSRF
});

/**
 * A redirect whose state matches no consent request of this browser, which may be forged: ignored.
 * The callback's own page says it too (server/steps/callback-route.ts).
 */
export const UNSOLICITED_CALLBACK = entry({
	code: 'callback-ignored',
	level: 'error',
	message:
		'This redirect was unsolicited: its state matches no consent request of this browser, pending or recent. It may be forged (cross-site request forgery, RFC 6749 §10.12). No flow changed, and nothing of it was kept.',
	ref: CSRF
});

/**
 * "Get a code for the script": the state matched and the code came back shown, for the exported
 * script to exchange; the playground does not exchange it (a code is single-use, RFC 6749 §4.1.2).
 */
export const CODE_FOR_SCRIPT = entry({
	code: 'code-for-script',
	level: 'info',
	message: `Kept for the script: this code was not exchanged here, and step ${STEPS.exchange.n} does not send it.`,
	ref: 'RFC 6749 §4.1.2'
});

/** In an imported recording: a redirect whose state matches no consent request in the file. */
export const STATE_NOT_IN_RECORDING = entry({
	code: 'state-mismatch',
	level: 'warning',
	message:
		'Its state matches no consent request in this file: it answers a consent the recording does not hold (made before it, or in another tab), or it was not made by the application at all (RFC 6749 §10.12).',
	fix: 'Record the flow from the start, with “Preserve log” ticked in the Network panel, and look for the consent request that sent this state.',
	ref: CSRF
});
