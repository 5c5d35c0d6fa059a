/**
 * Step 6, any API call: a request of the user's to the service's API with the access token (RFC
 * 6750; the service's API docs §4.4). Its reads and writes answer in JSON, a write with `OK`.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'api',
	n: 6,
	title: 'API call',
	heading: 'Any API call',
	name: 'API call',
	fromExchanges: true,
	travels: 'server',
	endpoint: 'api',
	sendsAccessToken: true,
	action: { name: 'api', busy: 'Calling the API…' },
	// Anything below the API's path that is not the user-info endpoint (rank 8).
	har: { rank: 9, matches: ({ path }) => path.includes('/reader/api/0/') }
} as const satisfies StepSpec;
