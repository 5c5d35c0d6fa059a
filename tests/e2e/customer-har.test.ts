/**
 * Support staff import a customer's browser HAR (tests/fixtures/customer.har, recorded from Chromium
 * against the sandbox by scripts/record-customer-har.js): the customer's application, at its own
 * host, registered "Read only", asked for `read write`. The redirect back to the application is
 * shown with the invalid_scope it carried and the fix, beside the consent request; the
 * application's own files are left out and counted.
 *
 * A file at the import's limits (5 MB, 16 different client secrets of 1,024 characters) is
 * imported with its progress shown and announced, and none of its secrets on the page; one with a
 * 17th secret is refused with the reason (what either costs the page's main thread is the bench's
 * (j), scripts/bench/j-har-limits.js); a secret sent in one entry is hidden where another entry echoes it. A proxy's HAR
 * of an application's token requests gets one finding per refused refresh, naming its cause: an
 * older generation sent after a rotation (naming the refresh that replaced it), and other servers'
 * refusals in their own words and shapes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect } from 'vitest';
import { shot } from '../helpers/browser';
import { openPlayground } from '../helpers/e2e';
import { axeAt, axeProblems } from '../helpers/axe';
import { e2eTest } from '../helpers/fixtures';
import { manySecretsHar } from '../../scripts/lib/many-secrets-har.js';

const test = e2eTest();

// The large files are made here, once, into a folder of this run's own.
const dir = mkdtempSync(join(tmpdir(), 'har-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MB5 = 5 * 1024 * 1024;
/** 1,800 token requests, each answer echoing the secret of the request before it. */
const ENTRIES = 1800;
const files = new Map<number, { path: string; secrets: string[] }>();
/** A 5 MB HAR of ENTRIES token requests sending `n` different 1,024-character secrets. */
function atTheLimits(n: number) {
	let file = files.get(n);
	if (!file) {
		const har = manySecretsHar({ secrets: n, entries: ENTRIES, bytes: MB5 });
		const path = join(dir, `${n}-secrets.har`);
		writeFileSync(path, har.text);
		file = { path, secrets: har.secrets };
		files.set(n, file);
	}
	return file;
}

/**
 * Records, as they change, the import's progress line and what the page's live regions say, from
 * the page itself (a MutationObserver), so that no state is missed between two looks.
 */
async function recordProgress(
	p: Page
): Promise<() => Promise<{ shown: string[]; said: string[] }>> {
	await p.evaluate(() => {
		const log = { shown: [] as string[], said: [] as string[] };
		const add = (list: string[], text: string | undefined) => {
			const t = text?.replace(/\s+/g, ' ').trim();
			if (t && list.at(-1) !== t) list.push(t);
		};
		new MutationObserver(() => {
			const bar = document.querySelector('[data-testid="import-progress"]');
			const value = bar?.querySelector('progress');
			if (bar) add(log.shown, `${bar.textContent} [${value?.value ?? ''}/${value?.max ?? ''}]`);
			for (const region of document.querySelectorAll('[aria-live]'))
				add(log.said, region.textContent ?? '');
		}).observe(document.body, {
			subtree: true,
			childList: true,
			characterData: true,
			attributes: true
		});
		Object.assign(window, { __pgProgress: log });
	});
	return () =>
		p.evaluate(
			() =>
				(window as unknown as { __pgProgress: { shown: string[]; said: string[] } }).__pgProgress
		);
}

/**
 * The landed import at the other width: the verdict keeps the focus and lies wholly in the first
 * screen (scrolled to the top, as the page lands); then the window is as it was.
 */
