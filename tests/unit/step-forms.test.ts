/**
 * What each step reads from its form: the value it passes on, and the 400's reason and field when
 * the form does not pass (each step's input, beside its run in server/steps/).
 */
import { describe, expect, test } from 'vitest';
import { adminToken } from '$lib/server/steps/introspect-revoke';
import {
	apiCallInput,
	exchangeChoice,
	pastedAddress,
	refreshChoice
} from '$lib/server/steps/flow-steps';
import { jwtInput } from '$lib/server/steps/jwt-check';
import { metadataLookup } from '$lib/server/steps/discovery';

const form = (fields: Record<string, string> = {}) => {
	const f = new FormData();
	for (const [k, v] of Object.entries(fields)) f.set(k, v);
	return f;
};

describe('paste-back', () => {
	test('the address, trimmed', () => {
		expect(pastedAddress(form({ pasted: '  https://app.test/cb?code=x  ' }))).toEqual({
			ok: true,
			value: 'https://app.test/cb?code=x'
		});
	});
	test('nothing pasted, or too much: the reason, and no field', () => {
		expect(pastedAddress(form())).toStrictEqual({
			ok: false,
			message: 'Paste the address your application landed on'
		});
		expect(pastedAddress(form({ pasted: 'x'.repeat(8193) }))).toStrictEqual({
			ok: false,
			message: 'That is too long for a redirect address (at most 8192 characters)'
		});
		expect(pastedAddress(form({ pasted: 'x'.repeat(8192) })).ok).toBe(true);
	});
});

describe('the exchange and the refresh', () => {
	test('"Exchange anyway" and the automatic refresh are sent as 1, and nothing else counts', () => {
		expect(exchangeChoice(form({ anyway: '1' }))).toEqual({ ok: true, value: { anyway: true } });
		expect(exchangeChoice(form({ anyway: 'true' }))).toEqual({
			ok: true,
			value: { anyway: false }
		});
		expect(refreshChoice(form({ auto: '1' }))).toEqual({ ok: true, value: { auto: true } });
		expect(refreshChoice(form())).toEqual({ ok: true, value: { auto: false } });
	});
});

describe('an API call', () => {
	test('GET unless said; a POST with a body and no body kind sends it as a form', () => {
		const get = apiCallInput(form({ path: 'user-info' }));
		expect(get).toMatchObject({ ok: true, value: { method: 'GET', path: 'user-info' } });
		const post = apiCallInput(form({ method: 'POST', path: 'edit-tag', body: 'a=1' }));
		expect(post).toMatchObject({ ok: true, value: { method: 'POST', body: 'a=1' } });
		expect(JSON.stringify(post)).toContain('application/x-www-form-urlencoded');
		const none = apiCallInput(form({ method: 'POST', path: 'edit-tag' }));
		expect(JSON.stringify(none)).not.toContain('application/x-www-form-urlencoded');
		// A GET's body is not sent as a form, nor is a POST's whose kind is said.
		const getWithBody = apiCallInput(form({ path: 'user-info', body: 'a=1' }));
		expect(getWithBody.ok).toBe(true);
		expect(JSON.stringify(getWithBody)).not.toContain('application/x-www-form-urlencoded');
		const json = apiCallInput(
			form({ method: 'POST', path: 'edit-tag', body: '{"a":1}', body_kind: 'json' })
		);
		expect(JSON.stringify(json)).toContain('application/json');
	});
	test('the query, the headers and a raw body’s content type go with the call', () => {
		const r = apiCallInput(
			form({
				method: 'PUT',
				path: 'things',
				query: 'n=20',
				headers: 'X-Trace: 1',
				body_kind: 'raw',
				body: 'hello',
				content_type: 'application/x-custom'
			})
		);
		const text = JSON.stringify(r);
		expect(r.ok).toBe(true);
		for (const part of ['n=20', 'X-Trace', 'application/x-custom', 'hello'])
			expect(text).toContain(part);
	});
	test('a refused call names its field', () => {
		expect(apiCallInput(form({ method: 'TRACE', path: 'x' }))).toEqual({
			ok: false,
			field: 'method',
			message: 'Method must be GET, POST, PUT, PATCH or DELETE'
		});
		expect(apiCallInput(form())).toMatchObject({ ok: false, field: 'path' });
	});
});

describe('the JWT check', () => {
	test('which token, and a pasted one', () => {
		expect(jwtInput(form({ which: 'pasted', token: 'a.b.c' }))).toEqual({
			ok: true,
			value: { which: 'pasted', token: 'a.b.c' }
		});
		for (const which of ['access_token', 'id_token', 'refresh_token'])
			expect(jwtInput(form({ which }))).toEqual({ ok: true, value: { which, token: '' } });
	});
	test('no choice, or a token too long: the reason, on the token field', () => {
		expect(jwtInput(form())).toStrictEqual({
			ok: false,
			message: 'Choose which token to check',
			field: 'token'
		});
		expect(jwtInput(form({ which: 'pasted', token: 'x'.repeat(16_001) }))).toEqual({
			ok: false,
			message: 'That is too long for a JWT here (at most 16,000 characters)',
			field: 'token'
		});
	});
});

describe('introspection and revocation', () => {
	test('the access token or the refresh token, and nothing else', () => {
		expect(adminToken(form({ which: 'refresh_token' }))).toEqual({
			ok: true,
			value: 'refresh_token'
		});
		expect(adminToken(form({ which: 'access_token' }))).toEqual({
			ok: true,
			value: 'access_token'
		});
		expect(adminToken(form({ which: 'id_token' }))).toStrictEqual({
			ok: false,
			message: 'Choose the access token or the refresh token',
			field: 'which'
		});
	});
});

describe('"Fill from metadata"', () => {
	test('the base URL, the issuer and the two choices; the setup defaults for the choices', () => {
		expect(
			metadataLookup(
				form({
					base_url: 'https://as.test',
					issuer: '',
					token_endpoint_auth_method: 'client_secret_basic',
					pkce: 'S256',
					client_secret: 'never read'
				})
			)
		).toEqual({
			ok: true,
			value: {
				base_url: 'https://as.test',
				issuer: '',
				current: { token_endpoint_auth_method: 'client_secret_basic', pkce: 'S256' }
			}
		});
		const bare = metadataLookup(form({ issuer: 'https://as.test' }));
		expect(bare).toMatchObject({ ok: true, value: { base_url: '', issuer: 'https://as.test' } });
	});
	test('neither a base URL nor an issuer: the base URL field; a bad choice: its own field', () => {
		expect(metadataLookup(form())).toEqual({
			ok: false,
			message: 'Enter the base URL (or the issuer) first: metadata is looked up from it',
			field: 'base_url'
		});
		expect(metadataLookup(form({ base_url: 'https://as.test', pkce: 'S512' }))).toMatchObject({
			ok: false,
			field: 'pkce'
		});
	});
});
