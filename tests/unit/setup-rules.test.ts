import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
	MAX_FIELD,
	endpoints,
	fieldErrors,
	scopeSchema,
	secretSchema,
	setupFromForm,
	setupSchema,
	setupWith
} from '$lib/oauth/setup';

const base = {
	base_url: 'https://reader.test',
	client_id: 'app',
	redirect_uri: 'https://app.test/cb'
};
const ok = (fields: Record<string, unknown>) =>
	setupSchema.safeParse({ ...base, ...fields }).success;
/** The fields a setup is refused for. */
const refused = (fields: Record<string, unknown>) => {
	const r = setupSchema.safeParse({ ...base, ...fields });
	return r.success ? [] : [...new Set(r.error.issues.map((i) => String(i.path[0])))];
};

describe('the setup form', () => {
	test('the fields that matter, the rest at their defaults; URLs trimmed, the base URL without trailing slashes', () => {
		expect(
			setupSchema.parse({ ...base, base_url: '  https://reader.test/api// ', client_id: ' app ' })
		).toEqual({
			base_url: 'https://reader.test/api',
			client_id: 'app',
			scope: '',
			redirect_uri: 'https://app.test/cb',
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
		});
	});
	test.each([
		['not a URL', 'reader.test'],
		['another scheme', 'ftp://reader.test'],
		['a fragment', 'https://reader.test/#x'],
		['a user name', 'https://me@reader.test'],
		['a password', 'https://:pw@reader.test'],
		['too long', 'https://reader.test/' + 'a'.repeat(MAX_FIELD)]
	])('a URL with %s is refused, in every URL field', (_, url) => {
		for (const field of [
			'base_url',
			'redirect_uri',
			'authorization_endpoint',
			'token_endpoint',
			'userinfo_endpoint',
			'issuer'
		])
			expect(refused({ [field]: url }), field).toEqual([field]);
	});
	test('the issuer is kept exactly as written (RFC 9207 compares it by string), but with no ?query', () => {
		for (const issuer of ['https://id.test/', 'https://ID.test', 'http://127.0.0.1:9/oidc', ''])
			expect(setupSchema.parse({ ...base, issuer }).issuer).toBe(issuer);
		expect(refused({ issuer: 'https://id.test/?tenant=1' })).toEqual(['issuer']);
	});
	test('http and https URLs up to 2048 characters pass; endpoint overrides may be empty', () => {
		const long = 'http://reader.test/' + 'a'.repeat(MAX_FIELD - 'http://reader.test/'.length);
		expect(long).toHaveLength(2048);
		expect(MAX_FIELD).toBe(2048);
		expect(
			ok({ base_url: long, token_endpoint: 'http://t.test/x', authorization_endpoint: '' })
		).toBe(true);
		expect(refused({ redirect_uri: '' })).toEqual(['redirect_uri']);
	});
	test('the client id: 1 to 200 printable ASCII characters', () => {
		expect(ok({ client_id: 'a'.repeat(200) })).toBe(true);
		expect(ok({ client_id: 'a b~!' })).toBe(true);
		for (const id of ['', '   ', 'a'.repeat(201), 'é', 'a\tb', 'a\u007f'])
			expect(refused({ client_id: id }), JSON.stringify(id)).toEqual(['client_id']);
	});
	test('the token location is header or query', () => {
		expect(setupSchema.parse({ ...base, token_location: 'query' }).token_location).toBe('query');
		expect(refused({ token_location: 'cookie' })).toEqual(['token_location']);
	});
	test('a custom state of up to 500 UTF-8 bytes', () => {
		expect(ok({ custom_state: 's'.repeat(500) })).toBe(true);
		expect(ok({ custom_state: 'é'.repeat(250) })).toBe(true);
		expect(refused({ custom_state: 's'.repeat(501) })).toEqual(['custom_state']);
		expect(refused({ custom_state: 'é'.repeat(251) })).toEqual(['custom_state']);
	});
});

describe('scope', () => {
	test('words separated by single spaces, at most 200 characters as typed', () => {
		expect(scopeSchema.parse('  read \t  write ')).toBe('read write');
		expect(scopeSchema.parse('')).toBe('');
		expect(scopeSchema.parse('!#[]~')).toBe('!#[]~');
		expect(scopeSchema.safeParse('r'.repeat(200)).success).toBe(true);
		expect(scopeSchema.safeParse('r'.repeat(201)).success).toBe(false);
	});
	test('no quote, backslash or non-ASCII character (RFC 6749 §3.3)', () => {
		for (const s of ['"read"', 'read\\', 'lé', 'a\u007f'])
			expect(scopeSchema.safeParse(s).success, s).toBe(false);
	});
});

test('the client secret: one line, at most 1024 characters', () => {
	expect(secretSchema.safeParse('').success).toBe(true);
	expect(secretSchema.safeParse('s'.repeat(1024)).success).toBe(true);
	expect(secretSchema.safeParse('s'.repeat(1025)).success).toBe(false);
	expect(secretSchema.safeParse('a\nb').success).toBe(false);
	expect(secretSchema.safeParse('a\rb').success).toBe(false);
});

