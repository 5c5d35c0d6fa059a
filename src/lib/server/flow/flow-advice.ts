/**
 * Whose advice fits a flow (oauth/advice.ts decides): its setup, whether its consent page is the
 * built-in sandbox's on this origin, and the scopes the verified metadata listed, counted only for
 * the token endpoint it was fetched for (as its client authentication methods are, send-step.ts).
 */
import { adviceFor, type Advice } from '$lib/oauth/advice';
import { endpoints } from '$lib/oauth/setup';
import type { Session } from '../session/session';
import type { Presets } from './presets';

export function flowAdvice(
	presets: Pick<Presets, 'isSandboxTarget'>,
	session: Pick<Session, 'setup' | 'metadata_for'>,
	origin: string
): Advice {
	const { setup, metadata_for: metadata } = session;
	const scopes =
		setup && metadata?.scopes && metadata.token_endpoint === endpoints(setup).token
			? metadata.scopes
			: undefined;
	return adviceFor(setup, presets.isSandboxTarget(setup, origin), scopes);
}
