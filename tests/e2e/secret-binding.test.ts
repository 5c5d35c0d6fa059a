/**
 * A client secret belongs to one client, in real Chromium: the form says that a secret is set and
 * never shows a character or the length of it; a change of the client id or the token endpoint
 * clears it, and the form says why in words and that the setup is no longer the preset. Tokens
 * belong to their API: moving the user-info endpoint to another origin asks first, and without a
 * yes the save drops them, says why, and offers Undo; a fill from another host's metadata asks too.
 * Screenshots at 1280 and 390 px go to test-output/screenshots/.
 */
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import { choosePreset, openPlayground, signIn } from '../helpers/e2e';
import { withRecordingServer } from '../helpers/recording-server';
import { carried, withMetadataHost } from '../helpers/metadata-host';
import { e2eTest, type Recorded } from '../helpers/fixtures';

const PRESET_SECRET = 'sandbox-rw-secret';

const test = e2eTest({}, { record: true })
	// The preset's secret is in no body and no address of any test's pages.
	// eslint-disable-next-line no-empty-pattern
	.extend('traffic', async ({}, { onCleanup }) => {
		const traffic: Recorded = { bodies: [], urls: [] };
		onCleanup(() => {
			const leaks = traffic.bodies.filter((b) => b.text.includes(PRESET_SECRET));
			expect(leaks.map((l) => l.url)).toEqual([]);
			expect(traffic.urls.filter((u) => u.includes(PRESET_SECRET))).toEqual([]);
		});
		return traffic;
	});

/** What the page shows of the secret: the hint, and the clause about it in the setup's summary line. */
async function shownOfSecret(p: Page): Promise<string> {
	const hint = await p.getByTestId('secret-hint').innerText();
	const summary = await p.getByTestId('setup-summary').innerText();
	const clause = /, secret ([^.]*)\./.exec(summary)?.[1];
	expect(clause).toBe("set: the preset's, kept on the server");
	// "secret" is a word of the hint; what is left must hold no end of the secret and no number.
	return `${hint} ${clause}`.replace(/secret/gi, '');
}

