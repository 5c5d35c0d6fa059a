/**
 * Support staff import a customer's browser HAR (tests/fixtures/customer.har, recorded from Chromium
 * against the sandbox by scripts/record-customer-har.js): the customer's application, at its own
 * host, registered "Read only", asked for `read write`. The redirect back to the application is
 * shown with the invalid_scope it carried and the fix, beside the consent request; the
 * application's own files are left out and counted.
 */
import { expect } from 'vitest';
import { shot } from '../helpers/browser';
import { openPlayground } from '../helpers/e2e';
import { axeProblems } from '../helpers/axe';
import { e2eTest } from '../helpers/fixtures';

const test = e2eTest();

test("a customer's browser HAR: the redirect back to its application shows its invalid_scope, with the fix, at 390 px", async ({
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
	await back.locator(':scope > summary').click();
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
