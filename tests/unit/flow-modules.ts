import { setupWith } from '$lib/oauth/setup';
import type { Session } from '$lib/server/session';
import type { App } from '$lib/app.server';

/** A flow with the sandbox's read-write client saved, and its secret. */
export const SANDBOX_FLOW: Session = {
	v: 1,
	setup: setupWith({
		base_url: 'http://127.0.0.1:5173/sandbox',
		redirect_uri: 'http://127.0.0.1:5173/callback',
		client_id: 'sandbox-rw'
	}),
	client_secret: 'sandbox-rw-secret'
};

/**
 * The request event the modules see through `$app/server`: one flow's request to `url`, served by
 * `served.app` (the caller sets it, e.g. to `testApp(fill)`, before the first action). The caller
 * mocks `$app/server` with it, so that the actions run inside that request.
 */
export function flowRequest(url: URL, served: { app?: App }) {
	return () => ({ request: new Request(url), url, locals: { app: served.app! } });
}

/** The session, undo and page modules. */
export async function flowModules() {
	const session = await import('$lib/server/session');
	const undo = await import('$lib/server/undo');
	const page = await import('$lib/server/page');
	return { ...session, ...undo, ...page };
}
