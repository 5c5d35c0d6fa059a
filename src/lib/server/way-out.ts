/**
 * One way out. What came from the service or the wire leaves the server for the page through
 * `outward`: the page data's exchanges, callback and tokens, every step's exchanges and answer (a
 * JWT check's verdict, the metadata a fill found), and the callback's outbox. It redacts the client
 * secrets of the sessions the value was made with (the one before a step and the one after it), and
 * `secretsOf` is the one place that says which secrets those are. The setup the user typed is
 * theirs and goes out as it is.
 */
import { redactExchange, redactValue, type Secret } from '$lib/exchange/redact';
import type { Exchange } from '$lib/exchange/types';
import type { Session } from './session';

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
 * `value` as it may leave: the secrets of `sessions` replaced everywhere in it. An exchange, or a
 * list of them, also notes where each secret was found (`Exchange.redactions`), so that its view
 * can say so.
 */
export function outward<T>(value: T, ...sessions: (Session | undefined)[]): T {
	const secrets = secretsOf(...sessions);
	if (isExchange(value)) return redactExchange(value, secrets) as T;
	if (Array.isArray(value) && value.every(isExchange))
		return value.map((ex) => redactExchange(ex, secrets)) as T;
	return redactValue(value, secrets);
}
