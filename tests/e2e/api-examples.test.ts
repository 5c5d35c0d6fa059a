/**
 * The API step's list of examples, in real Chromium: picking one fills the whole form (method,
 * path, query, body) as it is sent, and the sandbox's edit-tag example, sent as shown, gets a
 * 2xx. A bad item id's 400 is explained on the page.
 */
import { expect } from 'vitest';
import { shot } from '../helpers/browser';
import { signIn } from '../helpers/e2e';
import { e2eTest } from '../helpers/fixtures';

const test = e2eTest({ PLAYGROUND_LOG: 'off' });

test('picking the sandbox’s edit-tag example fills the form, and it works as shown', async ({
	srv,
	newPage
}) => {
	const p = await newPage();
	await signIn(p, srv.url, 'Sandbox (read write)');
	const list = p.getByLabel('Endpoints of the built-in sandbox');
	const star = list.locator('option[data-path="edit-tag"]').first();
	const body = (await star.getAttribute('data-body'))!;
	expect(body).toMatch(/^i=\d+&a=user\/-\/state\/com\.google\/starred$/);
	await list.selectOption({ value: (await star.getAttribute('value'))! });
	expect(await p.getByLabel('Method').inputValue()).toBe('POST');
	expect(await p.getByLabel(/Path below/).inputValue()).toBe('edit-tag');
	expect(await p.getByLabel('Form body').inputValue()).toBe(body);
	await p.getByRole('button', { name: 'Send' }).click();
	const api = p.locator('#api details.exchange');
	await expect.poll(() => api.textContent()).toContain('200 OK');
	await shot(p, 'api-example-edit-tag');

	// A made-up item id: the 400 gets its explanation.
	await p.getByLabel('Form body').fill('i=item-1&a=user/-/state/com.google/starred');
	await p.getByRole('button', { name: 'Send' }).click();
	const bad = p.locator('#api [data-code="bad-item-id"]');
	await expect.poll(() => bad.count()).toBeGreaterThan(0);
	expect(await bad.first().textContent()).toContain('stream/items/ids');
	await shot(p, 'api-bad-item-id');
});
