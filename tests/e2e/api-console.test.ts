/**
 * The API console in real Chromium: sandbox tokens, the API base moved to a loopback service that
 * echoes the bytes it received; a PATCH with a JSON body and a custom header goes exactly as shown;
 * a reserved header is refused at the console with the reason, and nothing is sent. Screenshots at
 * 1280 and 390 px. Before Send, the call's zone: certain from the sandbox's table, a guess elsewhere
 * (the echo answers with the sandbox's zone headers, a look-alike of the service), and after the
 * answer the zone its headers show; its cost, once an answer has shown that zone's budget. With a
 * zone-1 limit of 5: the meter after one call, the line before the call that spends the last, and
 * the sixth call's 429, which says whose budget it is. An answer's two rate-limit meters line up.
 */
import { expect } from 'vitest';
import { shot } from '../helpers/browser';
import { signIn } from '../helpers/e2e';
import { startEchoApi } from '../helpers/echo-api';
import { e2eTest } from '../helpers/fixtures';

// The echo, a file's own like the server: its `received` list grows through the file's tests.
/**
 * A reset's clock time as the page words it: "14:05", or "7 Dec 00:05" when the reset falls on
 * another day than now (a run just before midnight).
 */
const AT = String.raw`(?:\d{1,2} [A-Z][a-z]{2}(?: \d{4})? )?\d\d:\d\d`;

const test = e2eTest({ SANDBOX_ZONE1_LIMIT: '5' }).extend(
	'echo',
	{ scope: 'file' },
	// eslint-disable-next-line no-empty-pattern
	async ({}, { onCleanup }) => {
		const echo = await startEchoApi({ zones: true });
		onCleanup(() => echo.stop());
		return echo;
	}
);

test.for([1280, 390])(
	'at %i px: a PATCH with JSON and a header, then a refused header',
	async (width, { srv, echo, newPage }) => {
		const p = await newPage({ width, height: 900 });
		await signIn(p, srv.url, 'Sandbox (read write)');
		// Before Send, a typed path of the sandbox's has its zone from the sandbox's own table.
		const card = p.locator('#api');
		const zone = card.getByTestId('api-zone');
		await card
			.getByLabel(/^Path below/)
			.fill('stream/contents/user/-/state/com.google/reading-list');
		await expect.poll(() => zone.innerText()).toBe('Zone 1 (reads), as the sandbox counts it.');
		expect(await zone.getAttribute('data-certain')).toBe('true');
		// Once an answer has shown the zone's budget (the user-info call's), its cost too.
		await p.getByRole('button', { name: 'Read the user info' }).click();
		await expect
			.poll(() => zone.innerText())
			.toMatch(
				new RegExp(
					String.raw`^Zone 1 \(reads\), as the sandbox counts it\. It spends 1 of the [\d,]+ left of [\d,]+ in Zone 1 \(reads\), resets at ${AT} \(in [^)]+\)\.$`
				)
			);
		// The answer's two meters line up, one under the other, their bars at the same left edge.
		const bars = p.locator('#userinfo [data-testid="rate-limits"]:visible meter');
		await expect.poll(() => bars.count()).toBe(2);
		const [one, two] = [(await bars.nth(0).boundingBox())!, (await bars.nth(1).boundingBox())!];
		expect(two.x, 'the second bar starts where the first does').toBeCloseTo(one.x, 0);
		expect(two.y, 'the second bar is under the first').toBeGreaterThan(one.y + one.height / 2);
		// The API base moves to the echo; the sandbox keeps the sign-in, and the tokens go along
		// once the form's question is answered yes (token-binding.ts).
		await p.getByTestId('setup-summary').click();
		await p.getByLabel('Base URL of the service').fill(echo.origin);
		if (!(await p.getByLabel('Token endpoint').isVisible()))
			await p.getByText('Advanced settings').click();
		await p.getByLabel('Authorization endpoint').fill(`${srv.url}/sandbox/oauth2/auth`);
		await p.getByLabel('Token endpoint').fill(`${srv.url}/sandbox/oauth2/token`);
		expect(await p.getByTestId('token-question').innerText()).toMatch(
			`Send this flow's tokens to ${echo.origin}?`
		);
		await p.getByRole('button', { name: 'Yes, send them there' }).click();
		await p.getByRole('button', { name: 'Save setup' }).click();
		await expect
			.poll(() => p.getByTestId('consent-url').textContent())
			.toContain('/sandbox/oauth2/auth');

		await card.getByLabel('Method').selectOption('PATCH');
		await card.getByLabel(/^Path below/).fill('things/7');
		await card.getByLabel('Request headers').fill('X-Trace: abc');
		await card.getByLabel('Body', { exact: true }).selectOption('json');
		await card.getByLabel('JSON body').fill('{"name":"é"}');
		// Another service: a guess by the method, said to be one.
		await expect.poll(() => zone.innerText()).toMatch(/^Likely zone 2: it writes/);
		const before = echo.received.length;
		await card.getByRole('button', { name: 'Send' }).click();
		await expect.poll(() => echo.received.length).toBe(before + 1);
		const wire = echo.received.at(-1)!.toString('utf8');
		expect(wire.startsWith('PATCH /reader/api/0/things/7 HTTP/1.1\r\n')).toBe(true);
		expect(wire).toContain('\r\nX-Trace: abc\r\n');
		expect(wire).toContain('\r\nContent-Type: application/json\r\n');
		expect(wire.endsWith('\r\n\r\n{"name":"é"}')).toBe(true);
		await expect.poll(() => card.textContent()).toContain('HTTP/1.1 200 OK');
		const after = card.getByTestId('api-zone-after');

		// A read of a path no answer has shown yet: likely zone 1, then what the headers say.
		await card.getByLabel('Method').selectOption('GET');
		await card.getByLabel(/^Path below/).fill('things/7/notes');
		await expect.poll(() => zone.innerText()).toMatch(/^Likely zone 1: it reads\./);
		await card.getByRole('button', { name: 'Send' }).click();
		await expect.poll(() => echo.received.length).toBe(before + 2);
		await expect
			.poll(() => after.innerText())
			.toBe("Sent as likely zone 1; the answer's headers confirm zone 1.");

		await card.getByLabel('Request headers').fill('Host: evil.test');
		await card.getByRole('button', { name: 'Send' }).click();
		await expect.poll(() => card.textContent()).toContain('Host can’t be set here');
		expect(echo.received.length).toBe(before + 2);
		await card.scrollIntoViewIfNeeded();
		await shot(p, `api-console-${width}`);
	}
);

