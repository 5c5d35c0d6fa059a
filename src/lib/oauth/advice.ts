/**
 * Whose advice fits a setup: the feed-reader service's own (its documented paths, its `userId`
 * field, its "Read only" registrations, its two scopes, its missing metadata) holds only where the
 * setup is the service's: its documented endpoints below the base URL (the service's API docs §4.1,
 * §4.2, §4.4: no custom endpoint, or custom ones equal to them), or the built-in sandbox. Any other
 * server gets generic words, or the words of its own metadata (its `scopes_supported`). The one
 * place that decides it; the diagnosis reads the answer from its context (diagnose.ts).
 */
import { ENDPOINT_FIELDS, rowOf, type EndpointName } from './setup-fields';
import type { EndpointFields } from './endpoints';
import type { Exchange } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';

export interface Advice {
	/** The setup is the service's (its documented endpoints, or the sandbox): its own words fit. */
	service: boolean;
	/** The scopes the server's metadata lists (`scopes_supported`), when the flow has it. */
	scopes?: readonly string[];
}

/**
 * Whether every endpoint the service's API docs publish is the documented path below the base URL:
 * its field empty, or equal to that URL (trailing slashes aside).
 */
export function isDocumentedSetup(setup: EndpointFields): boolean {
	const base = setup.base_url.replace(/\/+$/, '');
	const trim = (u: string) => u.replace(/\/+$/, '');
	return ENDPOINT_FIELDS.every((name: EndpointName) => {
		const path = rowOf(name).endpoint!.path;
		if (!path) return true;
		const value = (setup as Partial<Record<EndpointName, string>>)[name];
		return !value || trim(value) === trim(`${base}${path}`);
	});
}

/**
 * The advice for a setup: the service's where its endpoints are the documented ones or its consent
 * page is the sandbox's (`sandbox`, as the app's presets know it); otherwise any server's, with the
 * scopes its metadata lists when known. No setup: the service's, as the playground is set up for it.
 */
export function adviceFor(
	setup: EndpointFields | null | undefined,
	sandbox: boolean,
	scopes?: readonly string[]
): Advice {
	const service = !setup || sandbox || isDocumentedSetup(setup);
	return service ? { service } : { service, ...(scopes?.length ? { scopes } : {}) };
}

/**
 * The advice for a recording (an imported HAR): the service's where every request it holds to an
 * endpoint the service's API docs document went to that endpoint's documented path (below any
 * base URL: a HAR does not say which was set up); any other server's as soon as one did not (an
 * OpenID provider's `/oidc/token`, django-oauth-toolkit's `/o/token/`). A recording of none of
 * them: the service's, as the playground is set up for it.
 */
export function adviceForRecording(exchanges: readonly Exchange[]): Advice {
	const documented = new Map<string, string>(
		ENDPOINT_FIELDS.flatMap((name: EndpointName) => {
			const e = rowOf(name).endpoint!;
			return e.path ? [[e.key, e.path] as [string, string]] : [];
		})
	);
	const service = exchanges.every((ex) => {
		const endpoint = specOf(ex.step).endpoint;
		const path = endpoint === undefined ? undefined : documented.get(endpoint);
		if (path === undefined || !URL.canParse(ex.request.url)) return true;
		return new URL(ex.request.url).pathname.replace(/\/+$/, '').endsWith(path);
	});
	return { service };
}
