/**
 * The issuer on the redirect back (RFC 9207, Authorization Server Issuer Identification): which
 * authorization server the playground expects, and what the `iss` parameter that came back says.
 * A response that names another server may be a mix-up attack (RFC 9207 §1, RFC 9700 §4.4): its
 * code is held back instead of being exchanged, and the user decides.
 * Pure functions: no I/O.
 * @see https://www.rfc-editor.org/rfc/rfc9207
 */
import type { Finding } from '$lib/exchange/types';
import * as F from './findings';

/**
 * What the authorization server's metadata says (RFC 8414 §2, RFC 9207 §3). Nothing fills it yet:
 * discovery comes later, and then passes its metadata to `expectedIssuer` and `checkIssuer`.
 */
export interface IssuerMetadata {
	issuer?: string;
	authorization_response_iss_parameter_supported?: boolean;
}

export interface ExpectedIssuer {
	issuer: string;
	/** Where it comes from: the server's metadata, or the setup's Issuer field. */
	from: 'metadata' | 'setup';
}

/** The issuer to expect: the metadata's `issuer` when known, else the setup's Issuer field, else none. */
export function expectedIssuer(
	setupIssuer: string | undefined,
	metadata?: IssuerMetadata
): ExpectedIssuer | undefined {
	if (metadata?.issuer) return { issuer: metadata.issuer, from: 'metadata' };
	if (setupIssuer) return { issuer: setupIssuer, from: 'setup' };
	return undefined;
}

export type IssuerVerdict =
	/** `iss` is exactly the expected issuer. */
	| { result: 'match'; expected: string; from: ExpectedIssuer['from']; returned: string }
	/** `iss` is not exactly the expected issuer: possible mix-up, the code is held back. */
	| { result: 'mismatch'; expected: string; from: ExpectedIssuer['from']; returned: string }
	/** No issuer known, and `iss` is not on the authorization endpoint's origin: held back too. */
	| { result: 'origin-mismatch'; returned: string; authorization_origin: string }
	/** No issuer known; `iss` is on the authorization endpoint's origin: shown, not checked. */
	| { result: 'not-checked'; returned: string }
	/** No `iss` came back. `required` when the metadata says the server sends it (then held back). */
	| {
			result: 'not-sent';
			expected?: string;
			from?: ExpectedIssuer['from'];
			required: boolean;
	  };

function originOf(url: string): string | undefined {
	return URL.canParse(url) ? new URL(url).origin : undefined;
}

/**
 * RFC 9207 §2.4: the `iss` of the redirect compared with the expected issuer by exact string
 * (no normalization: a trailing slash or a capital letter is another issuer). With no issuer
 * known, only its origin is compared with the authorization endpoint's. A repeated `iss` is
 * refused earlier, as a malformed redirect (`checkCallback`).
 */
export function checkIssuer(
	returned: string | undefined,
	expected: ExpectedIssuer | undefined,
	authorizationEndpoint: string,
	metadata?: IssuerMetadata
): IssuerVerdict {
	if (returned === undefined)
		return {
			result: 'not-sent',
			...(expected ? { expected: expected.issuer, from: expected.from } : {}),
			required: metadata?.authorization_response_iss_parameter_supported === true
		};
	if (expected)
		return {
			result: returned === expected.issuer ? 'match' : 'mismatch',
			expected: expected.issuer,
			from: expected.from,
			returned
		};
	const authorizationOrigin = originOf(authorizationEndpoint) ?? authorizationEndpoint;
	if (originOf(returned) === authorizationOrigin) return { result: 'not-checked', returned };
	return { result: 'origin-mismatch', returned, authorization_origin: authorizationOrigin };
}

/** Whether the verdict stops the flow: the code is held back until the user says "Exchange anyway". */
export function issuerStops(v: IssuerVerdict | undefined): boolean {
	return (
		v?.result === 'mismatch' ||
		v?.result === 'origin-mismatch' ||
		(v?.result === 'not-sent' && v.required)
	);
}

/** What a mix-up attack is, in plain words (RFC 9207 §1). */
export const MIX_UP_EXPLAINED =
	'In a mix-up attack, a client that talks to more than one authorization server is tricked into treating a response from one server as if it came from another, so it sends the code (and its client credentials) to the wrong token endpoint, where an attacker can use them. The iss parameter names the server that really answered, so that the client can tell.';

/** Where the expected issuer came from, in the words the findings' messages use. */
const whence = (from: ExpectedIssuer['from'] | undefined) =>
	from === 'metadata' ? 'the service’s metadata' : 'the setup’s Issuer field';

/** The finding the issuer verdict adds to the callback's Exchange. */
export function issuerFinding(v: IssuerVerdict): Finding | undefined {
	const ref = 'RFC 9207 §2.4';
	switch (v.result) {
		case 'match':
			return {
				level: 'info',
				code: F.ISSUER_OK,
				message: `The redirect names the expected issuer "${v.returned}" (from ${whence(v.from)}).`,
				ref
			};
		case 'mismatch':
			return {
				level: 'error',
				code: F.ISSUER_MISMATCH,
				message: `Possible mix-up attack: the redirect names the issuer "${v.returned}", but this flow expected "${v.expected}" (from ${whence(v.from)}). The two are compared character by character. The code was not exchanged.`,
				fix: `${MIX_UP_EXPLAINED} If both values name the same server (a typo in the setup, say), correct the setup and start again, or use "Exchange anyway" in step 2.`,
				ref
			};
		case 'origin-mismatch':
			return {
				level: 'error',
				code: F.ISSUER_MISMATCH,
				message: `Possible mix-up attack: the redirect names the issuer "${v.returned}", which is not on the authorization endpoint's origin (${v.authorization_origin}). No issuer is known to compare it with exactly, so the origins were compared. The code was not exchanged.`,
				fix: `${MIX_UP_EXPLAINED} If the service's issuer really lives on another origin, enter it in the setup's Advanced settings (Issuer) and start again, or use "Exchange anyway" in step 2.`,
				ref
			};
		case 'not-checked':
			return {
				level: 'info',
				code: F.ISSUER_NOT_CHECKED,
				message: `The redirect names the issuer "${v.returned}": not checked, no issuer known. It is on the authorization endpoint's origin.`,
				fix: 'Enter the service’s issuer in the setup’s Advanced settings (Issuer) to have it compared exactly.',
				ref
			};
		case 'not-sent':
			if (v.required)
				return {
					level: 'error',
					code: F.ISSUER_MISMATCH,
					message: `The service's metadata says it sends iss on the redirect, but this one has none, so it may not come from the expected issuer "${v.expected ?? ''}". The code was not exchanged.`,
					fix: `${MIX_UP_EXPLAINED} Use "Exchange anyway" in step 2 if you trust this redirect.`,
					ref
				};
			return v.expected === undefined
				? undefined
				: {
						level: 'info',
						code: F.ISSUER_NOT_SENT,
						message: `The redirect carries no iss, so the expected issuer "${v.expected}" could not be compared. Only a server that announces it in its metadata must send it.`,
						ref
					};
	}
}
