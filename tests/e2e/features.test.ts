/**
 * What docs links, support staff and keyboard users meet, in real Chromium: prefilled links,
 * paste-back mode with the sandbox landing page, auto-refresh, dark mode, shortcuts, and axe-core
 * on every step of the flow in both themes.
 */
import { describe, expect } from 'vitest';
import { shot } from '../helpers/browser';
import { choosePreset, decide, openPlayground, signIn, flowUrl } from '../helpers/e2e';
import { listen } from '../helpers/listen';
import { e2eTest, type NewPage } from '../helpers/fixtures';

const test = e2eTest();

/** A page in the light theme unless said, 1280 × 800 unless said. */
function open(
	newPage: NewPage,
	opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {}
) {
	return newPage(
		{ width: opts.width ?? 1280, height: opts.height ?? 800 },
		{ colorScheme: opts.colorScheme ?? 'light' }
	);
}

describe('prefilled links', () => {
	test('a docs link fills the setup, names the host, and focuses the secret field', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage);
		const base = `${srv.url}/sandbox`;
		await p.goto(
			`${srv.url}/?base_url=${encodeURIComponent(base)}&client_id=sandbox-ro&scope=read&utm_campaign=docs`
		);
		const banner = p.getByTestId('prefill-banner');
		await banner.waitFor();
		expect(await banner.innerText()).toContain(`check that you trust 127.0.0.1:${srv.port}`);
		expect(await p.getByTestId('prefill-unknown').textContent()).toContain('utm_campaign');
		expect(await p.getByLabel('Client id').inputValue()).toBe('sandbox-ro');
		expect(await p.getByLabel('Scope', { exact: true }).inputValue()).toBe('read');
		await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('client_secret');
		await expect.poll(() => p.url()).toMatch(flowUrl(srv.url));
		await shot(p, '20-prefilled-link');
		await p.getByLabel('Client secret').fill('sandbox-ro-secret');
		await p.getByRole('button', { name: 'Save setup' }).click();
		await p.getByTestId('consent-url').waitFor();
		expect(await p.getByTestId('consent-url').textContent()).toContain('client_id=sandbox-ro');
	});

	for (const width of [1280, 390])
		test(`/link's builder comes first, offers every parameter, previews the banner, and its link fills the form with the sandbox after it, at ${width} px`, async ({
			srv,
			newPage
		}) => {
			const p = await open(newPage, { width });
			await p.goto(srv.url + '/link');
			const builder = p.getByTestId('link-builder');
			const table = p.locator('table.params');
			// The builder before the reference table.
			const top = async (l: typeof builder) => (await l.boundingBox())!.y;
			expect(await top(builder)).toBeLessThan(await top(table));
			// Every parameter the table lists has its control in the builder.
			const params = await table.locator('tbody th code').allInnerTexts();
			for (const name of params)
				expect(await builder.locator(`[id="link-${name}"]`).count(), name).toBe(1);
			await builder.locator('summary').click();
			await builder.getByLabel('Client authentication').selectOption('client_secret_basic');
			await builder.getByLabel('PKCE').selectOption('S256');
			await builder.getByLabel('Client id').fill('sandbox-ro');
			const link = await p.getByTestId('built-link').innerText();
			expect(link).toContain('token_endpoint_auth_method=client_secret_basic');
			expect(link).toContain('pkce=S256');
			const preview = p.getByTestId('banner-preview');
			expect(await preview.innerText()).toContain(`check that you trust 127.0.0.1:${srv.port}`);
			expect(await preview.innerText()).toContain(
				`The client secret goes to 127.0.0.1:${srv.port} (token endpoint)`
			);
			// No literal backtick anywhere on the page: inline code shows as code.
			expect(await p.locator('main').innerText()).not.toContain('`');
			await shot(p, `link-builder-${width}`);

			await p.getByRole('link', { name: 'Open it' }).click();
			await p.getByTestId('prefill-banner').waitFor();
			expect(await p.getByLabel('Client id').inputValue()).toBe('sandbox-ro');
			expect(await p.getByLabel('PKCE').inputValue()).toBe('S256');
			expect(await p.getByLabel('Client authentication').inputValue()).toBe('client_secret_basic');
			// The link's setup first; the sandbox after the form, as a second choice.
			const after = p.getByTestId('presets-after-link');
			expect(await after.getByRole('button').count()).toBeGreaterThan(0);
			// Both read in one go: the focus moving to the form may scroll the page between two reads.
			const [presetsAt, saveAt] = await p.evaluate(() => {
				const y = (el: Element | undefined | null) => el!.getBoundingClientRect().top;
				const save = [...document.querySelectorAll('button')].find(
					(b) => b.textContent?.trim() === 'Save setup'
				);
				return [y(document.querySelector('[data-testid="presets-after-link"]')), y(save)];
			});
			expect(presetsAt).toBeGreaterThan(saveAt!);
			expect(await p.locator('.presets').count()).toBe(1);
			await shot(p, `link-opened-${width}`);
		});

	test('a preset chosen on /link: the fields show what it sets, the link carries the preset and only what was changed, and the preview says what the reader sees', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage, { width: 1280 });
		await p.goto(srv.url + '/link');
		const builder = p.getByTestId('link-builder');
		await builder.getByLabel('Preset').selectOption('sandbox-short');
		expect(await builder.getByLabel('Client id').inputValue()).toBe('sandbox-short');
		const link = p.getByTestId('built-link');
		expect(await link.innerText()).toBe(`${srv.url}/?preset=sandbox-short`);
		const preview = p.getByTestId('banner-preview');
		expect(await preview.innerText()).toContain(
			"The preset's client secret is configured on the server: press Save setup to use it."
		);
		// A change the writer makes is carried, and the preview says what it costs.
		await builder.getByLabel('Client id').fill('my-app');
		expect(await link.innerText()).toBe(`${srv.url}/?client_id=my-app&preset=sandbox-short`);
		expect(await preview.innerText()).toContain(
			"The link changes the client id of the preset, so the preset's secret is not used"
		);
		await builder.getByLabel('Client id').fill('sandbox-short');
		await p.getByRole('link', { name: 'Open it' }).click();
		const banner = p.getByTestId('prefill-banner');
		await banner.waitFor();
		expect(await banner.innerText()).toContain(
			"The preset's client secret is configured on the server: press Save setup to use it."
		);
		expect(await p.getByLabel('Client id').inputValue()).toBe('sandbox-short');
	});

	test('a link carrying client_secret is refused, and the secret leaves the address bar', async ({
		srv,
		newPage
	}) => {
		const p = await open(newPage);
		const urls: string[] = [];
		await p.goto(`${srv.url}/?client_id=sandbox-rw&client_secret=do-not-use-me-1234`);
		const refused = p.getByTestId('prefill-refused');
		await refused.waitFor();
		expect(await refused.textContent()).toContain('client_secret');
		await expect.poll(() => p.url()).toMatch(flowUrl(srv.url));
		p.on('request', (r) => urls.push(r.url()));
		expect(await p.content()).not.toContain('do-not-use-me-1234');
		await p.reload();
		expect(await p.content()).not.toContain('do-not-use-me-1234');
		expect(urls.filter((u) => u.includes('do-not-use-me'))).toEqual([]);
		expect(srv.logs()).not.toContain('do-not-use-me-1234');
		await shot(p, '21-link-with-secret-refused');
	});
});