async function atTheOtherWidth(p: Page, size: { width: number; height: number }): Promise<void> {
	const before = p.viewportSize()!;
	await p.setViewportSize(size);
	await p.evaluate(() => window.scrollTo(0, 0));
	const box = (await p.locator('#verdict').boundingBox())!;
	expect(box.y).toBeGreaterThanOrEqual(0);
	expect(box.y + box.height).toBeLessThanOrEqual(size.height);
	expect(await p.evaluate(() => document.activeElement?.id)).toBe('verdict');
	expect(await axeAt(p, size.width < 600 ? 'phone' : 'desktop')).toEqual([]);
	await p.setViewportSize(before);
}

test("a customer's browser HAR: the redirect back to its application shows its invalid_scope, with the fix, at 390 px (its verdict at 1280 px too)", async ({
	srv,
	newPage,
	problems
}) => {
	const p = await newPage({ width: 390, height: 844 });
	await openPlayground(p, srv.url);
	await p.getByTestId('import-har').setInputFiles('tests/fixtures/customer.har');
	const entries = p.locator('.transcript details.exchange');
	await expect.poll(() => entries.count()).toBe(2);
	const back = entries.nth(1);
	expect(await back.getAttribute('data-step')).toBe('callback');
	// The import lands: its verdict at the top with the focus, in the first screen, and its first
	// failure opened.
	const verdict = p.locator('#verdict');
	await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('verdict');
	expect((await verdict.innerText()).trim()).toBe(
		'✕ Imported customer.har: 2 exchanges; the first failure is #2 Callback: invalid_scope, this application is registered as "Read only" and cannot request write'
	);
	const box = (await verdict.boundingBox())!;
	expect(box.y + box.height).toBeLessThanOrEqual(844);
	expect(await back.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
	await atTheOtherWidth(p, { width: 1280, height: 800 });
	await shot(p, '65a-customer-har-verdict-390', { screen: true });
	const finding = back.locator('li.finding[data-code="invalid_scope"]');
	await finding.waitFor();
	expect(await finding.innerText()).toContain('registered as "Read only" and cannot request write');
	expect(await finding.locator('.fix').innerText()).toContain('ask for "read" only');
	expect(await p.locator('main').innerText()).toContain('5 other requests were left out');
	// Which they are: the application's page, script and style sheet, by their place in the file.
	const leftOut = p.getByTestId('left-out');
	await leftOut.locator('summary').click();
	const items = await leftOut.locator('li').allInnerTexts();
	expect(items).toHaveLength(5);
	expect(items[0]).toMatch(/^GET http:\/\/app\.customer\.test:\d+\/ → 200$/);
	expect(items.slice(1).map((i) => i.replace(/^GET http:\/\/[^/]+/, ''))).toEqual([
		'/app.css → 200',
		'/app.js → 200',
		'/app.css → 200',
		'/app.js → 200'
	]);
	expect(await axeProblems(p), 'axe: the list of requests left out').toEqual([]);
	await shot(p, '65b-customer-har-left-out-390', { screen: true });
	await finding.scrollIntoViewIfNeeded();
	await shot(p, '65-customer-har-390', { screen: true });
	expect(await axeProblems(p), 'axe: the imported customer HAR').toEqual([]);
	expect(problems, 'no console errors, page errors or CSP violations').toEqual([]);
});

test("a customer's HAR whose consent request the service refused for its redirect URI: the live check's finding, and the verdict, at 1280 px (and 390 px)", async ({
	srv,
	newPage
}) => {
	// The sandbox's own answer to a consent request with a redirect URI it does not have registered,
	// as a browser gets it, in place of the recorded consent request's answer.
	const sent = 'http://app.customer.test:40055/cb';
	const url = `${srv.url}/sandbox/oauth2/auth?client_id=sandbox-rw&redirect_uri=${encodeURIComponent(sent)}&response_type=code&scope=read&state=customer-state`;
	const res = await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' });
	const body = await res.text();
	expect(res.status).toBe(400);
	const har = JSON.parse(readFileSync('tests/fixtures/customer.har', 'utf8'));
	const recorded = har.log.entries[3];
	har.log.entries = [
		{
			...recorded,
			request: {
				...recorded.request,
				url,
				queryString: [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
			},
			response: {
				...recorded.response,
				status: res.status,
				statusText: res.statusText,
				headers: [...res.headers].map(([name, value]) => ({ name, value })),
				content: { size: body.length, mimeType: res.headers.get('content-type'), text: body },
				redirectURL: ''
			}
		}
	];
	const file = join(dir, 'refused.har');
	writeFileSync(file, JSON.stringify(har));

	const p = await newPage({ width: 1280, height: 800 });
	await openPlayground(p, srv.url);
	await p.getByTestId('import-har').setInputFiles(file);
	const verdict = p.locator('#verdict');
	await expect.poll(() => p.evaluate(() => document.activeElement?.id)).toBe('verdict');
	expect((await verdict.innerText()).trim()).toMatch(
		new RegExp(
			`^✕ Imported refused\\.har: 1 exchange; the first failure is #1 Consent redirect: redirect_uri_mismatch, the service does not accept the redirect_uri "${sent.replaceAll('.', '\\.')}" for client_id "sandbox-rw"`
		)
	);
	const consent = p.locator('.transcript details.exchange').first();
	expect(await consent.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
	await atTheOtherWidth(p, { width: 390, height: 844 });
	const finding = consent.locator('li.finding[data-code="redirect_uri_mismatch"]');
	await finding.waitFor();
	expect(await axeProblems(p), 'axe: the refused redirect URI, imported').toEqual([]);
	await shot(p, '65c-customer-har-redirect-refused-1280', { screen: true });
});

test('a HAR saved without the token answer’s body: the card and its finding say so, and nothing blames the URL (1280 px)', async ({
	srv,
	newPage
}) => {
	const har = JSON.parse(readFileSync('tests/fixtures/browser.har', 'utf8'));
	const { content } = har.log.entries[5].response;
	har.log.entries[5].response.content = { size: content.size, mimeType: content.mimeType };
	const file = join(dir, 'no-body.har');
	writeFileSync(file, JSON.stringify(har));
	const p = await newPage({ width: 1280, height: 800 });
	await openPlayground(p, srv.url);
	await p.getByTestId('import-har').setInputFiles(file);
	const exchange = p.locator('.transcript details.exchange', {
		has: p.locator('li.finding[data-code="body-not-in-file"]')
	});
	await exchange.waitFor();
	await exchange.evaluate((d) => ((d as HTMLDetailsElement).open = true));
	expect(await exchange.getByTestId('body-missing').innerText()).toBe(
		'The file does not hold this body (221 bytes): it was left out when the file was saved.'
	);
	expect(await p.locator('.transcript li.finding[data-code="wrong-endpoint"]').count()).toBe(0);
	expect(await p.locator('#verdict').innerText()).not.toMatch(/probably not|empty body/);
	await exchange.scrollIntoViewIfNeeded();
	await shot(p, '65d-har-without-a-body', { screen: true });
});

test('attack: a 5 MB HAR with 16 different 1,024-character client secrets imports, its progress shown and announced, none of its secrets on the page', async ({
	srv,
	newPage
}) => {
	const { path, secrets } = atTheLimits(16);
	const p = await newPage();
	await openPlayground(p, srv.url);
	const progress = await recordProgress(p);
	await p.getByTestId('import-har').setInputFiles(path);
	if (process.env.SCREENSHOTS === '1') {
		await p
			.getByTestId('import-progress')
			.getByText(/requests done/)
			.waitFor();
		await shot(p, '66-har-import-progress-1280', { screen: true });
	}
	const banner = p.getByTestId('imported-banner');
	await banner.waitFor({ timeout: 60_000 });
	// The first exchanges are drawn, a few per task, the others a click away.
	const entries = p.locator('.transcript details.exchange');
	await expect.poll(() => entries.count()).toBe(25);
	expect(await banner.innerText()).toContain(`Showing ${ENTRIES} exchanges from 16-secrets.har`);
	// The progress was on the page while the file was redacted, counting up, and was announced.
	const { shown, said } = await progress();
	const counts = shown.flatMap((t) => {
		const m = /hiding client secrets, (\d+) of (\d+) requests done… Cancel \[(\d+)\/(\d+)\]$/.exec(
			t
		);
		return m ? [m.slice(1).map(Number)] : [];
	});
	expect(counts.length, shown.join('\n')).toBeGreaterThan(0);
	for (const [done, total, value, max] of counts) {
		expect([total, max, value]).toEqual([ENTRIES, ENTRIES, done]);
		expect(done).toBeLessThanOrEqual(ENTRIES);
	}
	const done = counts.map(([d]) => d!);
	expect(done).toEqual([...done].sort((a, b) => a - b));
	expect(said).toContain('Importing 16-secrets.har.');
	expect(await p.getByTestId('import-progress').count()).toBe(0);
	// None of the exchanges drawn shows any of the secrets.
	expect(await entries.count()).toBe(25);
	const html = await p.content();
	expect(secrets.filter((s) => html.includes(s))).toEqual([]);
	expect(html).toContain('client_secret=&lt;redacted&gt;');
	// "Show the next 25", from the keyboard: the focus goes to the first exchange it adds.
	const more = p.getByRole('button', { name: 'Show the next 25' });
	await more.scrollIntoViewIfNeeded();
	await shot(p, '66b-har-import-pages-1280', { screen: true });
	await more.focus();
	await p.keyboard.press('Enter');
	await expect.poll(() => entries.count()).toBe(50);
	expect(
		await p.evaluate(() => document.activeElement?.closest('details')?.dataset.exchangeId)
	).toBe(await entries.nth(25).getAttribute('data-exchange-id'));
	const fifty = await p.content();
	expect(secrets.filter((s) => fifty.includes(s))).toEqual([]);
});

test('attack: a 5 MB HAR with 17 different client secrets is refused with the reason, at 390 px', async ({
	srv,
	newPage
}) => {
	const { path } = atTheLimits(17);
	const p = await newPage({ width: 390, height: 844 });
	await openPlayground(p, srv.url);
	await p.getByTestId('import-har').setInputFiles(path);
	const refusal = p.getByTestId('import-error');
	await refusal.waitFor({ timeout: 60_000 });
	expect(await refusal.innerText()).toBe(
		'17-secrets.har: This HAR holds 17 different client secrets; the playground redacts at most 16 per file, so it did not import the file rather than show one it could not hide. Record one client’s flow at a time.'
	);
	expect(await p.getByTestId('imported-banner').count()).toBe(0);
	await refusal.scrollIntoViewIfNeeded();
	await shot(p, '67-har-import-refused-390', { screen: true });
	expect(await axeProblems(p), 'axe: the refusal').toEqual([]);
});

test('attack: a secret sent in entry 1 and echoed in entry 2’s answer is hidden in both', async ({
	srv,
	newPage
}) => {
	const secret = 'sent-in-one-entry-echoed-in-another-0042';
	const token = 'https://reader.test/oauth2/token';
	const entry = (url: string, method: string, body: string, answer: string) => ({
		startedDateTime: '2026-03-14T09:26:53.000Z',
		time: 12,
		request: {
			method,
			url,
			httpVersion: 'HTTP/1.1',
			headers: [],
			...(body ? { postData: { mimeType: 'application/x-www-form-urlencoded', text: body } } : {})
		},
		response: {
			status: 200,
			statusText: 'OK',
			httpVersion: 'HTTP/1.1',
			headers: [{ name: 'Content-Type', value: 'application/json' }],
			content: { mimeType: 'application/json', text: answer }
		},
		timings: { wait: 10 }
	});
	const har = {
		log: {
			version: '1.2',
			entries: [
				entry(
					token,
					'POST',
					`grant_type=client_credentials&client_id=app&client_secret=${secret}`,
					'{"access_token":"at-0123456789","token_type":"Bearer"}'
				),
				entry(
					'https://reader.test/reader/api/0/user-info',
					'GET',
					'',
					JSON.stringify({ userName: 'x', debug: `the app sent ${secret}` })
				)
			]
		}
	};
	const path = join(dir, 'echo.har');
	writeFileSync(path, JSON.stringify(har));
	const p = await newPage({ width: 390, height: 844 });
	await openPlayground(p, srv.url);
	await p.getByTestId('import-har').setInputFiles(path);
	const entries = p.locator('.transcript details.exchange');
	await expect.poll(() => entries.count()).toBe(2);
	// Each opened (the first failure is opened by the import itself).
	for (const n of [0, 1])
		if (!(await entries.nth(n).evaluate((d) => (d as HTMLDetailsElement).open)))
			await entries.nth(n).locator(':scope > summary').click();
	// On the phone the request is folded under the answer: the reader opens it.
	await entries.nth(0).locator('details.whole-request > summary').click();
	expect(await entries.nth(0).innerText()).toContain('client_secret=<redacted>');
	expect(await entries.nth(1).innerText()).toContain('the app sent <redacted>');
	expect(await p.content()).not.toContain(secret);
});

test('an import under way can be cancelled: its progress goes, and nothing is imported, at 390 px', async ({
	srv,
	newPage
}) => {
	const { path } = atTheLimits(16);
	const p = await newPage({ width: 390, height: 844 });
	await openPlayground(p, srv.url);
	const progress = p.getByTestId('import-progress');
	await p.getByTestId('import-har').setInputFiles(path);
	await progress.getByText(/requests done/).waitFor({ timeout: 60_000 });
	await progress.scrollIntoViewIfNeeded();
	await shot(p, '66c-har-import-progress-390', { screen: true });
	expect(await axeProblems(p), 'axe: an import under way').toEqual([]);
	await progress.getByRole('button', { name: 'Cancel' }).click();
	await progress.waitFor({ state: 'detached' });
	expect(await p.locator('[aria-live]').allInnerTexts()).toContain(
		'The import of 16-secrets.har was cancelled.'
	);
	expect(await p.getByTestId('imported-banner').count()).toBe(0);
});

/** A HAR 1.2 entry of a token request to `url` with `body`, answered `status` with `answer` (JSON). */
function tokenEntry(at: number, body: string, status: number, answer: object) {
	const text = JSON.stringify(answer);
	return {
		startedDateTime: new Date(Date.parse('2026-12-06T10:00:00.000Z') + at * 1000).toISOString(),
		time: 5,
		request: {
			method: 'POST',
			url: 'https://reader.example.test/oauth2/token',
			httpVersion: 'HTTP/1.1',
			headers: [{ name: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
			queryString: [],
			cookies: [],
			headersSize: -1,
			bodySize: body.length,
			postData: { mimeType: 'application/x-www-form-urlencoded', text: body }
		},
		response: {
			status,
			statusText: status === 200 ? 'OK' : 'Bad Request',
			httpVersion: 'HTTP/1.1',
			headers: [{ name: 'Content-Type', value: 'application/json' }],
			cookies: [],
			content: { size: text.length, mimeType: 'application/json', text },
			redirectURL: '',
			headersSize: -1,
			bodySize: text.length
		},
		cache: {},
		timings: { send: 0, wait: 5, receive: 0 }
	};
}

test("a customer's HAR whose third refresh sends the first refresh token: one finding on it, naming the refresh that replaced that token, beside the service's own words; then refusals in Keycloak's, Google's and Auth0's words and shapes, one finding each (1280 px)", async ({
	srv,
	newPage
}) => {
	const tokens = (n: number) => ({
		access_token: `access-token-${n}-abcdefgh`,
		token_type: 'Bearer',
		expires_in: 300,
		refresh_token: `refresh-token-${n}-abcdefgh`,
		scope: 'read'
	});
	const refresh = (n: number) =>
		`grant_type=refresh_token&refresh_token=refresh-token-${n}-abcdefgh&client_id=feeds-app`;
	const har = {
		log: {
			version: '1.2',
			creator: { name: 'a proxy', version: '1' },
			entries: [
				tokenEntry(
					0,
					'grant_type=authorization_code&code=c-123456789&client_id=feeds-app',
					200,
					tokens(1)
				),
				tokenEntry(60, refresh(1), 200, tokens(2)),
				tokenEntry(120, refresh(2), 200, tokens(3)),
				tokenEntry(180, refresh(1), 400, {
					error: 'invalid_grant',
					error_description: 'This refresh token was already used.'
				})
			]
		}
	};
	const path = join(dir, 'older-generation.har');
	writeFileSync(path, JSON.stringify(har));

	const p = await newPage({ width: 1280, height: 800 });
	await openPlayground(p, srv.url);
	await p.getByTestId('import-har').setInputFiles(path);
	const entries = p.locator('.transcript details.exchange');
	await expect.poll(() => entries.count()).toBe(4);
	const refused = entries.nth(3);
	expect(await refused.getAttribute('data-step')).toBe('refresh');
	// One error finding, the cause, naming the refresh that replaced the token sent (#2).
	const errors = refused.locator('li.finding-error');
	await expect.poll(() => errors.count()).toBe(1);
	const cause = refused.locator('li.finding[data-code="refresh-superseded"]');
	expect(await cause.textContent()).toContain('the refresh #2 already returned a new one');
	// The service's own words stay, quoted.
	expect(await refused.textContent()).toContain('This refresh token was already used.');
	expect(await p.locator('#verdict').innerText()).toMatch(
		/^✕ Imported older-generation\.har: 4 exchanges; the first failure is #4 Refresh: invalid_grant/
	);
	// The recording's refresh tokens, generation by generation, as the token panel lists a flow's.
	const generations = p.locator(
		'.transcript [data-testid="generations"] [data-testid="generation"]'
	);
	await expect.poll(() => generations.count()).toBe(3);

	// Refusals in the words and shapes of other servers, imported next: one finding each, its cause.
	const lookalikes = [
		[400, { error: 'invalid_grant', error_description: 'Session not active' }], // Keycloak
		[400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }], // Google
		[403, { error: 'invalid_grant', error_description: 'Unknown or invalid refresh token.' }], // Auth0
		[400, { error: 'invalid_request', error_description: 'Invalid refresh token' }]
	] as const;
	const others = {
		log: {
			version: '1.2',
			creator: { name: 'a proxy', version: '1' },
			entries: [
				tokenEntry(
					0,
					'grant_type=authorization_code&code=c-123456789&client_id=feeds-app',
					200,
					tokens(1)
				),
				...lookalikes.map(([status, answer], i) =>
					tokenEntry(60 * (i + 1), refresh(1), status, answer)
				)
			]
		}
	};
	const path2 = join(dir, 'lookalikes.har');
	writeFileSync(path2, JSON.stringify(others));
	await p.getByTestId('import-har').setInputFiles(path2);
	await expect.poll(() => entries.count()).toBe(5);
	const causes = [];
	for (let i = 1; i <= 4; i++)
		causes.push(
			await entries
				.nth(i)
				.locator('li.finding-error')
				.evaluateAll((els) => els.map((e) => e.getAttribute('data-code')))
		);
	expect(causes).toEqual([
		['refresh-session-ended'],
		['refresh-not-active'],
		['refresh-unknown'],
		['refresh-unknown']
	]);
	// Auth0's 403 is said as a 403 where RFC 6749 §5.2 has 400 invalid_grant.
	expect(await entries.nth(3).locator('li.finding-error').textContent()).toContain(
		'It answered 403 invalid_grant where RFC 6749 §5.2 has 400 invalid_grant'
	);
});
