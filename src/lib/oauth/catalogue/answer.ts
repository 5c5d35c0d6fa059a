/**
 * What any answer of the service may show, whichever step sent the request: a redirect on a
 * back-channel request, a server failure, or a body that is not the JSON the step expects.
 * `diagnose.ts` decides which applies.
 */
import * as F from '../findings';
import { entry } from './raise';

/** What the body is, when it is not JSON: an HTML page (often an error or login page), or else. */
const notJson = (html: boolean, contentType: string | undefined, otherwise: string) =>
	html
		? `JSON was expected, but the service answered with HTML (${contentType || 'no Content-Type'}). This is often an error or login page, or the wrong URL.`
		: otherwise;

const READ_THE_PAGE = 'Check the endpoint URL; read the HTML body for the service’s own message.';

export const REDIRECT = entry({
	code: F.REDIRECT,
	level: 'error',
	message: (status: number, location: string | undefined) =>
		`The service answered with a redirect (${status}) to ${location ?? 'nowhere'}. The playground does not follow redirects on back-channel requests.`,
	fix: 'Use the final URL directly; a redirect here usually means http instead of https, or a missing path segment.',
	// What the playground does (it never follows a back-channel redirect), not a rule it enforces.
	ref: undefined
});

export const SERVER_ERROR = entry({
	code: F.SERVER_ERROR,
	level: 'error',
	message: (status: number) => `The service failed with HTTP ${status}.`,
	fix: 'This is on the service side. Try again later; if it repeats, report it with this exchange.',
	// The service's own failure, not a rule of the protocol broken.
	ref: undefined
});

export const NOT_JSON = entry({
	code: F.NOT_JSON,
	level: 'error',
	message: (html: boolean, contentType: string | undefined) =>
		notJson(
			html,
			contentType,
			`JSON was expected, but the body is not valid JSON (${contentType || 'no Content-Type'}).`
		),
	fix: (html: boolean) => (html ? READ_THE_PAGE : undefined),
	// Each step's section says the answer is JSON; this finding is about the body, whatever the step.
	ref: undefined
});

/** The body was cut off at the playground's size limit: not valid JSON, through no fault of it. */
export const NOT_JSON_CUT_OFF = entry({
	code: F.NOT_JSON,
	level: 'warning',
	message: (html: boolean, contentType: string | undefined) =>
		notJson(html, contentType, 'The body is cut off, so it is not valid JSON.'),
	fix: (html: boolean) => (html ? READ_THE_PAGE : undefined),
	ref: undefined
});
