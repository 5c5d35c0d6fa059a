/**
 * THE table of setup fields: each field of the playground's setup, once, with everything the rest of
 * the playground needs to know of it. The schema, the defaults, the form reader (setup.ts), the
 * parameters a docs link may carry (prefill.ts), the preset entries (server/flow/presets.ts), the form's
 * groups and uniform fields (ui/SetupForm.svelte), the endpoints (endpoints.ts), the metadata a
 * discovery fills in (metadata.ts), and the URLs that receive the client secret or the access token
 * (secret-binding.ts, token-binding.ts) are all derived from it. A new field is one entry here plus
 * its behaviour (docs/architecture.md, "How to add a setup field").
 *
 * The order of the entries is the setup's own order (its schema's, and so the Markdown export's).
 * Pure, and imported by the browser as well as the server.
 */
import type { z } from '$lib/zod';
import { API_DOCS } from './docs';

/**
 * The longest state the service takes (the service's API docs §4.1, §8). Kept here, with the field
 * it limits, not in consent.ts, which brings the authorization errors' words into the first load
 * with it, nor in setup.ts, which would bring zod into the browser bundle (zod probes for eval on
 * load, which the page's CSP reports as a violation).
 */
export const MAX_STATE_BYTES = 500;

/**
 * zod, handed to each field's rule by the module that builds the schema (setup.ts). The table
 * imports none itself, so the setup form, which draws its fields from the table in the browser,
 * does not load zod with the page.
 */
type Zod = typeof z;

export const MAX_FIELD = 2048;

const httpUrl = (z: Zod, what: string) =>
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

const optionalUrl = (z: Zod, what: string) => z.union([z.literal(''), httpUrl(z, what)]);

/** RFC 6749 §3.3: scope = scope-token *( SP scope-token ), scope-token = 1*NQCHAR. Empty = the registration's default. */
export const scopeRule = (z: Zod) =>
	z
		.string()
		.trim()
		.max(200, 'Scope is too long')
		.transform((v) => v.split(/\s+/).join(' '))
		.refine(
			(v) => /^[\x21\x23-\x5B\x5D-\x7E ]*$/.test(v),
			'Scope may only hold printable ASCII words separated by spaces (RFC 6749 §3.3), no quotes or backslashes'
		);

const TOKEN_LOCATIONS = ['header', 'query'] as const;
const AUTH_METHODS = ['client_secret_post', 'client_secret_basic', 'none'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];
const PKCE_METHODS = ['off', 'S256', 'plain'] as const;
export type PkceMethod = (typeof PKCE_METHODS)[number];

/** Where a field sits in the form: the basic fields, then under "Advanced settings". */
export type FieldGroup =
	/** Always shown, each with markup of its own (links into the API docs, a copy button…). */
	| 'basic'
	/** The service's endpoints and its issuer, first under "Advanced settings". */
	| 'endpoints'
	/** For authorization servers beyond the service's API docs (ui/setup/ProtocolFields.svelte). */
	| 'protocol'
	/** The rest of "Advanced settings". */
	| 'advanced';

/** The endpoints a setup works out (endpoints.ts), by the key each field fills. */
export type EndpointKey =
	'authorization' | 'token' | 'userinfo' | 'revocation' | 'introspection' | 'par' | 'jwks';

