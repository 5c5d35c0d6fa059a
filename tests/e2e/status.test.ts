/**
 * What the page shows is the truth, in real Chromium: a step that fails after succeeding shows the
 * failure (the earlier result kept, marked as earlier), Cancel shows "cancelled" and no other
 * setup's result, an expiring token flips to expired on screen without a reload (the page's clock
 * is a fake one the test moves), and the diagram marks a denial and a refusal as such.
 *
 * The failures come from a small service on a loopback port whose answers the test switches:
 * each base path (`/a`, `/b`) is a service of its own, so two base URLs are two setups.
 */
import { describe, expect } from 'vitest';
import http from 'node:http';
import type { Page } from 'playwright-core';
import type { TestServer } from '../helpers/server';
import { shot } from '../helpers/browser';
import { choosePreset, decide, flowUrl, openPlayground, signIn } from '../helpers/e2e';
import { axeProblems } from '../helpers/axe';
import { listen } from '../helpers/listen';
import { e2eTest, type NewPage } from '../helpers/fixtures';

/** axe-core's violations and items to review, in words: the new states read and contrast too. */
const axe = async (p: Page) =>
	(await axeProblems(p)).map((v) => `${v.kind} ${v.id}: ${v.help} → ${v.nodes.join(' | ')}`);

type Behaviour = 'ok' | 'fail' | 'hang';

/** A service whose token endpoint and user-info answer as `behaviour[path]` says, per base path. */
interface Switchable {
	url: string;
	token: Record<string, Behaviour>;
	userinfo: Record<string, Behaviour>;
	close: () => Promise<void>;
}

async function startSwitchable(): Promise<Switchable> {
	const token: Record<string, Behaviour> = {};
	const userinfo: Record<string, Behaviour> = {};
	let issued = 0;
	const answer = (res: http.ServerResponse, how: Behaviour | undefined, ok: () => void) => {
		if (how === 'hang') return; // accepts, never answers
		if (how === 'fail') {
			res.writeHead(500, { 'content-type': 'application/json' });
			res.end('{"error":"server_error","error_description":"Something broke"}');
			return;
		}
		ok();
	};
	const server = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			const u = new URL(req.url!, 'http://x');
			const [, base, ...rest] = u.pathname.split('/');
			const path = '/' + rest.join('/');
			if (path === '/oauth2/auth') {
				const back = new URL(u.searchParams.get('redirect_uri')!);
				back.searchParams.set('code', `code-${base}-${++issued}`);
				back.searchParams.set('state', u.searchParams.get('state')!);
				res.writeHead(302, { location: back.toString() }).end();
			} else if (path === '/oauth2/token')
				answer(res, token[base!], () => {
					res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
					res.end(
						JSON.stringify({
							access_token: `access-${base}-${++issued}-0123456789`,
							token_type: 'Bearer',
							expires_in: 3600,
							refresh_token: `refresh-${base}-${issued}-0123456789`,
							scope: 'read'
						})
					);
				});
			else if (path === '/reader/api/0/user-info')
				answer(res, userinfo[base!], () => {
					res.writeHead(200, { 'content-type': 'application/json' });
					res.end(JSON.stringify({ userId: '7', userName: `user of ${base}` }));
				});
			else res.writeHead(404).end();
		});
	});
	const { url } = await listen(server);
	return {
		url,
		token,
		userinfo,
		close: () => {
			server.closeAllConnections();
			return new Promise<void>((ok) => server.close(() => ok()));
		}
	};
}

// A 500 from the service reaches the page as an action result, never as a failed load: the
// fixture's check of the console holds for every test.
const test = e2eTest({ PLAYGROUND_LOG: 'off' })
	// eslint-disable-next-line no-empty-pattern
	.extend('service', { scope: 'file' }, async ({}, { onCleanup }) => {
		const service = await startSwitchable();
		onCleanup(() => service.close());
		return service;
	});

async function open(newPage: NewPage, width = 1280, fakeClock = false): Promise<Page> {
	const p = await newPage({ width, height: 900 });
	// The page's clock is a fake one the test moves; it is installed before the page loads.
	if (fakeClock) await p.clock.install();
	return p;
}

