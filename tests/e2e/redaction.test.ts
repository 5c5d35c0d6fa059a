/**
 * echo in Chromium: a token endpoint that echoes the client secret (tests/helpers/echo.ts) as an
 * extra field of its token response, and in every other encoding redaction covers. The token panel
 * shows `<redacted>` for the echoed `client_secret` extra field, and no response the browser
 * receives holds the secret in any of those encodings.
 */
import { expect } from 'vitest';
import { shot } from '../helpers/browser';
import { openPlayground, flowUrl } from '../helpers/e2e';
import { startEchoServer } from '../helpers/echo';
import { copiesIn } from '../helpers/copies';
import { e2eTest } from '../helpers/fixtures';

const SECRET = 'Ech"o\\ sécret+%/ünï€-42';

const test = e2eTest({}, { record: true })
	// eslint-disable-next-line no-empty-pattern
	.extend('echo', { scope: 'file' }, async ({}, { onCleanup }) => {
		const echo = await startEchoServer();
		onCleanup(() => echo.close());
		return echo;
	});

test('echo: the token panel shows <redacted> for a client_secret the token endpoint echoes as an extra field', async ({
	srv,
	echo,
	newPage,
	traffic
}) => {
	const p = await newPage();
	await openPlayground(p, srv.url);
	await p.getByLabel('Base URL of the service').fill(echo.url);
	await p.getByLabel('Client id').fill('echo-app');
	await p.getByLabel('Client secret').fill(SECRET);
	await p.getByLabel('Scope', { exact: true }).fill('read');
	await p.getByRole('button', { name: 'Save setup' }).click();
	await p.getByTestId('consent-url').waitFor();
	await p.getByRole('link', { name: 'Open the consent page' }).click();
	await p.waitForURL(flowUrl(srv.url));
	await p.getByTestId('access-token').waitFor();

	const extra = p
		.locator('.tokens dt', { hasText: 'client_secret' })
		.locator('xpath=following-sibling::dd[1]');
	await expect.poll(() => extra.textContent()).toBe('<redacted>');
	expect(await p.locator('.tokens dt', { hasText: 'echo_u' }).count()).toBe(1);
	await shot(p, 'redaction-01-token-panel');

	const panel = (await p.locator('.tokens').textContent()) ?? '';
	const page = (await p.content()) ?? '';
	const found = [
		...copiesIn(SECRET, panel).map((c) => `${c} in the token panel`),
		...copiesIn(SECRET, page).map((c) => `${c} in the page`),
		...traffic.bodies.flatMap((b) => copiesIn(SECRET, b.text).map((c) => `${c} in ${b.url}`))
	];
	expect(found).toEqual([]);
	expect(traffic.bodies.some((b) => b.text.includes('echo_base64_2'))).toBe(true);
});
