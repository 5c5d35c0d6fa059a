/**
 * What a refused redirect URI is compared with (oauth/redirect-uri.ts): the built-in sandbox's own
 * registration of the client when the sandbox is the target (the truth, read through the app's
 * presets, presets.ts, which the caller hands in), else the setup's "Redirect URI as registered",
 * when one was entered. `origin` is always the playground's own, as the browser reached it.
 */
import { endpoints, type Setup } from '$lib/oauth/setup';
import {
	explainRedirectMismatch,
	nearestRegistered,
	retryRedirect,
	redirectUriFix,
	type RedirectUriOptions
} from '$lib/oauth/redirect-uri';
import type { Presets } from '../flow/presets';

export interface RegisteredRedirect {
	registeredRedirectUri?: string | readonly string[];
	redirectUriOptions: RedirectUriOptions;
}

export function registeredRedirect(
	presets: Presets,
	setup: Setup | null | undefined,
	origin: string
): RegisteredRedirect {
	const callbackUrl = `${origin}/callback`;
	const sandbox = presets.sandboxRedirectUris(setup, origin);
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

/**
 * The fix of a refused redirect URI `sent` with this setup: the near miss named, or the usual
 * suspects. `origin` is the playground's own (for a pasted-back answer, not the address it came
 * to, which is the application's).
 */
export function redirectMismatchFix(
	presets: Presets,
	setup: Setup | null | undefined,
	sent: string,
	origin: string
): string {
	const { registeredRedirectUri, redirectUriOptions } = registeredRedirect(presets, setup, origin);
	return redirectUriFix(sent, registeredRedirectUri, redirectUriOptions);
}

/** The registered URI to try again with after that refusal (`retryRedirect`), when there is one. */
export function redirectRetry(
	presets: Presets,
	setup: Setup | null | undefined,
	sent: string,
	origin: string
): string | undefined {
	const { registeredRedirectUri, redirectUriOptions } = registeredRedirect(presets, setup, origin);
	return retryRedirect(sent, registeredRedirectUri, redirectUriOptions.callbackUrl);
}

/**
 * The form's prefill for an empty "Redirect URI as registered" when the sandbox is the target:
 * the sandbox's registered URI nearest to the one the setup sends. Null otherwise.
 */
export function registeredRedirectHint(
	presets: Presets,
	setup: Setup | null | undefined,
	origin: string
): string | null {
	if (!setup || setup.registered_redirect_uri) return null;
	const sandbox = presets.sandboxRedirectUris(setup, origin);
	return (sandbox && nearestRegistered(setup.redirect_uri, sandbox)) ?? null;
}

/**
 * A registered redirect URI belongs to the service it was entered for: a saved setup whose consent
 * page moved to another service keeps none that was only carried over from the setup before (a
 * preset's, or the sandbox's prefill); one typed anew is kept.
 */
export function keepRegisteredRedirect(before: Setup | undefined, after: Setup): Setup {
	const carried =
		!!before?.registered_redirect_uri &&
		after.registered_redirect_uri === before.registered_redirect_uri;
	if (!carried || endpoints(before).authorization === endpoints(after).authorization) return after;
	return { ...after, registered_redirect_uri: '' };
}

/** A redirect URI that will be refused, named before consent: by whom, and the near miss with its fix. */
export interface RefusalAhead {
	/** The built-in sandbox knows its registrations: it will refuse. Else the setup's field says so. */
	sandbox: boolean;
	fix: string;
	/** The registered URI to send instead, "Try again with …" (`retryRedirect`), when there is one. */
	retry?: string;
}

/**
 * Before consent, for any service: the redirect URI the pending consent sends, set against the
 * registered one. With the built-in sandbox as the target the playground knows its registrations,
 * so a URI it will refuse (its error page instead of consent) is named at once, with the near miss.
 * For any other service, a "Redirect URI as registered" that differs from the URI sent is named
 * the same way: the service will most likely refuse it. Null when nothing is known to differ.
 */
export function refusalAhead(
	presets: Presets,
	setup: Setup | null | undefined,
	sent: string | undefined,
	origin: string
): RefusalAhead | null {
	if (!sent) return null;
	const callbackUrl = `${origin}/callback`;
	const list = presets.sandboxRedirectUris(setup, origin);
	const ahead = (sandbox: boolean, fix: string, registered: string | readonly string[]) => {
		const retry = retryRedirect(sent, registered, callbackUrl);
		return { sandbox, fix, ...(retry ? { retry } : {}) };
	};
	if (list)
		return list.includes(sent)
			? null
			: ahead(true, explainRedirectMismatch(sent, list, { source: 'sandbox', callbackUrl }), list);
	const registered = setup?.registered_redirect_uri;
	if (!registered || registered === sent) return null;
	return ahead(
		false,
		explainRedirectMismatch(sent, registered, { source: 'setup', callbackUrl }),
		registered
	);
}
