/**
 * In real Chromium: a fresh visit of `/` loads the script of its first render only (the setup, the
 * later steps' cards as they stand before a setup, the diagram's empty frame). The steps after the
 * setup, the diagram's arrows, the dialogs and the docs-link banner load when the page needs them,
 * and then work. Each part is recognised by a
 * text only its own component holds, in the JavaScript the page fetched.
 */
import { expect } from 'vitest';
import { statSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { FIRST_LOAD_BUDGET } from '../../scripts/bench/config.js';
import { openPlayground, signIn } from '../helpers/e2e';
import { e2eTest } from '../helpers/fixtures';

const test = e2eTest({ PLAYGROUND_LOG: 'off' });

/** A text of each lazily loaded part, as its compiled component holds it. */
const LATER = {
	ConsentStep: 'Check the consent URL',
	CallbackStep: 'Use this redirect',
	ExchangeStep: 'code-held',
	TokensStep: 'Refresh automatically before expiry',
	UserInfoStep: 'data-action="userinfo"',
	RefreshStep: 'data-action="refresh"',
	ApiStep: 'Pick one to fill in the form',
	TokenAdminStep: 'revocation-not-effective',
	TokenPanel: 'data-testid="access-token"',
	// The diagram's arrows: before the first exchange the page draws its frame alone.
	SequenceDiagram: 'data-arrow',
	// The verdict's words: a fresh page has nothing to judge.
	verdict: 'Tokens received'
};
const ON_DEMAND = {
	ShortcutsDialog: 'Go to the next step',
	StartOverDialog: 'Keep this flow',
	PrefillBanner: 'Filled in from a link',
	NotStartedBanner: 'was not started in this tab'
};

/** Follows the JavaScript a fresh page (empty cache) fetches: `read()` waits for every body. */
function readScripts(p: Page): () => Promise<Map<string, string>> {
	const bodies = new Map<string, Promise<string>>();
	p.on('response', (r) => {
		if (new URL(r.url()).pathname.endsWith('.js'))
			bodies.set(
				r.url(),
				r.text().catch(() => '')
			);
	});
	return async () =>
		new Map(await Promise.all([...bodies].map(async ([u, b]) => [u, await b] as const)));
}

/** The parts of `parts` whose text is in the fetched JavaScript. */
function loaded(js: Map<string, string>, parts: Record<string, string>): string[] {
	const all = [...js.values()].join('\n');
	return Object.entries(parts)
		.filter(([, text]) => all.includes(text))
		.map(([name]) => name);
}

test('a fresh visit loads no later step; they load, and work, once the flow reaches them', async ({
	srv,
	newPage
}) => {
	const p = await newPage();
	const read = readScripts(p);
	await openPlayground(p, srv.url);
	await p.waitForLoadState('networkidle');
	const first = await read();
	expect(loaded(first, LATER), 'later steps in the first load').toEqual([]);
	// Within its budget: the gzip bytes of the JavaScript it loaded, as the build's own .gz files
	// (what the server sends for Accept-Encoding: gzip) have them.
	const gzip = [...first.keys()]
		.map((url) => statSync(`build/client${new URL(url).pathname}.gz`).size)
		.reduce((a, b) => a + b, 0);
	expect(
		gzip,
		`the first load's JS, ${gzip} bytes gzip in ${first.size} files: over its budget (scripts/bench/config.js FIRST_LOAD_BUDGET)`
	).toBeLessThanOrEqual(FIRST_LOAD_BUDGET.jsGzipBytes);
	expect(loaded(first, ON_DEMAND), 'dialogs and the banner in the first load').toEqual([]);
	// The cards of the later steps are there, in order, before any of their script.
	const ids = await p.locator('main .flow > section.step').evaluateAll((s) => s.map((e) => e.id));
	expect(ids).toEqual(['setup', 'consent', 'callback', 'exchange', 'userinfo', 'refresh', 'api']);

	await signIn(p, srv.url, 'Sandbox (read write)');
	await p.getByRole('button', { name: 'Read the user info' }).click();
	await expect.poll(() => p.locator('#userinfo details.exchange').textContent()).toContain('200');
	await p.getByRole('button', { name: 'Refresh the access token' }).click();
	await expect.poll(() => p.locator('#refresh details.exchange').textContent()).toContain('200');
	const later = await read();
	expect(loaded(later, LATER).sort()).toEqual(Object.keys(LATER).sort());
});

test('what is typed in the setup before the page’s script runs is kept, and saved', async ({
	srv,
	newPage
}) => {
	const p = await newPage();
	// The page's script is held back: the form the server rendered is there, not yet live.
	let release!: () => void;
	const held = new Promise<void>((ok) => (release = ok));
	await p.route(/\/_app\/immutable\/.*\.js$/, async (route) => {
		await held;
		await route.continue();
	});
	await p.goto(`${srv.url}/`, { waitUntil: 'domcontentloaded' });
	expect(await p.locator('main').getAttribute('data-ready')).toBe('false');
	await p.getByLabel('Base URL of the service').fill(`${srv.url}/sandbox`);
	await p.getByLabel('Client id').fill('sandbox-ro');
	await p.getByLabel('Client secret').fill('sandbox-ro-secret');
	await p.getByLabel('Scope', { exact: true }).fill('read');
	await p.getByLabel(/Exchange the code automatically/).uncheck();
	release();
	await p.locator('main[data-ready="true"]').waitFor();
	expect(await p.getByLabel('Client id').inputValue()).toBe('sandbox-ro');
	expect(await p.getByLabel('Scope', { exact: true }).inputValue()).toBe('read');
	expect(await p.getByLabel('Base URL of the service').inputValue()).toBe(`${srv.url}/sandbox`);
	expect(await p.getByLabel(/Exchange the code automatically/).isChecked()).toBe(false);
	// Saved as typed: the consent request asks for it.
	await p.getByRole('button', { name: 'Save setup' }).click();
	await expect
		.poll(() => p.getByTestId('consent-url').textContent())
		.toMatch(/client_id=sandbox-ro&.*scope=read&/);
});

test('the dialogs load when they open, and keep their keyboard behaviour', async ({
	srv,
	newPage
}) => {
	const p = await newPage();
	const read = readScripts(p);
	await openPlayground(p, srv.url);
	await p.waitForLoadState('networkidle');
	expect(loaded(await read(), ON_DEMAND)).toEqual([]);

	await p.keyboard.press('?');
	const shortcuts = p.getByRole('dialog', { name: 'Keyboard shortcuts' });
	await shortcuts.waitFor();
	await p.keyboard.press('Escape');
	await shortcuts.waitFor({ state: 'hidden' });

	const startOver = p.locator('#start-over button');
	await startOver.click();
	const confirm = p.getByRole('dialog', { name: 'Start over?' });
	await confirm.waitFor();
	await expect
		.poll(() => p.evaluate(() => document.activeElement?.textContent?.trim()))
		.toBe('Keep this flow');
	await p.keyboard.press('Escape');
	await confirm.waitFor({ state: 'hidden' });
	await expect
		.poll(() => p.evaluate(() => document.activeElement?.closest('#start-over') !== null))
		.toBe(true);
	expect(loaded(await read(), ON_DEMAND)).toEqual(['ShortcutsDialog', 'StartOverDialog']);
});

test('a docs link’s banner loads with the page that shows it', async ({ srv, newPage }) => {
	const p = await newPage();
	const read = readScripts(p);
	await p.goto(`${srv.url}/?client_id=sandbox-ro&scope=read`);
	await p.locator('main[data-ready="true"]').waitFor();
	await p.getByTestId('prefill-banner').waitFor();
	expect(loaded(await read(), ON_DEMAND)).toEqual(['PrefillBanner']);
});
