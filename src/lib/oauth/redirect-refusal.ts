/**
 * Whether a server's answer to the consent URL refuses its redirect_uri, whatever the server. Each
 * words and shapes it its own way: a JSON error, an HTML error page with the reason in its title, a
 * heading or a paragraph, or a redirect (to the registered URI, or to the server's own error page)
 * carrying `error=` in its query. The signals, strongest first:
 *
 * 1. certain: the OAuth error code `redirect_uri_mismatch` or `invalid_redirect_uri`, as a JSON
 *    body's `error`, in an HTML page's visible text, or as the `error` of a redirect to any URI;
 * 2. likely: an error answer (a 4xx, a page whose title or a heading states an error, or a redirect
 *    elsewhere than the redirect_uri carrying `error=`) with a sentence, in its visible text or its
 *    `error_description`, that names the redirect URI parameter together with a refusal;
 * 3. anything else: no refusal of the redirect URI.
 *
 * A redirect back to the redirect_uri that was sent is never one: a server must not redirect to a
 * URI it refuses (RFC 6749 §4.1.2.1), so an `invalid_scope` or `access_denied` there means the URI
 * was accepted. Nor is an answer that names another cause by its code (`invalid_client`…): the
 * redirect URI it may echo is not what it refuses. Attribute values, scripts and hidden elements
 * never count (page-text.ts). Pure.
 */
import { headerValue, type HeaderList } from '$lib/exchange/types';
import { jsonObject } from '$lib/exchange/text';
import { pageText } from './page-text';

export type RedirectRefusal =
	| {
			strength: 'certain';
			/** The error code the server gave. */
			code: string;
			/** Where it said so. */
			where: 'json' | 'page' | 'redirect';
			/** The server's own words: its error_description, or the page's sentence that says why (else the one holding the code). */
			words?: string;
			/** For a redirect: where it sends the browser, without the query. */
			to?: string;
	  }
	| {
			strength: 'likely';
			where: 'json' | 'page' | 'redirect';
			/** The server's sentence that names the redirect URI and refuses it. */
			words: string;
			to?: string;
	  };

interface Answer {
	status: number;
	headers: HeaderList;
	body: string;
}

/**
 * The error codes that name the redirect URI as the cause: RFC 6749's registry has none, so these
 * are the servers' own (`redirect_uri_mismatch`: Google, GitHub, Salesforce; `invalid_redirect_uri`:
 * oidc-provider, Doorkeeper; `redirect_mismatch`: Amazon Cognito; `invalid_request_redirect_uri`:
 * Gluu; `AADSTS50011`: Microsoft Entra ID).
 */
const CODES = [
	'redirect_uri_mismatch',
	'invalid_redirect_uri',
	'redirect_mismatch',
	'invalid_request_redirect_uri',
	'AADSTS50011'
];
const CODE_IN_TEXT = new RegExp(`(?<![\\w-])(${CODES.join('|')})(?![\\w-])`);

/** Codes of other causes: an answer that gives one is about the redirect URI only if it says it mismatches. */
const OTHER_CAUSE =
	/(?<![\w-])(invalid_client|unauthorized_client|invalid_scope|access_denied|unsupported_response_type|login_required|consent_required|interaction_required)(?![\w-])/;

/** The redirect URI parameter, as servers name it. */
const NAMES =
	/(?<![\w-])(redirect[_ -]?ur[il]s?|callback[_ -]?ur[li]s?|reply[_ -]?ur[li]s?|return[_ -]?ur[li]s?)(?![\w-])/i;

