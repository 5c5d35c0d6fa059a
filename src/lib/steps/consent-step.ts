/**
 * Step 1, the consent redirect: the browser opens the consent URL the playground built, and the
 * service shows its consent page to a person (RFC 6749 §4.1.1; the service's API docs §4.1). No
 * answer is recorded: the service answers the browser.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'consent',
	n: 1,
	title: 'Consent redirect',
	heading: 'Consent redirect',
	name: 'consent',
	travels: 'navigation',
	endpoint: 'authorization',
	verdict: 'opened',
	har: { rank: 1, matches: ({ path }) => path.endsWith('/oauth2/auth') }
} as const satisfies StepSpec;
