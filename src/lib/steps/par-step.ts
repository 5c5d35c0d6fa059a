/**
 * The pushed authorization request (RFC 9126): the playground server pushes the consent request's
 * parameters and gets a `request_uri` for the consent URL. It belongs to the consent step: no card
 * of its own.
 */
import type { StepSpec } from './spec';

export const spec = {
	id: 'par',
	title: 'Pushed authorization request',
	name: 'pushed authorization request',
	travels: 'server',
	endpoint: 'par',
	strictJudge: 'processPushedAuthorizationResponse',
	action: { name: 'par', busy: 'Pushing the authorization request…' }
} as const satisfies StepSpec;
