import { describe, expect, test } from 'vitest';
import {
	PREFILL_PARAMS,
	REFUSED_PARAMS,
	hasPrefill,
	htmlSnippet,
	parsePrefill,
	prefillLink
} from '$lib/oauth/prefill';

const q = (s: string) => new URLSearchParams(s);

describe('parsePrefill', () => {
	test('a link with any parameter is a prefill; one without is not', () => {
		expect(hasPrefill(q(''))).toBe(false);
		expect(hasPrefill(q('x='))).toBe(true);
	});
	test('each parameter a link may carry is read; each one it must not carry is refused, not read', () => {
		const may = [
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
			'auto_exchange',
			'token_endpoint_auth_method',
			'pkce',
			'use_par',
			'revocation_endpoint',
			'introspection_endpoint',
			'pushed_authorization_request_endpoint',
			'jwks_uri',
			'preset'
		];
		for (const name of may) {
			const p = parsePrefill(q(`${name}=x`));
			expect(p.unknown, name).toEqual([]);
			expect(p.refused, name).toEqual([]);
		}
		// Names that carry no "secret" or "password" in them are refused only by the list.
		for (const name of ['access_token', 'refresh_token', 'id_token', 'code', 'token']) {
			const p = parsePrefill(q(`${name}=x`));
			expect(p.refused, name).toEqual([name]);
			expect(p.values, name).toEqual({});
		}
		expect(REFUSED_PARAMS).toEqual(expect.arrayContaining(['client_secret', 'secret', 'password']));
		expect(Object.keys(PREFILL_PARAMS).sort()).toEqual([...may].sort());
	});
	test('a secret is refused whatever its case, and anything named like a secret or password; each name once', () => {
		const p = parsePrefill(
			q(
				'Client_Secret=a&SECRET=b&Refresh_Token=c&id_token=d&Password=e&token=f&db_password=g&appSecretKey=h&token=again'
			)
		);
		expect(p.refused).toEqual([
			'Client_Secret',
			'SECRET',
			'Refresh_Token',
			'id_token',
			'Password',
			'token',
			'db_password',
			'appSecretKey'
		]);
		expect(p).toMatchObject({ values: {}, errors: {}, unknown: [] });
	});
	test('known names are case-sensitive: another spelling is unknown, listed once', () => {
		expect(parsePrefill(q('Client_Id=a&client_id=b&Client_Id=c'))).toEqual({
			values: { client_id: 'b' },
			errors: {},
			refused: [],
			unknown: ['Client_Id']
		});
	});
	test('values of up to 2048 characters are read; a longer one is an error and not used', () => {
		const scope = (n: number) => parsePrefill(q(`scope=${'r'.repeat(n)}`));
		expect(scope(200).values).toEqual({ scope: 'r'.repeat(200) });
		const long = parsePrefill(q(`client_id=${'c'.repeat(2049)}`));
		expect(long.values).toEqual({});
		expect(Object.keys(long.errors)).toEqual(['client_id']);
		const atCap = parsePrefill(q(`preset=${'p'.repeat(2048)}`));
		expect(atCap.preset).toHaveLength(2048);
		const overCap = parsePrefill(q(`preset=${'p'.repeat(2049)}`));
		expect(overCap.preset).toBeUndefined();
		expect(Object.keys(overCap.errors)).toEqual(['preset']);
	});
	test('a repeated parameter is one error and no value', () => {
		const p = parsePrefill(q('scope=read&scope=read'));
		expect(p.values).toEqual({});
		expect(Object.keys(p.errors)).toEqual(['scope']);
	});
	test('auto_exchange is true or false; anything else is an error', () => {
		expect(parsePrefill(q('auto_exchange=true')).values).toEqual({ auto_exchange: true });
		expect(parsePrefill(q('auto_exchange=false')).values).toEqual({ auto_exchange: false });
		const p = parsePrefill(q('auto_exchange=yes'));
		expect(p.values).toEqual({});
		expect(Object.keys(p.errors)).toEqual(['auto_exchange']);
	});
	test('the host to trust comes from the base URL, else from the authorization endpoint', () => {
		expect(parsePrefill(q('base_url=https://a.test:8443/x')).host).toBe('a.test:8443');
		expect(
			parsePrefill(q('authorization_endpoint=https://b.test/auth&base_url=https://a.test')).host
		).toBe('a.test');
		expect(parsePrefill(q('authorization_endpoint=https://b.test/auth')).host).toBe('b.test');
		expect(parsePrefill(q('token_endpoint=https://c.test/t')).host).toBeUndefined();
		expect(parsePrefill(q('base_url=nope')).host).toBeUndefined();
	});
	test('the issuer is read exactly as written, a trailing slash included', () => {
		expect(parsePrefill(q('issuer=https://id.test/')).values).toEqual({
			issuer: 'https://id.test/'
		});
		expect(parsePrefill(q('issuer=id.test')).errors.issuer).toMatch(/Issuer/);
	});
	test('values are parsed as the setup parses them', () => {
		expect(
			parsePrefill(q('base_url=https://a.test///&scope=%20read%20%20write&token_location=query'))
				.values
		).toEqual({ base_url: 'https://a.test', scope: 'read write', token_location: 'query' });
	});
});