/** Unfolds the setup (it folds into one line once saved). */
async function openSetup(p: Page): Promise<void> {
	const details = p.locator('details:has([data-testid="setup-summary"])');
	if (!(await details.evaluate((d: HTMLDetailsElement) => d.open)))
		await p.getByTestId('setup-summary').click();
}

/** Saves a setup for the switchable service under `base`; the consent URL is then on the page. */
async function setUp(p: Page, service: Switchable, base: string): Promise<void> {
	await openSetup(p);
	await p.getByLabel('Base URL of the service').fill(`${service.url}/${base}`);
	await p.getByLabel('Client id').fill(`app-${base}`);
	await p.getByLabel('Client secret').fill(`secret-of-${base}-1234`);
	await p.getByRole('button', { name: 'Save setup' }).click();
	await p.getByTestId('consent-url').waitFor();
}

/** Consent (the service redirects straight back with a code), then the automatic exchange starts. */
async function consent(p: Page, srv: TestServer): Promise<void> {
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await p.waitForURL(flowUrl(srv.url));
	await p.locator('main[data-ready="true"]').waitFor();
}

const state = (p: Page, id: string) => p.locator(`#${id} .step-state`).textContent();

describe('a step that fails after succeeding', () => {
	// One setup and one consent for both: the exchange's 200 is step 3's earlier result, the
	// user-info read after it fails over a 500, then a new consent request's exchange fails.
	test('user-info over a time-out or a 500 after a 200: failed, the 200 kept as earlier; step 3 over a 500: failed, not done, and the earlier result is kept, marked as earlier', async ({
		srv,
		service,
		newPage
	}) => {
		const p = await open(newPage);
		service.token.y = 'ok';
		service.userinfo.y = 'ok';
		await openPlayground(p, srv.url);
		await setUp(p, service, 'y');
		await consent(p, srv);
		await p.getByTestId('access-token').waitFor();
		await expect.poll(() => state(p, 'exchange')).toBe('done');
		await p.getByRole('button', { name: 'Read the user info' }).click();
		await expect.poll(() => state(p, 'userinfo')).toBe('done');
		service.userinfo.y = 'fail';
		await p.getByRole('button', { name: 'Read the user info' }).click();
		await expect.poll(() => state(p, 'userinfo')).toBe('failed');
		expect(
			await p.locator('#userinfo > .step-result > details.exchange > summary').textContent()
		).toContain('500');
		expect(
			await p
				.locator('#userinfo [data-testid="earlier-result"] details.exchange > summary')
				.textContent()
		).toContain('200');

		// A new consent request for the same setup; this time the token endpoint answers 500.
		service.token.y = 'fail';
		await p.getByRole('button', { name: 'Prepare a new one' }).click();
		await p.getByTestId('consent-url').waitFor();
		await consent(p, srv);
		await expect.poll(() => state(p, 'exchange')).toBe('failed');
		expect(await p.locator('#exchange').getAttribute('class')).toContain('step-failed');
		const cards = p.locator('#exchange > .step-result > details.exchange');
		expect(await cards.count()).toBe(1);
		expect(await cards.first().locator(':scope > summary').textContent()).toContain('500');
		const earlier = p.locator('#exchange [data-testid="earlier-result"]');
		expect(await earlier.textContent()).toMatch(/Earlier result.*before the failure above/s);
		expect(await earlier.locator('details.exchange > summary').textContent()).toContain('200');
		expect(await axe(p)).toEqual([]);
		await p.locator('#exchange').scrollIntoViewIfNeeded();
		await shot(p.locator('#exchange'), 'status-01-failed-earlier');
	});
});

