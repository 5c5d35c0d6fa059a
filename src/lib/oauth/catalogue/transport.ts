/**
 * The findings of a request that got no answer: the sender's failure kinds (`Exchange.failure`),
 * each with the sender's own message as its words. They rest on no RFC section: a refused
 * connection or a bad certificate is the network's doing, not a protocol rule, so their `ref` is
 * undefined on purpose. `diagnose.ts` picks the entry by the failure's kind. Beside them, two
 * findings about how the request went: a code exchange cut off before any answer (which does rest
 * on RFC 6749), and a wait for one of the playground's own connections. A GET the playground ended
 * to make room for another visitor rests on RFC 9110's safe methods: it may be sent again.
 */
import { entry } from './raise';

/** The sender's message, as it is. */
const asSent = (message: string) => message;

/**
 * The outbound policy refused the address; the request never left. A hosted copy's list of hosts
 * (PLAYGROUND_ALLOWED_HOSTS) refuses public addresses too: its fix says so.
 */
export const BLOCKED = entry({
	code: 'blocked',
	level: 'error',
	message: (m: string) => `The playground refused to send this request: ${m}`,
	fix: (m: string) =>
		/PLAYGROUND_ALLOWED_HOSTS/.test(m)
			? 'This hosted playground connects only to the hosts (and ports) its operator listed: use one of them, ask the operator to list the service’s, or run the playground on your own machine (npm start), which reaches any server.'
			: 'Use a public http(s) address of the service, or run the playground locally to reach a server on your own machine.',
	ref: undefined
});

/** Nothing listens at the address. */
export const CONNECTION_REFUSED = entry({
	code: 'connection-refused',
	level: 'error',
	message: asSent,
	fix: 'Check the base URL and port, and that the service is running.',
	ref: undefined
});

/** The host name does not resolve. */
export const DNS_FAILURE = entry({
	code: 'dns-failure',
	level: 'error',
	message: asSent,
	fix: 'Check the spelling of the host name in the base URL.',
	ref: undefined
});

/** The service did not answer in time. */
export const TIMEOUT = entry({
	code: 'timeout',
	level: 'error',
	message: asSent,
	fix: 'The service is slow or unreachable. Try again, or check the base URL.',
	ref: undefined
});

/** The TLS handshake or the certificate check failed. */
export const TLS_FAILURE = entry({
	code: 'tls-failure',
	level: 'error',
	message: asSent,
	fix: 'The certificate is not trusted (self-signed, expired, or for another name). Fix the certificate. For a test server of your own, run the playground locally and tick "Accept invalid TLS certificates" in the setup\'s Advanced settings; the hosted playground always checks certificates.',
	ref: undefined
});

/** An https:// URL on a port that answers in plain HTTP: the handshake got no TLS back. */
export const PLAIN_HTTP_PORT = entry({
	code: 'plain-http-port',
	level: 'error',
	message: asSent,
	fix: 'Use http:// for this port in the base URL and the endpoints, or the port where the service speaks https. No certificate setting can help: no TLS answered.',
	ref: undefined
});

/**
 * A hint beside the failure or the answer, not a verdict: an http:// URL whose server said that it
 * wants TLS (nginx's "The plain HTTP request was sent to HTTPS port", Apache's "You're speaking
 * plain HTTP to an SSL-enabled server port"), or closed a new connection without a byte, as a TLS
 * port does when it reads a plain request.
 */
export const TLS_PORT_HINT = entry({
	code: 'tls-port-hint',
	level: 'warning',
	message: (said: string | undefined) =>
		said
			? `The server says this port speaks TLS, in its words: "${said}"`
			: 'The server closed a new connection without sending a byte: this port may speak TLS.',
	fix: 'Try https:// for this port in the base URL and the endpoints.',
	ref: undefined
});

/** The response body was cut at the size cap. */
export const RESPONSE_TOO_LARGE = entry({
	code: 'response-too-large',
	level: 'warning',
	message: asSent,
	fix: 'A token or user-info response should be small; check that the URL points at the right endpoint.',
	ref: undefined
});

/** The connection closed before a full response. */
export const CONNECTION_RESET = entry({
	code: 'connection-reset',
	level: 'error',
	message: asSent,
	ref: undefined
});

/** Every one of the playground's connections to the host was in use by other visitors' requests. */
export const POOL_BUSY = entry({
	code: 'pool-busy',
	level: 'warning',
	message: asSent,
	fix: 'This is the playground being busy, not the service. Try the step again in a moment.',
	ref: undefined
});

/** The user cancelled the step. */
export const CANCELLED = entry({
	code: 'cancelled',
	level: 'info',
	message: 'You cancelled this request before it finished.',
	ref: undefined
});

/** Any other failure, and the fallback for a kind this file does not know. */
export const NETWORK_ERROR = entry({
	code: 'network-error',
	level: 'error',
	message: asSent,
	ref: undefined
});

/**
 * A code exchange whose connection closed before any answer (`reset`, and no response): the code
 * may or may not have been spent.
 */
export const CODE_MAYBE_SPENT = entry({
	code: 'code-maybe-spent',
	level: 'warning',
	message:
		'The connection closed before any answer, so the code may or may not have been spent: the service may have received and used it, or never seen it.',
	fix: 'Exchange the same code again: an answer of invalid_grant means it was spent (start again from the consent step); tokens mean it was not.',
	ref: 'RFC 6749 §4.1.2'
});

/**
 * The step waited for one of the playground's connections to the host: the playground's time. A
 * write (anything but a GET) may also have waited for another write of the same address to that
 * host, as an address has one write at a time there (server/outbound/host-slots.ts).
 */
export const POOL_WAIT = entry({
	code: 'pool-wait',
	level: 'info',
	message: (waitedMs: number, host: string, write = false) =>
		`This step waited ${Math.round(waitedMs)} ms for one of the playground's connections to ${host} (${
			write
				? `other visitors' requests were using them, or another write from your address to ${host} was still waiting for its answer: a write is never ended to make room for others, so an address sends one at a time to a host`
				: "other visitors' requests were using them"
		}). That time is the playground's, not the service's.`,
	// The playground's own doing, which no protocol rule covers.
	ref: undefined
});

/**
 * A GET the playground ended to give its connection to a visitor who held none to that host (the
 * sender's words say so, with the time and the host). It may be sent again: a GET changes nothing.
 */
export const POOL_ENDED = entry({
	code: 'pool-ended',
	level: 'warning',
	message: asSent,
	fix: 'Send it again. This is the playground being busy with this service, not the service: many visitors were calling it through the playground at once. Run the playground locally to have its connections to yourself.',
	ref: 'RFC 9110 §9.2.1'
});