describe('prefillLink', () => {
	const origin = 'http://127.0.0.1:5173';
	test('every set field that differs from its default, in a fixed order; the base URL always', () => {
		expect(
			prefillLink(origin, {
				auto_exchange: false,
				token_location: 'query',
				issuer: 'https://i.test/',
				userinfo_endpoint: 'https://u.test',
				token_endpoint: 'https://t.test',
				authorization_endpoint: 'https://a.test',
				redirect_uri: 'https://app.test/cb',
				scope: 'read',
				client_id: 'c',
				base_url: 'https://r.test'
			})
		).toBe(
			`${origin}/?base_url=https%3A%2F%2Fr.test&client_id=c&scope=read&redirect_uri=https%3A%2F%2Fapp.test%2Fcb&authorization_endpoint=https%3A%2F%2Fa.test&token_endpoint=https%3A%2F%2Ft.test&userinfo_endpoint=https%3A%2F%2Fu.test&issuer=https%3A%2F%2Fi.test%2F&token_location=query&auto_exchange=false`
		);
		expect(prefillLink(origin, { base_url: '' })).toBe(`${origin}/?base_url=`);
		expect(prefillLink(origin, { base_url: 'b' }, { base_url: 'b' })).toBe(`${origin}/?base_url=b`);
		expect(prefillLink(origin, { client_id: 'c' })).toBe(`${origin}/?client_id=c`);
		expect(prefillLink(origin, { client_id: '', scope: 's' }, { scope: 's' })).toBe(`${origin}/`);
	});

	test('the endpoints only other servers have come last, after how to talk to them', () => {
		const link = prefillLink(origin, {
			base_url: 'https://r.test',
			revocation_endpoint: 'https://as.test/revoke',
			introspection_endpoint: 'https://as.test/introspect',
			pushed_authorization_request_endpoint: 'https://as.test/par',
			jwks_uri: 'https://as.test/jwks',
			token_endpoint_auth_method: 'client_secret_basic',
			pkce: 'S256',
			use_par: true,
			token_endpoint: 'https://as.test/token'
		});
		expect([...new URL(link).searchParams.keys()]).toEqual([
			'base_url',
			'token_endpoint',
			'token_endpoint_auth_method',
			'pkce',
			'use_par',
			'revocation_endpoint',
			'introspection_endpoint',
			'pushed_authorization_request_endpoint',
			'jwks_uri'
		]);
	});
	test('only the playground’s own callback is left out of redirect_uri', () => {
		expect(prefillLink(origin, { redirect_uri: `${origin}/callback` })).toBe(`${origin}/`);
		expect(prefillLink(origin, { redirect_uri: `${origin}/callback2` })).toContain('redirect_uri=');
		expect(prefillLink(origin, { client_id: `${origin}/callback` })).toContain('client_id=');
	});
});

test('the HTML snippet escapes its text too, ampersands first', () => {
	expect(htmlSnippet('/?a', 'Q&A <b>"&lt;"</b>')).toBe(
		'<a href="/?a" target="_blank" rel="noopener">Q&amp;A &lt;b&gt;&quot;&amp;lt;&quot;&lt;/b&gt;</a>'
	);
});

test('only auto_exchange reads "true" and "false" as booleans', () => {
	expect(parsePrefill(q('client_id=true&scope=false')).values).toEqual({
		client_id: 'true',
		scope: 'false'
	});
});