test('Cancel mid-request shows "cancelled" and no other setup’s result', async ({
	srv,
	service,
	newPage
}) => {
	const p = await open(newPage, 1280, true);
	// Setup B: its code exchange gets a 500.
	service.token.b = 'fail';
	await openPlayground(p, srv.url);
	await setUp(p, service, 'b');
	await consent(p, srv);
	await expect.poll(() => state(p, 'exchange')).toBe('failed');
	expect(await p.locator('#exchange details.exchange > summary').textContent()).toContain('500');

	// Setup A, another service: its code exchange hangs, and the user cancels it.
	service.token.a = 'hang';
	await setUp(p, service, 'a');
	await consent(p, srv);
	await p.getByTestId('busy').waitFor();
	await p.clock.fastForward(2_500); // past the 2 s after which a step counts as slow
	await p.getByRole('button', { name: 'Cancel' }).click();
	await expect.poll(() => state(p, 'exchange')).toBe('cancelled');
	expect(await p.locator('#exchange .error').textContent()).toMatch(/Cancelled/);
	expect(await p.locator('#exchange details.exchange').count(), 'no exchange of setup B').toBe(0);
	expect(await p.locator('#exchange').textContent()).not.toContain('500');
	expect(await axe(p)).toEqual([]);
	// The diagram still has B's 500, faded as an earlier setup's.
	expect(
		await p.locator('[data-arrow][data-step="exchange"]').first().getAttribute('data-stale')
	).toBe('true');
	await shot(p.locator('#exchange'), 'status-02-cancelled');
});

test('an expiring token flips to expired on screen without a reload', async ({ srv, newPage }) => {
	const p = await open(newPage, 1280, true);
	await signIn(p, srv.url, 'Sandbox (5-second token)');
	const tokens = p.locator('#tokens');
	expect(await p.getByTestId('countdown').textContent()).toMatch(/left/);
	expect(await tokens.textContent()).not.toContain('The access token has expired');
	const loads: string[] = [];
	p.on('load', () => loads.push(p.url()));
	await p.clock.fastForward(6_000);
	await expect.poll(() => p.getByTestId('countdown').textContent()).toMatch(/expired/);
	await expect.poll(() => tokens.textContent()).toContain('The access token has expired');
	expect(await p.locator('.tokens').getAttribute('data-clock')).toBe('expired');
	expect(loads, 'no reload').toEqual([]);
	await shot(tokens, 'status-03-expired');
});

describe('the diagram uses the same statuses', () => {
	for (const width of [1280, 390])
		test(`a denial and a refusal are marked as such, at ${width} px`, async ({ srv, newPage }) => {
			const p = await open(newPage, width);
			// Refused: a registration check for a client the sandbox does not know (400).
			await choosePreset(p, srv.url, 'Sandbox (read write)');
			await openSetup(p);
			await p.getByLabel('Client id').fill('no-such-client');
			await p.getByLabel('Client secret').fill('no-such-client-secret');
			await p.getByRole('button', { name: 'Save setup' }).click();
			await expect
				.poll(() => p.getByTestId('consent-url').textContent())
				.toContain('no-such-client');
			await p.getByRole('button', { name: 'Check the consent URL' }).click();
			const check = p.locator('[data-arrow][data-step="check"]');
			await check.waitFor();
			expect(await check.getAttribute('data-status')).toBe('failed');
			// By what it means: the OAuth error of the sandbox's 400, not its status alone.
			expect(await check.textContent()).toMatch(/✕ invalid_client/);
			expect(await check.textContent()).not.toContain('✓');

			// Denied: the sandbox client again, declined on the sandbox's consent page.
			await openSetup(p);
			await p.getByRole('button', { name: 'Sandbox (read write)' }).click();
			await expect.poll(() => p.getByTestId('consent-url').textContent()).toContain('sandbox-rw');
			await decide(p, 'Deny');
			await p.waitForURL(flowUrl(srv.url));
			const denial = p.locator('[data-arrow][data-step="callback"]').last();
			await denial.waitFor();
			expect(await denial.getAttribute('data-status')).toBe('denied');
			expect(await denial.textContent()).toContain('⊘');
			expect(await denial.textContent()).not.toContain('✓');
			expect(await denial.getAttribute('aria-label')).toContain('consent declined');
			expect(await state(p, 'callback')).toBe('declined');
			expect(await axe(p)).toEqual([]);
			await p.locator('.transcript .sequence').scrollIntoViewIfNeeded();
			await shot(p, `status-04-diagram-${width}`);
			await shot(p.locator('.transcript .sequence'), `status-05-diagram-only-${width}`);
		});
});
