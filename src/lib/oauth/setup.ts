/**
 * The playground setup: what a developer enters before the flow starts.
 * Endpoints follow the service's API docs (§4.1 `/oauth2/auth`, §4.2 `/oauth2/token`, §4.4 `/reader/api/0/user-info`)
 * unless overridden. The client secret is not part of the setup: it is kept apart, sealed on the server.
 */
import { z } from '$lib/zod';
import { MAX_STATE_BYTES } from './consent';
import { API_DOCS } from './docs';

export const MAX_FIELD = 2048;
export { MAX_STATE_BYTES };

const httpUrl = (what: string) =>
	z
		.string()
		.trim()
		.max(MAX_FIELD, `${what} is too long (at most ${MAX_FIELD} characters)`)
		.refine((v) => URL.canParse(v), `${what} is not a valid URL`)
		.refine(
			(v) => !URL.canParse(v) || ['http:', 'https:'].includes(new URL(v).protocol),
			`${what} must start with http:// or https://`
		)
		.refine((v) => !URL.canParse(v) || !new URL(v).hash, `${what} must not contain a #fragment`)
		.refine(
			(v) => !URL.canParse(v) || (!new URL(v).username && !new URL(v).password),
			`${what} must not contain a user name or password`
		);

const optionalUrl = (what: string) => z.union([z.literal(''), httpUrl(what)]).default('');

/** RFC 6749 §3.3: scope = scope-token *( SP scope-token ), scope-token = 1*NQCHAR. Empty = the registration's default. */
export const scopeSchema = z
	.string()
	.trim()
	.max(200, 'Scope is too long')
	.transform((v) => v.split(/\s+/).filter(Boolean).join(' '))
	.refine(
		(v) => /^[\x21\x23-\x5B\x5D-\x7E ]*$/.test(v),
		'Scope may only hold printable ASCII words separated by spaces (RFC 6749 §3.3), no quotes or backslashes'
	);