/** A refusal that can only be of a URI set against a registered list: "does not match", "unregistered". */
const MISMATCH =
	/(?<![\w-])(mismatch(ed|ing)?|unregistered|not (registered|allowed|permitted|whitelisted|allowlisted|configured|match(ing)?)|(does|did|do)( not|n['’]t) match|must match|is not (in|one of)|is missing in)(?![\w-])/i;

/** Any refusal, in the words servers use: a mismatch, or a value called invalid, bad or unknown. */
const REFUSAL = new RegExp(
	`${MISMATCH.source}|(?<![\\w-])(invalid(_request)?|bad|wrong|incorrect|unknown|refused|rejected|disallowed|blocked|not (valid|authori[sz]ed|supported)|must be)(?![\\w-])`,
	'i'
);

/** A page's title or heading that states an error. */
const ERROR_HEADING =
	/(?<![\w-])(error|invalid|problem|wrong|sorry|oops|denied|blocked|bad request|not allowed|unable|can['’]?not|failed)(?![\w-])/i;

/** The sentences of a text: its lines, each cut after a full stop, a question or an exclamation mark. */
const sentences = (text: string) =>
	text
		.split('\n')
		.flatMap((line) => line.split(/(?<=[.!?])\s+/))
		.map((s) => s.trim())
		.filter(Boolean);

/**
 * The first sentence that names the redirect URI parameter together with a refusal. When the answer
 * names another cause by its code (an invalid_client page that echoes the redirect URI), only a
 * mismatch counts ("Callback URL mismatch", beside Auth0's `unauthorized_client`).
 */
const refusingSentence = (text: string, otherCause: boolean) =>
	sentences(text).find((s) => NAMES.test(s) && (otherCause ? MISMATCH : REFUSAL).test(s));

const withoutQuery = (u: URL) => u.origin + u.pathname;

function fromRedirect(
	location: string,
	base: string,
	sent: string | undefined
): RedirectRefusal | undefined {
	if (!URL.canParse(location, base)) return undefined;
	const to = new URL(location, base);
	const error = to.searchParams.get('error');
	if (!error) return undefined;
	const description = to.searchParams.get('error_description') ?? undefined;
	if (CODES.includes(error))
		return {
			strength: 'certain',
			code: error,
			where: 'redirect',
			words: description,
			to: withoutQuery(to)
		};
	if (sent && URL.canParse(sent) && withoutQuery(to) === withoutQuery(new URL(sent)))
		return undefined;
	const words = description && refusingSentence(description, OTHER_CAUSE.test(error));
	return words ? { strength: 'likely', where: 'redirect', words, to: withoutQuery(to) } : undefined;
}

export function redirectRefusal(
	res: Answer,
	requestUrl: string,
	sent?: string
): RedirectRefusal | undefined {
	// A failure of the server itself says nothing about the request, whatever its body holds.
	if (res.status >= 500) return undefined;
	if (res.status >= 300 && res.status < 400) {
		const location = headerValue(res.headers, 'Location');
		return location === undefined ? undefined : fromRedirect(location, requestUrl, sent);
	}
	const json = jsonObject(res.body);
	if (json) {
		const error = typeof json.error === 'string' ? json.error : undefined;
		const description =
			typeof json.error_description === 'string' ? json.error_description : undefined;
		const code = error && CODES.includes(error) ? error : CODE_IN_TEXT.exec(description ?? '')?.[1];
		if (code) return { strength: 'certain', code, where: 'json', words: description };
		if (res.status < 400) return undefined;
		const words = description && refusingSentence(description, OTHER_CAUSE.test(error ?? ''));
		return words ? { strength: 'likely', where: 'json', words } : undefined;
	}
	const page = pageText(res.body);
	const lines = [page.title, ...page.headings, page.text].filter(Boolean).join('\n');
	const code = CODE_IN_TEXT.exec(lines);
	if (code)
		return {
			strength: 'certain',
			code: code[1]!,
			where: 'page',
			// The page's sentence that says why, else the one that holds the code.
			words: refusingSentence(lines, false) ?? sentences(lines).find((s) => s.includes(code[1]!))
		};
	const errorAnswer =
		(res.status >= 400 && res.status < 500) ||
		[page.title, ...page.headings].some((h) => ERROR_HEADING.test(h));
	if (!errorAnswer) return undefined;
	const words = refusingSentence(lines, OTHER_CAUSE.test(lines));
	return words ? { strength: 'likely', where: 'page', words } : undefined;
}
