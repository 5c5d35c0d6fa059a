/**
 * What the consent URL says about the client's registration, fetched by "Check the consent URL"
 * without following redirects (RFC 6749 §4.1.1, §4.1.2.1): its redirect URI refused (for certain,
 * or likely, from any server's words: redirect-refusal.ts), its client unknown, another refusal, a
 * server failure, the request refused at once by a redirect back with an error, or the registration
 * accepted; and a state too long to send. `diagnose.ts` decides which applies.
 */
import { AUTHORIZATION_ERRORS, MAX_STATE_BYTES } from '../consent';
import { apiDocs } from '../docs';
import * as F from '../findings';
import { entry } from './raise';

const RFC6749 = (s: string) => `RFC 6749 §${s}`;

/** The client, as the messages name it. */
const clientOf = (clientId: string | undefined) =>
	clientId ? `client_id "${clientId}"` : 'this client_id';

/** The service's own words, quoted after the message's, or nothing. */
const said = (words: string | undefined) => (words ? ` The service said: "${words}".` : '');

/** Where a refusal was read: an error page (or JSON) in place of consent, or a redirect elsewhere. */
const how = (to: string | undefined) =>
	to
		? `instead of the consent page it sends the browser to ${to}`
		: 'it shows an error page instead of the consent page';

export const REDIRECT_URI_REFUSED = entry({
	code: F.REDIRECT_URI_MISMATCH,
	level: 'error',
	message: (
		sent: string | undefined,
		clientId: string | undefined,
		code: string,
		to: string | undefined,
		words: string | undefined,
		_fix: string,
		_retry: string | undefined
	) =>
		`The service does not accept the redirect_uri "${sent ?? '?'}" for ${clientOf(clientId)}: ${how(to)}, with the error ${code}.${said(words)}`,
	fix: (...args) => args[5],
	ref: `RFC 6749 §3.1.2.4; ${apiDocs('§4.1')}`,
	suggest: (...args) => (args[6] ? { field: 'redirect_uri', value: args[6] } : undefined)
});

export const REDIRECT_URI_LIKELY_REFUSED = entry({
	code: F.REDIRECT_URI_LIKELY_REFUSED,
	level: 'error',
	message: (
		sent: string | undefined,
		clientId: string | undefined,
		status: number,
		to: string | undefined,
		words: string,
		_fix: string,
		_retry: string | undefined
	) =>
		`The service's error answer (HTTP ${status}) gives no error code, but its words point to the redirect_uri "${sent ?? '?'}" for ${clientOf(clientId)}: "${words}".${to ? ` It sends the browser to ${to}.` : ''}`,
	fix: (...args) => `If the redirect URI is the cause: ${args[5]}`,
	ref: `RFC 6749 §3.1.2.4; ${apiDocs('§4.1')}`,
	suggest: (...args) => (args[6] ? { field: 'redirect_uri', value: args[6] } : undefined)
});

export const UNKNOWN_CLIENT = entry({
	code: F.UNKNOWN_CLIENT,
	level: 'error',
	message: (clientId: string | undefined, words: string | undefined) =>
		`The service does not know ${clientOf(clientId)}.${said(words)}`,
	fix: 'Copy the client id from the application’s registration; check for spaces and the right environment.',
	ref: RFC6749('4.1.2.1')
});

export const CONSENT_REFUSED = entry({
	code: (_status: number, error: string | undefined, _words: string | undefined) =>
		error ?? F.CONSENT_ERROR,
	level: 'error',
	message: (status: number, error: string | undefined, words: string | undefined) =>
		`The consent URL was refused with HTTP ${status}${error ? ` (${error})` : ''}.${said(words)}`,
	ref: RFC6749('4.1.2.1')
});

export const CONSENT_SERVER_ERROR = entry({
	code: F.SERVER_ERROR,
	level: 'error',
	message: (status: number) => `The service failed with HTTP ${status} on the consent URL.`,
	// The service's own failure, not a rule of the protocol broken.
	ref: undefined
});

/** The service sends the browser straight back to the redirect_uri with an error (RFC 6749 §4.1.2.1). */
export const REFUSED_STRAIGHT_BACK = entry({
	code: (error: string, _description: string | null) => error,
	level: 'error',
	message: (error: string, description: string | null) =>
		`The service sends the browser straight back with error "${error}"${description ? `: "${description}"` : ''}. The client and redirect_uri are registered, but the request is refused.`,
	fix: (error: string) =>
		Object.hasOwn(AUTHORIZATION_ERRORS, error) ? AUTHORIZATION_ERRORS[error]!.fix : undefined,
	ref: RFC6749('4.1.2.1')
});

// The registration accepted, as each answer shows it: what the service would do next is its own
// (RFC 6749 leaves the login and consent pages to it), so these rest on no section.

export const ACCEPTED_STRAIGHT_BACK = entry({
	code: F.REGISTRATION_OK,
	level: 'info',
	message:
		'The service redirects straight back to the redirect_uri: the registration is accepted (the user may have approved this application before).',
	ref: undefined
});

export const ACCEPTED_REDIRECT = entry({
	code: F.REGISTRATION_OK,
	level: 'info',
	message: (to: string | undefined, clientId: string | undefined) =>
		`The service redirects to ${to ?? 'another page'} (typically its login page): ${clientOf(clientId)} and the redirect_uri are accepted.`,
	ref: undefined
});

export const ACCEPTED_PAGE = entry({
	code: F.REGISTRATION_OK,
	level: 'info',
	message: (clientId: string | undefined) =>
		`The service would show its consent or login page: ${clientOf(clientId)} and the redirect_uri are accepted.`,
	ref: undefined
});

export const STATE_TOO_LONG = entry({
	code: F.STATE_TOO_LONG,
	level: 'error',
	message: `The state is over ${MAX_STATE_BYTES} bytes; the service will refuse it.`,
	ref: apiDocs('§4.1')
});
