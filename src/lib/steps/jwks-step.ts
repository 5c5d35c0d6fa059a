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
	endpoint: 'jwks',
	// The signature check of a token, which fetches the keys first.
	action: { name: 'jwt', busy: 'Fetching the issuer’s keys and checking the signature…' }
} as const satisfies StepSpec;
