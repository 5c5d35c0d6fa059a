/**
 * The catalogue of findings (src/lib/oauth/catalogue/): every entry complete, each code once unless
 * said otherwise here, and an entry raised gives the Finding the user has always seen.
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { explaining, raise, type Entry } from '$lib/oauth/catalogue/raise';
import * as token from '$lib/oauth/catalogue/token';
import * as transport from '$lib/oauth/catalogue/transport';
import * as replay from '$lib/oauth/catalogue/code-replay';
import * as answer from '$lib/oauth/catalogue/answer';
import * as metadata from '$lib/oauth/catalogue/server-metadata';
import * as methodAndPkce from '$lib/oauth/catalogue/method-and-pkce';
import * as pushed from '$lib/oauth/catalogue/pushed-request';
import * as resourceCall from '$lib/oauth/catalogue/resource-call';
import * as verdict from '$lib/oauth/catalogue/library-verdict';
import { CATALOGUE, type FindingCode } from '$lib/oauth/catalogue';

const folder = resolve(import.meta.dirname, '../../src/lib/oauth/catalogue');

/** Every export of every catalogue file, by file and name. */
function allExports(): [string, unknown][] {
	return Object.entries(CATALOGUE).flatMap(([file, mod]) =>
		Object.entries(mod).map(([name, value]): [string, unknown] => [`${file}.${name}`, value])
	);
}

const LEVELS = ['error', 'warning', 'info'];

/**
 * What a ref may be: an RFC section, an OpenID Connect Core section (the user-info endpoint of a
 * server whose metadata is OpenID's) or a section of the service's API docs; or, where none
 * covers the case, the Google Reader conventions the sandbox follows (item ids, which the API docs
 * do not describe) or the documentation of the oauth4webapi function whose verdict the entry
 * reports. Each such entry says why in its file.
 */