test('paste-back mode with the sandbox landing page, end to end', async ({ srv, newPage }) => {
	const p = await open(newPage);
	await choosePreset(p, srv.url, 'Sandbox (read write)');
	// The saved setup folds into one line; open it to change the redirect URI.
	await p.getByTestId('setup-summary').click();
	await p.getByLabel('Redirect URI to register').fill(`${srv.url}/sandbox/landing`);
	await p.getByRole('button', { name: 'Save setup' }).click();
	await expect
		.poll(() => p.getByTestId('consent-url').textContent())
		.toContain(encodeURIComponent('/sandbox/landing'));
	await decide(p);
	await p.waitForURL(/\/sandbox\/landing\?code=/);
	await shot(p, '22-sandbox-landing');
	const landed = p.url();
	await openPlayground(p, srv.url);
	await p.getByLabel(/The full address your application landed on/).fill(landed);
	await p.getByRole('button', { name: 'Use this redirect' }).click();
	await p.getByTestId('access-token').waitFor();
	expect(await p.locator('#callback .states').getAttribute('data-verdict')).toBe('code');
	expect(await p.locator('#exchange details.exchange').textContent()).toContain('HTTP/1.1 200 OK');
	await shot(p, '23-paste-back-done');
});

test('auto-refresh fires once when switched on, as a shown exchange', async ({ srv, newPage }) => {
	const p = await open(newPage);
	// The page's clock is a fake one that the test moves; the server's is real.
	await p.context().clock.install();
	await signIn(p, srv.url, 'Sandbox (5-second token)');
	const refreshes = () => p.locator('.transcript details.exchange[data-step="refresh"]').count();
	expect(await refreshes()).toBe(0);
	await p.getByLabel('Refresh automatically before expiry').check();
	// Jump the page to just before the expiry and hold its clock there: the timer fires once.
	await p.clock.pauseAt((await p.evaluate(() => Date.now())) + 4_500);
	await expect.poll(refreshes, { timeout: 10_000 }).toBe(1);
	expect(
		await p.locator('.transcript details.exchange[data-step="refresh"]').textContent()
	).toContain('Automatic refresh before expiry');
	// Switched off, nothing fires again, not even once the new token has expired on the page.
	await p.getByLabel('Refresh automatically before expiry').uncheck();
	await p.clock.fastForward(10_000);
	await expect
		.poll(() => p.getByTestId('countdown').textContent(), { timeout: 5_000 })
		.toMatch(/expired/);
	expect(await p.getByTestId('busy').count()).toBe(0);
	expect(await refreshes()).toBe(1);
});

