/**
 * The metadata fetch: the playground server reads the authorization server's metadata (RFC 8414)
 * to fill in the setup. It belongs to the setup: no card of its own.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'discovery',
	title: 'Metadata',
	name: 'metadata',
	belongsTo: 'setup',
	travels: 'server',
	// "Fill from metadata": its button shows its own progress.
	action: { name: 'discover' },
	har: { rank: 5, matches: ({ path }) => path.includes('/.well-known/') }
} as const satisfies StepSpec;
