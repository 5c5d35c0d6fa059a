/**
 * What the issuer on the redirect back says (RFC 9207, the defence against mix-up attacks):
 * `issuerFinding` (oauth/issuer-finding.ts) decides which of these applies. Three say the code was
 * held back, under one code (`issuer_mismatch`): another issuer, an issuer off the authorization
 * endpoint's origin, and none where the metadata promised one.
 */
import { STEPS } from '$lib/steps/registry';
import { MIX_UP_EXPLAINED, type ExpectedIssuer } from '../issuer';
import { entry } from './raise';

const ref = 'RFC 9207 §2.4';

type From = ExpectedIssuer['from'];

/** Where the expected issuer came from, in the words the findings' messages use. */
const whence = (from: From | undefined) =>
	from === 'metadata' ? 'the service’s metadata' : 'the setup’s Issuer field';

/** The iss on the redirect is exactly the expected issuer. */
export const ISSUER_OK = entry({
	code: 'issuer-ok',
	level: 'info',
	message: (returned: string, from: From) =>
		`The redirect names the expected issuer "${returned}" (from ${whence(from)}).`,
	ref
});

/**
 * Possible mix-up: the iss on the redirect is not the expected issuer (compared exactly). The code
 * is held back.
 */
export const ISSUER_MISMATCH = entry({
	code: 'issuer-mismatch',
	level: 'error',
	message: (returned: string, expected: string, from: From) =>
		`Possible mix-up attack: the redirect names the issuer "${returned}", but this flow expected "${expected}" (from ${whence(from)}). The two are compared character by character. The code was not exchanged.`,
	fix: `${MIX_UP_EXPLAINED} If both values name the same server (a typo in the setup, say), correct the setup and start again, or use "Exchange anyway" in step ${STEPS.callback.n}.`,
	ref
});

/**
 * Possible mix-up: with no issuer known, the iss on the redirect is not on the authorization
 * endpoint's origin. The code is held back.
 */
export const ISSUER_OFF_ORIGIN = entry({
	code: 'issuer-mismatch',
	level: 'error',
	message: (returned: string, authorizationOrigin: string) =>
		`Possible mix-up attack: the redirect names the issuer "${returned}", which is not on the authorization endpoint's origin (${authorizationOrigin}). No issuer is known to compare it with exactly, so the origins were compared. The code was not exchanged.`,
	fix: `${MIX_UP_EXPLAINED} If the service's issuer really lives on another origin, enter it in the setup's Advanced settings (Issuer) and start again, or use "Exchange anyway" in step ${STEPS.callback.n}.`,
	ref
});

/**
 * The redirect carries iss, but no issuer is known to compare it with; it is on the authorization
 * endpoint's origin.
 */
export const ISSUER_NOT_CHECKED = entry({
	code: 'issuer-not-checked',
	level: 'info',
	message: (returned: string) =>
		`The redirect names the issuer "${returned}": not checked, no issuer known. It is on the authorization endpoint's origin.`,
	fix: 'Enter the service’s issuer in the setup’s Advanced settings (Issuer) to have it compared exactly.',
	ref
});

/**
 * Possible mix-up: the metadata promises iss on the redirect, and this one has none. The code is
 * held back.
 */
export const ISSUER_MISSING = entry({
	code: 'issuer-mismatch',
	level: 'error',
	message: (expected: string | undefined) =>
		`The service's metadata says it sends iss on the redirect, but this one has none, so it may not come from the expected issuer "${expected ?? ''}". The code was not exchanged.`,
	fix: `${MIX_UP_EXPLAINED} Use "Exchange anyway" in step ${STEPS.callback.n} if you trust this redirect.`,
	ref
});

/**
 * An issuer is known but the redirect carries no iss (only a server that announces
 * authorization_response_iss_parameter_supported must send it).
 */
export const ISSUER_NOT_SENT = entry({
	code: 'issuer-not-sent',
	level: 'info',
	message: (expected: string) =>
		`The redirect carries no iss, so the expected issuer "${expected}" could not be compared. Only a server that announces it in its metadata must send it.`,
	ref
});
