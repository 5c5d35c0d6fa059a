/**
 * Answers that are not OAuth: a token endpoint (or the user-info endpoint, or the consent URL of
 * the registration check) that answered with something its protocol never sends (an HTML page, a
 * 404, a redirect, JSON without an `error` member) was most likely not the service's endpoint at
 * all, but a wrong base URL or endpoint. This names the URL called and what came back, and works
 * out which base URL was probably meant, with the service's documented endpoints for it.
 * Pure: it reads only the Exchange and what the caller knows of the playground.
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { headerValue } from '$lib/exchange/types';
import { specOf, type Step } from '$lib/steps/registry';
import { jsonObject } from '$lib/exchange/text';
import { pageText } from './page-text';
import { explaining, raise, type Entry } from './catalogue/raise';
import * as A from './catalogue/answer';
import type { EndpointFix } from './catalogue/answer';
import * as token from './catalogue/token';

/** The documented paths below the base URL (the service's API docs §4.1, §4.2, §4.3, §4.4). */
const DOCUMENTED_PATHS = {
	authorization: '/oauth2/auth',
	token: '/oauth2/token',
	userinfo: '/reader/api/0/user-info',
	api: '/reader/api/0/'
} as const;

/** An endpoint the service's API docs document below the base URL. */
type Documented = keyof typeof DOCUMENTED_PATHS;

/**
 * The documented endpoint a step's request was sent to by the playground server, from its spec
 * (steps/); undefined for any other step. The consent page the browser opens has no answer here.
 */
function documentedEndpoint(step: Step): Documented | undefined {
	const { travels, endpoint } = specOf(step);
	return travels === 'server' && endpoint !== undefined && Object.hasOwn(DOCUMENTED_PATHS, endpoint)
		? (endpoint as Documented)
		: undefined;
}

export interface PlaygroundInfo {
	/** The playground's own origin: a base URL on it, outside `/sandbox`, reaches the playground. */
	origin: string;
	/** Whether the built-in sandbox is on (its base URL is `<origin>/sandbox`). */
	sandbox: boolean;
}

function isHtml(ex: Exchange): boolean {
	const res = ex.response!;
	const ct = headerValue(res.headers, 'Content-Type');
	return /html/i.test(ct ?? '') || /^\s*</.test(res.body);
}

/**
 * Whether the answer is not what the endpoint the step called would send: the cases where the URL
 * is probably not that endpoint. A real OAuth error (`{"error": …}`), a token response, a 5xx (the
 * service failing at the right place) and a cut-off body never count.
 */
/** Whether what an error page shows names the client (its client_id, or invalid_client). */
function namesClient(html: string): boolean {
	const page = pageText(html);
	return /\bclient[_ ]id\b|\binvalid_client\b/i.test(
		[page.title, ...page.headings, page.text].join('\n')
	);
}

/** What an endpoint never answers, when its answer is not cut off, not a 5xx and not a 1xx. */
interface Answer {
	ex: Exchange;
	status: number;
	redirect: boolean;
	/** The body as a JSON object, when it is one. */
	body: Record<string, unknown> | undefined;
	/** Its `error`, when it is a string. */
	error: string | undefined;
}

/** For each documented endpoint, whether an answer is one that endpoint never sends. */
const NOT_ITS_ANSWER: Record<Documented, (a: Answer) => boolean> = {
	token: ({ ex, status, redirect, body, error }) => {
		if (status < 300) return !body;
		if (redirect) return true;
		// A body naming a token error the catalogue explains (RFC 6749 §5.2) is an OAuth answer.
		if (status === 404 || status === 405) return !error || !explaining(Object.values(token), error);
		// A 401 with an empty body and an authentication challenge is the endpoint refusing the
		// client (without the JSON object RFC 6749 §5.2 asks for), not another page.
		const res = ex.response!;
		if (status === 401 && !res.body.trim() && headerValue(res.headers, 'WWW-Authenticate'))
			return false;
		return error === undefined;
	},
	userinfo: ({ ex, status, redirect }) =>
		redirect || status === 404 || status === 405 || isHtml(ex),
	// The API answers an unknown path with its own JSON 404; a page of HTML is someone else's.
	api: ({ ex, status }) => isHtml(ex) && (status < 300 || status === 404 || status === 405),
	// A page that names the client refuses it (Dex: 404, "Invalid client_id."): the endpoint is right.
	authorization: ({ ex, status, error }) =>
		(status === 404 || status === 405) && error === undefined && !namesClient(ex.response!.body)
};

