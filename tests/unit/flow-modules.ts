import { vi } from 'vitest';
import { setupWith } from '$lib/oauth/setup';
import type { Session } from '$lib/server/session';

/** A flow with the sandbox's read-write client saved, and its secret. */
export const SANDBOX_FLOW: Session = {
	v: 1,
	setup: setupWith({
		base_url: 'http://127.0.0.1:5173/sandbox',
		redirect_uri: 'http://127.0.0.1:5173/callback',
		client_id: 'sandbox-rw'
	}),
	client_secret: 'sandbox-rw-secret'
};

/**
 * The session, undo and page modules, loaded afresh with a session key of the caller's own (32
 * bytes of `fill`). The caller mocks `$app/server` so that the actions run inside one flow's request.
 */
export async function flowModules(fill: number) {
	vi.resetModules();
	const { useEnv } = await import('$lib/env.server');
	useEnv({ PLAYGROUND_SESSION_KEY: Buffer.alloc(32, fill).toString('base64url') });
	const session = await import('$lib/server/session');
	const undo = await import('$lib/server/undo');
	const page = await import('$lib/server/page');
	return { ...session, ...undo, ...page };
}
