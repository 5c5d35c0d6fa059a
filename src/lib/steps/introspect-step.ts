/**
 * Step 7, introspection (RFC 7662): the playground server asks the introspection endpoint, with the
 * client's authentication, whether a token is active. The service's API docs publish no such
 * endpoint: the setup names it.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'introspect',
	n: 7,
	title: 'Introspection',
	heading: 'Introspection',
	name: 'introspection',
	fromExchanges: true,
	travels: 'server',
	endpoint: 'introspection',
	strictJudge: 'processIntrospectionResponse',
	action: { name: 'introspect', busy: 'Asking the server about the token (introspection)…' },
	har: { rank: 7, matches: ({ path }) => /\/(introspect|introspection)\/?$/i.test(path) }
} as const satisfies StepSpec;
