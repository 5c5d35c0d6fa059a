/**
 * One fork at a time, in real Chromium against the sandbox. After "Replay this code", the flow it
 * was made from names its fork (a link) and offers "Close that fork" instead of a second replay; a
 * replay confirmed on a page shown before the fork existed is refused with the same link, where the
 * replay is, and focused; "Close that fork" asks first (opened on Cancel, Escape keeps the fork),
 * then drops the fork, and the code may be replayed again. Driven from the keyboard where a user
 * would use it; axe checks each state. Screenshots at 1280 × 800 and 390 × 844. The same for the
 * refresh token: "Replay the previous refresh token" and "Two refreshes at once", each asked first,
 * the fork a record that offers no next step, the original flow's verdict saying what the fork
 * found, the previous token accepted by a sandbox with a reuse window, and the original flow
 * holding its refreshes after a fork refreshed with its token.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { shot } from '../helpers/browser';
import { flowOf, signIn } from '../helpers/e2e';
import { axeProblems } from '../helpers/axe';
import { e2eTest } from '../helpers/fixtures';
import { startServer } from '../helpers/server';

const test = e2eTest();

/** "Replay this code", confirmed: the tab moves to the fork the replay made. Returns its id. */
async function replayInFork(p: Page): Promise<string> {
	const from = flowOf(p);
	await p.getByTestId('replay-code').click();
	await p.getByTestId('replay-dialog').getByRole('button', { name: 'Replay in a fork' }).click();
	await p.waitForURL((u) => u.searchParams.get('flow') !== from);
	await p.getByTestId('replay-fork').waitFor();
	return flowOf(p);
}

/** Whether this browser still holds a flow's cookie. */
const holds = async (p: Page, flow: string) =>
	(await p.context().cookies()).some((c) => c.name === `pg_flow_${flow}`);

const focused = (p: Page) =>
	p.evaluate(() => {
		const el = document.activeElement;
		return el?.getAttribute('data-testid') ?? el?.textContent?.trim();
	});

