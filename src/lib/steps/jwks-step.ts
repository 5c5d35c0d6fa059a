/**
 * The issuer's keys: the playground server fetches the setup's `jwks_uri` (RFC 7517) to check a
 * token's signature. It belongs to the tokens: no card of its own.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'jwks',
	title: 'Issuer keys (JWKS)',
	name: 'issuer keys',
	travels: 'server',
	endpoint: 'jwks'
} as const satisfies StepSpec;
