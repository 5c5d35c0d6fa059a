/**
 * Step 2, the callback: the service sends the browser back to the playground's redirect URI with
 * `code` and `state`, or with `error` (RFC 6749 §4.1.2), and the playground checks the state. Its
 * exchange is that request as it arrived, and the playground's own answer.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'callback',
	n: 2,
	title: 'Callback',
	heading: 'Callback and state check',
	name: 'callback',
	travels: 'redirect-back',
	verdict: 'consent',
	// Paste-back mode: the address the application landed on, pasted by hand, read as the callback.
	action: { name: 'pasteback', busy: 'Reading the pasted address…' },
	har: { rank: 4, matches: ({ path }) => path.endsWith('/callback') }
} as const satisfies StepSpec;
