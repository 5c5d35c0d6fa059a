/**
 * Step 3, the code exchange: the playground server posts the code to the token endpoint for tokens
 * (RFC 6749 §4.1.3; the service's API docs §4.2). The code is single-use.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'exchange',
	n: 3,
	title: 'Code exchange',
	heading: 'Code exchange',
	name: 'code exchange',
	fromExchanges: true,
	travels: 'server',
	endpoint: 'token',
	grantType: 'authorization_code',
	spends: 'code',
	freshConnection: true,
	strictJudge: 'processAuthorizationCodeResponse',
	verdict: 'tokens',
	action: {
		name: 'exchange',
		busy: 'Exchanging the code for tokens…',
		done: 'the code was exchanged for tokens.'
	},
	// Any request to the token endpoint that the refresh (rank 2) did not claim.
	har: { rank: 3, matches: ({ path }) => path.endsWith('/oauth2/token') }
} as const satisfies StepSpec;
