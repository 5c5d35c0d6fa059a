/**
 * The security headers of every response, in one place. Pure, and written in JavaScript with JSDoc
 * types so that `scripts/serve.js` (plain Node) can put them on what it answers before SvelteKit's
 * hook runs (the files of `static/` and `/_app/`, served by adapter-node), and the server hook on
 * everything else. A page's own Content-Security-Policy comes from `kit.csp` in svelte.config.js
 * (with the hashes of its inline scripts); anything else gets a policy that loads nothing.
 */

/** Headers every response carries, whatever produced it. */
const COMMON_HEADERS = Object.freeze({
	'X-Content-Type-Options': 'nosniff',
	'Referrer-Policy': 'no-referrer',
	'X-Frame-Options': 'DENY',
	'Cross-Origin-Opener-Policy': 'same-origin'
});

/** The policy of a response that is not a page (JSON, a static file, a plain-text refusal). */
export const NON_PAGE_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The policy of the build's Web Workers (the highlighter's). A worker runs under the policy its own
 * script is served with, not the page's: it may load the build's scripts (its chunks), and nothing
 * else.
 */
export const WORKER_CSP = "default-src 'none'; script-src 'self'; frame-ancestors 'none'";

/** Where the build's worker scripts and their chunks are served. */
export const WORKERS_PATH = '/_app/immutable/workers/';

/**
 * The policy of a response that is not a page: the workers' own, or one that loads nothing.
 * @param {string} path the request's path
 */
const nonPageCsp = (path) => (path.startsWith(WORKERS_PATH) ? WORKER_CSP : NON_PAGE_CSP);

/** HSTS for a year; sent only when the public origin (ORIGIN) is https. */
const HSTS = 'max-age=31536000';

/**
 * Whether responses may carry HSTS: only when ORIGIN is https. A browser that reaches a plain-HTTP
 * server never gets it (it would then refuse that server for a year).
 * @param {string | undefined} origin the ORIGIN setting
 */
export function wantsHsts(origin) {
	if (!origin) return false;
	try {
		return new URL(origin).protocol === 'https:';
	} catch {
		return false;
	}
}

/**
 * The headers `scripts/serve.js` sets before any handler runs. Node merges them with what the
 * handler writes, and a value the handler gives (a page's own CSP) wins.
 * @param {string | undefined} origin the ORIGIN setting
 * @param {string} [path] the request's path (the workers' scripts get their own policy)
 * @returns {[string, string][]}
 */
export function baseHeaders(origin, path = '/') {
	/** @type {[string, string][]} */
	const headers = [
		...Object.entries(COMMON_HEADERS),
		['Content-Security-Policy', nonPageCsp(path)]
	];
	if (wantsHsts(origin)) headers.push(['Strict-Transport-Security', HSTS]);
	return headers;
}

/**
 * A CSP source naming a URL's origin (`http://127.0.0.1:3000`). A URL without an origin (a custom
 * scheme) or with an IPv6 literal, which CSP's host-source cannot name, gives its scheme alone.
 * @param {string} url
 * @returns {string | undefined} undefined for a string that is not a URL
 */
export function originSource(url) {
	let u;
	try {
		u = new URL(url);
	} catch {
		return undefined;
	}
	if (u.origin === 'null' || u.hostname.startsWith('[')) return u.protocol;
	return u.origin;
}

/**
 * The policy with more sources in its `form-action` directive (which is added when missing).
 * Chromium applies `form-action` to the redirect that follows a form post too, so a page whose
 * form answers with a redirect to another origin must name that origin.
 * @param {string} csp
 * @param {string[]} sources
 */
export function withFormAction(csp, sources) {
	if (!sources.length) return csp;
	const directives = csp
		.split(';')
		.map((d) => d.trim())
		.filter(Boolean);
	const i = directives.findIndex((d) => /^form-action(\s|$)/i.test(d));
	if (i === -1) return [...directives, `form-action 'self' ${sources.join(' ')}`].join('; ');
	const have = new Set(directives[i]?.split(/\s+/).slice(1));
	const added = sources.filter((s) => !have.has(s));
	if (added.length) directives[i] = [directives[i], ...added].join(' ');
	return directives.join('; ');
}

/**
 * @typedef {object} SecureOptions
 * @property {string} path the request's path (build assets under /_app/immutable/ keep their caching)
 * @property {string | undefined} origin the ORIGIN setting (HSTS when https)
 * @property {string[]} [formTargets] URLs whose origins the page's forms may also reach (see withFormAction)
 */

/**
 * Sets the security headers on a response the server hook returns. A CSP the route set (a page's)
 * is kept; any other response gets NON_PAGE_CSP. Nothing but the build's immutable assets may be
 * cached (answers hold codes, tokens and secrets). Headers that cannot be changed (a fetched
 * Response's) are left as they are.
 * @param {Headers} headers
 * @param {SecureOptions} opts
 */
export function secureHeaders(headers, opts) {
	/** @param {string} name @param {string} value */
	const set = (name, value) => {
		try {
			headers.set(name, value);
		} catch {
			/* immutable headers (a fetched Response): leave them */
		}
	};
	for (const [name, value] of Object.entries(COMMON_HEADERS)) set(name, value);
	const csp = headers.get('Content-Security-Policy');
	if (!csp) set('Content-Security-Policy', nonPageCsp(opts.path));
	else if (opts.formTargets?.length) {
		const sources = opts.formTargets.map(originSource).filter((s) => s !== undefined);
		set('Content-Security-Policy', withFormAction(csp, sources));
	}
	if (wantsHsts(opts.origin)) set('Strict-Transport-Security', HSTS);
	if (!opts.path.startsWith('/_app/immutable/')) set('Cache-Control', 'no-store');
}