test('dark mode follows the system, the toggle is remembered, shortcuts work', async ({
	srv,
	newPage
}) => {
	const p = await open(newPage, { colorScheme: 'dark' });
	await openPlayground(p, srv.url);
	const bg = () => p.evaluate(() => getComputedStyle(document.body).backgroundColor);
	expect(await bg()).toBe('rgb(17, 21, 28)');
	await p.keyboard.press('t');
	await expect.poll(bg).toBe('rgb(246, 247, 249)');
	// The page writes the choice into document.cookie; the browser's cookie store, which the
	// reload's request reads, gets it a moment later (under load, after a reload could start).
	await expect
		.poll(async () => (await p.context().cookies()).find((c) => c.name === 'pg_theme')?.value)
		.toBe('light');
	await p.reload();
	expect(await bg()).toBe('rgb(246, 247, 249)');
	await p.locator('main[data-ready="true"]').waitFor();
	await p.keyboard.press('?');
	await expect
		.poll(() => p.locator('dialog.shortcuts').evaluate((d: HTMLDialogElement) => d.open))
		.toBe(true);
	await shot(p, '24-shortcuts');
	await p.keyboard.press('Escape');
	await p.keyboard.press('n');
	await expect
		.poll(() => p.evaluate(() => document.activeElement?.closest('.step')?.id))
		.toBe('setup');
});

// axe on every step in both themes at 1280 and 390 px runs in phone.test.ts ("the sandbox flow,
// at … px"), over a superset of the states that a test here walked (the setup, the consent URL,
// the sandbox's consent page, the tokens, an API call refused with 403 with every code block
// highlighted, /link).

