/**
 * The Exchange: one HTTP round trip as it went on the wire.
 * It is the only record that the views, the diagnostics and the exports read.
 */

export type Step =
	| 'consent'
	| 'callback'
	| 'exchange'
	| 'refresh'
	| 'userinfo'
	| 'api'
	| 'introspect'
	| 'revoke'
	| 'check'
	| 'discovery'
	| 'par'
	| 'jwks';

/** Requests that belong to a numbered step or to the setup, with no card of their own. */
export type UnnumberedStep = 'check' | 'discovery' | 'par' | 'jwks';

/**
 * The steps' numbers and names, defined once: `title` names an exchange in the views and the exports,
 * `heading` is the step card's heading. The numbers follow the order of the flow, as the page shows
 * the cards: the token is used (user-info) before it is refreshed (the service's API docs §5 steps
 * 5 and 6). Introspection and revocation come last: revoking ends what the others use. The
 * registration check and the metadata fetch belong to the setup, the pushed request to the consent
 * step and the key fetch to the tokens, so they have no number and no card of their own.
 */
export const STEPS: Readonly<
	Record<Exclude<Step, UnnumberedStep>, { n: number; title: string; heading: string }> &
		Record<UnnumberedStep, { n?: undefined; title: string; heading?: undefined }>
> = {
	consent: { n: 1, title: 'Consent redirect', heading: 'Consent redirect' },
	callback: { n: 2, title: 'Callback', heading: 'Callback and state check' },
	exchange: { n: 3, title: 'Code exchange', heading: 'Code exchange' },
	userinfo: { n: 4, title: 'User-info', heading: 'User-info' },
	refresh: { n: 5, title: 'Refresh', heading: 'Refresh' },
	api: { n: 6, title: 'API call', heading: 'Any API call' },
	introspect: { n: 7, title: 'Introspection', heading: 'Introspection' },
	revoke: { n: 8, title: 'Revocation', heading: 'Revocation' },
	check: { title: 'Registration check' },
	discovery: { title: 'Metadata' },
	par: { title: 'Pushed authorization request' },
	jwks: { title: 'Issuer keys (JWKS)' }
};

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
}

export type FailureKind =
	| 'refused'
	| 'timeout'
	| 'dns'
	| 'tls'
	| 'too-large'
	| 'blocked'
	| 'reset'
	| 'busy'
	| 'cancelled'
	| 'network';

export interface Failure {
	kind: FailureKind;
	message: string;
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

export type FindingLevel = 'error' | 'warning' | 'info';

export interface Finding {
	level: FindingLevel;
	code: string;
	message: string;
	fix?: string;
	ref?: string;
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
	 * Which setup the exchange was made with: an opaque id the server gives each setup (a new one
	 * when the client or the service changes), never derived from the secret. Step statuses count
	 * only the current setup's exchanges.
	 */
	setup?: string;
}

export function headerValue(headers: HeaderList, name: string): string | undefined {
	const lower = name.toLowerCase();
	return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}
