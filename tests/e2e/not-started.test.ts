/**
 * A flow this tab did not start says so, in real Chromium. In local mode over plain http, cookies do
 * not separate ports: another app on another port of the same host seals a flow of its own through
 * the playground (as any client can), under an id it chose, hands the sealed cookies to the
 * victim's browser and sends it to `/?flow=<that id>`. The page must name the hosts to check in a
 * banner that takes the focus before the secret is typed. The tab's own flows (a new one, a reload,
 * a save, Start over) show none, and neither does a flow whose every host is the playground's own.
 * Screenshots at 1280 × 800 and 390 × 844 go to test-output/screenshots/.
 */
import { createServer, type Server } from 'node:http';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { e2eTest } from '../helpers/fixtures';
import { shot } from '../helpers/browser';
import { axeAt } from '../helpers/axe';
import {
	fillOidcSetup,
	flowOf,
	OFF_LOOPBACK,
	openPlayground,
	throughProvider
} from '../helpers/e2e';
import { OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } from '../helpers/oidc';
import { listen } from '../helpers/listen';
import { Client, newFlowId } from '../helpers/client';

const test = e2eTest({ PLAYGROUND_LOG: 'off' });

/**
 * The other app, on a loopback port of its own: `seal` makes a flow through the playground under
 * the id given (a setup, or a preset), and a visit to `/go?flow=<id>` (or `/set?flow=<id>`) sets
 * that flow's cookies for the host, with a redirect to the flow's page (or none).
 */
interface Attacker {
	origin: string;
	port: number;
	seal: (id: string, action: 'setup' | 'preset', fields: Record<string, string>) => Promise<void>;
	close: () => Promise<void>;
}

async function startAttacker(playground: string): Promise<Attacker> {
	const sealed = new Map<string, [string, string][]>();
	const server: Server = createServer((req, res) => {
		const u = new URL(req.url ?? '/', 'http://x');
		const id = u.searchParams.get('flow') ?? '';
		const cookies = (sealed.get(id) ?? []).map(
			([name, value]) => `${name}=${value}; Path=/; HttpOnly; SameSite=Lax`
		);
		if (u.pathname === '/go')
			res.writeHead(302, { 'set-cookie': cookies, location: `${playground}/?flow=${id}` }).end();
		else res.writeHead(200, { 'set-cookie': cookies, 'content-type': 'text/plain' }).end('ok');
	});
	const { url, port } = await listen(server);
	return {
		origin: url,
		port,
		async seal(id, action, fields) {
			const c = new Client(playground, { flow: id, record: false });
			const r = await c.action(action, fields);
			expect(r.type, JSON.stringify(r.data)).toBe('success');
			sealed.set(
				id,
				[...c.jar].filter(([name]) => name.startsWith(`pg_flow_${id}`))
			);
		},
		close: () => new Promise<void>((ok) => server.close(() => ok()))
	};
}

/** A setup whose every URL is the other app's: its API, token endpoint and user-info endpoint. */
function attackerSetup(a: Attacker, playground: string): Record<string, string> {
	return {
		base_url: a.origin,
		client_id: 'look-alike-app',
		client_secret: '',
		scope: 'read',
		redirect_uri: `${playground}/callback`,
		token_endpoint: `${a.origin}/oauth2/token`,
		userinfo_endpoint: `http://localhost:${a.port}/me`
	};
}

const banner = (p: Page) => p.getByTestId('not-started-banner');
const focusedId = (p: Page) => p.evaluate(() => document.activeElement?.id ?? '');

