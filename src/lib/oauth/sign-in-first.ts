/**
 * Whether the consent URL's answer is a sign-in that comes before any judgement of the request:
 * many servers (django-oauth-toolkit, an express-oauth-server app, Keycloak's login page) ask the
 * user to sign in first, and some check the client id, the redirect URI and the scope only after
 * it, so such an answer says nothing about them. The signals are the same for every server: a
 * redirect to a sign-in address (its path says so, or its query carries the consent request back,
 * as `next=` or `return_to=`), or a page with a password field that asks for no consent. Pure.
 */
import { pageText } from './page-text';

/** A path that names a sign-in: /login, /accounts/login/, /signin, /sign-in, /sign_in, /logon. */
const SIGN_IN_PATH = /\/(?:log[-_]?in|sign[-_]?in|log[-_]?on|authenticate)(?:[/.?#]|$)/i;

/** The query fields a sign-in page takes the address to go back to in. */
const BACK_FIELDS = /^(?:next|return_?to|returnurl|redirect_after_login|continue|came_from|goto)$/i;

/** The words of a page that asks for consent, not for a sign-in. */
const CONSENT_WORDS = /\b(?:authori[sz]e|allow|consent|grant|approve|permission|access to your)\b/i;

/** A password field, in the page's markup. */
const PASSWORD_FIELD = /<input\b[^>]*\btype\s*=\s*["']?password\b/i;

/**
 * A redirect to `location` (resolved against the consent URL `from`) that sends the browser to
 * sign in first.
 */
export function signInRedirect(location: string, from: string): boolean {
	if (!URL.canParse(location, from)) return false;
	const to = new URL(location, from);
	if (SIGN_IN_PATH.test(to.pathname)) return true;
	const consent = URL.canParse(from) ? new URL(from).pathname : undefined;
	return [...to.searchParams].some(
		([name, value]) =>
			BACK_FIELDS.test(name) && !!consent && value.includes(consent.replace(/\/+$/, ''))
	);
}

/** A page that asks for a password and for no consent: a sign-in page. */
export function signInPage(html: string): boolean {
	if (!PASSWORD_FIELD.test(html)) return false;
	const page = pageText(html);
	return !CONSENT_WORDS.test([page.title, ...page.headings, page.text].join('\n'));
}
