/**
 * The byte cap on a browser's flows, in real Chromium, with provider-sized tokens: oidc-provider
 * issuing JWT access tokens of about 1.8 KB. One browser opens a tab per flow, each through the
 * provider's pages to its tokens, until the cap drops the least recently used flow: no answer of the
 * playground is a 400 or a 431 on the way, its cookies stay under 12,000 bytes, and the dropped
 * tab says so on its next load.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import {
	fillOidcSetup,
	flowOf,
	OFF_LOOPBACK,
	openPlayground,
	throughProvider
} from '../helpers/e2e';
import {
	OIDC_CLIENT_ID,
	OIDC_CLIENT_SECRET,
	oidcClient,
	providerSizedTokens
} from '../helpers/oidc';
import { e2eTest } from '../helpers/fixtures';

const test = e2eTest(
	{ PLAYGROUND_LOG: 'off' },
	{
		oidc: (redirect) => ({
			clients: [oidcClient(redirect)],
			configuration: providerSizedTokens()
		})
	}
);

test('tabs with 1.8 KB tokens: a new flow drops the oldest, which says so, never a 400 or 431', async ({
	srv,
	oidc,
	newPage,
	newTab,
	problems
}) => {
	const first = await newPage(undefined, OFF_LOOPBACK);
	const context = first.context();
	const refused: string[] = [];
	context.on('response', (r) => {
		if (r.url().startsWith(srv.url) && [400, 431].includes(r.status()))
			refused.push(`${r.status()} ${r.url()}`);
	});
	const cookies = async () =>
		(await context.cookies(srv.url)).filter((c) => c.name.startsWith('pg_'));
	const bytes = async () =>
		(await cookies()).reduce((n, c) => n + c.name.length + c.value.length + 3, 0);
	const has = async (flow: string) => (await cookies()).some((c) => c.name === `pg_flow_${flow}`);

	const tabs: { page: Page; flow: string; token: string }[] = [];
	for (let i = 0; i < 8 && (tabs.length === 0 || (await has(tabs[0]!.flow))); i++) {
		const page = i === 0 ? first : await newTab(first);
		await openPlayground(page, srv.url);
		await fillOidcSetup(page, oidc, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET);
		const flow = flowOf(page);
		await page.getByRole('link', { name: 'Open the consent page' }).click();
		await throughProvider(page, srv.url);
		await page.getByTestId('access-token').waitFor();
		const token = (await page.getByTestId('access-token').textContent())!;
		tabs.push({ page, flow, token });
		expect(await bytes()).toBeLessThan(12_000);
	}
	expect(tabs.length).toBeGreaterThanOrEqual(3);
	// The oldest went, and only it; every newer tab still holds its own flow after a reload.
	expect(await has(tabs[0]!.flow)).toBe(false);
	for (const { page, flow, token } of tabs.slice(1)) {
		expect(await has(flow)).toBe(true);
		await page.reload();
		expect(await page.getByTestId('access-token').textContent()).toBe(token);
	}
	// The dropped tab says so on its next load.
	const oldest = tabs[0]!.page;
	await oldest.reload();
	const notice = oldest.getByText(/This tab.s flow was dropped to make room for newer ones/);
	await notice.waitFor();
	expect(await notice.textContent()).toMatch(/holds about \d+ flows of this size/);
	expect(await oldest.getByTestId('access-token').count()).toBe(0);
	await shot(oldest, 'flow-cap-dropped');
	expect(refused, 'no 400 or 431 from the playground').toEqual([]);
	expect(problems).toEqual([]);
});
