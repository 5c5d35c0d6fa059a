/**
 * The authorization server's metadata (RFC 8414, OpenID Connect Discovery 1.0): where to find it,
 * what a document must hold, and the setup values it gives. Pure: the server fetches it
 * (server/steps/discovery.ts).
 */
import { z } from '$lib/zod';
import type { AuthMethod, PkceMethod, Setup } from './setup';
import { METADATA_FIELDS, type MetadataName } from './setup-fields';

/**
 * The well-known URLs for an issuer identifier, in the order they are tried: RFC 8414 §3.1 inserts
 * `/.well-known/oauth-authorization-server` between the host and the path (a terminating `/`
 * removed); OpenID Connect Discovery §4 appends `/.well-known/openid-configuration` to the path.
 */
export function wellKnownUrls(issuer: string): [rfc8414: string, oidc: string] {
	const u = new URL(issuer);
	const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
	return [
		`${u.origin}/.well-known/oauth-authorization-server${path}`,
		`${u.origin}${path}/.well-known/openid-configuration`
	];
}

const url = z
	.string()
	.refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), 'is not an http(s) URL');
const words = z.array(z.string().max(200)).max(100);

/**
 * The members the playground uses, each checked for its type; every other member passes through.
 * The URLs are those of the setup fields the table marks as filled by metadata (setup-fields.ts).
 */
export const metadataSchema = z.looseObject({
	issuer: z.string().min(1),
	...(Object.fromEntries(METADATA_FIELDS.map((name) => [name, url.optional()])) as Record<
		MetadataName,
		z.ZodOptional<typeof url>
	>),
	scopes_supported: words.optional(),
	token_endpoint_auth_methods_supported: words.optional(),
	code_challenge_methods_supported: words.optional(),
	authorization_response_iss_parameter_supported: z.boolean().optional(),
	require_pushed_authorization_requests: z.boolean().optional()
});

export type Metadata = z.output<typeof metadataSchema>;

/** RFC 8414 §3.3: the `issuer` must be identical to the issuer the document was fetched for. */
export function sameIssuer(documentIssuer: string, expected: string): boolean {
	return documentIssuer === expected;
}

const METHODS: AuthMethod[] = ['client_secret_post', 'client_secret_basic', 'none'];

/**
 * The client authentication to use: the current one when the server lists it, else post, else
 * Basic, else none. An omitted list means client_secret_basic (RFC 8414 §2).
 */
export function chooseAuthMethod(
	advertised: string[] | undefined,
	current: AuthMethod
): AuthMethod {
	const list = advertised ?? ['client_secret_basic'];
	if (list.includes(current)) return current;
	return METHODS.find((m) => list.includes(m)) ?? current;
}

/** The setup fields a document fills, by name (only those it gives). */
export type MetadataValues = Partial<
	Pick<Setup, 'issuer' | MetadataName | 'token_endpoint_auth_method' | 'pkce' | 'use_par'>
>;

export function toSetupValues(
	doc: Metadata,
	current: { token_endpoint_auth_method: AuthMethod; pkce: PkceMethod }
): MetadataValues {
	const out: MetadataValues = { issuer: doc.issuer };
	for (const k of METADATA_FIELDS) if (doc[k]) out[k] = doc[k];
	out.token_endpoint_auth_method = chooseAuthMethod(
		doc.token_endpoint_auth_methods_supported,
		current.token_endpoint_auth_method
	);
	// An omitted list means no PKCE support is advertised: the current choice stays.
	if (doc.code_challenge_methods_supported?.includes('S256') && current.pkce !== 'S256')
		out.pkce = 'S256';
	if (doc.require_pushed_authorization_requests && doc.pushed_authorization_request_endpoint)
		out.use_par = true;
	return out;
}
