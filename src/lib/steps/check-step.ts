/**
 * The registration check: the playground server fetches the consent URL without following
 * redirects, to read whether the service accepts the client id and the redirect URI before a person
 * is sent there. It belongs to the consent step: no card of its own.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'check',
	title: 'Registration check',
	name: 'registration check',
	travels: 'server',
	endpoint: 'authorization',
	verdict: 'registration',
	action: { name: 'check', busy: 'Checking the consent URL with the service…' }
} as const satisfies StepSpec;
