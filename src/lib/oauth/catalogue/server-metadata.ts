/**
 * What fetching the authorization server's metadata found (RFC 8414; OpenID Connect Discovery's
 * well-known URL as well): a document the form was filled from, a document refused, one naming
 * another issuer, or none. `server/discovery.ts` decides which applies.
 */
import * as F from '../findings';
import { entry } from './raise';

const RFC8414 = (s: string) => `RFC 8414 §${s}`;

export const METADATA_FOUND = entry({
	code: F.METADATA_FOUND,
	level: 'info',
	message: (issuer: string) =>
		`Metadata found for ${issuer}: the form was filled from it. Save the setup to use it.`,
	ref: RFC8414('3.2')
});

/** The URL of the document, and why it was refused. */
export const METADATA_INVALID = entry({
	code: F.METADATA_INVALID,
	level: 'error',
	message: (url: string, why: string) =>
		`The metadata document at ${url} was refused: ${why}. Nothing of it was used.`,
	ref: RFC8414('3.2')
});

export const METADATA_ISSUER_MISMATCH = entry({
	code: F.METADATA_ISSUER_MISMATCH,
	level: 'error',
	message: (named: string, expected: string) =>
		`The document's issuer is "${named}", not "${expected}", the issuer it was fetched for. RFC 8414 §3.3 says such a document must not be used (an attacker's metadata would otherwise redirect the secret), so nothing was filled.`,
	fix: 'If the server’s issuer is the value the document names, enter it in Issuer (Advanced settings) and fill again.',
	ref: RFC8414('3.3')
});

export const METADATA_NONE = entry({
	code: F.METADATA_NONE,
	level: 'info',
	message: (issuer: string) =>
		`No metadata at either well-known URL of ${issuer}: this server publishes none (the feed-reader service’s API docs describe none), so the documented endpoints stay.`,
	ref: RFC8414('3')
});
