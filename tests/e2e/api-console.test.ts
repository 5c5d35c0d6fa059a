/**
 * The API console in real Chromium: sandbox tokens, the API base moved to a loopback service that
 * echoes the bytes it received; a PATCH with a JSON body and a custom header goes exactly as shown;
 * a reserved header is refused at the console with the reason, and nothing is sent. Screenshots at
 * 1280 and 390 px. Before Send, the call's zone: certain from the sandbox's table, a guess elsewhere;
 * and its cost, once an answer has shown that zone's budget.
 */
import { expect } from 'vitest';
import { shot } from '../helpers/browser';
import { signIn } from '../helpers/e2e';
import { startEchoApi } from '../helpers/echo-api';
import { e2eTest } from '../helpers/fixtures';

// The echo, a file's own like the server: its `received` list grows through the file's tests.
// eslint-disable-next-line no-empty-pattern
const test = e2eTest().extend('echo', { scope: 'file' }, async ({}, { onCleanup }) => {
	const echo = await startEchoApi();
	onCleanup(() => echo.stop());
	return echo;
});

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
				/^Zone 1 \(reads\), as the sandbox counts it\. It spends 1 of the [\d,]+ left of [\d,]+ in Zone 1 \(reads\), resets at \d\d:\d\d \(in [^)]+\)\.$/
			);
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

		await card.getByLabel('Request headers').fill('Host: evil.test');
		await card.getByRole('button', { name: 'Send' }).click();
		await expect.poll(() => card.textContent()).toContain('Host can’t be set here');
		expect(echo.received.length).toBe(before + 1);
		await card.scrollIntoViewIfNeeded();
		await shot(p, `api-console-${width}`);
	}
);
