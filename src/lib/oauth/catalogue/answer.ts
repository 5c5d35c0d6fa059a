/**
 * What any answer of the service may show, whichever step sent the request: a redirect on a
 * back-channel request, a server failure, or a body that is not the JSON the step expects.
 * `diagnose.ts` decides which applies.
 */
import { apiDocs } from '../docs';
import { entry } from './raise';

/** What the body is, when it is not JSON: an HTML page (often an error or login page), or else. */
const notJson = (html: boolean, contentType: string | undefined, otherwise: string) =>
	html
		? `JSON was expected, but the service answered with HTML (${contentType || 'no Content-Type'}). This is often an error or login page, or the wrong URL.`
		: otherwise;

const READ_THE_PAGE = 'Check the endpoint URL; read the HTML body for the service’s own message.';

/**
 * A back-channel request (the token endpoint, the API) answered with a redirect, which the
 * playground does not follow.
 */
export const REDIRECT = entry({
	code: 'redirect',
	level: 'error',
	message: (status: number, location: string | undefined) =>
		`The service answered with a redirect (${status}) to ${location ?? 'nowhere'}. The playground does not follow redirects on back-channel requests.`,
	fix: 'Use the final URL directly; a redirect here usually means http instead of https, or a missing path segment.',
	// What the playground does (it never follows a back-channel redirect), not a rule it enforces.
	ref: undefined
});

/**
 * An imported exchange whose response body the file does not hold (left out when it was saved, or
 * in a base64 that does not decode): nothing is judged by the body, since it cannot be read.
 */
export const BODY_NOT_IN_FILE = entry({
	code: 'body-not-in-file',
	level: 'warning',
	message: (why: 'not-recorded' | 'undecodable', size: number | undefined) =>
		why === 'undecodable'
			? 'The file holds this response’s body in a base64 that does not decode: what the service answered cannot be read, so it is not judged.'
			: `The file does not hold this response’s body${size ? ` (${size} bytes)` : ''}: it was left out when the file was saved, so what the service answered is not judged.`,
	fix: 'Ask for the file again with the bodies in it: in Chrome’s or Edge’s Network panel, “Save all as HAR with content” (or “Export HAR (sanitized)…”); in Firefox, “Save All As HAR”, with the requests still in the panel.',
	// What the file lacks, not a rule of the protocol broken.
	ref: undefined
});

/** The service failed with a 5xx. */
export const SERVER_ERROR = entry({
	code: 'server-error',
	level: 'error',
	message: (status: number) => `The service failed with HTTP ${status}.`,
	fix: 'This is on the service side. Try again later; if it repeats, report it with this exchange.',
	// The service's own failure, not a rule of the protocol broken.
	ref: undefined
});

/** A body that should be JSON is not. */
export const NOT_JSON = entry({
	code: 'not-json',
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
	code: 'not-json',
	level: 'warning',
	message: (html: boolean, contentType: string | undefined) =>
		notJson(html, contentType, 'The body is cut off, so it is not valid JSON.'),
	fix: (html: boolean) => (html ? READ_THE_PAGE : undefined),
	ref: undefined
});

/**
 * Where a wrong endpoint's fix points (wrong-endpoint.ts works it out): the base URL probably
 * meant, or the one called, each with its documented endpoints; or, when neither is known, the
 * documented path of the endpoint below the base URL. For a setup that is not the feed-reader
 * service's (custom endpoints, advice.ts), none of the service's paths: the setup's own endpoints
 * (`custom`).
 */
export type EndpointFix =
	| { meant: string; endpoints: string }
	| { called: string; endpoints: string }
	| { path: string }
	| { custom: true };

const endpointFix = (where: EndpointFix) =>
	'custom' in where
		? 'Check the base URL and the endpoints under Advanced settings against the server’s own documentation (Fill from metadata sets them from its metadata, when it publishes any).'
		: 'meant' in where
			? `The base URL was probably meant to be ${where.meant}. Its documented endpoints are: ${where.endpoints}. Change the base URL in the setup (or the custom endpoint under Advanced settings).`
			: 'called' in where
				? `Check the base URL in the setup. For the base URL ${where.called} the documented endpoints are: ${where.endpoints}; if the service lives elsewhere, use its base URL.`
				: `Check the custom endpoint under Advanced settings, or leave it empty to use the documented path below the base URL (${where.path}).`;

/**
 * An answer its endpoint never sends, so most likely not the service's endpoint at all
 * (wrong-endpoint.ts decides). One entry per endpoint: what it was meant to be, and the section of
 * the service's API docs that documents it.
 */
const notThe = (what: string, section: string, tokenEndpoint = false) =>
	entry({
		code: 'wrong-endpoint',
		level: 'error',
		message: (url: string, cameBack: string, itself: boolean, _where: EndpointFix) =>
			`${url} is probably not ${what} (a wrong base URL or endpoint): it answered ${cameBack}, which is not what that endpoint answers.${itself ? ' That address is this playground itself, not the service: the answer is the playground’s own.' : ''}`,
		fix: (_url: string, _cameBack: string, _itself: boolean, where: EndpointFix) =>
			tokenEndpoint
				? `${endpointFix(where)} (If this is the token endpoint after all, it answers without the JSON of RFC 6749 §5.1 and §5.2.)`
				: endpointFix(where),
		ref: apiDocs(section)
	});

/**
 * The registration check's consent URL answered what the service's consent page never does: a wrong
 * base URL or authorization endpoint.
 */
export const NOT_THE_CONSENT_PAGE = notThe("the service's consent page", '§4.1');

/**
 * The code exchange's token endpoint answered what a token endpoint never does: a wrong base URL or
 * token endpoint.
 */
export const NOT_THE_TOKEN_ENDPOINT = notThe("the service's token endpoint", '§4.2', true);

/**
 * The refresh's token endpoint answered what a token endpoint never does: a wrong base URL or token
 * endpoint.
 */
export const NOT_THE_TOKEN_ENDPOINT_ON_REFRESH = notThe(
	"the service's token endpoint",
	'§4.3',
	true
);

/** The user-info endpoint answered what it never does: a wrong base URL or user-info endpoint. */
export const NOT_THE_USERINFO_ENDPOINT = notThe("the service's user-info endpoint", '§4.4');

/** An API call answered with a page the API never sends: a wrong base URL. */
export const NOT_THE_API = notThe("the service's API", '§4.4');
