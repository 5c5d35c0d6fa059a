/**
 * What the diagnostics may know of the playground itself (`DiagnoseContext.playground`): its own
 * origin, taken from the request being handled, and whether its sandbox is on. A base URL on that
 * origin outside `/sandbox` reaches the playground, not a service (oauth/wrong-endpoint.ts).
 */
import { getRequestEvent } from '$app/server';
import type { PlaygroundInfo } from '$lib/oauth/wrong-endpoint';
import { requestPlayground } from './playground';

/** The playground's origin and sandbox switch; undefined outside a request. */
export function playgroundInfo(): PlaygroundInfo | undefined {
	try {
		return {
			origin: getRequestEvent().url.origin,
			sandbox: requestPlayground().presets.sandboxEnabled
		};
	} catch {
		return undefined; // outside a request: nothing to compare with
	}
}