/** One row of the table: what a field is, besides its rule. */
interface FieldFacts {
	/** The label in the form; in lower case, it names the field in messages ("the token endpoint"). */
	label: string;
	group: FieldGroup;
	/**
	 * How the form asks for it. `text` and `url` inputs and checkboxes are drawn from this table
	 * (ui/setup/SetupField.svelte) unless their group's markup is special (`basic`); a `choice` has
	 * markup of its own.
	 */
	input: 'text' | 'url' | 'checkbox' | 'choice';
	/** A `choice`'s values, in the order they are offered (its rule accepts exactly these). */
	options?: readonly string[];
	/** A new setup's value. None: every setup gives its own (the page fills it in). */
	default?: unknown;
	/**
	 * The value must be entered: the schema has no default (the default is only the form's starting
	 * value), and a preset must name it.
	 */
	required?: true;
	/** The words under the field in the form (plain text). */
	help?: string;
	placeholder?: string;
	/** Typed exactly as given: the browser neither completes nor spell-checks it. */
	verbatim?: true;
	/** Offered only by a playground running locally (the hosted one never has it). */
	localOnly?: true;
	/**
	 * The endpoint the field sets, and the path below the base URL the service's API docs give it
	 * when the field is empty. Without a path, an empty field means the setup has none.
	 */
	endpoint?: { key: EndpointKey; path?: string };
	/**
	 * Whether the URL receives the client secret (the client authenticates there, secret-binding.ts)
	 * or the access token (token-binding.ts).
	 */
	receives?: 'secret' | 'token';
	/** What the parameter means in a docs link (prefill.ts; the /link page lists it). None: a link may not carry it. */
	link?: string;
	/** A preset (PLAYGROUND_PRESETS) may carry it; one that does not gets the field's default. */
	preset?: true;
	/** The authorization server's metadata member of the same name fills it in (RFC 8414 §2). */
	metadata?: true;
}

/** A row: the field's rule (without its default), built with the zod it is given, and its facts. */
function field<S extends z.ZodType, const F extends FieldFacts & { default?: z.output<S> }>(
	rule: (z: Zod) => S,
	facts: F
): F & { rule: (z: Zod) => S } {
	return { ...facts, rule };
}

const RECEIVES_SECRET = 'Receives the client secret.';

