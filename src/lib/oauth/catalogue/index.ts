/**
 * The whole catalogue of findings: every file of its concern, in the order docs/findings.md lists
 * them (the flow's order, then what any request may meet), and `FindingCode`, the union of the
 * codes its entries write. A module raises an entry from its own file (`import * as token from
 * './catalogue/token'`), so that a bundle carries only the entries it raises; this list is for the
 * codes' type, the page of findings and the tests, which read the catalogue as a whole.
 * `tests/unit/catalogue.test.ts` holds that it names every file of the folder.
 */
import * as consentUrl from './consent-url';
import * as secretCheck from './secret-check';
import * as pushedRequest from './pushed-request';
import * as methodAndPkce from './method-and-pkce';
import * as stateCheck from './state-check';
import * as authorizationError from './authorization-error';
import * as mixUp from './mix-up';
import * as token from './token';
import * as refreshFailure from './refresh-failure';
import * as codeReplay from './code-replay';
import * as refreshReplay from './refresh-replay';
import * as resourceCall from './resource-call';
import * as signedJwt from './signed-jwt';
import * as revocationIntrospection from './revocation-introspection';
import * as serverMetadata from './server-metadata';
import * as answer from './answer';
import * as transport from './transport';
import * as libraryVerdict from './library-verdict';
import type { Entry } from './raise';

/** Each catalogue file's entries, by the file's name. */
export const CATALOGUE = {
	'consent-url': consentUrl,
	'secret-check': secretCheck,
	'pushed-request': pushedRequest,
	'method-and-pkce': methodAndPkce,
	'state-check': stateCheck,
	'authorization-error': authorizationError,
	'mix-up': mixUp,
	token,
	'refresh-failure': refreshFailure,
	'code-replay': codeReplay,
	'refresh-replay': refreshReplay,
	'resource-call': resourceCall,
	'signed-jwt': signedJwt,
	'revocation-introspection': revocationIntrospection,
	'server-metadata': serverMetadata,
	answer,
	transport,
	'library-verdict': libraryVerdict
} as const;

type Files = typeof CATALOGUE;
/** Every entry of the catalogue, as a union of their types. */
type AnyEntry = { [F in keyof Files]: Files[F][keyof Files[F]] }[keyof Files];
/** The code an entry writes; none for an entry that carries the service's own (a function). */
type CodeOf<E> = E extends Entry<never, infer C> ? (string extends C ? never : C) : never;

/**
 * Every finding code the catalogue defines. Where a module looks for a finding of one code, it
 * names the code as a string of this type, so that a code no entry has fails the type check.
 */
export type FindingCode = CodeOf<AnyEntry>;
