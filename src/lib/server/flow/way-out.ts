/**
 * One way out. What came from the service or the wire leaves the server for the page through
 * `outward`: the page data's exchanges, callback and tokens, every step's exchanges and answer (a
 * JWT check's verdict, the metadata a fill found), and the callback's outbox. It redacts the client
 * secrets of the sessions the value was made with (the one before a step and the one after it), and
 * `secretsOf` is the one place that says which secrets those are. It redacts with the app's
 * redactors (`createRedactors`, made by the composition root: playground.ts), which keep the
 * matchers of the secrets used lately and go with the app. The setup the user typed is theirs and
 * goes out as it is.
 */
import { createRedactors, type Redactors, type Secret } from '$lib/exchange/redact';
import type { Exchange } from '$lib/exchange/types';
import type { Session } from '../session/session';

export { createRedactors, type Redactors };

/** The secrets of these sessions, for redaction. */
export function secretsOf(...sessions: (Session | undefined)[]): Secret[] {
	const values = new Set(sessions.map((s) => s?.client_secret).filter((v) => !!v) as string[]);
	return [...values].map((value) => ({ name: 'client_secret', value }));
}

function isExchange(value: unknown): value is Exchange {
	return (
		typeof value === 'object' &&
		value !== null &&
		'request' in value &&
		'step' in value &&
		'findings' in value
	);
}

/**
 * `value` as it may leave: the secrets of `sessions` replaced everywhere in it, by the app's
 * `redactors`. An exchange, or a list of them, also notes where each secret was found
 * (`Exchange.redactions`), so that its view can say so.
 */
export function outward<T>(
	redactors: Redactors,
	value: T,
	...sessions: (Session | undefined)[]
): T {
	const redactor = redactors.of(secretsOf(...sessions));
	if (isExchange(value)) return redactor.exchange(value) as T;
	if (Array.isArray(value) && value.every(isExchange))
		return value.map((ex) => redactor.exchange(ex)) as T;
	return redactor.value(value);
}
