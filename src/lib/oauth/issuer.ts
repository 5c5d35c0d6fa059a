/**
 * The issuer on the redirect back (RFC 9207, Authorization Server Issuer Identification): which
 * authorization server the playground expects, and what the `iss` parameter that came back says.
 * A response that names another server may be a mix-up attack (RFC 9207 §1, RFC 9700 §4.4): its
 * code is held back instead of being exchanged, and the user decides.
 * Pure functions: no I/O.
 * @see https://www.rfc-editor.org/rfc/rfc9207
 */

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

/** What a mix-up attack is, in plain words (RFC 9207 §1): the callback step and the findings say it. */
export const MIX_UP_EXPLAINED =
	'In a mix-up attack, a client that talks to more than one authorization server is tricked into treating a response from one server as if it came from another, so it sends the code (and its client credentials) to the wrong token endpoint, where an attacker can use them. The iss parameter names the server that really answered, so that the client can tell.';
