/**
 * https:// on a plain-HTTP port, in Chromium at a phone's width: "Check the consent URL" says the
 * port speaks plain HTTP and to use http://, not that a certificate is untrusted; OpenSSL's own
 * words are on the page once, folded away.
 */
import http from 'node:http';
import { expect } from 'vitest';
import { shot } from '../helpers/browser';
import { openPlayground } from '../helpers/e2e';
import { axeProblems } from '../helpers/axe';
import { e2eTest } from '../helpers/fixtures';
import { listen } from '../helpers/listen';

const test = e2eTest();

test('https:// on a plain-HTTP port: called a plain-HTTP port, with OpenSSL’s words once, folded', async ({
	srv,
	newPage,
	problems
}) => {
	const plain = http.createServer((_req, res) => res.writeHead(404).end());
	const { port } = await listen(plain);
	try {
		const p = await newPage({ width: 390, height: 844 });
		await openPlayground(p, srv.url);
		await p.getByLabel('Base URL of the service').fill(`https://127.0.0.1:${port}`);
		await p.getByLabel('Client id').fill('any-client');
		await p.getByLabel('Client secret').fill('any-secret');
		await p.getByRole('button', { name: 'Save setup' }).click();
		await p.getByTestId('consent-url').waitFor();
		await p.getByRole('button', { name: 'Check the consent URL' }).click();
		const finding = p.locator('#consent li.finding[data-code="plain-http-port"]');
		await finding.waitFor();
		expect(await finding.innerText()).toContain('this port speaks plain HTTP');
		expect(await finding.locator('.fix').innerText()).toMatch(/^Use http:\/\/ for this port/);
		expect(await p.locator('#consent li.finding[data-code="tls-failure"]').count()).toBe(0);
		const consent = p.locator('#consent');
		expect(await consent.innerText()).not.toContain('Accept invalid TLS certificates');
		// OpenSSL's words: once in the step, and folded until asked for.
		const detail = consent.locator('details.failure-detail');
		expect(await detail.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
		expect((await consent.textContent())!.split('wrong version number').length - 1).toBe(1);
		await detail.locator('summary').click();
		expect(await detail.locator('code').innerText()).toMatch(/wrong version number/);
		await finding.scrollIntoViewIfNeeded();
		await shot(p, '64-plain-http-port-390', { screen: true });
		expect(await axeProblems(p), 'axe: the finding and the folded words').toEqual([]);
		expect(problems, 'no console errors, page errors or CSP violations').toEqual([]);
	} finally {
		await new Promise((ok) => plain.close(ok));
	}
});