export const SETUP_FIELDS = {
	base_url: field((z) => httpUrl(z, 'Base URL').transform((v) => v.replace(/\/+$/, '')), {
		label: 'Base URL of the service',
		group: 'basic',
		input: 'url',
		required: true,
		receives: 'token',
		link: `The service’s base URL; the endpoints follow from it (${API_DOCS} §4).`,
		preset: true
	}),
	client_id: field(
		(z) =>
			z
				.string()
				.trim()
				.min(1, 'Enter the client id from the registration')
				.max(200, 'Client id is too long (at most 200 characters)')
				.refine(
					(v) => /^[\x20-\x7E]+$/.test(v),
					'Client id may only hold printable ASCII characters'
				),
		{
			label: 'Client id',
			group: 'basic',
			input: 'text',
			default: '',
			required: true,
			link: `The application’s client id (${API_DOCS} §2.1).`,
			preset: true
		}
	),
	scope: field((z) => scopeRule(z), {
		label: 'Scope',
		group: 'basic',
		input: 'text',
		default: '',
		link: `\`read\`, \`read write\`, or empty for the registration’s default (${API_DOCS} §4.1).`,
		preset: true
	}),
	redirect_uri: field((z) => httpUrl(z, 'Redirect URI'), {
		label: 'Redirect URI to register',
		group: 'basic',
		input: 'url',
		link: 'The redirect URI to send; default: the playground’s own /callback. Another value turns on paste-back mode.',
		preset: true
	}),
	/**
	 * The redirect URI as the service's registration holds it, copied from there, kept as written:
	 * when the service refuses the one sent, the two are compared (redirect-uri.ts). Not a secret.
	 * Empty: not known.
	 */
	registered_redirect_uri: field(
		(z) =>
			z
				.string()
				.trim()
				.max(MAX_FIELD, `Redirect URI as registered is too long (at most ${MAX_FIELD} characters)`)
				.refine(
					(v) => v === '' || URL.canParse(v),
					'Redirect URI as registered is not a valid URL: copy it whole from the registration'
				),
		{
			label: 'Redirect URI as registered',
			group: 'basic',
			input: 'url',
			default: '',
			link: 'The redirect URI exactly as the registration holds it (not a secret): when the service refuses the one sent, the playground names the difference.',
			preset: true
		}
	),
	authorization_endpoint: field((z) => optionalUrl(z, 'Authorization endpoint'), {
		label: 'Authorization endpoint',
		group: 'endpoints',
		input: 'url',
		default: '',
		endpoint: { key: 'authorization', path: '/oauth2/auth' },
		link: 'Overrides {base_url}/oauth2/auth.',
		preset: true,
		metadata: true
	}),
	token_endpoint: field((z) => optionalUrl(z, 'Token endpoint'), {
		label: 'Token endpoint',
		group: 'endpoints',
		input: 'url',
		default: '',
		endpoint: { key: 'token', path: '/oauth2/token' },
		receives: 'secret',
		link: 'Overrides {base_url}/oauth2/token.',
		preset: true,
		metadata: true
	}),
	userinfo_endpoint: field((z) => optionalUrl(z, 'User-info endpoint'), {
		label: 'User-info endpoint',
		group: 'endpoints',
		input: 'url',
		default: '',
		endpoint: { key: 'userinfo', path: '/reader/api/0/user-info' },
		receives: 'token',
		link: 'Overrides {base_url}/reader/api/0/user-info.',
		preset: true,
		metadata: true
	}),
	/**
	 * The authorization server's issuer identifier, compared with the `iss` on the redirect back
	 * exactly as written (RFC 9207 §2.4), so it is not normalized. Empty: none known.
	 */
	issuer: field(
		(z) =>
			z.union([
				z.literal(''),
				httpUrl(z, 'Issuer').refine(
					(v) => !URL.canParse(v) || !new URL(v).search,
					'Issuer must not contain a ?query (RFC 8414 §2)'
				)
			]),
		{
			label: 'Issuer',
			group: 'endpoints',
			input: 'url',
			default: '',
			link: 'The authorization server’s issuer identifier, compared exactly with the `iss` on the redirect back (RFC 9207).',
			preset: true
		}
	),
	token_location: field(
		(z) => z.enum(TOKEN_LOCATIONS, { error: 'Choose where the access token goes' }),
		{
			label: 'Where the access token goes',
			group: 'advanced',
			input: 'choice',
			options: TOKEN_LOCATIONS,
			default: 'header',
			link: '`header` (Authorization: Bearer, the default) or `query` (access_token parameter).',
			preset: true
		}
	),
	custom_state: field(
		(z) =>
			z
				.string()
				.max(MAX_FIELD, 'State is too long')
				.refine(
					(v) => new TextEncoder().encode(v).length <= MAX_STATE_BYTES,
					`State may be at most ${MAX_STATE_BYTES} bytes (${API_DOCS} §4.1)`
				),
		{
			label: 'Custom state',
			group: 'advanced',
			input: 'text',
			default: '',
			placeholder: 'empty: 32 random bytes, base64url',
			verbatim: true
		}
	),
	auto_exchange: field((z) => z.boolean(), {
		label: 'Exchange the code automatically on return',
		group: 'basic',
		input: 'checkbox',
		default: true,
		link: '`true` (default) or `false`: exchange the code as soon as the browser is back.',
		preset: true
	}),
	/** Accept a self-signed or expired certificate. Honoured in local mode only (send.ts). */
	allow_invalid_tls: field((z) => z.boolean(), {
		label: 'Accept invalid TLS certificates',
		group: 'advanced',
		input: 'checkbox',
		default: false,
		help: 'For a test server of your own with a self-signed or expired certificate. Only a playground running locally offers this; the hosted one always checks certificates.',
		localOnly: true
	}),
	/*
	 * Endpoints the service's API docs do not publish, for other authorization servers (filled by hand
	 * or from metadata, RFC 8414 §2). Empty: none. Revocation, introspection and pushed authorization
	 * requests authenticate the client, so they receive the secret (secret-binding.ts).
	 */
	revocation_endpoint: field((z) => optionalUrl(z, 'Revocation endpoint'), {
		label: 'Revocation endpoint',
		group: 'protocol',
		input: 'url',
		default: '',
		help: `RFC 7009. ${RECEIVES_SECRET}`,
		placeholder: 'empty: none',
		verbatim: true,
		endpoint: { key: 'revocation' },
		receives: 'secret',
		link: 'The revocation endpoint (RFC 7009); none by default.',
		preset: true,
		metadata: true
	}),
	introspection_endpoint: field((z) => optionalUrl(z, 'Introspection endpoint'), {
		label: 'Introspection endpoint',
		group: 'protocol',
		input: 'url',
		default: '',
		help: `RFC 7662. ${RECEIVES_SECRET}`,
		placeholder: 'empty: none',
		verbatim: true,
		endpoint: { key: 'introspection' },
		receives: 'secret',
		link: 'The introspection endpoint (RFC 7662); none by default.',
		preset: true,
		metadata: true
	}),
	pushed_authorization_request_endpoint: field(
		(z) => optionalUrl(z, 'Pushed authorization request endpoint'),
		{
			label: 'Pushed authorization request endpoint',
			group: 'protocol',
			input: 'url',
			default: '',
			help: `RFC 9126. ${RECEIVES_SECRET}`,
			placeholder: 'empty: none',
			verbatim: true,
			endpoint: { key: 'par' },
			receives: 'secret',
			link: 'The pushed authorization request endpoint (RFC 9126); none by default.',
			preset: true,
			metadata: true
		}
	),
	jwks_uri: field((z) => optionalUrl(z, 'JWKS URI'), {
		label: 'JWKS URI',
		group: 'protocol',
		input: 'url',
		default: '',
		help: 'The issuer’s public keys, to check a JWT’s signature. Receives nothing secret.',
		placeholder: 'empty: none',
		verbatim: true,
		endpoint: { key: 'jwks' },
		link: 'The issuer’s public keys (JWKS), to check a JWT’s signature; none by default.',
		preset: true,
		metadata: true
	}),
	/**
	 * How the client authenticates where it sends its secret: in the form body (the service's API docs
	 * §4.2, the default), HTTP Basic (RFC 6749 §2.3.1), or not at all for a public client.
	 */
	token_endpoint_auth_method: field(
		(z) => z.enum(AUTH_METHODS, { error: 'Choose how the client authenticates' }),
		{
			label: 'Client authentication',
			group: 'protocol',
			input: 'choice',
			options: AUTH_METHODS,
			default: 'client_secret_post',
			link: '`client_secret_post` (default, as the service’s API docs say), `client_secret_basic` (HTTP Basic) or `none` (a public client).',
			preset: true
		}
	),
	/** Proof Key for Code Exchange (RFC 7636): off, S256, or plain (only behind a warning). */
	pkce: field((z) => z.enum(PKCE_METHODS, { error: 'Choose a PKCE method' }), {
		label: 'PKCE',
		group: 'protocol',
		input: 'choice',
		options: PKCE_METHODS,
		default: 'off',
		link: '`off` (default), `S256` or `plain` (RFC 7636).',
		preset: true
	}),
	/** Push the authorization request first (RFC 9126) and open the consent page with its request_uri. */
	use_par: field((z) => z.boolean(), {
		label: 'Push the authorization request first (PAR)',
		group: 'protocol',
		input: 'checkbox',
		default: false,
		help: 'RFC 9126: the playground server sends the consent parameters to the pushed authorization request endpoint, and the browser opens the consent page with only the handle it returns.',
		link: '`true` or `false` (default): push the authorization request first (RFC 9126).',
		preset: true
	})
};