test('zone 1 with a limit of 5, at 1280 px: "4 of 5 left" after one call, the line before the last, and the sixth call\'s 429 naming the zone, its reset and whose budget it is', async ({
	srv,
	newPage
}) => {
	const p = await newPage();
	// The read-only client: its budget is its own (the sandbox counts per client locally).
	await signIn(p, srv.url, 'Sandbox (read only)');
	const card = p.locator('#userinfo');
	const read = p.getByRole('button', { name: 'Read the user info' });
	const calls = p.locator('.transcript details.exchange');
	const meter = card.locator('[data-testid="rate-limits"] [data-meter] .words').first();
	const note = card.getByTestId('budget-note');
	for (let n = 1; n <= 6; n++) {
		const count = await calls.count();
		await read.click();
		await expect.poll(() => calls.count()).toBe(count + 1);
		if (n === 1)
			await expect
				.poll(() => meter.innerText())
				.toMatch(new RegExp(String.raw`^4 of 5 left, resets at ${AT} \(in (10|9) min\)$`));
		// One call left: said before the call that spends it.
		if (n === 4)
			await expect
				.poll(() => note.innerText())
				.toMatch(
					new RegExp(String.raw`^Zone 1 \(reads\): nearly spent, 1 of 5 left, resets at ${AT}`)
				);
	}
	const refused = card.locator('.step-result details.exchange').first();
	await expect.poll(() => refused.locator('.badge').innerText()).toBe('429 Too Many Requests');
	const finding = await refused.locator('[data-code="rate-limited"]').innerText();
	expect(finding).toMatch(
		/The service's rate limit is reached \(429\): zone 1 \(reads\) is spent\. It resets in \d+ s\./
	);
	expect(finding).toContain(
		'The sandbox counts this budget per client: every user of client id "sandbox-ro" spends the same one.'
	);
	await card.scrollIntoViewIfNeeded();
	await shot(p, 'api-console-zone1-spent', { screen: true });
});
