/**
 * The exports in real Chromium: "Copy as curl" and "Copy as Node fetch" on an exchange (loaded on
 * first use), and the curl script as the page downloads it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import { signIn } from '../helpers/e2e';
import { e2eTest } from '../helpers/fixtures';

const test = e2eTest();

/** The page may write the clipboard, and the test read it. */
const CLIPBOARD = { permissions: ['clipboard-read', 'clipboard-write'] };

const clipboard = (p: Page) => p.evaluate(() => navigator.clipboard.readText());

// One sign-in for both ways out: the downloaded script first (the flow as the sign-in left it), then
// the copies of single exchanges.
test('the curl script as the page downloads it: no code, token or secret; the spending steps guarded; then Copy as curl and Copy as Node fetch: the code, tokens and secret as variables, the spending step guarded', async ({
	srv,
	newPage
}) => {
	const p = await newPage({ width: 1280, height: 800 }, CLIPBOARD);
	await signIn(p, srv.url, 'Sandbox (read write)');
	const token = (await p.getByTestId('access-token').textContent())!.trim();
	const [download] = await Promise.all([
		p.waitForEvent('download'),
		p.getByRole('button', { name: 'curl', exact: true }).click()
	]);
	const path = `test-output/${download.suggestedFilename()}`;
	await download.saveAs(path);
	const script = readFileSync(path, 'utf8');
	expect(script).not.toContain(token);
	expect(script).not.toContain('sandbox-rw-secret');
	expect(script).toMatch(/^# Step 3 spend something/m);
	expect(script).toMatch(/^#\s+CODE\s+a fresh authorization code/m);
	const callback = /^printf '%s\\n' '(http[^']*\/callback\?[^']*)'$/m.exec(script)![1]!;
	expect(new URL(callback).searchParams.get('code')).toMatch(/^.{4}….{4} <\d+ chars>$/);
	expect(spawnSync('bash', ['-n'], { input: script }).status).toBe(0);

	const exchange = p.locator('#exchange details.exchange').first();
	const body = (await exchange.locator('pre[aria-label="Request body"]').textContent())!;
	const code = /code=([^&\s]+)/.exec(body)![1]!;

	await exchange.getByRole('button', { name: 'Copy as curl' }).click();
	await expect.poll(() => clipboard(p)).toMatch(/^# Code exchange: POST /);
	const curl = await clipboard(p);
	expect(curl).toContain('--data-urlencode "code=$CODE"');
	expect(curl).toContain('--data-urlencode "client_secret=$CLIENT_SECRET"');
	expect(curl).toContain('if [ "${RUN_SPENDING_STEPS:-}" = 1 ]; then');
	for (const value of ['sandbox-rw-secret', code, token]) expect(curl).not.toContain(value);
	expect(spawnSync('bash', ['-n'], { input: curl }).status).toBe(0);

	await exchange.getByRole('button', { name: 'Copy as Node fetch' }).click();
	await expect.poll(() => clipboard(p)).toMatch(/^\/\/ Code exchange: POST /);
	const js = await clipboard(p);
	expect(js).toContain('form(env("CLIENT_SECRET"))');
	expect(js).toContain('never from browser code');
	for (const value of ['sandbox-rw-secret', code, token]) expect(js).not.toContain(value);

	const userinfo = p.locator('#userinfo');
	await p.getByRole('button', { name: 'Read the user info' }).click();
	await expect
		.poll(() => userinfo.locator('details.exchange').first().textContent())
		.toContain('"userId"');
	await userinfo.getByRole('button', { name: 'Copy as curl' }).first().click();
	await expect.poll(() => clipboard(p)).toMatch(/^# User-info: GET /);
	expect(await clipboard(p)).toContain('"Authorization: Bearer $ACCESS_TOKEN"');
	await shot(p, '40-copy-as-curl');
});
