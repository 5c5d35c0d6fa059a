/**
 * The client secret check: the playground server asks the service to authenticate the client
 * without a user and without issuing anything. Where the setup has a pushed authorization request
 * endpoint, a pushed request (RFC 9126 §2: the client is authenticated as at the token endpoint);
 * otherwise a code exchange with a made-up code, which no server can have issued. It belongs to the
 * consent step, beside the registration check: no card of its own. Never automatic, never the next
 * step, and the exports show it without sending it.
 */
import type { HarRequest, StepSpec } from './spec';

/**
 * What starts the check's made-up code (and the state of its pushed request), followed by 32
 * random letters and digits: the transcript, the exports and a HAR import tell it from a real one.
 */
export const MADE_UP_PREFIX = 'oauth-playground-secret-check-';

/** A value the check made up: its prefix and 32 letters and digits, nothing before or after. */
export function isMadeUp(value: string): boolean {
	return (
		value.startsWith(MADE_UP_PREFIX) && /^[A-Za-z0-9]{32}$/.test(value.slice(MADE_UP_PREFIX.length))
	);
}

export const spec = {
	id: 'secret',
	title: 'Client secret check',
	name: 'client secret check',
	travels: 'server',
	// No endpoint of its own: it goes to the token endpoint or to the pushed request's, and its
	// judgement (oauth/judge-secret.ts) reads its answer as the one it went to.
	verdict: 'secret',
	exportsShowOnly:
		'The client secret check, shown for the record: a script never sends it. It is no step of the flow (its code, or its pushed state, is made up); check the secret from the playground, which judges the answer.',
	okWhen: {
		'secret-accepted': 'credentials accepted',
		'secret-likely-accepted': 'credentials likely accepted'
	},
	action: { name: 'secret', busy: 'Checking the client secret with the service…' },
	// A request carrying the check's made-up code (or state), whatever its endpoint: before the rest.
	har: {
		rank: 0,
		matches: ({ form }: HarRequest) =>
			form().some(([n, v]) => (n === 'code' || n === 'state') && isMadeUp(v))
	}
} as const satisfies StepSpec;
