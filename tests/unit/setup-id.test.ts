/** Which setup an exchange belongs to (server/flow/setup-id.ts): the id the server stamps on exchanges. */
import { expect, test } from 'vitest';
import { setupWith } from '$lib/oauth/setup';
import type { Exchange } from '$lib/exchange/types';
import { nextSetupId, stampSetup } from '$lib/server/flow/setup-id';

const setup = setupWith({
	base_url: 'https://reader.test',
	client_id: 'app',
	redirect_uri: 'https://pg.test/callback'
});

test('a setup saved again for the same client and service keeps its id (its tokens stay too)', () => {
	const session = { v: 1 as const, setup, setup_id: 'gen-1' };
	expect(nextSetupId(session, { ...setup, scope: 'read' })).toBe('gen-1');
});

test('another client id or token endpoint, or no id yet, gets a new id', () => {
	const session = { v: 1 as const, setup, setup_id: 'gen-1' };
	const other = nextSetupId(session, { ...setup, client_id: 'other-app' });
	expect(other).not.toBe('gen-1');
	expect(other).toMatch(/^[A-Za-z0-9_-]{12}$/);
	expect(nextSetupId(session, { ...setup, base_url: 'https://elsewhere.test' })).not.toBe('gen-1');
	expect(nextSetupId({ v: 1, setup }, setup)).not.toBe(nextSetupId({ v: 1, setup }, setup));
});

test('exchanges carry the setup id they were made with; none before a setup has one', () => {
	const ex = { id: 'e1', step: 'userinfo' } as Exchange;
	expect(stampSetup([ex], { v: 1, setup_id: 'gen-2' })).toEqual([{ ...ex, setup: 'gen-2' }]);
	expect(stampSetup([ex], { v: 1 })).toEqual([ex]);
});
