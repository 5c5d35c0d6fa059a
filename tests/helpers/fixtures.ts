/**
 * The e2e tests' fixtures, built with vitest's `test.extend`. A test file gets its own built server
 * (on a port of its own) and its own Chromium, both started when its first test needs them and
 * stopped after its last; each test gets `newPage`, which opens pages in browser contexts of the
 * test's own, and fails the test when it ends if any of them logged a console error or a page
 * error, or met a Content-Security-Policy violation. No server or browser is shared between
 * files, so the files can run side by side.
 */
import { expect, test as base } from 'vitest';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launch } from './browser';
import { watch } from './e2e';
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

/** The `test` of an e2e file whose server runs with `env`. */
export function e2eTest(env: ServerEnv = {}) {
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
			// eslint-disable-next-line no-empty-pattern
			.extend('browser', { scope: 'file' }, async ({}, { onCleanup }) => {
				const browser = await launch();
				onCleanup(() => browser.close());
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
			.extend('newPage', async ({ browser, problems }, { onCleanup }) => {
				const contexts: BrowserContext[] = [];
				// Cleanups run in the reverse order of the set-ups, so the contexts are closed before
				// `problems` is checked.
				onCleanup(async () => {
					await Promise.all(contexts.map((c) => c.close()));
				});
				const newPage: NewPage = async (viewport = { width: 1280, height: 800 }, options = {}) => {
					const context = await browser.newContext({ ...options, viewport });
					contexts.push(context);
					return watch(await context.newPage(), { problems });
				};
				return newPage;
			})
	);
}
