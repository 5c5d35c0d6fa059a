/**
 * Cross-site form posts. SvelteKit's own origin check refuses every form-encoded POST without a
 * matching Origin, which would also refuse the sandbox's token endpoint and API: those are machine
 * endpoints called by servers (the service's API docs §4.2, §4.3), which send no Origin and authenticate with client
 * credentials or a bearer token instead. So the check lives here, with those two exempt.
 */

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const MACHINE_ENDPOINTS = ['/sandbox/oauth2/token', '/sandbox/reader/api/0/'];

/**
 * True for the media types a page on another site can send without a CORS preflight (a form's
 * three encodings), and for no Content-Type at all: the requests this check must look at.
 * @see https://fetch.spec.whatwg.org/#cors-safelisted-request-header
 */
function isCrossSiteSendable(contentType: string | null): boolean {
	const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
	// A missing Content-Type is treated like a form: a browser can send that cross-site too.
	return type === '' || FORM_TYPES.includes(type);
}

/**
 * True when the request is a form post from another site (or from nowhere) to a page or action.
 * Under `Referrer-Policy: no-referrer` a browser sends `Origin: null` even on same-origin form posts,
 * so a null Origin is accepted when the browser's own `Sec-Fetch-Site` says same-origin.
 */
export function crossSiteForm(method: string, url: URL, headers: Headers): boolean {
	if (!UNSAFE.has(method)) return false;
	if (
		MACHINE_ENDPOINTS.some(
			(p) => url.pathname === p || (p.endsWith('/') && url.pathname.startsWith(p))
		)
	)
		return false;
	if (!isCrossSiteSendable(headers.get('content-type'))) return false;
	const origin = headers.get('origin');
	if (origin !== null && origin !== 'null' && origin !== url.origin) return true;
	const site = headers.get('sec-fetch-site');
	if (site !== null) return site !== 'same-origin';
	return origin !== url.origin;
}
