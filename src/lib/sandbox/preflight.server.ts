/**
 * Called from the server hook before routing. For `GET /sandbox/oauth2/auth` with an unknown client or
 * a redirect_uri that is missing or not registered, it answers the JSON error page at the service
 * (status 400), as the real service does; the consent page itself never sees those requests.
 */
import type { RequestEvent } from '@sveltejs/kit';
import { checkClientAndRedirect } from './authorize.server';
import { jsonResponse } from './http.server';
import type { Sandbox } from './sandbox.server';

export const AUTHORIZATION_PATH = '/sandbox/oauth2/auth';

export function sandboxPreflight(
	{ settings }: Pick<Sandbox, 'settings'>,
	event: RequestEvent
): Response | undefined {
	if (event.url.pathname !== AUTHORIZATION_PATH) return undefined;
	if (event.request.method !== 'GET' && event.request.method !== 'HEAD') return undefined;
	const check = checkClientAndRedirect(settings, event.url.searchParams, event.url.origin);
	if (check.kind !== 'fatal') return undefined;
	const { error, error_description, error_uri } = check;
	return jsonResponse(400, { error, error_description, error_uri });
}

/**
 * Where the consent page's Authorize and Deny forms end up: the request's validated redirect URI
 * (the server adds its origin to the page's `form-action`, which Chromium applies to the redirect
 * that follows the post). None when the request has no valid client and redirect URI.
 */
export function consentFormTargets(
	{ settings }: Pick<Sandbox, 'settings'>,
	event: RequestEvent
): string[] {
	const check = checkClientAndRedirect(settings, event.url.searchParams, event.url.origin);
	return check.kind === 'fatal' ? [] : [check.redirect_uri];
}
