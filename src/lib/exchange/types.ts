/**
 * The Exchange: one HTTP round trip as it went on the wire.
 * It is the only record that the views, the diagnostics and the exports read.
 */

import type { Step } from '$lib/steps/registry';

export type { Step };

/** "200 OK", or "200" when the service sent no reason phrase. */
export function statusLine(res: Pick<ExchangeResponse, 'status' | 'statusText'>): string {
	return res.statusText ? `${res.status} ${res.statusText}` : String(res.status);
}

/** Header lists keep their order and their case, as sent or as received. */
export type HeaderList = [name: string, value: string][];

export interface ExchangeRequest {
	method: string;
	url: string;
	httpVersion: string;
	headers: HeaderList;
	body: string;
}

export interface ExchangeResponse {
	status: number;
	statusText: string;
	httpVersion: string;
	headers: HeaderList;
	body: string;
	/** True when the body was cut at the response size cap. */
	truncated: boolean;
	/**
	 * An imported response whose body the file does not hold: left out when it was saved (`size`:
	 * the bytes its `content.size` gives), or in a base64 that does not decode. Its `body` is ''.
	 */
	bodyMissing?: { why: 'not-recorded' | 'undecodable'; size?: number };
}

/** How a request got no (full) answer: the sender's failure kinds, read back by the HAR import too. */
export const FAILURE_KINDS = [
	'refused',
	'timeout',
	'dns',
	'tls',
	'plain-http',
	'too-large',
	'blocked',
	'reset',
	'busy',
	// A GET the pool ended to give its connection to another visitor (server/outbound/host-slots.ts).
	'ended',
	'cancelled',
	'network'
] as const;

export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Each failure kind in words, as the page's badges, diagram and verdict say it. */
export const FAILURE_WORDS: Record<FailureKind, string> = {
	refused: 'connection refused',
	timeout: 'timed out',
	dns: 'host not found',
	tls: 'TLS failed',
	'plain-http': 'plain HTTP on this port',
	'too-large': 'answer too large',
	blocked: 'address not allowed',
	reset: 'connection reset',
	busy: 'too many requests',
	ended: 'ended for another visitor',
	cancelled: 'cancelled',
	network: 'network error'
};

export interface Failure {
	kind: FailureKind;
	message: string;
	/** The library's own words (OpenSSL's, say), where the message puts them in plain words. */
	detail?: string;
	/** The server closed a new connection without sending a byte (a `reset`): a TLS port, perhaps. */
	silent?: true;
}

export interface Timing {
	/** Waited this long for one of the playground's own connections to the host (when it had to). */
	queued?: number;
	dns?: number;
	connect?: number;
	tls?: number;
	firstByte?: number;
	total: number;
}

type FindingLevel = 'error' | 'warning' | 'info';

/**
 * The value a finding's fix names for one setup field (`scope` → `read`), when the fix is that
 * plain: the "Try again" buttons offer it, and no two findings of a failure may suggest different
 * values for the same field.
 */
export interface Suggestion {
	/** A setup field's name (oauth/setup-fields.ts). */
	field: string;
	value: string;
}

export interface Finding {
	level: FindingLevel;
	code: string;
	message: string;
	fix?: string;
	ref?: string;
	suggest?: Suggestion;
}

/** What the playground noted about the secret it redacted, so the view can say so. */
export interface Redaction {
	/** Field or header that was redacted, e.g. "client_secret" or "Authorization (Basic)". */
	what: string;
	/** Length in bytes of the value that was really sent. */
	length: number;
}

export interface Exchange {
	id: string;
	step: Step;
	startedAt: string;
	request: ExchangeRequest;
	response?: ExchangeResponse;
	failure?: Failure;
	timing: Timing;
	findings: Finding[];
	redactions?: Redaction[];
	/** Short human label, e.g. "Token exchange" or "Refresh before user-info (token had expired)". */
	note?: string;
	/**
	 * Sent again on purpose, to show how the service answers ("Replay this code", a fork's check of
	 * revocation): shown in the transcript, but never a step's result or the flow's verdict.
	 */
	replay?: true;
	/**
	 * Which setup the exchange was made with: an opaque id the server gives each setup (a new one
	 * when the client or the service changes), never derived from the secret. Step statuses count
	 * only the current setup's exchanges.
	 */
	setup?: string;
	/**
	 * The client secret check's (steps/secret-step.ts): the opaque id of the credentials it judged,
	 * new with another secret, another way of sending it, or another setup (server/flow/setup-id.ts),
	 * never derived from the secret. A check of other credentials than the current ones is no verdict
	 * on them.
	 */
	credentials?: string;
}

export function headerValue(headers: HeaderList, name: string): string | undefined {
	const lower = name.toLowerCase();
	return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

/**
 * Each exchange's running number: its place in the list, which is the order they were sent (the
 * transcript adds them as they come back, an import keeps the file's order). The transcript, the
 * diagram, the step cards and the Markdown report all number from here.
 */
export function exchangeNumbers(list: readonly Exchange[]): Map<string, number> {
	return new Map(list.map((ex, i) => [ex.id, i + 1]));
}