const REF =
	/^(RFC \d+ §|OpenID Connect Core 1\.0 §|the service's API docs|Google Reader API conventions, |https:\/\/github\.com\/panva\/oauth4webapi\/blob\/main\/docs\/functions\/\w+\.md$)/;

/** Entries that rest on no RFC or API docs section, on purpose: each says why in its file. */
const WITHOUT_REF = new Set([
	'token.EXTRA_FIELDS',
	'transport.BLOCKED',
	'transport.CONNECTION_REFUSED',
	'transport.DNS_FAILURE',
	'transport.TIMEOUT',
	'transport.TLS_FAILURE',
	'transport.RESPONSE_TOO_LARGE',
	'transport.CONNECTION_RESET',
	'transport.POOL_BUSY',
	'transport.CANCELLED',
	'transport.NETWORK_ERROR',
	'transport.POOL_WAIT',
	'transport.PLAIN_HTTP_PORT',
	'transport.TLS_PORT_HINT',
	'consent-url.CONSENT_SERVER_ERROR',
	'consent-url.ACCEPTED_STRAIGHT_BACK',
	'consent-url.ACCEPTED_REDIRECT',
	'consent-url.ACCEPTED_PAGE',
	'answer.REDIRECT',
	'answer.SERVER_ERROR',
	'answer.NOT_JSON',
	'answer.NOT_JSON_CUT_OFF',
	'answer.BODY_NOT_IN_FILE',
	'resource-call.USERINFO_FIELDS'
]);

/**
 * Codes with more than one entry, on purpose: one code said differently where the case differs.
 * Any other code is written once.
 */
const SHARED_CODES = {
	// An OAuth error explained where it comes: the token endpoint's answer, the redirect back, or
	// the consent URL refused at once (the registration check).
	invalid_request: [
		'authorization-error.INVALID_REQUEST',
		'consent-url.INVALID_REQUEST_AT_ONCE',
		'token.INVALID_REQUEST'
	],
	// invalid_scope also in words for a server other than the feed-reader service (oauth/advice.ts).
	invalid_scope: [
		'authorization-error.INVALID_SCOPE',
		'authorization-error.INVALID_SCOPE_ELSEWHERE',
		'consent-url.INVALID_SCOPE_AT_ONCE',
		'consent-url.INVALID_SCOPE_AT_ONCE_ELSEWHERE',
		'token.INVALID_SCOPE',
		'token.INVALID_SCOPE_ELSEWHERE'
	],
	// A 403 from the API, and no metadata: the feed-reader service's words, or any server's.
	insufficient_scope: [
		'resource-call.INSUFFICIENT_SCOPE',
		'resource-call.INSUFFICIENT_SCOPE_ELSEWHERE',
		'resource-call.INSUFFICIENT_SCOPE_READ_ONLY'
	],
	forbidden: ['resource-call.FORBIDDEN', 'resource-call.FORBIDDEN_ELSEWHERE'],
	'metadata-none': ['server-metadata.METADATA_NONE', 'server-metadata.METADATA_NONE_ELSEWHERE'],
	unauthorized_client: [
		'authorization-error.UNAUTHORIZED_CLIENT',
		'consent-url.UNAUTHORIZED_CLIENT_AT_ONCE',
		'token.UNAUTHORIZED_CLIENT'
	],
	access_denied: ['authorization-error.ACCESS_DENIED', 'consent-url.ACCESS_DENIED_AT_ONCE'],
	// The client's credentials refused as invalid_client, or under another error code.
	invalid_client: ['token.CLIENT_REFUSED_AS', 'token.INVALID_CLIENT'],
	unsupported_response_type: [
		'authorization-error.UNSUPPORTED_RESPONSE_TYPE',
		'consent-url.UNSUPPORTED_RESPONSE_TYPE_AT_ONCE'
	],
	invalid_request_uri: [
		'authorization-error.INVALID_REQUEST_URI',
		'consent-url.INVALID_REQUEST_URI_AT_ONCE'
	],
	// invalid_grant for a code or for a refresh token.
	// For a code: refused for a cause its words name (expired, used already, its redirect_uri), a
	// cause the page knows (sent before, too old, another redirect_uri than its consent's), or for
	// one of them.
	invalid_grant: [
		'token.CODE_ALREADY_USED',
		'token.CODE_EXPIRED',
		'token.CODE_EXPIRED_BY_AGE',
		'token.CODE_REDIRECT_URI',
		'token.CODE_REDIRECT_URI_DIFFERS',
		'token.CODE_REFUSED',
		'token.CODE_SENT_BEFORE',
		'token.REFRESH_TOKEN_REFUSED'
	],
	'content-type': ['token.CONTENT_TYPE_NOT_SENT', 'token.CONTENT_TYPE_REFUSED'],
	'expires_in-range': ['token.EXPIRES_IN_NOT_POSITIVE', 'token.EXPIRES_IN_TOO_LONG'],
	// Tokens for a code already exchanged: read in a recording, or seen on a replay.
	'code-reuse-accepted': ['code-replay.CODE_REPLAY_ACCEPTED', 'token.CODE_REUSE_ACCEPTED'],
	// The code held back: another issuer, one off the authorization endpoint's origin, or none.
	'issuer-mismatch': [
		'mix-up.ISSUER_MISMATCH',
		'mix-up.ISSUER_MISSING',
		'mix-up.ISSUER_OFF_ORIGIN'
	],
	// A JWT's typ, said as a warning or as information by the field the token is in.
	// A refused token: expired when it was sent, or refused for another reason.
	invalid_token: ['resource-call.TOKEN_EXPIRED', 'resource-call.TOKEN_REFUSED'],
	// A body that is not JSON, or that was cut off at the size limit.
	'not-json': ['answer.NOT_JSON', 'answer.NOT_JSON_CUT_OFF'],
	// A server failure, on any step or on the consent URL.
	'server-error': ['answer.SERVER_ERROR', 'consent-url.CONSENT_SERVER_ERROR'],
	// The registration accepted: straight back, a redirect elsewhere, or a page.
	'registration-ok': [
		'consent-url.ACCEPTED_PAGE',
		'consent-url.ACCEPTED_REDIRECT',
		'consent-url.ACCEPTED_STRAIGHT_BACK'
	],
	// PKCE wanted: at the exchange, or at the consent.
	'pkce-required': ['method-and-pkce.PKCE_REQUIRED', 'method-and-pkce.PKCE_REQUIRED_AT_CONSENT'],
	// A verifier that does not match: the cause for certain, or one possible cause.
	'pkce-mismatch': ['method-and-pkce.PKCE_MISMATCH', 'method-and-pkce.PKCE_MISMATCH_POSSIBLE'],
	// A redirect ignored: stale (a warning) or unsolicited (an error).
	'callback-ignored': ['state-check.STALE_CALLBACK', 'state-check.UNSOLICITED_CALLBACK'],
	// The state not the saved one: live, or in an imported recording.
	'state-mismatch': ['state-check.STATE_MISMATCH', 'state-check.STATE_NOT_IN_RECORDING'],
	// Pushed: its expires_in a number, or a string.
	'par-pushed': ['pushed-request.PUSHED', 'pushed-request.PUSHED_EXPIRY_AS_TEXT'],
	// The pushed request refused, or an answer that is not one.
	'par-refused': ['pushed-request.NOT_AN_ANSWER', 'pushed-request.REFUSED'],
	// The key set: refused by the signature check, not one at all, or not served.
	'jwks-invalid': [
		'signed-jwt.JWKS_INVALID',
		'signed-jwt.KEY_SET_NOT_SERVED',
		'signed-jwt.NOT_A_KEY_SET'
	],
	// An item id refused: not of an item id's form, none sent, or not known to the service.
	'bad-item-id': [
		'resource-call.ITEM_ID_MALFORMED',
		'resource-call.ITEM_ID_MISSING',
		'resource-call.ITEM_ID_UNKNOWN'
	],
	// A strict client library's objection, one entry per function of it that judges.
	'strict-client-rejects': [
		'library-verdict.CODE_ANSWER_REJECTED',
		'library-verdict.INTROSPECTION_ANSWER_REJECTED',
		'library-verdict.PKCE_CHALLENGE_DIFFERS',
		'library-verdict.PUSHED_ANSWER_REJECTED',
		'library-verdict.REDIRECT_REJECTED',
		'library-verdict.REFRESH_ANSWER_REJECTED',
		'library-verdict.REVOCATION_ANSWER_REJECTED'
	],
	// An answer its endpoint never sends, one entry per endpoint and its API docs section.
	'wrong-endpoint': [
		'answer.NOT_THE_API',
		'answer.NOT_THE_CONSENT_PAGE',
		'answer.NOT_THE_TOKEN_ENDPOINT',
		'answer.NOT_THE_TOKEN_ENDPOINT_ON_REFRESH',
		'answer.NOT_THE_USERINFO_ENDPOINT'
	],
	'jwt-typ': [
		'signed-jwt.ACCESS_TOKEN_TYP',
		'signed-jwt.AT_JWT_IN_ANOTHER_FIELD',
		'signed-jwt.AT_JWT_PASTED',
		'signed-jwt.TYP_SHOWN'
	]
};

/** Entries whose code is the service's own OAuth error, taken from what was found. */
const SERVICE_CODES = [
	'token.OTHER_ERROR',
	'consent-url.CONSENT_REFUSED',
	'consent-url.REFUSED_STRAIGHT_BACK',
	'consent-url.REFUSED_TO_ERROR_PAGE',
	'authorization-error.OTHER_ERROR'
];

describe('every catalogue entry', () => {
	test('is in the catalogue’s index: it names every file of the folder but the builder and itself', () => {
		const files = readdirSync(folder)
			.filter((f) => f.endsWith('.ts') && f !== 'raise.ts' && f !== 'index.ts')
			.map((f) => f.replace(/\.ts$/, ''));
		expect(Object.keys(CATALOGUE).sort()).toEqual(files.sort());
	});

	test('is complete: a code, a level, a message, and a ref unless it is listed without one', () => {
		const all = allExports();
		expect(all.length).toBeGreaterThan(30);
		for (const [name, value] of all) {
			const e = value as Entry<unknown[]>;
			expect(e, name).toMatchObject({ level: expect.any(String) });
			expect(LEVELS, name).toContain(e.level);
			if (typeof e.code === 'function') expect(SERVICE_CODES, name).toContain(name);
			else expect(e.code, name).not.toBe('');
			if (typeof e.message === 'string') expect(e.message.trim(), name).not.toBe('');
			else expect(e.message, name).toBeTypeOf('function');
			if (WITHOUT_REF.has(name)) expect(e.ref, name).toBeUndefined();
			else expect(e.ref, name).toMatch(REF);
		}
		// Every name listed here is still an entry.
		const names = all.map(([name]) => name);
		expect(names).toEqual(expect.arrayContaining([...WITHOUT_REF, ...SERVICE_CODES]));
	});

	test('writes its code once, and the code type holds the codes written and no other string', () => {
		const written = allExports().flatMap(([, e]) => {
			const code = (e as Entry<unknown[]>).code;
			return typeof code === 'string' ? [code] : [];
		});
		const known: FindingCode = 'invalid_grant';
		// @ts-expect-error: no entry has this code, so the type checker refuses it
		const typo: FindingCode = 'invalid_grnt';
		expect(written).toContain(known);
		expect(written).not.toContain(typo);
	});

	test('has a code of its own, except the codes shared on purpose', () => {
		const byCode = new Map<string, string[]>();
		for (const [name, value] of allExports()) {
			const code = (value as Entry<unknown[]>).code;
			if (typeof code === 'string') byCode.set(code, [...(byCode.get(code) ?? []), name]);
		}
		const shared = Object.fromEntries(
			[...byCode].filter(([, names]) => names.length > 1).map(([c, n]) => [c, n.sort()])
		);
		expect(shared).toEqual(SHARED_CODES);
	});
});

describe('the entries that explain an OAuth error (oauthError)', () => {
	test('a file explains an error once for each grant: one entry for all grants, or one per grant', () => {
		for (const [file, mod] of Object.entries(CATALOGUE)) {
			const seen = new Map<string, (string | undefined)[]>();
			for (const e of Object.values(mod) as Entry<unknown[]>[]) {
				if (!e.oauthError) continue;
				expect(e.code, `${file}: an entry that explains an error has it as its code`).toEqual(
					expect.any(String)
				);
				const code = e.code as string;
				seen.set(code, [...(seen.get(code) ?? []), e.grantType]);
			}
			for (const [code, grants] of seen) {
				expect(new Set(grants).size, `${file}: ${code}`).toBe(grants.length);
				if (grants.length > 1) expect(grants, `${file}: ${code}`).not.toContain(undefined);
			}
		}
	});

	test('the token endpoint’s are the errors of RFC 6749 §5.2, so a body naming one is an OAuth answer', () => {
		const explained = Object.values(token).flatMap((e: Entry<never>) =>
			e.oauthError ? [e.code] : []
		);
		expect([...new Set(explained)].sort()).toEqual([
			'invalid_client',
			'invalid_grant',
			'invalid_request',
			'invalid_scope',
			'unauthorized_client',
			'unsupported_grant_type'
		]);
	});

	test('an error is found by its name and the grant that got it; a name it does not explain finds nothing', () => {
		const tokenEntries = Object.values(token);
		expect(explaining(tokenEntries, 'invalid_client')).toBe(token.INVALID_CLIENT);
		expect(explaining(tokenEntries, 'invalid_grant', 'refresh_token')).toBe(
			token.REFRESH_TOKEN_REFUSED
		);
		expect(explaining(tokenEntries, 'invalid_grant', 'authorization_code')).toBe(
			token.CODE_REFUSED
		);
		expect(explaining(tokenEntries, 'invalid_grant')).toBeDefined();
		// A code that is no OAuth error, an error without words of its own, a name of Object.prototype.
		expect(explaining(tokenEntries, 'content-type')).toBeUndefined();
		expect(explaining(tokenEntries, 'invalid_dpop_proof')).toBeUndefined();
		expect(explaining(tokenEntries, 'toString')).toBeUndefined();
		expect(explaining(tokenEntries, '__proto__')).toBeUndefined();
	});
});

describe('the entries that are their step’s verdict', () => {
	test('the introspection’s and the revocation’s outcomes, all but a revocation’s bare 200', () => {
		const verdicts = allExports().flatMap(([name, e]) =>
			(e as Entry<unknown[]>).verdict ? [[name, (e as Entry<unknown[]>).code]] : []
		);
		expect(verdicts).toEqual([
			['revocation-introspection.REVOCATION_RETRY', 'revocation-retry'],
			['revocation-introspection.REVOCATION_UNSUPPORTED', 'revocation-unsupported'],
			['revocation-introspection.INTROSPECTION_MALFORMED', 'introspection-malformed'],
			['revocation-introspection.INTROSPECTION_ACTIVE', 'introspection-active'],
			['revocation-introspection.INTROSPECTION_INACTIVE', 'introspection-inactive'],
			['revocation-introspection.REVOCATION_NOT_EFFECTIVE', 'revocation-not-effective'],
			['revocation-introspection.REVOCATION_PROVEN', 'revocation-proven']
		]);
	});
});

describe('a replay’s entries (server/steps/replay.ts)', () => {
	test('the refusal names the status and the service’s error when it gave one', () => {
		expect(raise(replay.CODE_REPLAY_REFUSED, 400, 'invalid_grant')).toEqual({
			level: 'info',
			code: 'code-replay-refused',
			message:
				'The service refused the code the second time (HTTP 400, invalid_grant), as RFC 6749 §4.1.2 requires: a code is used once.',
			ref: 'RFC 6749 §4.1.2'
		});
		expect(raise(replay.CODE_REPLAY_REFUSED, 403, undefined).message).toContain('(HTTP 403)');
	});
});

// The Findings below are the ones diagnose.ts raised before the catalogue, copied from its output.
describe('an entry raised', () => {
	test('an OAuth error with the service’s words', () => {
		expect(raise(token.INVALID_CLIENT, 'nope')).toStrictEqual({
			level: 'error',
			code: 'invalid_client',
			message: 'The service did not accept the client credentials. The service said: "nope".',
			fix: 'Check client_id and client_secret against the registration; a secret that was regenerated invalidates the old one. If both are right, check how the client is registered to authenticate (its token_endpoint_auth_method, and whether it is a public client).',
			ref: 'RFC 6749 §5.2'
		});
		expect(raise(token.CODE_REFUSED, undefined)).toStrictEqual({
			level: 'error',
			code: 'invalid_grant',
			message: 'The authorization code was refused.',
			fix: 'Likely causes: the code was already used (codes are single-use), it expired (exchange it at once), or the redirect_uri differs from the one sent at consent. Start the flow again.',
			ref: 'RFC 6749 §4.1.3'
		});
	});

	test('an error the playground has no words for keeps the service’s code', () => {
		expect(raise(token.OTHER_ERROR, 'weird', 'nope')).toStrictEqual({
			level: 'error',
			code: 'weird',
			message: 'The token endpoint answered with error "weird". The service said: "nope".',
			ref: 'RFC 6749 §5.2'
		});
	});

	test('a token response field, with and without its fix', () => {
		expect(raise(token.SCOPE_DIFFERS, 'read', 'read write', true)).toStrictEqual({
			level: 'warning',
			code: 'scope-differs',
			message: 'Granted scope "read" differs from the requested "read write".',
			fix: 'Write was not granted: zone-2 calls will get 403. Check that the registration is not "Read only".',
			ref: 'RFC 6749 §3.3'
		});
		expect(raise(token.SCOPE_DIFFERS, 'read write', 'read', false)).toStrictEqual({
			level: 'warning',
			code: 'scope-differs',
			message: 'Granted scope "read write" differs from the requested "read".',
			ref: 'RFC 6749 §3.3'
		});
		expect(raise(token.MISSING_ACCESS_TOKEN)).toStrictEqual({
			level: 'error',
			code: 'missing-access_token',
			message: 'The token response has no access_token string.',
			ref: "the service's API docs §2.3"
		});
	});

	test('a failure, with the sender’s message', () => {
		expect(raise(transport.TIMEOUT, 'No answer within 10 s.')).toStrictEqual({
			level: 'error',
			code: 'timeout',
			message: 'No answer within 10 s.',
			fix: 'The service is slow or unreachable. Try again, or check the base URL.'
		});
		expect(raise(transport.CANCELLED)).toStrictEqual({
			level: 'info',
			code: 'cancelled',
			message: 'You cancelled this request before it finished.'
		});
	});

	test('a GET ended to give its connection to another visitor: the sender’s words, sent again safely', () => {
		const why =
			"Ended after 3.2 s: all 64 of the playground's connections to reader.test were in use and another visitor needed one; a GET changes nothing, send it again.";
		expect(raise(transport.POOL_ENDED, why)).toStrictEqual({
			level: 'warning',
			code: 'pool-ended',
			message: why,
			fix: 'Send it again. This is the playground being busy with this service, not the service: many visitors were calling it through the playground at once. Run the playground locally to have its connections to yourself.',
			ref: 'RFC 9110 §9.2.1'
		});
	});

	test('how the request went: a wait for a connection, a code that may be spent', () => {
		expect(raise(transport.POOL_WAIT, 12.6, 'reader.test')).toStrictEqual({
			level: 'info',
			code: 'pool-wait',
			message:
				"This step waited 13 ms for one of the playground's connections to reader.test (other visitors' requests were using them). That time is the playground's, not the service's."
		});
		expect(raise(transport.CODE_MAYBE_SPENT)).toStrictEqual({
			level: 'warning',
			code: 'code-maybe-spent',
			message:
				'The connection closed before any answer, so the code may or may not have been spent: the service may have received and used it, or never seen it.',
			fix: 'Exchange the same code again: an answer of invalid_grant means it was spent (start again from the consent step); tokens mean it was not.',
			ref: 'RFC 6749 §4.1.2'
		});
	});
});

// As the modules that raise them wrote them before they moved into the catalogue.
describe('entries that hold more than their words', () => {
	test('discovery: found, refused, another issuer, none (server/steps/discovery.ts)', () => {
		const at = 'https://as.test/.well-known/oauth-authorization-server';
		expect(raise(metadata.METADATA_FOUND, 'https://as.test')).toStrictEqual({
			level: 'info',
			code: 'metadata-found',
			message:
				'Metadata found for https://as.test: the form was filled from it. Save the setup to use it.',
			ref: 'RFC 8414 §3.2'
		});
		expect(raise(metadata.METADATA_INVALID, at, 'it is not JSON')).toStrictEqual({
			level: 'error',
			code: 'metadata-invalid',
			message: `The metadata document at ${at} was refused: it is not JSON. Nothing of it was used.`,
			ref: 'RFC 8414 §3.2'
		});
		expect(
			raise(metadata.METADATA_ISSUER_MISMATCH, 'https://evil.test', 'https://as.test')
		).toStrictEqual({
			level: 'error',
			code: 'metadata-issuer-mismatch',
			message:
				'The document\'s issuer is "https://evil.test", not "https://as.test", the issuer it was fetched for. RFC 8414 §3.3 says such a document must not be used (an attacker\'s metadata would otherwise redirect the secret), so nothing was filled.',
			fix: 'If the server’s issuer is the value the document names, enter it in Issuer (Advanced settings) and fill again.',
			ref: 'RFC 8414 §3.3'
		});
		expect(raise(metadata.METADATA_NONE, 'https://as.test')).toStrictEqual({
			level: 'info',
			code: 'metadata-none',
			message:
				'No metadata at either well-known URL of https://as.test: this server publishes none (the feed-reader service’s API docs describe none), so the documented endpoints stay.',
			ref: 'RFC 8414 §3'
		});
	});

	test('a body that is not JSON: an HTML page, a text, a cut-off body', () => {
		const html = {
			level: 'error',
			code: 'not-json',
			message:
				'JSON was expected, but the service answered with HTML (text/html). This is often an error or login page, or the wrong URL.',
			fix: 'Check the endpoint URL; read the HTML body for the service’s own message.'
		};
		expect(raise(answer.NOT_JSON, true, 'text/html')).toStrictEqual(html);
		expect(raise(answer.NOT_JSON_CUT_OFF, true, 'text/html')).toStrictEqual({
			...html,
			level: 'warning'
		});
		expect(raise(answer.NOT_JSON, false, undefined)).toStrictEqual({
			level: 'error',
			code: 'not-json',
			message: 'JSON was expected, but the body is not valid JSON (no Content-Type).'
		});
		expect(raise(answer.NOT_JSON_CUT_OFF, false, 'application/json')).toStrictEqual({
			level: 'warning',
			code: 'not-json',
			message: 'The body is cut off, so it is not valid JSON.'
		});
	});

	test('a token expired, a PKCE mismatch certain or possible, a pushed request’s expiry as text', () => {
		expect(raise(resourceCall.TOKEN_EXPIRED)).toStrictEqual({
			level: 'error',
			code: 'invalid_token',
			message: 'The access token had expired when this request was sent (401).',
			fix: 'Refresh the token (step 5), then call again.',
			ref: 'RFC 6750 §3.1'
		});
		expect(raise(methodAndPkce.PKCE_MISMATCH)).toMatchObject({
			level: 'error',
			message: expect.stringMatching(/^The code_verifier sent/),
			ref: 'RFC 7636 §4.6'
		});
		expect(raise(methodAndPkce.PKCE_MISMATCH_POSSIBLE)).toMatchObject({
			level: 'info',
			message: expect.stringMatching(/^One possible cause: the code_verifier sent/),
			ref: 'RFC 7636 §4.6'
		});
		expect(raise(pushed.PUSHED_EXPIRY_AS_TEXT, 60)).toStrictEqual({
			level: 'warning',
			code: 'par-pushed',
			message:
				'The server accepted the pushed request: its request_uri is valid for 60 s and can be used once. The consent link now carries only client_id and request_uri. Its expires_in came as a string, not the JSON number RFC 9126 §2.2 defines.',
			ref: 'RFC 9126 §2.2'
		});
	});
});

describe('a strict client library’s entries (strict-client.ts)', () => {
	const DOCS = 'https://github.com/panva/oauth4webapi/blob/main/docs/functions';
	test.each([
		[verdict.CODE_ANSWER_REJECTED, 'answer', 'processAuthorizationCodeResponse'],
		[verdict.REFRESH_ANSWER_REJECTED, 'answer', 'processRefreshTokenResponse'],
		[verdict.PUSHED_ANSWER_REJECTED, 'answer', 'processPushedAuthorizationResponse'],
		[verdict.REVOCATION_ANSWER_REJECTED, 'answer', 'processRevocationResponse'],
		[verdict.INTROSPECTION_ANSWER_REJECTED, 'answer', 'processIntrospectionResponse'],
		[verdict.REDIRECT_REJECTED, 'redirect', 'validateAuthResponse']
	])(
		'an objection to the %#th kind names what it rejects and cites its function',
		(e, what, fn) => {
			const f = raise(e, '"state" mismatch');
			expect(f.message).toBe(
				`A strict client library (oauth4webapi) would reject this ${what}: "state" mismatch.`
			);
			expect(f.ref).toBe(`${DOCS}/${fn}.md`);
		}
	);
	test('the PKCE pair cites calculatePKCECodeChallenge, with no fix', () => {
		expect(raise(verdict.PKCE_CHALLENGE_DIFFERS)).toMatchObject({
			level: 'info',
			code: 'strict-client-rejects',
			ref: `${DOCS}/calculatePKCECodeChallenge.md`
		});
		expect(raise(verdict.PKCE_CHALLENGE_DIFFERS).fix).toBeUndefined();
	});
});
