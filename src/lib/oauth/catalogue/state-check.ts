/**
 * What the redirect back from the consent page says (RFC 6749 §4.1.2, §10.12, and the service's
 * API docs §5 step 3): the state matches, or does not, or nothing was waiting for it; the redirect
 * is malformed; or the service sent back an error, which a refusal by the user is.
 * `diagnoseCallback` in `diagnose.ts` raises them by the callback's verdict.
 */
import { apiDocs } from '../docs';
import * as F from '../findings';
import { entry } from './raise';

const CSRF = 'RFC 6749 §10.12';
const ERROR_RESPONSE = 'RFC 6749 §4.1.2.1';

/** The service's error and its description, as the message quotes them. */
const sentBack = (error: string | undefined, description: string | undefined) =>
	`The service sent back error "${error}"${description ? `: "${description}"` : ''}.`;

export const STATE_MISMATCH = entry({
	code: F.STATE_MISMATCH,
	level: 'error',
	message: (description: string | undefined) =>
		`${description ?? 'The returned state does not match the saved one.'} The response may be forged (CSRF), so the playground ignored it and the code was not used.`,
	fix: 'The consent request is still pending: open the consent page again, or start over with "Try again". If it repeats, check that nothing rewrites the redirect, and that only one tab runs the flow.',
	ref: `${apiDocs('§5 step 3')}; ${CSRF}`
});

export const NO_PENDING_STATE = entry({
	code: F.NO_PENDING_STATE,
	level: 'error',
	message:
		'A redirect arrived, but the playground was not waiting for one: its state was used already or the session was reset.',
	fix: 'State values are single-use. Start the flow again from the consent step.',
	ref: CSRF
});

export const MALFORMED_CALLBACK = entry({
	code: F.MALFORMED_CALLBACK,
	level: 'error',
	message: (description: string | undefined) => description ?? 'The redirect is malformed.',
	ref: 'RFC 6749 §4.1.2'
});

/** The user said no on the consent page: a warning, since nothing is wrong with the client. */
export const ACCESS_DENIED = entry({
	code: (error: string, _description: string | undefined) => error,
	level: 'warning',
	message: sentBack,
	ref: ERROR_RESPONSE
});

export const AUTHORIZATION_ERROR = entry({
	code: (error: string | undefined, _description: string | undefined) =>
		error ?? F.AUTHORIZATION_ERROR,
	level: 'error',
	message: sentBack,
	ref: ERROR_RESPONSE
});

export const STATE_OK = entry({
	code: F.STATE_OK,
	level: 'info',
	message: 'The returned state matches the saved one.',
	ref: apiDocs('§5 step 3')
});
