/**
 * What fetching the authorization server's metadata found (RFC 8414; OpenID Connect Discovery's
 * well-known URL as well): a document the form was filled from, a document refused, one naming
 * another issuer, or none. `server/steps/discovery.ts` decides which applies.
 */
import { entry } from './raise';

const RFC8414 = (s: string) => `RFC 8414 §${s}`;

/** The metadata document was found and read; the form was filled from it. */
export const METADATA_FOUND = entry({
	code: 'metadata-found',
	level: 'info',
	message: (issuer: string) =>
		`Metadata found for ${issuer}: the form was filled from it. Save the setup to use it.`,
	ref: RFC8414('3.2')
});

/**
 * The metadata document is not valid metadata (not a JSON object, or a member of the wrong type):
 * nothing of it is used.
 */
export const METADATA_INVALID = entry({
	code: 'metadata-invalid',
	level: 'error',
	message: (url: string, why: string) =>
		`The metadata document at ${url} was refused: ${why}. Nothing of it was used.`,
	ref: RFC8414('3.2')
});

/**
 * The document's issuer is not exactly the issuer it was fetched for: it is refused, and nothing of
 * it is used.
 */
export const METADATA_ISSUER_MISMATCH = entry({
	code: 'metadata-issuer-mismatch',
	level: 'error',
	message: (named: string, expected: string) =>
		`The document's issuer is "${named}", not "${expected}", the issuer it was fetched for. RFC 8414 §3.3 says such a document must not be used (an attacker's metadata would otherwise redirect the secret), so nothing was filled.`,
	fix: 'If the server’s issuer is the value the document names, enter it in Issuer (Advanced settings) and fill again.',
	ref: RFC8414('3.3')
});

/**
 * Neither well-known URL gave a metadata document: the server publishes none, so the documented
 * endpoints stay.
 */
export const METADATA_NONE = entry({
	code: 'metadata-none',
	level: 'info',
	message: (issuer: string) =>
		`No metadata at either well-known URL of ${issuer}: this server publishes none (the feed-reader service’s API docs describe none), so the documented endpoints stay.`,
	ref: RFC8414('3')
});

/**
 * Neither well-known URL gave a metadata document, for a server other than the feed-reader
 * service: it publishes none, so the endpoints in the form stay as they are.
 */
export const METADATA_NONE_ELSEWHERE = entry({
	code: 'metadata-none',
	level: 'info',
	message: (issuer: string) =>
		`No metadata at either well-known URL of ${issuer}: this server publishes none, so the endpoints in the form stay as they are. Enter them from the server’s own documentation.`,
	ref: RFC8414('3')
});
