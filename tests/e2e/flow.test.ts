/**
 * The whole flow in real Chromium against the built server and its sandbox, as a user clicks it.
 * Every response the browser receives, every URL it requests, and the server's log are scanned for
 * the client secret. Screenshots of each step go to test-output/screenshots/.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import { choosePreset, decide, flowOf, flowUrl, openPlayground, signIn } from '../helpers/e2e';
import { axeProblems } from '../helpers/axe';
import { e2eTest, type Recorded } from '../helpers/fixtures';

const SECRET = 'e2e-Secret-9f3K-x7Qa';
/** A client whose access tokens live 2 s, so a test sees one expire without waiting long. */
const SHORT_SECRET = 'e2e-Short-4kQ2-p8Zm';

const test = e2eTest(
	(origin) => ({
		SANDBOX_CLIENTS: JSON.stringify([
			{
				client_id: 'e2e-app',
				client_secret: SECRET,
				name: 'E2E app',
				redirect_uris: [`${origin}/callback`],
				default_scope: 'read write'
			},
			{
				client_id: 'e2e-short',
				client_secret: SHORT_SECRET,
				name: 'E2E short-lived',
				redirect_uris: [`${origin}/callback`],
				default_scope: 'read write',
				access_ttl: 2
			}
		])
	}),
	{ record: true }
	// Every test's traffic is scanned for the client secrets as it ends: in no response the browser
	// got, no URL it asked for, and no server log line.
).extend('traffic', async ({ srv }, { onCleanup }) => {
	const traffic: Recorded = { bodies: [], urls: [] };
	onCleanup(() => {
		for (const secret of [SECRET, SHORT_SECRET]) {
			const leaks = traffic.bodies.filter(
				(b) => b.text.includes(secret) || b.text.includes(encodeURIComponent(secret))
			);
			expect(leaks.map((l) => l.url)).toEqual([]);
			expect(srv.logs()).not.toContain(secret);
		}
		expect(
			traffic.urls.filter((u) => [SECRET, SHORT_SECRET, 'client_secret'].some((x) => u.includes(x)))
		).toEqual([]);
		expect(srv.logs()).not.toMatch(/code=|access_token|refresh_token|eyJ/);
	});
	return traffic;
});

async function stepState(p: Page, id: string) {
	return p.locator(`#${id}`).getAttribute('class');
}