export function isNotOAuthAnswer(ex: Exchange): boolean {
	const res = ex.response;
	if (!res || ex.failure || res.truncated || res.bodyMissing) return false;
	const endpoint = documentedEndpoint(ex.step);
	const { status } = res;
	if (status >= 500 || status < 200) return false;
	const redirect = status >= 300 && status < 400;
	const body = jsonObject(res.body);
	const error = typeof body?.error === 'string' ? body.error : undefined;
	// A JSON object that does not parse is a broken answer of its own ("not JSON"), not another page.
	if (!body && !redirect && /^\s*\{/.test(res.body)) return false;
	return endpoint !== undefined && NOT_ITS_ANSWER[endpoint]({ ex, status, redirect, body, error });
}

/** The suffix of the documented endpoint, below the base URL. */
function suffixOf(endpoint: Documented, url: URL): string {
	// An API call: from the API's documented path on; the whole path when it has none.
	if (endpoint === 'api')
		return url.pathname.slice(Math.max(url.pathname.indexOf(DOCUMENTED_PATHS.api), 0));
	return DOCUMENTED_PATHS[endpoint];
}

/** The base URL a request URL was built from, when it ends with the step's documented path. */
export function calledBase(step: Step, requestUrl: string): string | undefined {
	const endpoint = documentedEndpoint(step);
	if (endpoint === undefined || !URL.canParse(requestUrl)) return undefined;
	const url = new URL(requestUrl);
	const suffix = suffixOf(endpoint, url);
	if (!url.pathname.endsWith(suffix)) return undefined;
	return (url.origin + url.pathname.slice(0, url.pathname.length - suffix.length)).replace(
		/\/+$/,
		''
	);
}

/** Documented paths (or the start of one) that a base URL should not end with. */
const NOT_A_BASE = [
	'/oauth2/token',
	'/oauth2/auth',
	'/oauth2',
	'/reader/api/0/user-info',
	'/reader/api/0',
	'/reader/api',
	'/reader'
];

/** The base without trailing slashes, and without an endpoint's path at its end, again and again. */
function stripEndpointPaths(base: string): string {
	const out = base.replace(/\/+$/, '');
	const p = NOT_A_BASE.find((path) => out.endsWith(path));
	return p === undefined ? out : stripEndpointPaths(out.slice(0, -p.length));
}

/**
 * The base URL that was probably meant, or undefined when nothing points at one: the origin a
 * redirect sends to; the sandbox's, for the playground's own origin; the base without an
 * endpoint's path that was typed into it.
 */
export function meantBase(ex: Exchange, playground?: PlaygroundInfo): string | undefined {
	const { step } = ex;
	const res = ex.response;
	const base = calledBase(step, ex.request.url);
	if (!URL.canParse(ex.request.url)) return undefined;
	const url = new URL(ex.request.url);
	const location = res && headerValue(res.headers, 'Location');
	if (res && res.status >= 300 && res.status < 400 && location) {
		if (!URL.canParse(location, url)) return undefined;
		const target = new URL(location, url);
		const targetBase = calledBase(step, target.href);
		if (targetBase !== undefined) return stripEndpointPaths(targetBase);
		const path = base === undefined ? '' : new URL(base).pathname;
		const guess = stripEndpointPaths(target.origin + path);
		return guess === base ? undefined : guess;
	}
	if (base === undefined) return undefined;
	const stripped = stripEndpointPaths(base);
	const baseUrl = new URL(stripped);
	if (
		playground?.sandbox &&
		baseUrl.origin === playground.origin &&
		!/^\/sandbox(\/|$)/.test(baseUrl.pathname)
	)
		return `${playground.origin}/sandbox`;
	return stripped === base ? undefined : stripped;
}

/** The service's documented endpoints for a base URL, as one line. */
export function documentedEndpoints(base: string): string {
	const b = base.replace(/\/+$/, '');
	return `consent ${b}${DOCUMENTED_PATHS.authorization}, token ${b}${DOCUMENTED_PATHS.token}, user-info ${b}${DOCUMENTED_PATHS.userinfo}`;
}

const LOOK_CHARS = 80;

function oneLine(s: string, max = LOOK_CHARS): string {
	const t = s.replace(/\s+/g, ' ').trim();
	return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** A short look at what came back: the redirect's target, an HTML page's title, JSON's members, or the first words. */
export function whatCameBack(ex: Exchange): string {
	const res = ex.response!;
	const ct = headerValue(res.headers, 'Content-Type');
	const head = `${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
	const type = ct ? `, ${oneLine(ct, 60)}` : ', no Content-Type';
	if (res.status >= 300 && res.status < 400) {
		const location = headerValue(res.headers, 'Location');
		return `${head}, a redirect to ${location ? oneLine(location, 200) : 'nowhere (no Location)'}`;
	}
	if (!res.body.trim()) return `${head}${type}, an empty body`;
	const title = /<title[^>]*>([^<]*)<\/title>/i.exec(res.body)?.[1];
	if (title !== undefined && title.trim())
		return `${head}${type}, an HTML page titled "${oneLine(title)}"`;
	if (isHtml(ex)) return `${head}${type}, an HTML page`;
	const body = jsonObject(res.body);
	if (body) {
		const keys = Object.keys(body);
		const said = ['message', 'error_description', 'detail', 'title'].find(
			(k) => typeof body[k] === 'string'
		);
		const members = keys.length
			? `JSON with ${keys
					.slice(0, 5)
					.map((k) => `"${oneLine(k, 30)}"`)
					.join(', ')}${keys.length > 5 ? ', …' : ''} and no "error" member`
			: 'an empty JSON object';
		return `${head}${type}, ${members}${said ? `: "${oneLine(String(body[said]))}"` : ''}`;
	}
	return `${head}${type}: "${oneLine(res.body)}"`;
}

/**
 * The entry for each endpoint: what it was meant to be, and where the API docs say so. The token
 * endpoint has two: the refresh's is documented in a section of its own (§4.3).
 */
const NOT_THE: Record<Documented, Entry<[string, string, boolean, EndpointFix]>> = {
	authorization: A.NOT_THE_CONSENT_PAGE,
	token: A.NOT_THE_TOKEN_ENDPOINT,
	userinfo: A.NOT_THE_USERINFO_ENDPOINT,
	api: A.NOT_THE_API
};

/**
 * The finding for an answer that is not OAuth, or undefined when the answer is one (or the step
 * calls no documented endpoint). `service`: the setup is the feed-reader service's (advice.ts), so
 * its fix may name the service's documented endpoints; otherwise it names the setup's own.
 */
/** Whether `url` reaches the playground itself: its origin, outside the built-in sandbox. */
export function reachesPlayground(url: string, playground: PlaygroundInfo | undefined): boolean {
	if (playground === undefined || !URL.canParse(url)) return false;
	const { origin, pathname } = new URL(url);
	return origin === playground.origin && !(playground.sandbox && /^\/sandbox(\/|$)/.test(pathname));
}

export function wrongEndpointFinding(
	ex: Exchange,
	playground?: PlaygroundInfo,
	service = true
): Finding | undefined {
	const endpoint = documentedEndpoint(ex.step);
	if (endpoint === undefined || !isNotOAuthAnswer(ex)) return undefined;
	const url = ex.request.url;
	const own = reachesPlayground(url, playground);
	const meant = meantBase(ex, playground);
	const base = calledBase(ex.step, url);
	// A setup that is not the service's (advice.ts) gets none of the service's documented paths.
	const where: EndpointFix = !service
		? { custom: true }
		: meant
			? { meant, endpoints: documentedEndpoints(meant) }
			: base !== undefined
				? { called: base, endpoints: documentedEndpoints(base) }
				: // A custom endpoint, or a URL that does not parse: the documented path below the base URL.
					// An API call gets here only when its URL does not parse; it names the token endpoint's.
					{ path: DOCUMENTED_PATHS[endpoint === 'api' ? 'token' : endpoint] };
	const refresh = endpoint === 'token' && specOf(ex.step).grantType === 'refresh_token';
	return raise(
		refresh ? A.NOT_THE_TOKEN_ENDPOINT_ON_REFRESH : NOT_THE[endpoint],
		url,
		whatCameBack(ex),
		own,
		where
	);
}
