/**
 * Step 5, the refresh: the playground server sends the refresh token to the token endpoint for a
 * new access token (RFC 6749 §6; the service's API docs §4.3). The refresh token may rotate.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'refresh',
	n: 5,
	title: 'Refresh',
	heading: 'Refresh',
	name: 'refresh',
	fromExchanges: true,
	travels: 'server',
	endpoint: 'token',
	grantType: 'refresh_token',
	spends: 'refresh',
	freshConnection: true,
	strictJudge: 'processRefreshTokenResponse',
	verdict: 'tokens',
	action: {
		name: 'refresh',
		busy: 'Refreshing the access token…',
		done: 'the access token was refreshed.'
	},
	har: {
		rank: 2,
		matches: ({ path, form }) =>
			path.endsWith('/oauth2/token') &&
			form().some(([n, v]) => n === 'grant_type' && v === 'refresh_token')
	}
} as const satisfies StepSpec;
