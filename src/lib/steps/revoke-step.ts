/**
 * Step 8, revocation (RFC 7009): the playground server revokes a token at the revocation endpoint,
 * then uses it once more as proof. It comes last: revoking ends what the other steps use.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'revoke',
	n: 8,
	title: 'Revocation',
	heading: 'Revocation',
	name: 'revocation',
	fromExchanges: true,
	travels: 'server',
	endpoint: 'revocation',
	spends: 'revoke',
	strictJudge: 'processRevocationResponse',
	action: { name: 'revoke', busy: 'Revoking the token, then trying it once more…' },
	har: { rank: 6, matches: ({ path }) => /\/(revoke|revocation)\/?$/i.test(path) }
} as const satisfies StepSpec;