describe('secret follows client', () => {
	test.for([
		[1280, 'client id', 'Client id', 'another-app'],
		[390, 'token endpoint', 'Token endpoint', 'http://127.0.0.1:9/oauth2/token']
	] as const)(
		'at %i px: changing the %s clears the secret, the form says why, and shows no character or length of it',
		async ([width, what, label, value], { srv, newPage }) => {
			const p = await newPage({ width, height: 900 });
			await choosePreset(p, srv.url, 'Sandbox (read write)');
			await p.getByTestId('setup-summary').click();
			await expect
				.poll(() => p.getByTestId('secret-hint').innerText())
				.toMatch(/^A secret is set: the preset's/);
			expect(await shownOfSecret(p)).not.toMatch(/cret|…|\d/);
			expect(await p.getByTestId('preset-status').innerText()).toContain(
				'Preset: Sandbox (read write).'
			);
			await shot(p, `30-secret-set-${width}`);

			if (label === 'Token endpoint') await p.getByText('Advanced settings').click();
			await p.getByLabel(label, { exact: true }).fill(value);
			await p.getByRole('button', { name: 'Save setup' }).click();
			const note = p.getByTestId('secret-note');
			await note.waitFor();
			expect(await note.innerText()).toBe(
				`The secret was cleared because the ${what} changed: this is no longer the preset “Sandbox (read write)”, whose secret stays with its own client. Enter the client secret for this client.`
			);
			expect(await p.getByTestId('preset-status').count()).toBe(0);
			expect(await p.getByTestId('secret-hint').innerText()).toBe(
				'Kept on the server only; it is never sent back to this page.'
			);
			await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('client_secret');
			await shot(p, `31-secret-cleared-${width}`);
		}
	);

	test('a secret typed with a field that needs fixing stays in its field, not on the server', async ({
		srv,
		newPage
	}) => {
		const p = await newPage({ width: 1280, height: 900 });
		await openPlayground(p, srv.url);
		await p.getByLabel('Client id').fill('typed-app');
		await p.getByLabel('Client secret').fill('typed-e2e-secret-Qq12');
		await p.getByLabel('Scope', { exact: true }).fill('read "write"');
		await p.getByRole('button', { name: 'Save setup' }).click();
		await p.locator('#scope-err').waitFor();
		expect(await p.getByLabel('Client secret').inputValue()).toBe('typed-e2e-secret-Qq12');
		expect(await p.getByTestId('secret-hint').innerText()).not.toContain('A secret is set');
	});

	test('a docs link names the host its token endpoint sends the secret to', async ({
		srv,
		newPage
	}) => {
		const p = await newPage({ width: 390, height: 900 });
		const token = 'http://127.0.0.1:9/oauth2/token';
		await p.goto(
			`${srv.url}/?base_url=${encodeURIComponent(`${srv.url}/sandbox`)}&client_id=docs-app&token_endpoint=${encodeURIComponent(token)}`
		);
		const banner = p.getByTestId('prefill-banner');
		await banner.waitFor();
		expect(await banner.innerText()).toContain(
			`check that you trust 127.0.0.1:${srv.port}. The client secret goes to 127.0.0.1:9 (token endpoint).`
		);
		await shot(p, '32-docs-link-secret-hosts-390');
	});
});

describe('tokens follow their API', () => {
	test.for([
		[1280, 800, 'no'],
		[390, 844, 'yes']
	] as const)(
		'at %ix%i px: moving the user-info endpoint asks first; answered %s',
		async ([width, height, answer], { srv, newPage }) => {
			const p = await newPage({ width, height });
			await signIn(p, srv.url, 'Sandbox (read write)');
			await withRecordingServer(async (origin, seen) => {
				await p.getByTestId('setup-summary').click();
				await p.getByText('Advanced settings').click();
				expect(await p.getByTestId('token-question').count()).toBe(0);
				await p.getByLabel('User-info endpoint').fill(`${origin}/reader/api/0/user-info`);
				const question = p.getByTestId('token-question');
				await question.waitFor();
				expect(await question.innerText()).toMatch(
					new RegExp(`^Send this flow's tokens to ${origin}\\? The tokens were issued for `)
				);
				await question.scrollIntoViewIfNeeded();
				await shot(p, `33-token-question-${width}`);
				if (answer === 'yes') {
					await p.getByRole('button', { name: 'Yes, send them there' }).click();
					await p.getByRole('button', { name: 'Save setup' }).click();
					await p.getByRole('button', { name: 'Read the user info' }).click();
					await expect.poll(() => seen.length).toBe(1);
					expect(seen[0]!.headers.authorization).toMatch(/^Bearer /);
					expect(await p.getByTestId('token-note').count()).toBe(0);
					return;
				}
				await p.getByRole('button', { name: 'Save setup' }).click();
				const note = p.getByTestId('token-note');
				await note.waitFor();
				expect(await note.innerText()).toMatch(
					new RegExp(
						`^The tokens were dropped because the user-info endpoint moved to ${origin}, which they were not issued for`
					)
				);
				expect(await p.getByTestId('access-token').count()).toBe(0);
				await note.scrollIntoViewIfNeeded();
				await shot(p, `34-tokens-dropped-${width}`);
				await note.getByRole('button', { name: 'Undo' }).click();
				await p.getByTestId('access-token').waitFor();
				expect(await p.getByTestId('token-note').count()).toBe(0);
				expect(seen).toEqual([]);
			});
		}
	);

	test("token theft by another host's metadata that claims the sandbox's token endpoint: the form asks before Save, and without a yes no token reaches that host", async ({
		srv,
		newPage
	}) => {
		const p = await newPage({ width: 1280, height: 800 });
		await signIn(p, srv.url, 'Sandbox (read write)');
		const token = await p.getByTestId('access-token').innerText();
		await withMetadataHost(
			(origin) => ({
				issuer: origin,
				authorization_endpoint: `${srv.url}/sandbox/oauth2/auth`,
				token_endpoint: `${srv.url}/sandbox/oauth2/token`,
				userinfo_endpoint: `${origin}/userinfo`
			}),
			async (origin, seen) => {
				await p.getByTestId('setup-summary').click();
				await p.getByText('Advanced settings').click();
				await p.getByLabel('Issuer', { exact: true }).fill(origin);
				await p.getByRole('button', { name: 'Fill from metadata' }).click();
				await expect
					.poll(() => p.getByLabel('User-info endpoint').inputValue())
					.toBe(`${origin}/userinfo`);
				// The sandbox's tokens were issued with no issuer set: no metadata vouches for them.
				const question = p.getByTestId('token-question');
				await expect.poll(() => question.count()).toBe(1);
				expect(await question.innerText()).toMatch(
					new RegExp(`^Send this flow's tokens to ${origin}\\?`)
				);
				await question.scrollIntoViewIfNeeded();
				await shot(p, '35-token-question-other-host-metadata-1280');
				await p.getByRole('button', { name: 'Save setup' }).click();
				await p.getByTestId('token-note').waitFor();
				expect(await p.getByTestId('access-token').count()).toBe(0);
				expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
					'GET /.well-known/oauth-authorization-server'
				]);
				expect(carried(seen)).not.toContain(token);
			}
		);
	});
});