export const AUTH_METHODS = ['client_secret_post', 'client_secret_basic', 'none'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
export const PKCE_METHODS = ['off', 'S256', 'plain'] as const;
export type PkceMethod = (typeof PKCE_METHODS)[number];

export const setupSchema = z.object({
	base_url: httpUrl('Base URL').transform((v) => v.replace(/\/+$/, '')),
	client_id: z
		.string()
		.trim()
		.min(1, 'Enter the client id from the registration')
		.max(200, 'Client id is too long (at most 200 characters)')
		.refine((v) => /^[\x20-\x7E]+$/.test(v), 'Client id may only hold printable ASCII characters'),
	scope: scopeSchema.default(''),
	redirect_uri: httpUrl('Redirect URI'),
	/**
	 * The redirect URI as the service's registration holds it, copied from there, kept as written:
	 * when the service refuses the one sent, the two are compared (redirect-uri.ts). Not a secret.
	 * Empty: not known.
	 */
	registered_redirect_uri: z
		.string()
		.trim()
		.max(MAX_FIELD, `Redirect URI as registered is too long (at most ${MAX_FIELD} characters)`)
		.refine(
			(v) => v === '' || URL.canParse(v),
			'Redirect URI as registered is not a valid URL: copy it whole from the registration'
		)
		.default(''),
	authorization_endpoint: optionalUrl('Authorization endpoint'),
	token_endpoint: optionalUrl('Token endpoint'),
	userinfo_endpoint: optionalUrl('User-info endpoint'),
	/**
	 * The authorization server's issuer identifier, compared with the `iss` on the redirect back
	 * exactly as written (RFC 9207 §2.4), so it is not normalized. Empty: none known.
	 */
	issuer: z
		.union([
			z.literal(''),
			httpUrl('Issuer').refine(
				(v) => !URL.canParse(v) || !new URL(v).search,
				'Issuer must not contain a ?query (RFC 8414 §2)'
			)
		])
		.default(''),
	token_location: z
		.enum(['header', 'query'], { error: 'Choose where the access token goes' })
		.default('header'),
	custom_state: z
		.string()
		.max(MAX_FIELD, 'State is too long')
		.default('')
		.refine(
			(v) => new TextEncoder().encode(v).length <= MAX_STATE_BYTES,
			`State may be at most ${MAX_STATE_BYTES} bytes (${API_DOCS} §4.1)`
		),
	auto_exchange: z.boolean().default(true),
	/** Accept a self-signed or expired certificate. Honoured in local mode only (send.ts). */
	allow_invalid_tls: z.boolean().default(false),
	/**
	 * Endpoints the service's API docs do not publish, for other authorization servers (filled by hand or
	 * from metadata, RFC 8414 §2). Empty: none. Revocation, introspection and pushed authorization
	 * requests authenticate the client, so they receive the secret (secret-binding.ts).
	 */
	revocation_endpoint: optionalUrl('Revocation endpoint'),
	introspection_endpoint: optionalUrl('Introspection endpoint'),
	pushed_authorization_request_endpoint: optionalUrl('Pushed authorization request endpoint'),
	jwks_uri: optionalUrl('JWKS URI'),
	/**
	 * How the client authenticates where it sends its secret: in the form body (the service's API docs
	 * §4.2, the default), HTTP Basic (RFC 6749 §2.3.1), or not at all for a public client.
	 */
	token_endpoint_auth_method: z
		.enum(AUTH_METHODS, { error: 'Choose how the client authenticates' })
		.default('client_secret_post'),
	/** Proof Key for Code Exchange (RFC 7636): off, S256, or plain (only behind a warning). */
	pkce: z.enum(PKCE_METHODS, { error: 'Choose a PKCE method' }).default('off'),
	/** Push the authorization request first (RFC 9126) and open the consent page with its request_uri. */
	use_par: z.boolean().default(false)
});

/**
 * The rules between fields, checked when a setup is saved: a public client proves itself with PKCE
 * (RFC 9700 §2.1.1), and pushing the request needs somewhere to push it.
 */
export function setupRuleErrors(setup: Setup): FieldErrors {
	const errors: FieldErrors = {};
	if (setup.token_endpoint_auth_method === 'none' && setup.pkce === 'off')
		errors.pkce =
			'A public client (no client authentication) must use PKCE (RFC 9700 §2.1.1): choose S256.';
	if (setup.use_par && !setup.pushed_authorization_request_endpoint)
		errors.pushed_authorization_request_endpoint =
			'Enter the pushed authorization request endpoint (RFC 9126), or turn off “Push the request”.';
	return errors;
}

export type Setup = z.output<typeof setupSchema>;
export type SetupInput = z.input<typeof setupSchema>;

export const secretSchema = z
	.string()
	.max(1024, 'Client secret is too long (at most 1024 characters)')
	.refine((v) => !/[\r\n]/.test(v), 'Client secret must be on one line');

/** Every field that has a default, at that default. */
export const SETUP_DEFAULTS = {
	client_id: '',
	scope: '',
	registered_redirect_uri: '',
	authorization_endpoint: '',
	token_endpoint: '',
	userinfo_endpoint: '',
	issuer: '',
	token_location: 'header',
	custom_state: '',
	auto_exchange: true,
	allow_invalid_tls: false,
	revocation_endpoint: '',
	introspection_endpoint: '',
	pushed_authorization_request_endpoint: '',
	jwks_uri: '',
	token_endpoint_auth_method: 'client_secret_post',
	pkce: 'off',
	use_par: false
} as const satisfies Omit<Setup, 'base_url' | 'redirect_uri'>;

/** A full setup from the fields that matter, every other field at its default. */
export function setupWith(
	fields: Pick<Setup, 'base_url' | 'redirect_uri'> & Partial<Setup>
): Setup {
	return { ...SETUP_DEFAULTS, ...fields };
}

export { endpoints, type EndpointFields, type Endpoints } from './endpoints';

export type FieldErrors = Partial<Record<keyof Setup | 'client_secret' | 'form', string>>;

/** zod issues → one message per field, the first one. */
export function fieldErrors(error: z.ZodError): FieldErrors {
	const out: Record<string, string> = {};
	for (const issue of error.issues) {
		const key = String(issue.path[0] ?? 'form');
		out[key] ??= issue.message;
	}
	return out as FieldErrors;
}

/** Reads the setup form. Checkboxes arrive only when checked. */
export function setupFromForm(form: FormData): Record<string, unknown> {
	const text = (k: string) => {
		const v = form.get(k);
		return typeof v === 'string' ? v : undefined;
	};
	return {
		base_url: text('base_url') ?? '',
		client_id: text('client_id') ?? '',
		scope: text('scope') ?? '',
		redirect_uri: text('redirect_uri') ?? '',
		registered_redirect_uri: text('registered_redirect_uri') ?? '',
		authorization_endpoint: text('authorization_endpoint') ?? '',
		token_endpoint: text('token_endpoint') ?? '',
		userinfo_endpoint: text('userinfo_endpoint') ?? '',
		issuer: text('issuer') ?? '',
		token_location: text('token_location') ?? 'header',
		custom_state: text('custom_state') ?? '',
		auto_exchange: form.has('auto_exchange') ? text('auto_exchange') !== 'false' : false,
		allow_invalid_tls: form.has('allow_invalid_tls')
			? text('allow_invalid_tls') !== 'false'
			: false,
		revocation_endpoint: text('revocation_endpoint') ?? '',
		introspection_endpoint: text('introspection_endpoint') ?? '',
		pushed_authorization_request_endpoint: text('pushed_authorization_request_endpoint') ?? '',
		jwks_uri: text('jwks_uri') ?? '',
		token_endpoint_auth_method: text('token_endpoint_auth_method') ?? 'client_secret_post',
		pkce: text('pkce') ?? 'off',
		use_par: form.has('use_par') ? text('use_par') !== 'false' : false
	};
}