type Fields = typeof SETUP_FIELDS;
export type FieldName = keyof Fields;
/** A row of the table, with its name. */
export type SetupFieldRow = FieldFacts & { name: FieldName; rule: (z: Zod) => z.ZodType };
/** A row by its name, read as any row. */
export const rowOf = (name: FieldName): FieldFacts => SETUP_FIELDS[name];

/** The rows in the table's order. */
export const FIELD_ROWS: readonly SetupFieldRow[] = Object.entries(SETUP_FIELDS).map(
	([name, f]) => ({ ...f, name: name as FieldName })
);

/** The names of the rows that have a fact, in the table's order. */
type NamesWhere<P> = { [K in FieldName]: Fields[K] extends P ? K : never }[FieldName];
const namesWhere = (test: (f: SetupFieldRow) => boolean) =>
	FIELD_ROWS.filter(test).map((f) => f.name);

/** A field's schema as the setup checks it: with its default, unless a value must be entered. */
type RuleOf<F> = F extends { rule: (z: Zod) => infer S extends z.ZodType } ? S : never;
type ShapeOf<F> = F extends { required: true }
	? RuleOf<F>
	: F extends { default: unknown }
		? z.ZodDefault<RuleOf<F>>
		: RuleOf<F>;
export type SetupShape = { [K in FieldName]: ShapeOf<Fields[K]> };

