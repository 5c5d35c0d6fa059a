/**
 * Step 4, user-info: the access token sent to the user-info endpoint (RFC 6750; the service's API
 * docs §4.4). The token is used before it is refreshed, as the API docs' §5 orders the steps.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'userinfo',
	n: 4,
	title: 'User-info',
	heading: 'User-info',
	name: 'user-info',
	fromExchanges: true,
	travels: 'server',
	endpoint: 'userinfo',
	sendsAccessToken: true,
	action: { name: 'userinfo', busy: 'Reading the user info…' },
	har: { rank: 8, matches: ({ path }) => path.endsWith('/reader/api/0/user-info') }
} as const satisfies StepSpec;
