/**
 * What the pushed authorization request's answer says (RFC 9126): pushed, with its request_uri and
 * how long it lasts; refused with an OAuth error; or no pushed request's answer at all.
 * `par.ts` decides which applies.
 */
import * as F from '../findings';
import { entry } from './raise';

const RFC9126 = (s: string) => `RFC 9126 §${s}`;

const pushed = (seconds: number) =>
	`The server accepted the pushed request: its request_uri is valid for ${seconds} s and can be used once. The consent link now carries only client_id and request_uri.`;

export const PUSHED = entry({
	code: F.PAR_PUSHED,
	level: 'info',
	message: pushed,
	ref: RFC9126('2.2')
});

/** Pushed, but its expires_in came as a string. */
export const PUSHED_EXPIRY_AS_TEXT = entry({
	code: F.PAR_PUSHED,
	level: 'warning',
	message: (seconds: number) =>
		`${pushed(seconds)} Its expires_in came as a string, not the JSON number RFC 9126 §2.2 defines.`,
	ref: RFC9126('2.2')
});

export const REFUSED = entry({
	code: F.PAR_REFUSED,
	level: 'error',
	message: (error: string, description: string | undefined) =>
		`The server refused the pushed request: "${error}"${description !== undefined ? ` ("${description}")` : ''}.`,
	fix: (error: string) =>
		error === 'invalid_client'
			? 'Check the client id, the secret and the client authentication method: the pushed request authenticates the client as the token endpoint does (RFC 9126 §2.1).'
			: 'The error description says which parameter; the pushed parameters are the consent request’s.',
	ref: RFC9126('2.3')
});

/** What is wrong with the answer, each said in a few words. */
export const NOT_AN_ANSWER = entry({
	code: F.PAR_REFUSED,
	level: 'error',
	message: (wrong: readonly string[]) =>
		`This is not a pushed request's answer: ${wrong.join('; ')}.`,
	fix: 'Check the pushed authorization request endpoint in the setup (the server’s metadata names it pushed_authorization_request_endpoint).',
	ref: RFC9126('2.2')
});