/** The fields that have a default, by name. */
export type DefaultedName = NamesWhere<{ default: unknown }>;

/** The fields a docs link may carry, by name. */
export type LinkName = NamesWhere<{ link: string }>;
/**
 * The fields a link carries, in the order it names them: the endpoints only other
 * authorization servers have (no path in the service's API docs) come last, after the choices of
 * how to talk to them.
 */
function carriedOrder(names: FieldName[]): FieldName[] {
	const late = (n: FieldName) => {
		const f = rowOf(n);
		return !!f.endpoint && !f.endpoint.path;
	};
	return [...names.filter((n) => !late(n)), ...names.filter(late)];
}
export const LINK_FIELDS = carriedOrder(namesWhere((f) => !!f.link)) as LinkName[];

/** The fields a preset may carry, by name. */
export type PresetName = NamesWhere<{ preset: true }>;
export const PRESET_FIELDS = namesWhere((f) => !!f.preset) as PresetName[];

/** The fields whose URL receives the client secret, by name. */
export type SecretReceiverName = NamesWhere<{ receives: 'secret' }>;
export const SECRET_RECEIVERS = namesWhere((f) => f.receives === 'secret') as SecretReceiverName[];

/** The fields whose URL receives the access token, by name. */
export type TokenReceiverName = NamesWhere<{ receives: 'token' }>;
export const TOKEN_RECEIVERS = namesWhere((f) => f.receives === 'token') as TokenReceiverName[];

/** The endpoint fields, by name: those with a path in the service's API docs, and the others. */
export type DocumentedEndpointName = NamesWhere<{ endpoint: { path: string } }>;
export type EndpointName = NamesWhere<{ endpoint: unknown }>;
export const ENDPOINT_FIELDS = namesWhere((f) => !!f.endpoint) as EndpointName[];

/** The fields the metadata member of the same name fills in, by name. */
export type MetadataName = NamesWhere<{ metadata: true }>;
export const METADATA_FIELDS = namesWhere((f) => !!f.metadata) as MetadataName[];

/** A field's endpoint key (the field must set one). */
export function endpointKey(name: EndpointName): EndpointKey {
	return rowOf(name).endpoint!.key;
}

/** A field's name in the words of a message: "token endpoint". */
export function fieldWords(name: FieldName): string {
	const { label } = rowOf(name);
	return label.charAt(0).toLowerCase() + label.slice(1);
}

/** The rows of one group of the form, in the table's order. */
export function groupRows(group: FieldGroup): SetupFieldRow[] {
	return FIELD_ROWS.filter((f) => f.group === group);
}

/** The shape of a preset entry's fields (`presetShape`, setup.ts). */
export type PresetShape = {
	[K in PresetName]: Fields[K] extends { required: true } | { default: unknown }
		? SetupShape[K]
		: z.ZodOptional<SetupShape[K]>;
};

/** The fields a preset does not carry, at their defaults: a preset's setup has them so. */
export type UncarriedName = Exclude<FieldName, PresetName>;
export const UNCARRIED_DEFAULTS = Object.fromEntries(
	FIELD_ROWS.filter((f) => !f.preset).map((f) => [f.name, f.default])
) as { [K in UncarriedName]: z.output<SetupShape[K]> };