test('setupWith fills every other field with its default', () => {
	expect(setupWith({ base_url: 'b', redirect_uri: 'r' })).toEqual({
		...setupSchema.parse(base),
		base_url: 'b',
		redirect_uri: 'r',
		client_id: ''
	});
	expect(setupWith({ base_url: 'b', redirect_uri: 'r', scope: 'read' }).scope).toBe('read');
});

test('endpoints follow the service’s API docs unless overridden', () => {
	const e = { authorization_endpoint: '', token_endpoint: '', userinfo_endpoint: '' };
	expect(endpoints({ ...e, base_url: 'https://r.test//' })).toEqual({
		authorization: 'https://r.test/oauth2/auth',
		token: 'https://r.test/oauth2/token',
		userinfo: 'https://r.test/reader/api/0/user-info',
		api: 'https://r.test/reader/api/0/',
		revocation: '',
		introspection: '',
		par: '',
		jwks: ''
	});
	expect(
		endpoints({
			base_url: 'https://r.test',
			authorization_endpoint: 'https://a.test/x',
			token_endpoint: 'https://t.test/y',
			userinfo_endpoint: 'https://u.test/z',
			revocation_endpoint: 'https://t.test/revoke',
			introspection_endpoint: 'https://t.test/introspect',
			pushed_authorization_request_endpoint: 'https://t.test/par',
			jwks_uri: 'https://t.test/jwks'
		})
	).toEqual({
		authorization: 'https://a.test/x',
		token: 'https://t.test/y',
		userinfo: 'https://u.test/z',
		api: 'https://r.test/reader/api/0/',
		revocation: 'https://t.test/revoke',
		introspection: 'https://t.test/introspect',
		par: 'https://t.test/par',
		jwks: 'https://t.test/jwks'
	});
});

test('fieldErrors keeps the first message of each field; an issue without a path is the form’s', () => {
	const schema = z
		.object({ a: z.string().min(3, 'first a').regex(/x/, 'second a'), b: z.number('b') })
		.refine(() => false, 'whole form');
	const r = schema.safeParse({ a: 'y', b: 1 });
	expect(r.success).toBe(false);
	if (!r.success) expect(fieldErrors(r.error)).toEqual({ a: 'first a', form: 'whole form' });
});

describe('setupFromForm', () => {
	const form = (entries: [string, string | Blob][]) => {
		const f = new FormData();
		for (const [k, v] of entries) f.append(k, v);
		return f;
	};
	test('an empty form: empty texts, the header location, checkboxes off', () => {
		expect(setupFromForm(form([]))).toEqual({
			base_url: '',
			client_id: '',
			scope: '',
			redirect_uri: '',
			registered_redirect_uri: '',
			authorization_endpoint: '',
			token_endpoint: '',
			userinfo_endpoint: '',
			issuer: '',
			token_location: 'header',
			custom_state: '',
			auto_exchange: false,
			allow_invalid_tls: false,
			revocation_endpoint: '',
			introspection_endpoint: '',
			pushed_authorization_request_endpoint: '',
			jwks_uri: '',
			token_endpoint_auth_method: 'client_secret_post',
			pkce: 'off',
			use_par: false
		});
	});
	test('every field is read by its name; a checkbox is on when present, unless it says false', () => {
		const names = [
			'base_url',
			'client_id',
			'scope',
			'redirect_uri',
			'registered_redirect_uri',
			'authorization_endpoint',
			'token_endpoint',
			'userinfo_endpoint',
			'issuer',
			'token_location',
			'custom_state',
			'revocation_endpoint',
			'introspection_endpoint',
			'pushed_authorization_request_endpoint',
			'jwks_uri',
			'token_endpoint_auth_method',
			'pkce'
		];
		const read = setupFromForm(
			form([
				...names.map((n): [string, string] => [n, `v-${n}`]),
				['auto_exchange', 'on'],
				['allow_invalid_tls', ''],
				['use_par', 'on']
			])
		);
		expect(read).toEqual({
			...Object.fromEntries(names.map((n) => [n, `v-${n}`])),
			auto_exchange: true,
			allow_invalid_tls: true,
			use_par: true
		});
		const off = setupFromForm(
			form([
				['auto_exchange', 'false'],
				['allow_invalid_tls', 'false'],
				['use_par', 'false']
			])
		);
		expect([off.auto_exchange, off.allow_invalid_tls, off.use_par]).toEqual([false, false, false]);
	});
	test('a file where text belongs is no value', () => {
		expect(
			setupFromForm(
				form([
					['client_id', new Blob(['x'])],
					['token_location', new Blob(['q'])]
				])
			)
		).toMatchObject({
			client_id: '',
			token_location: 'header'
		});
	});
});
