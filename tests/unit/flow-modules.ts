import { setupWith } from '$lib/oauth/setup';
import { cookieSource, type CookieSource, type Session } from '$lib/server/session/session';
import type { App } from '$lib/app.server';
import type { StepContext } from '$lib/server/flow/context';
import type { Cookies } from '@sveltejs/kit';

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
 * What a step of `app` is handed by the flow of a request to `origin`: no visitor address, and no
 * signal (never aborted).
 */
export function stepOf(app: App, origin = 'http://127.0.0.1:5173'): StepContext {
	return { app, origin };
}

/** What a request to `url` without a Cookie header reads and writes, with `app`'s keys and clock. */
export function sourceAt(app: App, url: URL): CookieSource {
	return cookieSource(app, url, new Headers());
}

/** The session, undo and page modules, the flow object, the page's actions, and `save`. */
export async function flowModules() {
	const session = await import('$lib/server/session/session');
	const undo = await import('$lib/server/flow/start-over');
	const page = await import('$lib/server/flow/page');
	const { SealedFlow } = await import('$lib/server/flow/sealed-flow');
	const { actions } = await import('../../src/routes/+page.server');
	/** Writes a flow into the jar, as its seal after a verb of `app` would. */
	const save = (jar: Cookies, url: URL, s: Session, app: App) =>
		session.writeSession(jar, undo.withoutUndo(s), url.protocol === 'https:', sourceAt(app, url));
	return { ...session, ...undo, ...page, SealedFlow, actions, save };
}

/** A form action's event: a POST of `body` to `url`, from 127.0.0.1, served by `app`. */
export function actionEvent(jar: Cookies, url: URL, app: App, body = '') {
	return {
		cookies: jar,
		url,
		request: new Request(url, {
			method: 'POST',
			body,
			headers: { 'content-type': 'application/x-www-form-urlencoded' }
		}),
		getClientAddress: () => '127.0.0.1',
		setHeaders: () => {},
		locals: { app }
	};
}
