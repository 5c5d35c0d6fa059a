/**
 * Trust at the callback, called from `handleCallback` (redirect-back.ts):
 * - a redirect whose state is not the flow's pending one changes nothing in the flow: the pending
 *   request, the callback record and any code stay as they were. A stale one (a state the flow used
 *   or replaced) goes only to the flow's outbox, which the next page load shows once and empties; an
 *   unsolicited one is only shown (oauth/callback.ts);
 * - for a redirect whose state matched, the `iss` check of RFC 9207 (oauth/issuer.ts).
 */
import type { Exchange } from '$lib/exchange/types';
import { hasCode } from '$lib/oauth/catalogue/raise';
import {
	ignoredFinding,
	isIgnoredCallback,
	type IgnoredKind,
	type StaleWhy
} from '$lib/oauth/callback';
import {
	checkIssuer,
	expectedIssuer,
	type IssuerMetadata,
	type IssuerVerdict
} from '$lib/oauth/issuer';
import type { Session } from '../session/session';

/** An ignored redirect's address is kept this short: it is shown once, never used. */
const IGNORED_URL_CHARS = 600;

/**
 * The `iss` of a redirect whose state matched the pending consent request, against the issuer the
 * flow expects. The server's metadata is not known yet: discovery (a later issue) passes it here.
 */
export function issuerOnCallback(
	session: Session,
	params: URLSearchParams,
	metadata: IssuerMetadata | undefined = undefined
): IssuerVerdict | undefined {
	if (!session.pending) return undefined;
	return checkIssuer(
		params.get('iss') ?? undefined,
		expectedIssuer(session.setup?.issuer, metadata),
		session.pending.consent_url,
		metadata
	);
}

/**
 * The session after an ignored redirect: as it was, but for the outbox, which gets this redirect's
 * record (an earlier ignored one that was never shown is replaced, so the cookie stays small).
 */
export function ignoreCallback(
	session: Session,
	exchange: Exchange,
	kind: IgnoredKind
): { session: Session; exchange: Exchange } {
	// A stale redirect said in the user's terms: the address of the consent whose code this flow
	// took (exchanged since, or waiting for it), of one whose answer came back as an error, or of
	// one it has since replaced.
	const state = URL.canParse(exchange.request.url)
		? new URL(exchange.request.url).searchParams.get('state')
		: null;
	const same = state !== null && session.callback?.returned_state === state;
	const verdict = same ? session.callback?.verdict : undefined;
	const why: StaleWhy =
		verdict === 'code'
			? session.code
				? 'received'
				: 'exchanged'
			: verdict === 'error'
				? 'answered'
				: 'replaced';
	const url = exchange.request.url;
	const shown: Exchange = {
		...exchange,
		request: {
			...exchange.request,
			url:
				url.length > IGNORED_URL_CHARS
					? `${url.slice(0, IGNORED_URL_CHARS)}… (${url.length - IGNORED_URL_CHARS} more characters)`
					: url
		},
		// Only what is certain: a state-mismatch finding would guess at a forgery the kind already names.
		findings: [
			ignoredFinding(kind, why),
			...exchange.findings.filter((f) => hasCode(f, 'malformed-callback'))
		],
		note:
			kind === 'stale'
				? 'A redirect to the playground’s callback with a state this flow already used or replaced: shown once, then forgotten.'
				: 'A redirect to the playground’s callback that matches no consent request of this browser: shown once, never kept.'
	};
	const kept = (session.outbox ?? []).filter((e) => !isIgnoredCallback(e));
	return { session: { ...session, outbox: [...kept, shown] }, exchange: shown };
}
