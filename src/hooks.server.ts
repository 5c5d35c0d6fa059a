/**
 * Security headers on every response, the sandbox switch, startup checks of the configuration (and
 * of the store REDIS_URL names: hosted mode refuses one that can forget used codes), a JSON 400 for
 * a path that is not valid percent-encoding, and a request log that never prints a query string, a cookie or a body (they can hold codes,
 * tokens and secrets).
 */
import type { Handle, ServerInit } from '@sveltejs/kit';
import { json } from '@sveltejs/kit';
import {
	AUTHORIZATION_PATH,
	consentFormTargets,
	sandboxPreflight
} from '$lib/sandbox/preflight.server';
import { env } from '$env/dynamic/private';
import { parseConfig } from '$lib/config.server.js';
import { createPlayground, type App } from '$lib/app.server';
import { crossSiteForm } from '$lib/server/session/csrf';
import { refuseUnservedHost } from '$lib/server/hosts';
import { secureHeaders } from '$lib/server/headers';
import { cookieName } from '$lib/server/session/session';
import { peerAddress } from '$lib/proxy.server';
import { readStoreSettings, storeVerdict } from '$lib/sandbox/store-check.server';

/** With REDIS_URL: refuses (throws) or warns about a store that can forget what the sandbox keeps. */
async function checkSharedStore({ redis: connecting, config }: App): Promise<void> {
	const redis = await connecting;
	if (!redis) return;
	const { policy, store } = config;
	const verdict = storeVerdict(await readStoreSettings(redis), {
		mode: policy.mode,
		...(store.unsafe && { unsafe: store.unsafe })
	});
	if (verdict.verdict === 'refuse') throw new Error(verdict.message);
	if (verdict.verdict === 'warn') console.warn(`Warning: ${verdict.message}`);
}

/**
 * The path decoded as SvelteKit decodes it (`%25` kept, the rest by decodeURI); undefined when it
 * cannot be. (The result is used, so that the bundler keeps the call.)
 */
function decodedPath(path: string): string | undefined {
	try {
		return path.split('%25').map(decodeURI).join('%25');
	} catch {
		return undefined;
	}
}

/** The server's one app, built by `init` before the first request. */
let app: App;

export const init: ServerInit = async () => {
	try {
		// A bad setting (a key, a PLAYGROUND_PRESETS entry) throws here, so the start fails.
		app = createPlayground(parseConfig(env));
		await checkSharedStore(app);
	} catch (e) {
		console.error(`\nThe playground cannot start: ${(e as Error).message}\n`);
		process.exit(1);
	}
};

export const handle: Handle = async ({ event, resolve }) => {
	const t0 = performance.now();
	event.locals.app = app;
	const path = event.url.pathname;
	const { limits, sandbox, log } = app.config;
	let response: Response;
	const declared = Number(event.request.headers.get('content-length') ?? 0);
	// First: only a served host name reaches anything below (DNS rebinding; see hosts.ts).
	const unserved = refuseUnservedHost(
		event.request,
		event.url,
		app.config,
		peerAddress(event.platform)
	);
	if (unserved) response = unserved;
	else if (decodedPath(path) === undefined) {
		// SvelteKit would answer 400 too, but log a stack trace: this is the client's mistake.
		response = json(
			{
				error: 'malformed_path',
				message:
					'The request path is not valid percent-encoding (each % must start a UTF-8 byte written as two hex digits, such as %2F).'
			},
			{ status: 400 }
		);
	} else if (declared > limits.maxRequestBytes) {
		response = json(
			{
				error: 'request_too_large',
				message: `The request body is ${declared} bytes; the playground accepts at most ${limits.maxRequestBytes} (PLAYGROUND_MAX_REQUEST_BYTES).`
			},
			{ status: 413 }
		);
	} else if (crossSiteForm(event.request.method, event.url, event.request.headers)) {
		const message = `Cross-site ${event.request.method} form submissions are forbidden`;
		response = event.request.headers.get('accept')?.includes('text/html')
			? new Response(message, { status: 403, headers: { 'content-type': 'text/plain' } })
			: json({ message }, { status: 403 });
	} else if (path.startsWith('/sandbox') && !sandbox.enabled) {
		response = json(
			{
				error: 'not_found',
				error_description: 'The built-in sandbox is turned off (SANDBOX=off).'
			},
			{ status: 404 }
		);
	} else {
		// The theme the toggle remembered (a plain cookie: nothing secret), or the system's.
		const chosen = event.cookies.get(cookieName('pg_theme', event.url.protocol === 'https:'));
		const theme = chosen === 'light' || chosen === 'dark' ? chosen : 'system';
		response =
			(path.startsWith('/sandbox/') && app.sandbox
				? sandboxPreflight(app.sandbox, event)
				: undefined) ??
			(await resolve(event, {
				transformPageChunk: ({ html }) => html.replace('%pg.theme%', theme)
			}));
	}
	secureHeaders(response.headers, {
		path,
		origin: app.config.origin,
		formTargets:
			path === AUTHORIZATION_PATH && app.sandbox ? consentFormTargets(app.sandbox, event) : []
	});
	if (log && path !== '/healthz')
		console.log(
			`${event.request.method} ${path} ${response.status} ${(performance.now() - t0).toFixed(1)}ms`
		);
	return response;
};