for (const size of [
	{ width: 1280, height: 800 },
	{ width: 390, height: 844 }
])
	test(`a second replay of one flow is refused with a link to its fork; Close that fork drops the fork and a replay is allowed again (${size.width} px)`, async ({
		srv,
		newPage
	}) => {
		const p = await newPage(size);
		await signIn(p, srv.url, 'Sandbox (read write)');
		const original = flowOf(p);

		// The fork is made while this page is shown (another window of the same flow, say): the page
		// still offers the replay, and the server refuses it.
		const made = await p.request.post(`${srv.url}/?flow=${original}&/replay`, {
			form: { confirm: 'replay' },
			headers: { origin: srv.url, 'x-sveltekit-action': 'true', accept: 'application/json' }
		});
		expect(made.ok()).toBe(true);
		expect(await holds(p, original)).toBe(true);
		const forks = (await p.context().cookies())
			.map((c) => /^pg_flow_([\w-]{16})$/.exec(c.name)?.[1])
			.filter((id) => id && id !== original);
		expect(forks).toHaveLength(1);
		const forkId = forks[0]!;

		await p.getByTestId('replay-code').click();
		await p.getByTestId('replay-dialog').getByRole('button', { name: 'Replay in a fork' }).click();
		const refusal = p.locator('[data-error-of="replay"]');
		await refusal.waitFor();
		expect(await refusal.getAttribute('role')).toBe('alert');
		expect(await refusal.innerText()).toMatch(
			/This flow already has a fork: a flow keeps one fork at a time/
		);
		// Focus lands on the refusal; the link to the fork and Close that fork are the next stops.
		await expect.poll(() => focused(p)).toMatch(/already has a fork/);
		const held = p.getByTestId('fork-held');
		const link = held.getByRole('link', { name: 'Open the fork' });
		expect(await link.getAttribute('href')).toBe(`/?flow=${forkId}`);
		await p.keyboard.press('Tab');
		expect(await p.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(
			`/?flow=${forkId}`
		);
		await p.keyboard.press('Tab');
		expect(await focused(p)).toBe('Close that fork…');
		// Nothing the user did is lost: the flow is still here, its tokens shown, no new flow made.
		expect(flowOf(p)).toBe(original);
		await p.getByTestId('access-token').waitFor();
		expect(
			(await p.context().cookies()).filter((c) => /^pg_flow_[\w-]{16}$/.test(c.name))
		).toHaveLength(2);
		expect(await axeProblems(p)).toEqual([]);
		await refusal.scrollIntoViewIfNeeded();
		await shot(p, `60-fork-refused-${size.width}`, { screen: true });

		// Close that fork: asked first, opened on Cancel; Escape keeps the fork.
		await p.keyboard.press('Enter');
		const dialog = p.getByTestId('closefork-dialog');
		await dialog.waitFor();
		await expect.poll(() => focused(p)).toBe('Cancel');
		expect(await dialog.innerText()).toMatch(/This flow is not changed/);
		expect(await axeProblems(p)).toEqual([]);
		await shot(p, `61-close-fork-dialog-${size.width}`, { screen: true });
		await p.keyboard.press('Escape');
		await expect.poll(() => dialog.isVisible()).toBe(false);
		expect(await focused(p)).toBe('Close that fork…');
		expect(await holds(p, forkId)).toBe(true);

		// Confirmed: the fork is dropped, this flow is as it was, and the replay is offered again.
		await p.keyboard.press('Enter');
		await expect.poll(() => focused(p)).toBe('Cancel');
		await p.keyboard.press('Tab');
		expect(await focused(p)).toBe('Close the fork');
		await p.keyboard.press('Enter');
		const closedNote = p.getByTestId('fork-closed');
		await closedNote.waitFor();
		await expect.poll(() => focused(p)).toBe('fork-closed');
		expect(await closedNote.innerText()).toMatch(/The fork was closed: this code may be replayed/);
		expect(await holds(p, forkId)).toBe(false);
		expect(await holds(p, original)).toBe(true);
		expect(await p.locator('[data-error-of="replay"]').count()).toBe(0);
		expect(await held.count()).toBe(0);
		// What the closed fork found stays said: the tokens this flow holds are the revoked ones.
		await expect
			.poll(() => p.locator('#verdict').innerText())
			.toBe(
				'✕ Tokens revoked: the service revoked them when their code was replayed, in a fork of this flow'
			);

		// A replay is allowed again: the tab moves to the new fork.
		const second = await replayInFork(p);
		expect(second).not.toBe(forkId);
		expect(second).not.toBe(original);

		// The flow it was made from, shown again: its fork named up front, no second replay offered,
		// and its verdict says what the fork found about the tokens both hold.
		await p.goto(`${srv.url}/?flow=${original}`);
		await held.waitFor();
		expect(await p.getByTestId('replay-code').count()).toBe(0);
		expect(await p.locator('#verdict').innerText()).toBe(
			'✕ Tokens revoked: the service revoked them when their code was replayed, in a fork of this flow'
		);
		expect(await held.innerText()).toMatch(/replayed in a fork of this flow.*one fork at a time/s);
		expect(await link.getAttribute('href')).toBe(`/?flow=${second}`);
		expect(await axeProblems(p)).toEqual([]);
		await held.scrollIntoViewIfNeeded();
		await shot(p, `62-fork-held-${size.width}`, { screen: true });
		// The link opens the fork, with the fork's transcript: the flow so far, the replay and its check.
		const exchanges = p.locator('.transcript details.exchange');
		await link.click();
		await p.waitForURL((u) => u.searchParams.get('flow') === second);
		await p.getByTestId('replay-fork').waitFor();
		await expect.poll(() => exchanges.count()).toBe(5);
		// The fork's banner links back, to the parent's own transcript (not the fork's, left behind).
		await p.getByTestId('replay-fork').getByRole('link', { name: 'another flow' }).click();
		await p.waitForURL((u) => u.searchParams.get('flow') === original);
		await held.waitFor();
		await expect.poll(() => exchanges.count()).toBe(3);

		// The closed fork's address says what happened to it.
		await p.goto(`${srv.url}/?flow=${forkId}`);
		await p
			.getByRole('alert')
			.filter({ hasText: /This flow was a fork, closed from the flow it was made from/ })
			.waitFor();
	});

test('"Replay the previous refresh token" and "Two refreshes at once": offered after a rotation, each asked first naming the client and the host (opened on Cancel, Escape sends nothing), then run in a fork that says the sandbox revoked the family; the fork is a record that offers no next step (390 px)', async ({
	srv,
	newPage
}) => {
	const p = await newPage({ width: 390, height: 844 }, { isMobile: true, hasTouch: true });
	await signIn(p, srv.url, 'Sandbox (read write)');
	const original = flowOf(p);
	const offer = p.getByTestId('replay-refresh');
	expect(await offer.count()).toBe(0);
	await p.getByRole('button', { name: 'Refresh the access token' }).click();
	await expect.poll(() => p.getByTestId('rotation').textContent()).toContain('rotated');
	const calls = p.locator('.transcript details.exchange');
	const before = await calls.count();

	// "Two refreshes at once" asks first too, in its own words; Escape sends nothing.
	await p.getByTestId('two-refreshes').click();
	const both = p.getByTestId('two-refreshes-dialog');
	await both.waitFor();
	expect(await both.getByRole('heading').innerText()).toBe(
		`Send two refreshes at once for sandbox-rw to ${new URL(srv.url).host}?`
	);
	expect(await focused(p)).toBe('Cancel');
	expect(await both.innerText()).toContain('the second is a reuse');
	await p.keyboard.press('Escape');
	await expect.poll(() => both.isVisible()).toBe(false);
	expect(await focused(p)).toBe('two-refreshes');

	await offer.click();
	const dialog = p.getByTestId('replay-refresh-dialog');
	await dialog.waitFor();
	const host = new URL(srv.url).host;
	expect(await dialog.getByRole('heading').innerText()).toBe(
		`Send a superseded refresh token of sandbox-rw to ${host}?`
	);
	expect(await focused(p)).toBe('Cancel');
	expect(await dialog.innerText()).toContain('revoke every token of this grant');
	await shot(p, 'refresh-replay-dialog-390', { screen: true });
	expect(await axeProblems(p)).toEqual([]);
	await p.keyboard.press('Escape');
	await expect.poll(() => dialog.isVisible()).toBe(false);
	expect(await focused(p)).toBe('replay-refresh');
	expect(await calls.count()).toBe(before);
	expect(flowOf(p)).toBe(original);

	await offer.click();
	await dialog.getByRole('button', { name: 'Send it in a fork' }).click();
	await p.waitForURL((u) => u.searchParams.get('flow') !== original);
	await p.getByTestId('refresh-try-fork').waitFor();
	// The fork's transcript: this flow's exchanges, then the try's three.
	await expect.poll(() => calls.count()).toBe(before + 3);
	const found = await p
		.locator('.transcript details.exchange')
		.evaluateAll((els) =>
			els.slice(-3).map((e) => e.querySelector('[data-code]')?.getAttribute('data-code'))
		);
	expect(found).toEqual([
		'refresh-replay-refused',
		'refresh-replay-family-revoked',
		'refresh-replay-access-revoked'
	]);
	expect(await p.locator('#verdict').innerText()).toBe(
		'✕ Tokens revoked: the service revoked them when a superseded refresh token came back'
	);
	await shot(p, 'refresh-replay-fork-390', { screen: true });
	expect(await axeProblems(p, { skip: ['.transcript'] })).toEqual([]);

	// The fork is the record of the try: it offers no next step (no consent, no exchange, no
	// refresh, no try of its own, no save, no Start over), step 1 says why, and no step is next.
	expect(await p.getByTestId('record-note').innerText()).toMatch(
		/^This flow is a fork, the record of a try: it opens no consent page and sends nothing more/
	);
	expect(await p.locator('form[data-action]').count()).toBe(0);
	expect(await p.getByRole('link', { name: 'Open the consent page' }).count()).toBe(0);
	expect(await p.getByRole('button', { name: /Refresh|Read the user info|Send/ }).count()).toBe(0);
	expect(await p.locator('.step-current').count()).toBe(0);
	// Its results stay: the tokens it holds, and its transcript.
	await p.getByTestId('access-token').waitFor();
	await shot(p, 'refresh-replay-fork-record-390');

	// The original flow's verdict says what the fork found about the tokens both hold.
	await p.getByTestId('refresh-try-fork').getByRole('link', { name: 'another flow' }).click();
	await p.waitForURL((u) => u.searchParams.get('flow') === original);
	await expect
		.poll(() => p.locator('#verdict').innerText())
		.toBe(
			'✕ Tokens revoked: the service revoked them when a superseded refresh token came back, in a fork of this flow'
		);
});

test("after a fork refreshed with its refresh token, the original flow holds its refreshes and offers the fork's newest tokens (1280 px)", async ({
	srv,
	newPage
}) => {
	const p = await newPage();
	await signIn(p, srv.url, 'Sandbox (read write)');
	const original = flowOf(p);
	// Two refreshes at once against the sandbox: one answers new tokens, so the fork's refresh
	// token supersedes this flow's.
	await p.getByTestId('two-refreshes').click();
	await p
		.getByTestId('two-refreshes-dialog')
		.getByRole('button', { name: 'Send both in a fork' })
		.click();
	await p.waitForURL((u) => u.searchParams.get('flow') !== original);
	await p.getByTestId('refresh-try-fork').getByRole('link').click();
	await p.waitForURL((u) => u.searchParams.get('flow') === original);
	const held = p.getByTestId('refresh-held');
	await held.waitFor();
	expect(await held.innerText()).toMatch(
		/^This flow's refresh token was superseded by its fork's check/
	);
	const refresh = p.getByRole('button', { name: 'Refresh the access token' });
	expect(await refresh.isDisabled()).toBe(true);
	expect(await p.getByLabel('Refresh automatically before expiry').isDisabled()).toBe(true);
	await shot(p.locator('#refresh'), 'refresh-held-1280');
	expect(await axeProblems(p, { skip: ['.transcript'] })).toEqual([]);

	// Closing the fork instead says first what it costs: the newest tokens, and the hold.
	await p.getByRole('button', { name: 'Close that fork…' }).click();
	const close = p.getByTestId('closefork-dialog');
	await close.waitFor();
	expect(await close.getByTestId('closefork-superseded').innerText()).toMatch(
		/^The newest tokens go with it\. The fork’s refresh replaced this flow’s refresh token: once the fork is closed, this flow’s refreshes are no longer held/
	);
	expect(await close.innerText()).toContain('refresh token was tried in');
	await p.keyboard.press('Escape');
	await close.waitFor({ state: 'hidden' });
	await held.getByRole('button', { name: "Take the fork's newest tokens" }).click();
	await expect.poll(() => focused(p)).toBe('fork-taken');
	expect(await held.count()).toBe(0);
	expect(await refresh.isEnabled()).toBe(true);
});

test('against a sandbox that accepts the previous refresh token for 10 minutes: the try says it was accepted N seconds after it was replaced, and the original flow holds its refreshes (1280 px)', async ({
	newPage
}) => {
	// A server of this test's own: the file's other tests need the sandbox's default, which
	// revokes the family on a reuse.
	const windowed = await startServer({ SANDBOX_REFRESH_REUSE_SECONDS: '600' });
	try {
		const p = await newPage();
		await signIn(p, windowed.url, 'Sandbox (read write)');
		await p.getByRole('button', { name: 'Refresh the access token' }).click();
		await expect.poll(() => p.getByTestId('rotation').textContent()).toContain('rotated');
		const original = flowOf(p);
		await p.getByTestId('replay-refresh').click();
		await p
			.getByTestId('replay-refresh-dialog')
			.getByRole('button', { name: 'Send it in a fork' })
			.click();
		await p.waitForURL((u) => u.searchParams.get('flow') !== original);
		await p.getByTestId('refresh-try-fork').waitFor();
		const tried = p.locator('.transcript details.exchange');
		await expect
			.poll(() =>
				tried.evaluateAll((els) =>
					els.slice(-2).map((e) => e.querySelector('[data-code]')?.getAttribute('data-code'))
				)
			)
			.toEqual(['refresh-replay-accepted', 'refresh-replay-access-works']);
		// Folded in its exchange: its text, not what the screen shows.
		expect(await p.locator('[data-code="refresh-replay-accepted"]').first().textContent()).toMatch(
			/info: The service accepted the refresh token it had replaced \d+ seconds? ago, and answered with new tokens: either it has a reuse window of at least \d+ seconds?/
		);
		// The fork's refresh replaced the original's refresh token: the original holds its refreshes.
		await p.getByTestId('refresh-try-fork').getByRole('link', { name: 'another flow' }).click();
		await p.waitForURL((u) => u.searchParams.get('flow') === original);
		await p.getByTestId('refresh-held').waitFor();
		expect(await p.getByRole('button', { name: 'Refresh the access token' }).isDisabled()).toBe(
			true
		);
		expect(await p.locator('#verdict').innerText()).toMatch(/^✓ Tokens received/);
	} finally {
		await windowed.stop();
	}
});
