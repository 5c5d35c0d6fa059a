/**
 * What a refused redirect URI is compared with (oauth/redirect-uri.ts): the built-in sandbox's own
 * registration of the client when the sandbox is the target (the truth, read through presets.ts),
 * else the setup's "Redirect URI as registered", when one was entered.
 */
import type { Setup } from '$lib/oauth/setup';
import {
	nearestRegistered,
	redirectUriFix,
	type RedirectUriOptions
} from '$lib/oauth/redirect-uri';
import { sandboxRedirectUris } from './presets';

export interface RegisteredRedirect {
	registeredRedirectUri?: string | readonly string[];
	redirectUriOptions: RedirectUriOptions;
}

export function registeredRedirect(
	setup: Setup | null | undefined,
	origin: string
): RegisteredRedirect {
	const callbackUrl = `${origin}/callback`;
	const sandbox = sandboxRedirectUris(setup, origin);
	if (sandbox)
		return {
			registeredRedirectUri: sandbox,
			redirectUriOptions: { source: 'sandbox', callbackUrl }
		};
	return {
		// A cookie sealed before the field existed has none.
		registeredRedirectUri: setup?.registered_redirect_uri || undefined,
		redirectUriOptions: { source: 'setup', callbackUrl }
	};
}

/** The fix of a refused redirect URI `sent` with this setup: the near miss named, or the usual suspects. */
export function redirectMismatchFix(
	setup: Setup | null | undefined,
	sent: string,
	origin: string
): string {
	const { registeredRedirectUri, redirectUriOptions } = registeredRedirect(setup, origin);
	return redirectUriFix(sent, registeredRedirectUri, redirectUriOptions);
}

/**
 * The form's prefill for an empty "Redirect URI as registered" when the sandbox is the target:
 * the sandbox's registered URI nearest to the one the setup sends. Null otherwise.
 */
export function registeredRedirectHint(
	setup: Setup | null | undefined,
	origin: string
): string | null {
	if (!setup || setup.registered_redirect_uri) return null;
	const sandbox = sandboxRedirectUris(setup, origin);
	return (sandbox && nearestRegistered(setup.redirect_uri, sandbox)) ?? null;
}
