/**
 * Start over and Undo over real HTTP against the built server: the reset clears the flow, Undo
 * brings it back (the tokens still work), and once another action came between, Undo is a 410
 * with the reason. The 30-second limit itself is checked on a faked clock in tests/unit/undo.test.ts.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide } from '../helpers/client';

let srv: TestServer;
beforeAll(async () => {
	srv = await startServer();
});
afterAll(() => srv?.stop());

async function signedIn(): Promise<Client> {
	const c = new Client(srv.url);
	await c.action('preset', { preset: 'sandbox-rw' });
	await c.fetch(await decide(c, consentUrlFrom(await c.page())));
	await c.page();
	expect((await c.action('exchange')).type).toBe('success');
	return c;
}

test('reset clears the flow; undo brings it back, tokens and all', async () => {
	const c = await signedIn();
	expect(await c.action('reset')).toMatchObject({ type: 'success', data: { undoMs: 30_000 } });
	const cleared = await c.page();
	expect(cleared).not.toContain('A secret is set');
	expect(cleared).not.toContain('data-testid="access-token"');
	expect((await c.action('userinfo')).type).toBe('failure');
	// That was an action: the old flow is gone.
	expect(await c.action('undo')).toMatchObject({
		type: 'failure',
		status: 410,
		data: { message: expect.stringMatching(/^Too late to undo: another action came/) }
	});

	const d = await signedIn();
	await d.action('reset');
	expect(await d.action('undo')).toMatchObject({ type: 'success', data: { undone: true } });
	expect(await d.page()).toContain('A secret is set');
	expect(await d.action('userinfo')).toMatchObject({ type: 'success' });
	// Once undone, there is nothing left to undo.
	expect(await d.action('undo')).toMatchObject({ type: 'failure', status: 410 });
});

test('undo without a Start over before it is a 410 with the reason, never a 500', async () => {
	const c = new Client(srv.url);
	const r = await c.action('undo');
	expect(r).toMatchObject({ type: 'failure', status: 410 });
	expect(String(r.data.message)).toMatch(/^Too late to undo/);
});
