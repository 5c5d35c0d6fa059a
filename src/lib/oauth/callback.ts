/**
 * Which redirects back may touch the flow (RFC 6749 §10.12). Only a redirect whose state is the
 * pending one uses that state up; any other (a stray, a replay, a forged `/callback?state=x&code=y`)
 * is ignored: the pending consent request stays pending, and the redirect is only shown once, with
 * the finding below. Pure functions: no I/O.
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { sameString } from './consent';
import * as F from './findings';

/** True when the redirect carries exactly one state and it is the saved one. */
export function stateMatches(params: URLSearchParams, savedState: string | undefined): boolean {
	if (savedState === undefined) return false;
	const returned = params.getAll('state');
	return returned.length === 1 && sameString(returned[0]!, savedState);
}

/** The finding on a redirect that was ignored. */
export function ignoredFinding(pending: boolean): Finding {
	return {
		level: 'info',
		code: F.CALLBACK_IGNORED,
		message: pending
			? 'The playground ignored this redirect: its state is not the one of the pending consent request. That request is still pending, and nothing of this redirect was kept beyond this record.'
			: 'The playground ignored this redirect: no consent request was pending. Nothing of it was kept beyond this record.',
		ref: 'RFC 6749 §10.12'
	};
}

/** Whether an Exchange is the record of an ignored redirect. */
export function isIgnoredCallback(ex: Exchange): boolean {
	return ex.step === 'callback' && ex.findings.some((f) => f.code === F.CALLBACK_IGNORED);
}