describe('the whole flow', () => {
	test('setup (one too large for the server refused, with its reason, nothing typed lost), consent, Authorize, callback, exchange, user-info, refresh, user-info', async ({
		srv,
		newPage,
		traffic,
		problems
	}) => {
		const p = await newPage();
		await openPlayground(p, srv.url);
		await shot(p, '01-start');
		await p.getByLabel('Client id').fill('e2e-app');
		await p.getByLabel('Client secret').fill(SECRET);
		await p.getByLabel('Scope', { exact: true }).fill('read write');
		// A base URL pasted with 70,000 characters more: the server refuses the body before any
		// action reads it. The page says why, and keeps every field as typed.
		const baseField = p.getByLabel('Base URL of the service');
		const base = await baseField.inputValue();
		await baseField.fill(`${base}/${'a'.repeat(70_000)}`);
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect
			.poll(() => p.locator('#setup [role="alert"]').textContent())
			.toMatch(/^\s*The request body is \d+ bytes; the playground accepts at most 65536\b/);
		expect((await baseField.inputValue()).length).toBe(base.length + 70_001);
		expect(await p.getByLabel('Client id').inputValue()).toBe('e2e-app');
		expect(await p.getByLabel('Client secret').inputValue()).toBe(SECRET);
		// Chromium logs the 413 in the console: expected here, once.
		const logged = problems.filter((x) => /status of 413 \(Payload Too Large\)/.test(x));
		expect(logged).toHaveLength(1);
		problems.splice(problems.indexOf(logged[0]!), 1);
		await baseField.fill(base);
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect
			.poll(() => p.getByTestId('secret-hint').textContent())
			.toContain('A secret is set');
		expect(await p.getByLabel('Client secret').inputValue()).toBe('');
		const consentUrl = await p.getByTestId('consent-url').textContent();
		expect(consentUrl).toContain('client_id=e2e-app');
		expect(consentUrl).toContain('scope=read+write');
		await shot(p, '02-consent-step');

		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await p.waitForURL(/\/sandbox\/oauth2\/auth/);
		await shot(p, '03-sandbox-consent-page');
		await p.getByRole('button', { name: 'Authorize' }).click();
		await p.waitForURL(flowUrl(srv.url));
		// Exchanged automatically on return
		await p.getByTestId('access-token').waitFor();
		// The address with the code is in neither the address bar nor the history.
		expect(p.url()).toMatch(flowUrl(srv.url));
		expect(await stepState(p, 'callback')).toContain('step-done');
		expect(await p.getByTestId('saved-state').textContent()).toBe(
			await p.getByTestId('returned-state').textContent()
		);
		const exchange = p.locator('#exchange details.exchange');
		await expect.poll(() => exchange.textContent()).toContain('client_secret=<redacted>');
		expect(await exchange.textContent()).toContain('HTTP/1.1 200 OK');
		expect(await exchange.textContent()).toMatch(/Content-Length: \d+/);
		expect(await p.getByTestId('countdown').textContent()).toMatch(/left/);
		await shot(p, '04-tokens');

		// The page loads its data again after a step that changed the session, not after one that did not.
		const dataLoads: string[] = [];
		p.on('request', (r) => {
			if (r.url().includes('__data.json')) dataLoads.push(r.url());
		});
		const readButton = p.getByRole('button', { name: 'Read the user info' });
		await readButton.click();
		await expect
			.poll(() => p.locator('#userinfo details.exchange').textContent())
			.toContain('"userId"');
		await expect.poll(() => readButton.isEnabled()).toBe(true);
		expect(dataLoads, 'the user-info read changed nothing: no reload').toEqual([]);
		await shot(p, '05-userinfo');

		const before = await p.getByTestId('access-token').textContent();
		const refreshButton = p.getByRole('button', { name: 'Refresh the access token' });
		await refreshButton.click();
		await expect.poll(() => p.getByTestId('rotation').textContent()).toContain('rotated');
		expect(await p.getByTestId('access-token').textContent()).not.toBe(before);
		await expect.poll(() => refreshButton.isEnabled()).toBe(true);
		expect(dataLoads, 'the refresh changed the tokens: one reload').toHaveLength(1);
		// A second refresh: the panel lists the three refresh tokens, each with the answer that gave
		// it, when, and the refresh that replaced it.
		await refreshButton.click();
		const generations = p.getByTestId('generation');
		await expect.poll(() => generations.count()).toBe(3);
		const listed = (await generations.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
		const at = '\\d\\d:\\d\\d:\\d\\d';
		expect(listed[0]).toMatch(
			new RegExp(`^\\S{4}…\\S{4} from #\\d+ \\(code exchange\\) at ${at} replaced by #\\d+$`)
		);
		expect(listed[1]).toMatch(
			new RegExp(`^\\S{4}…\\S{4} from #\\d+ \\(refresh\\) at ${at} replaced by #\\d+$`)
		);
		expect(listed[2]).toMatch(
			new RegExp(`^\\S{4}…\\S{4} from #\\d+ \\(refresh\\) at ${at} current$`)
		);
		// Each is replaced by the refresh that gave the next one.
		const from = listed.map((t) => /from #(\d+)/.exec(t)![1]);
		const replaced = listed.slice(0, 2).map((t) => /replaced by #(\d+)/.exec(t)![1]);
		expect(replaced).toEqual(from.slice(1));
		await expect.poll(() => refreshButton.isEnabled()).toBe(true);
		await shot(p, '06-refresh');

		await p.getByRole('button', { name: 'Read the user info' }).click();
		const transcriptSteps = () =>
			p
				.locator('.transcript details.exchange')
				.evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));
		await expect
			.poll(transcriptSteps)
			.toEqual(['consent', 'callback', 'exchange', 'userinfo', 'refresh', 'refresh', 'userinfo']);

		// The transcript survives a reload.
		await p.reload();
		await p.locator('main[data-ready="true"]').waitFor();
		await expect
			.poll(transcriptSteps)
			.toEqual(['consent', 'callback', 'exchange', 'userinfo', 'refresh', 'refresh', 'userinfo']);
		await shot(p, '07-after-reload');

		// Going back does not replay the callback: the previous entry is the consent page.
		await p.goBack();
		expect(p.url()).not.toContain('code=');
		expect(p.url()).toContain('/sandbox/oauth2/auth');
		await p.goForward();

		// Start over (once confirmed) clears the session and the transcript.
		await p.getByRole('button', { name: 'Start over' }).click();
		await p.getByRole('dialog').getByRole('button', { name: 'Start over' }).click();
		await expect.poll(() => p.locator('.transcript li').count()).toBe(0);
		expect(await p.getByTestId('access-token').count()).toBe(0);
		expect(await p.getByTestId('secret-hint').textContent()).not.toContain('A secret is set');
		// The scan after each test has the whole flow's traffic to look through.
		expect(traffic.bodies.length).toBeGreaterThan(20);
	});
});

describe('failures a user meets', () => {
	test('forged callback: a tampered state on the redirect gets a neutral page, and the same consent request still completes', async ({
		srv,
		newPage,
		problems
	}) => {
		const p = await newPage();
		await choosePreset(p, srv.url, 'Sandbox (read write)');
		const flow = flowOf(p);
		// An attacker in the middle changes the state on the redirect back.
		await p.route(
			(u) => u.pathname === '/sandbox/oauth2/auth' && u.search === '?/authorize',
			async (route) => {
				const res = await route.fetch({
					maxRedirects: 0,
					headers: { ...route.request().headers(), origin: new URL(route.request().url()).origin }
				});
				const u = new URL(res.headers()['location']!);
				u.searchParams.set('state', 'tampered-' + u.searchParams.get('state'));
				await route.fulfill({ status: 303, headers: { location: u.toString() }, body: '' });
			}
		);
		await decide(p);
		await p.waitForURL(/\/callback\?/);
		const said = await p.getByTestId('unsolicited').textContent();
		expect(said).toMatch(/unsolicited.*forged \(cross-site request forgery/);
		expect(said).toMatch(/No flow changed/);
		await shot(p, '09-unsolicited-callback');
		// Chromium logs the neutral page's 400 in the console: expected here, once, and nowhere else.
		const logged = problems.filter((x) => /status of 400 \(Bad Request\)/.test(x));
		expect(logged).toHaveLength(1);
		problems.splice(problems.indexOf(logged[0]!), 1);
		await p.unrouteAll();
		// The flow is where it was, waiting for its own redirect, with no warning.
		await p.goto(`${srv.url}/?flow=${flow}`);
		await p.locator('main[data-ready="true"]').waitFor();
		expect(await stepState(p, 'consent')).toContain('step-current');
		expect(await p.getByTestId('ignored-callback').count()).toBe(0);
		expect(await p.getByTestId('access-token').count()).toBe(0);
		// The same consent request still works.
		await decide(p);
		await p.waitForURL(`${srv.url}/?flow=${flow}`);
		await p.getByTestId('access-token').waitFor();
	});

	test('a consent authorized after the setup was saved again is stale: said in plain words, not called forged', async ({
		srv,
		newPage
	}) => {
		const p = await newPage();
		await choosePreset(p, srv.url, 'Sandbox (read write)');
		const flow = flowOf(p);
		const old = (await p.getByTestId('consent-url').textContent())!;
		// Saving the setup again prepares a new consent request: the old one is replaced.
		await p.getByTestId('setup-summary').click();
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect.poll(() => p.getByTestId('consent-url').textContent()).not.toBe(old);
		await p.goto(old);
		await p.getByRole('button', { name: 'Authorize' }).click();
		await p.waitForURL(`${srv.url}/?flow=${flow}`);
		const alert = p.getByTestId('ignored-callback');
		await alert.waitFor();
		expect(await alert.getAttribute('data-verdict')).toBe('stale');
		expect(await alert.textContent()).toContain(
			'This address answers a consent request this flow has since replaced (it was restarted, or its setup saved again)'
		);
		expect(await alert.textContent()).not.toMatch(/forg/);
		expect(await alert.textContent()).toMatch(/still pending/);
		expect(await stepState(p, 'consent')).toContain('step-current');
		expect(await p.getByTestId('access-token').count()).toBe(0);
		await shot(p, '09-stale-callback');
		const found = (await axeProblems(p)).map((v) => `${v.kind} ${v.id}: ${v.nodes.join(' | ')}`);
		expect(found, 'no axe problems with the notice shown').toEqual([]);
		await p.setViewportSize({ width: 390, height: 844 });
		await shot(p, '09-stale-callback-phone');
		// Dismiss, from the keyboard.
		await alert.getByRole('button', { name: 'Dismiss' }).focus();
		await p.keyboard.press('Enter');
		await expect.poll(() => alert.count()).toBe(0);
		// The new consent request completes.
		await decide(p);
		await p.waitForURL(`${srv.url}/?flow=${flow}`);
		await p.getByTestId('access-token').waitFor();
	});

	// Also the sandbox's half of start-over-focus.test.ts's "a denial, worded for its provider".
	test('a redirect URI one slash away from the registration: warned after Save, "Try again with" the registered one sends it, and the flow completes', async ({
		srv,
		newPage
	}) => {
		const p = await newPage({ width: 390, height: 844 });
		await choosePreset(p, srv.url, 'Sandbox (read write)');
		await p.getByTestId('setup-summary').click();
		await p.getByLabel('Redirect URI to register').fill(`${srv.url}/callback/`);
		await p.getByRole('button', { name: 'Save setup' }).click();
		const warning = p.getByTestId('redirect-refusal');
		await warning.waitFor();
		expect(await warning.innerText()).toMatch(/trailing slash/);
		const retry = p.getByRole('button', { name: `Try again with ${srv.url}/callback` });
		expect(await retry.count()).toBe(1);
		expect(await axeProblems(p)).toEqual([]);
		await shot(p.locator('#consent'), '11b-try-again-with-registered-uri');
		await retry.click();
		const sent = `redirect_uri=${encodeURIComponent(`${srv.url}/callback`)}`;
		await expect.poll(() => p.getByTestId('consent-url').textContent()).not.toContain(`${sent}%2F`);
		expect(await p.getByTestId('consent-url').textContent()).toContain(sent);
		expect(await p.getByTestId('redirect-refusal').count()).toBe(0);
		await decide(p);
		await p.waitForURL(flowUrl(srv.url));
		await p.getByTestId('access-token').waitFor();
	});

	// One sign-in at phone width for two checks: the page with its tokens does not scroll sideways,
	// then the replay of its code.
	test('the page works at phone width; "Replay this code": asked first (Cancel by default), then run in a fork; the original flow is as it was, and names its fork', async ({
		srv,
		newPage
	}) => {
		const p = await newPage({ width: 390, height: 844 });
		await signIn(p, srv.url, 'Sandbox (read write)');
		await shot(p, '13-phone');
		const overflow = await p.evaluate(
			() => document.documentElement.scrollWidth - document.documentElement.clientWidth
		);
		expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);

		const original = p.url();
		const replays: string[] = [];
		p.on('request', (r) => {
			if (r.url().includes('/replay')) replays.push(r.url());
		});
		const button = p.getByTestId('replay-code');
		await button.click();
		const dialog = p.getByTestId('replay-dialog');
		await dialog.waitFor();
		// The dialog opens on Cancel, names what a replay costs, and Escape sends nothing.
		await expect.poll(() => p.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
		expect(await dialog.innerText()).toMatch(/revoke the access and refresh tokens/);
		expect(await dialog.innerText()).toMatch(/log the replay as an attack/);
		expect(await axeProblems(p)).toEqual([]);
		await shot(p, '12c-replay-dialog-390', { screen: true });
		await p.keyboard.press('Escape');
		await expect.poll(() => dialog.isVisible()).toBe(false);
		expect(await p.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
			'replay-code'
		);
		expect(replays).toEqual([]);

		await button.click();
		await dialog.getByRole('button', { name: 'Replay in a fork' }).click();
		await p.getByTestId('replay-fork').waitFor();
		await p.evaluate(() => scrollTo(0, 0));
		await shot(p, '12d-replay-fork-top-390', { screen: true });
		expect(p.url()).not.toBe(original);
		expect(replays).toHaveLength(1);
		// The fork's transcript: the flow so far, then the replay and the check of revocation.
		const entries = p.locator('.transcript details.exchange');
		await expect
			.poll(async () => (await p.locator('.transcript .ex-title').allInnerTexts()).slice(-2))
			.toEqual(['#4 Code exchange', '#5 User-info']);
		const [replay, check] = [entries.nth(3), entries.nth(4)];
		for (const e of [replay, check]) await e.locator(':scope > summary').click();
		expect(await replay.locator('[data-code="code-replay-refused"]').count()).toBe(1);
		expect(await check.locator('[data-code="tokens-revoked"]').count()).toBe(1);
		expect(await p.locator('.transcript .finding-error').count()).toBe(0);
		// The verdict says what the check found: the tokens this flow and the original hold are dead.
		expect(await p.locator('#verdict').innerText()).toBe(
			'✕ Tokens revoked: the service revoked them when their code was replayed'
		);
		expect(await axeProblems(p)).toEqual([]);
		await replay.scrollIntoViewIfNeeded();
		await shot(p, '12e-replay-fork-transcript-390', { screen: true });

		// The original flow: its transcript has no replay, and while its fork exists it links to the
		// fork instead of offering a second replay (one fork at a time: replay-fork.test.ts).
		const fork = new URL(p.url()).searchParams.get('flow');
		await p.goBack();
		await p.waitForURL(original);
		const held = p.getByTestId('fork-held');
		await held.waitFor();
		expect(await held.getByRole('link', { name: 'Open the fork' }).getAttribute('href')).toBe(
			`/?flow=${fork}`
		);
		expect(await p.getByTestId('replay-code').count()).toBe(0);
		await expect.poll(() => p.locator('.transcript details.exchange').count()).toBe(3);
		expect(await p.getByTestId('replay-fork').count()).toBe(0);
	});

	test('"Get a code for the script" after two code exchanges: its own script runs as printed, sends the code once and gets one 200; step 3 does not exchange it', async ({
		srv,
		newPage
	}) => {
		const p = await newPage({ width: 390, height: 844 });
		const exchanges = () =>
			p
				.locator('.transcript details.exchange[data-step="exchange"]')
				.evaluateAll((els) => els.length);
		// Two earlier code exchanges in the transcript: sign in, read the user info, sign in again.
		await signIn(p, srv.url, 'Sandbox (read write)');
		await p.getByRole('button', { name: 'Read the user info' }).click();
		await expect
			.poll(() => p.locator('#userinfo details.exchange').first().textContent())
			.toContain('"userId"');
		await p.locator('#consent').getByRole('button', { name: 'Prepare a new one' }).click();
		await decide(p);
		await p.waitForURL(flowUrl(srv.url));
		await expect.poll(exchanges).toBe(2);
		await p.locator('#consent').getByRole('button', { name: 'Prepare a new one' }).click();
		await p.getByTestId('code-for-script').click();
		await p.waitForURL(/\/sandbox\/oauth2\/auth/);
		await p.getByRole('button', { name: 'Authorize' }).click();
		await p.waitForURL(flowUrl(srv.url));
		const box = p.getByTestId('script-code');
		const command = box.getByTestId('script-command');
		await command.waitFor();
		expect(await box.innerText()).toContain('the token request the playground would send');
		expect(await box.getByRole('button', { name: 'Copy the code' }).count()).toBe(1);
		expect(await box.getByRole('button', { name: 'Copy the command' }).count()).toBe(1);
		// Not exchanged here: step 3 says whose the code is, and no token request was sent.
		await p.getByTestId('code-for-script-held').waitFor();
		expect(await p.getByRole('button', { name: 'Exchange the code' }).count()).toBe(0);
		expect(await exchanges()).toBe(2);
		expect(await axeProblems(p)).toEqual([]);

		// The script as the box downloads it, run by the command as printed, the secret in the environment.
		const printed = (await command.innerText()).trim();
		expect(printed).toMatch(
			/^RUN_SPENDING_STEPS=1 CLIENT_SECRET="\$CLIENT_SECRET" CODE='[^']+' bash oauth-playground-code-[\d-]+\.sh$/
		);
		const dir = mkdtempSync(join(tmpdir(), 'script-code-'));
		try {
			const [download] = await Promise.all([
				p.waitForEvent('download'),
				box.getByRole('button', { name: /^Download / }).click()
			]);
			expect(printed.endsWith(` bash ${download.suggestedFilename()}`)).toBe(true);
			await download.saveAs(`${dir}/${download.suggestedFilename()}`);
			const script = readFileSync(`${dir}/${download.suggestedFilename()}`, 'utf8');
			expect(script).not.toContain('sandbox-rw-secret');
			expect(script).not.toMatch(/grant_type=refresh_token|\/revoke/);
			const run = spawnSync('bash', ['--norc', '--noprofile', '-c', printed], {
				cwd: dir,
				env: { PATH: process.env.PATH ?? '/usr/bin:/bin', CLIENT_SECRET: 'sandbox-rw-secret' },
				encoding: 'utf8'
			});
			expect(run.stderr).toBe('');
			expect(run.status).toBe(0);
			// The token endpoint answered once, with tokens; the user-info read used them.
			expect(run.stdout).not.toContain('invalid_grant');
			expect(run.stdout).not.toContain('Skipped');
			expect(run.stdout.match(/"access_token"/g)).toHaveLength(1);
			expect(run.stdout.match(/^HTTP\/\S+ \d+/gm)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
			expect(run.stdout).toContain('"userId"');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
		await box.scrollIntoViewIfNeeded();
		await shot(box, '12f-code-for-script-box-390');
		// With no step under way, the empty progress bar is not kept over the page as it scrolls.
		expect(
			await p.evaluate(() => !!document.elementFromPoint(195, 8)?.closest('.sticky-bar'))
		).toBe(false);
		await shot(p, '12f-code-for-script-390', { screen: true });
		await p.setViewportSize({ width: 1280, height: 800 });
		await box.scrollIntoViewIfNeeded();
		await shot(box, '12f-code-for-script-box-1280');
	});

	test('an expired token (short-lifetime client) is refreshed before user-info', async ({
		srv,
		newPage
	}) => {
		const p = await newPage();
		await openPlayground(p, srv.url);
		await p.getByLabel('Client id').fill('e2e-short');
		await p.getByLabel('Client secret').fill(SHORT_SECRET);
		await p.getByRole('button', { name: 'Save setup' }).click();
		await p.getByTestId('consent-url').waitFor();
		await decide(p);
		await p.waitForURL(flowUrl(srv.url));
		await p.getByTestId('access-token').waitFor();
		// The token lives 2 s: wait for the countdown to say it expired.
		await expect
			.poll(() => p.getByTestId('countdown').textContent(), { timeout: 5_000 })
			.toMatch(/expired/);
		expect(await p.locator('.tokens').getAttribute('data-clock')).toBe('expired');
		await shot(p, '11-expired');
		await p.getByRole('button', { name: 'Read the user info' }).click();
		await expect
			.poll(() => p.locator('#userinfo details.exchange').textContent())
			.toContain('"userId"');
		const steps = await p
			.locator('.transcript details.exchange')
			.evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));
		expect(steps.slice(-2)).toEqual(['refresh', 'userinfo']);
		expect(
			await p.locator('.transcript details.exchange[data-step="refresh"]').textContent()
		).toMatch(/had expired/);
		// Numbered in the order they were sent, never by step: the refresh (step 5) went out as #4,
		// before the user-info call (step 4) as #5, in the transcript, the diagram and the step cards.
		const titles = await p.locator('.transcript .ex-title').allInnerTexts();
		expect(titles).toEqual([
			'#1 Consent redirect',
			'#2 Callback',
			'#3 Code exchange',
			'#4 Refresh',
			'#5 User-info'
		]);
		const arrows = await p.locator('[data-arrow] .label').allTextContents();
		expect(arrows.map((a) => a.split(' ')[0])).toEqual(['#1', '#2', '#3', '#4', '#5']);
		expect(await p.locator('[data-arrow]').nth(3).getAttribute('aria-label')).toMatch(
			/^#4 POST .*\(refresh, step 5\)$/
		);
		expect(await p.locator('#refresh .step-result .ex-title').innerText()).toBe('#4 Refresh');
		expect(await p.locator('#userinfo .step-result .ex-title').innerText()).toBe('#5 User-info');
		await shot(p, '12-refreshed-before-userinfo');
	});

	// One sign-in with the read-only client for two checks: the zone-2 call's 403 (its finding names
	// zone 2) is the error whose card never folds.
	test('quiet cards: the headers that matter first, the rest under "All headers"; an explanation seen before folds, an error never does; a zone-2 call with the read-only client gets its 403, explained; its step-up refused, the typed call kept in the console; with a registration that can write, the step-up granted and the call sent again', async ({
		srv,
		newPage
	}) => {
		const p = await newPage();
		await signIn(p, srv.url, 'Sandbox (read only)');
		await p.getByRole('button', { name: 'Read the user info' }).click();
		const card = p.locator('#userinfo .step-result details.exchange');
		await card.waitFor();
		const shown = await card.innerText();
		expect(shown).toMatch(/content-type: application\/json/i);
		expect(shown).toMatch(/x-reader-zone1-usage/i);
		// nosniff and the other security headers wait under "All headers", and are there.
		expect(shown).not.toMatch(/x-content-type-options/i);
		const all = card.getByTestId('all-headers');
		await all.locator('summary').click();
		expect(await all.innerText()).toMatch(/x-content-type-options: nosniff/i);

		// An error: a read-only token cannot write (the service's API docs §4.3), a zone-2 call's 403,
		// explained.
		await p.getByLabel('Method').selectOption('POST');
		await p.getByLabel(/Path below/).fill('edit-tag');
		await p.getByLabel('Form body').fill('i=item-1&a=user/-/state/com.google/starred');
		// Said before Send, which it does not stop.
		await expect
			.poll(() => p.getByTestId('api-zone').innerText())
			.toMatch(
				/counts it\. This token was granted only read, so the sandbox will most likely refuse the call \(403\)/
			);
		await p.getByRole('button', { name: 'Send' }).click();
		const api = p.locator('#api details.exchange');
		await expect.poll(() => api.textContent()).toContain('403');
		expect(await api.locator('[data-code="insufficient_scope"]').textContent()).toMatch(/zone-2/);
		await shot(p, '08-zone2-403');
		const infos = p.locator('.transcript .finding-info');
		await expect.poll(() => infos.count()).toBeGreaterThan(0);
		const code = await infos.first().getAttribute('data-code');
		const exchange = p.locator('.transcript details.exchange', {
			has: p.locator(`.finding-info[data-code="${code}"]`)
		});
		const id = await exchange.first().getAttribute('data-exchange-id');
		const opened = p.locator(`.transcript details.exchange[data-exchange-id="${id}"]`);
		await opened.locator('summary').first().click();
		const info = opened.locator(`.finding-info[data-code="${code}"]`);
		await info.waitFor();
		const whole = await info.innerText();
		expect(await p.locator('.finding[data-folded]').count()).toBe(0);

		// In this browser a second time: the explanation folds to its first sentence, which opens.
		await p.reload();
		await opened.locator('summary').first().click();
		await info.waitFor();
		expect(await info.getAttribute('data-folded')).toBe('true');
		const first = await info.locator('summary').innerText();
		expect(first.length).toBeGreaterThan(0);
		expect(whole).toContain(first);
		expect((await info.innerText()).length).toBeLessThan(whole.length);
		await shot(p, '12b-quiet-cards-folded');
		await info.locator('summary').click();
		expect((await info.innerText()).length).toBeGreaterThanOrEqual(whole.length - 2);
		// Errors and warnings, and their fixes, never fold.
		const errors = p.locator('.transcript .finding-error, .transcript .finding-warning');
		expect(await errors.count()).toBeGreaterThan(0);
		expect(
			await p.locator('.finding-error[data-folded], .finding-warning[data-folded]').count()
		).toBe(0);

		// The 403 offers the step-up in one click: it asks for read write and opens the consent page.
		// This registration can only read, so the service refuses it on the way back: the truth.
		const stepUp = p.getByTestId('step-up');
		expect(await stepUp.innerText()).toBe('Ask for read write and authorize again');
		await stepUp.click();
		await p.waitForURL(flowUrl(srv.url));
		await p.locator('main[data-ready="true"]').waitFor();
		await expect
			.poll(() => p.locator('#verdict').innerText())
			.toMatch(
				/^✕ Step 2, consent refused: invalid_scope, this application is registered as "Read only"/
			);
		expect(await p.getByLabel('Scope', { exact: true }).inputValue()).toBe('read write');
		// The console still holds the refused call as it was typed, not its defaults.
		await expect
			.poll(() => p.getByLabel('Form body').inputValue())
			.toBe('i=item-1&a=user/-/state/com.google/starred');
		expect(await p.getByLabel('Method').inputValue()).toBe('POST');
		expect(await p.getByLabel(/Path below/).inputValue()).toBe('edit-tag');
		// Known now: this registration cannot have read write, so the refused call offers nothing.
		await expect.poll(() => p.locator('#api [data-code="insufficient_scope"]').count()).toBe(1);
		expect(await p.getByTestId('step-up').count()).toBe(0);

		// A registration that can write, signed in for read only: the same call is refused, the
		// step-up's consent grants read write, and the refused call is sent again as it was typed.
		const scopeField = p.getByLabel('Scope', { exact: true });
		if (!(await scopeField.isVisible())) await p.getByTestId('setup-summary').click();
		await p.getByRole('button', { name: 'Sandbox (read write)' }).click();
		// The preset is saved (its consent request names its client), and the setup folds.
		await expect
			.poll(() => p.getByTestId('consent-url').textContent())
			.toContain('client_id=sandbox-rw');
		await expect.poll(() => scopeField.isVisible()).toBe(false);
		await p.getByTestId('setup-summary').click();
		await scopeField.fill('read');
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect.poll(() => p.getByTestId('consent-url').textContent()).toMatch(/scope=read&/);
		await decide(p);
		await p.waitForURL(flowUrl(srv.url));
		await p.getByTestId('access-token').waitFor();
		await p.getByLabel('Method').selectOption('POST');
		await p.getByLabel(/Path below/).fill('edit-tag');
		await p.getByLabel('Form body').fill('i=1001&a=user/-/state/com.google/starred');
		await p.getByRole('button', { name: 'Send' }).click();
		await expect.poll(() => stepUp.count()).toBe(1);
		await stepUp.click();
		await p.waitForURL(/\/sandbox\/oauth2\/auth/);
		await p.getByRole('button', { name: 'Authorize' }).click();
		await p.waitForURL(flowUrl(srv.url));
		await expect
			.poll(() => p.locator('#verdict').innerText())
			.toMatch(/^✓ Tokens received: read write/);
		const again = p.getByTestId('send-again');
		expect(await again.innerText()).toBe('Send the call again (POST edit-tag)');
		expect(await stepUp.count()).toBe(0);
		// The scope the step-up saved can be put back; the new tokens stay, and so does the offer.
		const undo = p.getByTestId('step-up-undo');
		expect(await undo.innerText()).toMatch(
			/^The step-up saved scope read write to the setup \(it was read\)\.\s*Undo$/
		);
		await again.scrollIntoViewIfNeeded();
		await shot(p.locator('#api'), '12c-send-again-offered');
		// The card's new controls, to axe (the transcript beside it is checked in the phone flow).
		expect(await axeProblems(p, { skip: ['.transcript'] })).toEqual([]);
		await undo.getByRole('button', { name: 'Undo' }).click();
		await expect.poll(() => undo.count()).toBe(0);
		expect(await p.getByLabel('Scope', { exact: true }).inputValue()).toBe('read');
		await again.click();
		await expect
			.poll(() => p.locator('#api .step-result details.exchange .badge').first().innerText())
			.toBe('200 OK');
		expect(await p.getByLabel('Form body').inputValue()).toBe(
			'i=1001&a=user/-/state/com.google/starred'
		);
		expect(await again.count()).toBe(0);
		await shot(p, '12d-step-up-sent-again', { screen: true });
	});
});
