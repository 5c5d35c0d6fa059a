/**
 * What the pushed authorization request's answer says (RFC 9126): pushed, with its request_uri and
 * how long it lasts; refused with an OAuth error; or no pushed request's answer at all.
 * `par.ts` decides which applies.
 */
import { entry } from './raise';

const RFC9126 = (s: string) => `RFC 9126 §${s}`;

const pushed = (seconds: number) =>
	`The server accepted the pushed request: its request_uri is valid for ${seconds} s and can be used once. The consent link now carries only client_id and request_uri.`;

/** The pushed authorization request was accepted: 201 with a request_uri and its expires_in. */
export const PUSHED = entry({
	code: 'par-pushed',
	level: 'info',
	message: pushed,
	ref: RFC9126('2.2')
});

/** The pushed request was accepted, but its expires_in came as a string. */
export const PUSHED_EXPIRY_AS_TEXT = entry({
	code: 'par-pushed',
	level: 'warning',
	message: (seconds: number) =>
		`${pushed(seconds)} Its expires_in came as a string, not the JSON number RFC 9126 §2.2 defines.`,
	ref: RFC9126('2.2')
});

/** The server refused the pushed authorization request with an OAuth error. */
export const REFUSED = entry({
	code: 'par-refused',
	level: 'error',
	message: (error: string, description: string | undefined) =>
		`The server refused the pushed request: "${error}"${description !== undefined ? ` ("${description}")` : ''}.`,
	fix: (error: string) =>
		error === 'invalid_client'
			? 'Check the client id, the secret and the client authentication method: the pushed request authenticates the client as the token endpoint does (RFC 9126 §2.1).'
			: 'The error description says which parameter; the pushed parameters are the consent request’s.',
	ref: RFC9126('2.3')
});

/**
 * The answer to the pushed request is neither the 201 with request_uri and expires_in nor an OAuth
 * error: what is wrong with it, each said in a few words.
 */
export const NOT_AN_ANSWER = entry({
	code: 'par-refused',
	level: 'error',
	message: (wrong: readonly string[]) =>
		`This is not a pushed request's answer: ${wrong.join('; ')}.`,
	fix: 'Check the pushed authorization request endpoint in the setup (the server’s metadata names it pushed_authorization_request_endpoint).',
	ref: RFC9126('2.2')
});