// One sign-in with the read-only client, a user-info read and a refused POST for both tests: the
// diagram of those five exchanges, then the HAR and the report of the same flow, imported again.
test('the sequence diagram has one arrow per exchange, and an arrow opens its exchange; download the HAR and the Markdown report, import the HAR again: same exchanges and findings, no secret', async ({
	srv,
	newPage,
	newTab
}) => {
	const p = await open(newPage);
	await openPlayground(p, srv.url);
	expect(await p.locator('[data-sequence]').count()).toBe(1);
	expect(await p.locator('[data-arrow]').count()).toBe(0);
	await p.getByRole('button', { name: 'Sandbox (read only)' }).click();
	await p.getByTestId('consent-url').waitFor();
	await decide(p);
	await p.waitForURL(flowUrl(srv.url));
	await p.getByTestId('access-token').waitFor();
	await p.getByRole('button', { name: 'Read the user info' }).click();
	await p.locator('#userinfo details.exchange').waitFor();
	await p.getByLabel('Method').selectOption('POST');
	await p.getByLabel(/Path below/).fill('edit-tag');
	await p.getByRole('button', { name: 'Send' }).click();
	await p.locator('#api details.exchange').waitFor();

	const ids = await p
		.locator('.transcript details.exchange')
		.evaluateAll((els) => els.map((e) => e.getAttribute('data-exchange-id')));
	expect(ids).toHaveLength(5);
	await expect
		.poll(() =>
			p
				.locator('[data-arrow]')
				.evaluateAll((els) => els.map((e) => e.getAttribute('data-exchange-id')))
		)
		.toEqual(ids);
	expect(
		await p.locator(`[data-arrow][data-exchange-id="${ids[4]}"]`).getAttribute('data-status')
	).toBe('failed');

	// Click the exchange arrow: its transcript entry opens.
	await p.locator(`[data-arrow][data-exchange-id="${ids[2]}"]`).click();
	await expect
		.poll(() =>
			p
				.locator(`.transcript details[data-exchange-id="${ids[2]}"]`)
				.evaluate((d: HTMLDetailsElement) => d.open)
		)
		.toBe(true);
	// Enter on the user-info arrow opens that one.
	await p.locator(`[data-arrow][data-exchange-id="${ids[3]}"]`).focus();
	await p.keyboard.press('Enter');
	await expect
		.poll(() =>
			p
				.locator(`.transcript details[data-exchange-id="${ids[3]}"]`)
				.evaluate((d: HTMLDetailsElement) => d.open)
		)
		.toBe(true);
	expect(
		await p.locator(`.transcript details[data-exchange-id="${ids[3]}"]`).textContent()
	).toContain('user-info');

	// The timing bar and the decoded JWT are there too.
	expect(await p.locator('#userinfo [data-timing]').count()).toBeGreaterThan(0);
	const jwt = p.locator('[data-jwt="access_token"]');
	await jwt.locator('summary').click();
	expect(await jwt.textContent()).toMatch(/signature was not checked/i);
	expect(await jwt.textContent()).toContain('"scope": "read"');
	await shot(p, '25-diagram-and-jwt');

	// The HAR and the Markdown report of the same flow.

	const live = await p.locator('.transcript details.exchange').evaluateAll((els) =>
		els.map((e) => ({
			step: e.getAttribute('data-step'),
			findings: [...e.querySelectorAll('[data-code]')].map((f) => f.getAttribute('data-code'))
		}))
	);
	const [har] = await Promise.all([
		p.waitForEvent('download'),
		p.getByRole('button', { name: 'HAR', exact: true }).click()
	]);
	const harPath = `test-output/${har.suggestedFilename()}`;
	await har.saveAs(harPath);
	const { readFileSync } = await import('node:fs');
	const harText = readFileSync(harPath, 'utf8');
	expect(JSON.parse(harText).log.version).toBe('1.2');
	expect(harText).not.toContain('sandbox-ro-secret');
	const token = await p.getByTestId('access-token').textContent();
	expect(harText).not.toContain(token!);

	const [md] = await Promise.all([
		p.waitForEvent('download'),
		p.getByRole('button', { name: 'Markdown report' }).click()
	]);
	const mdPath = `test-output/${md.suggestedFilename()}`;
	await md.saveAs(mdPath);
	const report = readFileSync(mdPath, 'utf8');
	expect(report).toContain('insufficient_scope');
	expect(report).toMatch(/zone-2/);
	expect(report).not.toContain('sandbox-ro-secret');
	expect(report).not.toContain(token!);

	// A fresh tab imports it: nothing goes over the network.
	const q = await newTab(p);
	await q.goto(srv.url + '/');
	await q.locator('main[data-ready="true"]').waitFor();
	const requests: string[] = [];
	q.on('request', (r) => requests.push(r.url()));
	await q.getByTestId('import-har').setInputFiles(harPath);
	await q.getByTestId('imported-banner').waitFor();
	// The exchanges are drawn a few per task after the banner.
	const imported = q.locator('.transcript details.exchange');
	await expect.poll(() => imported.count()).toBe(live.length);
	const again = await imported.evaluateAll((els) =>
		els.map((e) => ({
			step: e.getAttribute('data-step'),
			findings: [...e.querySelectorAll('[data-code]')].map((f) => f.getAttribute('data-code'))
		}))
	);
	expect(again).toEqual(live);
	expect(await q.locator('[data-arrow]').count()).toBe(live.length);
	expect(requests.filter((u) => !u.includes('/_app/'))).toEqual([]);
	await shot(q, '26-imported-har');

	// A file that is not a HAR gets a clear message.
	const { writeFileSync } = await import('node:fs');
	writeFileSync('test-output/not-a-har.json', '{"hello": "world"}');
	await q.getByTestId('import-har').setInputFiles('test-output/not-a-har.json');
	expect(await q.getByTestId('import-error').textContent()).toMatch(/not-a-har\.json: .*HAR/i);
});

test('progress shows at once on a network step, and a slow one offers Cancel', async ({
	srv,
	newPage
}) => {
	const { createServer } = await import('node:http');
	const hang = createServer(() => undefined); // accepts, never answers
	const { port } = await listen(hang);
	try {
		const p = await open(newPage);
		await openPlayground(p, srv.url);
		await p.getByLabel('Base URL of the service').fill(`http://127.0.0.1:${port}`);
		await p.getByLabel('Client id').fill('slow-app');
		await p.getByLabel('Client secret').fill('slow-secret-1234');
		await p.getByRole('button', { name: 'Save setup' }).click();
		await p.getByTestId('consent-url').waitFor();
		await p.getByRole('button', { name: 'Check the consent URL' }).click();
		expect(await p.getByTestId('busy').textContent()).toMatch(/Checking the consent URL/);
		expect(await p.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
		await p.getByRole('button', { name: 'Cancel' }).waitFor({ timeout: 5000 });
		await shot(p, '27-slow-step-cancel');
		await p.getByRole('button', { name: 'Cancel' }).click();
		await expect.poll(() => p.locator('#consent .error').textContent()).toMatch(/Cancelled/);
		expect(await p.getByTestId('busy').count()).toBe(0);
	} finally {
		hang.closeAllConnections();
		await new Promise<void>((ok) => hang.close(() => ok()));
	}
});
