/**
 * The e2e tests' fixtures, built with vitest's `test.extend`. A test file gets its own built server
 * (on a port of its own), started when its first test needs it and stopped after its last, and, if
 * its tests ask for one, its own oidc-provider. Chromium is one per worker: launched for the first
 * file that needs it and closed when the worker ends, its browser contexts (each with its own
 * cookies, storage and cache) made per test. Each test gets `newPage`, which opens pages in browser
 * contexts of the test's own, and `newTab`, which opens another page in a page's context; when the
 * test ends the contexts are closed, and it fails if any of their pages logged a console error or a
 * page error, or met a Content-Security-Policy violation. No server is shared between files, so the
 * files can run side by side.
 */
import { expect, test as base } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launch } from './browser';
import { watch, type Traffic } from './e2e';
import type { OidcOptions, OidcServer } from './oidc';
import { freePort, startServer } from './server';

export interface Viewport {
	width: number;
	height: number;
}

/**
 * The environment of a file's server. As a function it is given the server's origin first, for
 * settings that name it (the redirect URIs of `SANDBOX_CLIENTS`).
 */
export type ServerEnv = Record<string, string> | ((origin: string) => Record<string, string>);

/** Opens a watched page in a browser context of its own (1280 × 800 unless said). */
export type NewPage = (
	viewport?: Viewport,
	options?: Omit<BrowserContextOptions, 'viewport'>
) => Promise<Page>;

/** Opens another watched page (a tab) in the browser context of `page` (one cookie jar). */
export type NewTab = (page: Page) => Promise<Page>;

/** What a page asked for and got: the URLs and the bodies (`watch`). */
export type Recorded = Pick<Traffic, 'bodies' | 'urls'>;

/** What a file's e2e test may have besides its server. */
export interface E2eOptions {
	/**
	 * The `oidc` fixture's provider, given the redirect URIs of the file's server (its `/callback`).
	 * Without it: the one client, `OIDC_CLIENT_ID`, registered with them.
	 */
	oidc?: (redirectUris: string[]) => OidcOptions;
	/**
	 * Every page of the file records each URL it asks for and each body it gets in the test's
	 * `traffic`, for the tests' scans for secrets.
	 */
	record?: boolean;
}

/** The worker's Chromium, launched on first use and shared by its files' tests. */
let chromium: Promise<Browser> | undefined;

function workerBrowser(): Promise<Browser> {
	if (!chromium) {
		const launched = launch();
		chromium = launched;
		// A browser that went away (it crashed, or was closed) is launched again for the next file.
		void launched.then(
			(b) =>
				b.on('disconnected', () => {
					if (chromium === launched) chromium = undefined;
				}),
			() => {
				if (chromium === launched) chromium = undefined;
			}
		);
	}
	return chromium;
}

async function closeWorkerBrowser(): Promise<void> {
	const open = chromium;
	chromium = undefined;
	await (await open?.catch(() => undefined))?.close();
}

/** The `test` of an e2e file whose server runs with `env`. */
export function e2eTest(env: ServerEnv = {}, options: E2eOptions = {}) {
	return (
		base
			// The first argument of a fixture must be a destructuring pattern: vitest reads the names in
			// it as the fixture's dependencies, and these have none.
			// eslint-disable-next-line no-empty-pattern
			.extend('srv', { scope: 'file' }, async ({}, { onCleanup }) => {
				const port = await freePort();
				const origin = `http://127.0.0.1:${port}`;
				const srv = await startServer(typeof env === 'function' ? env(origin) : env, port);
				onCleanup(() => srv.stop());
				return srv;
			})
			.extend('oidc', { scope: 'file' }, async ({ srv }, { onCleanup }): Promise<OidcServer> => {
				const { oidcClient, startOidcProvider } = await import('./oidc');
				const redirectUris = [`${srv.url}/callback`];
				const oidc = await startOidcProvider(
					options.oidc?.(redirectUris) ?? { clients: [oidcClient(redirectUris)] }
				);
				onCleanup(() => oidc.stop());
				return oidc;
			})
			// Every file's fixture object has a worker context of its own, so the browser they share is
			// the module's; each closes it when the worker ends, the first one that runs for good.
			// eslint-disable-next-line no-empty-pattern
			.extend('browser', { scope: 'worker' }, async ({}, { onCleanup }) => {
				const browser = await workerBrowser();
				onCleanup(closeWorkerBrowser);
				return browser;
			})
			// eslint-disable-next-line no-empty-pattern
			.extend('problems', async ({}, { onCleanup }) => {
				const problems: string[] = [];
				onCleanup(() =>
					expect(problems, 'no console errors, page errors or CSP violations').toEqual([])
				);
				return problems;
			})
			// eslint-disable-next-line no-empty-pattern
			.extend('traffic', async ({}): Promise<Recorded> => ({
				bodies: [],
				urls: []
			}))
			// What `watch` is given for each page: the problems, and the traffic when the file records.
			.extend('watching', async ({ problems, traffic }) =>
				options.record ? { problems, ...traffic } : { problems }
			)
			.extend('newTab', async ({ watching }): Promise<NewTab> => {
				return async (page) => watch(await page.context().newPage(), watching);
			})
			.extend('newPage', async ({ browser, watching }, { onCleanup }) => {
				const contexts: BrowserContext[] = [];
				// Cleanups run in the reverse order of the set-ups, so the contexts are closed before
				// `problems` is checked (and before a file's own `traffic` is scanned).
				onCleanup(async () => {
					await Promise.all(contexts.map((c) => c.close()));
				});
				const newPage: NewPage = async (viewport = { width: 1280, height: 800 }, opts = {}) => {
					const context = await browser.newContext({ ...opts, viewport });
					contexts.push(context);
					return watch(await context.newPage(), watching);
				};
				return newPage;
			})
	);
}