test("a flow sealed under another app's own id opens with a banner that names its hosts and takes the focus; the tab's own flow shows none", async ({
	srv,
	newPage
}) => {
	const attacker = await startAttacker(srv.url);
	try {
		const id = newFlowId();
		await attacker.seal(id, 'setup', attackerSetup(attacker, srv.url));
		// The victim's tab runs a flow of its own, then follows a link to the other app.
		const p = await newPage({ width: 1280, height: 800 });
		await openPlayground(p, srv.url);
		const own = flowOf(p);
		expect(await banner(p).count()).toBe(0);
		await p.goto(`${attacker.origin}/go?flow=${id}`);
		await p.waitForURL(`${srv.url}/?flow=${id}`);
		await banner(p).waitFor();
		const a = `127.0.0.1:${attacker.port}`;
		const b = `localhost:${attacker.port}`;
		expect(await banner(p).innerText()).toMatch(
			new RegExp(
				`^This flow was not started in this tab: check that you trust ${a} and ${b}\\. ` +
					`The client secret goes to ${a} \\(token endpoint\\); the access token goes to ${a} \\(API\\) and ${b} \\(user-info endpoint\\)\\.`
			)
		);
		// Before the secret is typed: the banner has the focus, and the form shows the other app's setup.
		await expect.poll(() => focusedId(p)).toBe('not-started-banner');
		expect(await p.getByLabel('Client id').inputValue()).toBe('look-alike-app');
		expect(await p.getByLabel('Token endpoint').inputValue()).toBe(
			`${attacker.origin}/oauth2/token`
		);
		await shot(p, 'not-started-1280', { screen: true });
		expect(await axeAt(p, 'desktop'), 'axe: the banner, 1280 px').toEqual([]);
		await p.setViewportSize({ width: 390, height: 844 });
		await shot(p, 'not-started-390', { screen: true });
		expect(await axeAt(p, 'phone'), 'axe: the banner, 390 px').toEqual([]);
		// A reload before it is dismissed shows it again.
		await p.reload();
		await banner(p).waitFor();
		// Dismissed from the keyboard: Tab reaches its button, Enter dismisses, the focus moves on.
		await expect.poll(() => focusedId(p)).toBe('not-started-banner');
		await p.keyboard.press('Tab');
		expect(await p.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Dismiss');
		await p.keyboard.press('Enter');
		await expect.poll(() => banner(p).count()).toBe(0);
		expect(await p.evaluate(() => document.activeElement?.closest('#setup') !== null)).toBe(true);
		// Kept as this tab's: a reload shows no banner, and neither does the tab's own flow.
		await p.reload();
		await p.locator('main[data-ready="true"]').waitFor();
		expect(await banner(p).count()).toBe(0);
		await p.goto(`${srv.url}/?flow=${own}`);
		await p.locator('main[data-ready="true"]').waitFor();
		expect(await banner(p).count()).toBe(0);
	} finally {
		await attacker.close();
	}
});

// One tab's own flow for both: it shows no banner through a reload, a Start over and a second save;
// then another app seals its flow under the same id, and the reload shows the banner.
test("the flow this tab started shows no banner: saved with hosts elsewhere, reloaded, started over, saved again; another app's flow sealed under the tab's own id, over the tab's own flow: the reload shows the banner", async ({
	srv,
	newPage
}) => {
	const p = await newPage({ width: 1280, height: 800 });
	await openPlayground(p, srv.url);
	const save = async (clientId: string) => {
		await p.getByLabel('Base URL of the service').fill('http://127.0.0.1:9');
		await p.getByLabel('Client id').fill(clientId);
		await p.getByLabel('Client secret').fill('own-secret-4Kd8');
		await p.getByRole('button', { name: 'Save setup' }).click();
		await p.getByTestId('consent-url').waitFor();
	};
	await save('own-app');
	const reloaded = async () => {
		await p.reload();
		await p.locator('main[data-ready="true"]').waitFor();
		expect(await p.getByTestId('consent-url').innerText()).toContain('127.0.0.1:9');
		expect(await banner(p).count()).toBe(0);
	};
	await reloaded();
	await p.locator('header').getByRole('button', { name: 'Start over' }).click();
	await p.getByRole('dialog').getByRole('button', { name: 'Start over' }).click();
	await p.getByTestId('undo-notice').waitFor();
	await save('own-app-2');
	await reloaded();
	expect(await p.getByTestId('consent-url').innerText()).toContain('own-app-2');

	// Another app's flow sealed under this tab's id, over the flow saved above.
	const attacker = await startAttacker(srv.url);
	try {
		const own = flowOf(p);
		// The id is in the cookie's name, which every app on the host is sent.
		await attacker.seal(own, 'setup', attackerSetup(attacker, srv.url));
		const other = await p.context().newPage();
		await other.goto(`${attacker.origin}/set?flow=${own}`);
		await other.close();
		await p.reload();
		await banner(p).waitFor();
		expect(await banner(p).innerText()).toContain(
			`check that you trust 127.0.0.1:${attacker.port} and localhost:${attacker.port}.`
		);
		await expect.poll(() => focusedId(p)).toBe('not-started-banner');
	} finally {
		await attacker.close();
	}
});

test("a flow sealed by another app with the built-in sandbox's setup: every host is the playground's own, no banner", async ({
	srv,
	newPage
}) => {
	const attacker = await startAttacker(srv.url);
	try {
		const id = newFlowId();
		await attacker.seal(id, 'preset', { preset: 'sandbox-rw' });
		const p = await newPage({ width: 1280, height: 800 });
		await p.goto(`${attacker.origin}/go?flow=${id}`);
		await p.waitForURL(`${srv.url}/?flow=${id}`);
		await p.locator('main[data-ready="true"]').waitFor();
		expect(await p.getByTestId('consent-url').innerText()).toContain('client_id=sandbox-rw');
		expect(await banner(p).count()).toBe(0);
	} finally {
		await attacker.close();
	}
});

test('"Replay this code" with a service on another host: the fork this tab made opens without the banner, and so does the original', async ({
	srv,
	oidc,
	newPage
}) => {
	const p = await newPage({ width: 1280, height: 800 }, OFF_LOOPBACK);
	await openPlayground(p, srv.url);
	await fillOidcSetup(p, oidc, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET);
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await throughProvider(p, srv.url);
	await p.getByTestId('access-token').waitFor();
	expect(await banner(p).count()).toBe(0);
	const original = flowOf(p);
	await p.getByTestId('replay-code').click();
	await p.getByTestId('replay-dialog').getByRole('button', { name: 'Replay in a fork' }).click();
	await p.getByTestId('replay-fork').waitFor();
	expect(flowOf(p)).not.toBe(original);
	await p.locator('main[data-ready="true"]').waitFor();
	expect(await banner(p).count()).toBe(0);
	await p.goBack();
	await p.waitForURL(`${srv.url}/?flow=${original}`);
	await p.locator('main[data-ready="true"]').waitFor();
	expect(await banner(p).count()).toBe(0);
});
