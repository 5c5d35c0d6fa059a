/**
 * Which setup an exchange belongs to. Each saved setup gets an opaque id, random and never derived
 * from the secret; it is kept while the client id and the URLs that receive the secret stay the same
 * (the tokens stay then too), and a new one comes with another client or service, a preset, or after
 * Start over. Every exchange the server hands to the page carries the id of the setup it was made
 * with, and the page data names the current one, so a step's status counts only this setup's
 * exchanges (ui/step-status.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Exchange } from '$lib/exchange/types';
import type { Setup } from '$lib/oauth/setup';
import { bindingChanges, bindSecret } from '$lib/oauth/secret-binding';
import type { Session } from '../session/session';

declare module '../session/session' {
	interface Session {
		/** The setup's id, which every exchange made with it carries. */
		setup_id?: string;
		/** The id of the client's credentials, which a client secret check carries. */
		credentials_id?: string;
	}
}

export function newSetupId(): string {
	return randomBytes(9).toString('base64url');
}

/** The id of `setup` saved over the session's: the same while its binding is the same, else new. */
export function nextSetupId(session: Session, setup: Setup): string {
	const same =
		!!session.setup_id &&
		!!session.setup &&
		bindingChanges(bindSecret(session.setup), setup).length === 0;
	return same ? session.setup_id! : newSetupId();
}

/**
 * The id of the credentials of `after` (the session a save or a preset makes of `before`): the same
 * while the setup, the secret and the way it is sent stay the same, else new. A client secret check
 * carries it, so the page never shows a check of another secret as a verdict on this one.
 */
export function nextCredentialsId(before: Session, after: Session): string {
	const same =
		!!before.credentials_id &&
		before.setup_id === after.setup_id &&
		before.client_secret === after.client_secret &&
		before.preset === after.preset &&
		before.setup?.token_endpoint_auth_method === after.setup?.token_endpoint_auth_method;
	return same ? before.credentials_id! : newSetupId();
}

/** The exchanges, each marked with the session's setup id (none before a setup was saved). */
export function stampSetup<T extends Exchange>(exchanges: T[], session: Session): T[] {
	const setup = session.setup_id;
	return setup ? exchanges.map((ex) => ({ ...ex, setup })) : exchanges;
}
