import { describe, expect, it } from 'vitest';
import {
	accessTtlFor,
	authenticateClient,
	findClient,
	limitsFor,
	originTwins,
	redirectUriMatches,
	registeredRedirectUris
} from '$lib/sandbox/clients.server';
import { testSandbox } from './test-app';

const extra = [
	{
		client_id: 'ext',
		client_secret: 'ext-secret',
		redirect_uris: ['https://app.example.test/cb?tenant=1'],
		default_scope: 'read',
		access_ttl: 42,
		zone2_limit: 3
	}
];

describe('sandbox client registrations and redirect URIs (RFC 6749 §3.1.2.3)', () => {
	const env = { SANDBOX_CLIENTS: JSON.stringify(extra) };
	const { settings } = testSandbox(env);

	it('gives built-ins /callback and /sandbox/landing on the request origin and its loopback twin', () => {
		const rw = findClient(settings, 'sandbox-rw')!;
		const list = registeredRedirectUris(settings, rw, 'http://127.0.0.1:5173');
		for (const uri of [
			'http://127.0.0.1:5173/callback',
			'http://localhost:5173/callback',
			'http://127.0.0.1:5173/sandbox/landing',
			'http://localhost:5173/sandbox/landing'
		]) {
			expect(list).toContain(uri);
			expect(redirectUriMatches(settings, rw, uri, 'http://127.0.0.1:5173')).toBe(true);
		}
		expect(
			redirectUriMatches(settings, rw, 'http://localhost:5173/callback', 'http://localhost:5173')
		).toBe(true);
		expect(
			redirectUriMatches(settings, rw, 'http://127.0.0.1:5173/callback', 'http://localhost:5173')
		).toBe(true);
	});

	it('matches exactly: other port, scheme, path, query, case or trailing slash do not match', () => {
		const rw = findClient(settings, 'sandbox-rw')!;
		for (const uri of [
			'http://127.0.0.1:5174/callback',
			'https://127.0.0.1:5173/callback',
			'http://127.0.0.1:5173/callback/',
			'http://127.0.0.1:5173/callback?x=1',
			'http://127.0.0.1:5173/Callback',
			'http://127.0.0.1:5173/callback#f',
			'http://127.0.0.1:5173/other',
			'http://evil.example/callback',
			''
		]) {
			expect(redirectUriMatches(settings, rw, uri, 'http://127.0.0.1:5173'), uri).toBe(false);
		}
	});

	it('gives no twin to a non-loopback origin', () => {
		expect(originTwins('https://playground.example.test')).toEqual([
			'https://playground.example.test'
		]);
		expect(originTwins('http://localhost:8080')).toContain('http://127.0.0.1:8080');
		expect(originTwins('not a url')).toEqual([]);
		const rw = findClient(settings, 'sandbox-rw')!;
		expect(
			redirectUriMatches(
				settings,
				rw,
				'https://localhost/callback',
				'https://playground.example.test'
			)
		).toBe(false);
	});

	it('also registers the ORIGIN variable', () => {
		const withOrigin = testSandbox({ ...env, ORIGIN: 'https://playground.example.test' }).settings;
		const ro = findClient(withOrigin, 'sandbox-ro')!;
		expect(
			redirectUriMatches(
				withOrigin,
				ro,
				'https://playground.example.test/callback',
				'http://127.0.0.1:5173'
			)
		).toBe(true);
		expect(
			redirectUriMatches(
				withOrigin,
				ro,
				'https://playground.example.test/sandbox/landing',
				'http://127.0.0.1:5173'
			)
		).toBe(true);
		expect(
			redirectUriMatches(withOrigin, ro, 'http://localhost:5173/callback', 'http://127.0.0.1:5173')
		).toBe(true);
		expect(
			redirectUriMatches(
				settings,
				ro,
				'https://playground.example.test/callback',
				'http://127.0.0.1:5173'
			)
		).toBe(false);
	});

	it('uses the exact list of a SANDBOX_CLIENTS registration, whatever the origin', () => {
		const ext = findClient(settings, 'ext')!;
		expect(ext.builtin).toBe(false);
		expect(
			redirectUriMatches(
				settings,
				ext,
				'https://app.example.test/cb?tenant=1',
				'http://127.0.0.1:5173'
			)
		).toBe(true);
		expect(
			redirectUriMatches(settings, ext, 'https://app.example.test/cb', 'http://127.0.0.1:5173')
		).toBe(false);
		expect(
			redirectUriMatches(settings, ext, 'http://127.0.0.1:5173/callback', 'http://127.0.0.1:5173')
		).toBe(false);
	});

	it('authenticates with the exact secret only', () => {
		expect(authenticateClient(settings, 'sandbox-rw', 'sandbox-rw-secret')?.client_id).toBe(
			'sandbox-rw'
		);
		expect(authenticateClient(settings, 'sandbox-rw', 'sandbox-ro-secret')).toBeUndefined();
		expect(authenticateClient(settings, 'sandbox-rw', 'sandbox-rw-secret ')).toBeUndefined();
		expect(authenticateClient(settings, 'nobody', 'x')).toBeUndefined();
		expect(authenticateClient(settings, 'ext', 'ext-secret')?.client_id).toBe('ext');
		expect(findClient(settings, '')).toBeUndefined();
	});

	it('takes lifetimes and limits from the registration, else from the environment', () => {
		expect(accessTtlFor(settings, findClient(settings, 'sandbox-short')!)).toBe(5);
		expect(accessTtlFor(settings, findClient(settings, 'sandbox-rw')!)).toBe(3600);
		expect(accessTtlFor(settings, findClient(settings, 'ext')!)).toBe(42);
		expect(limitsFor(settings, findClient(settings, 'ext'))).toEqual({ zone1: 100, zone2: 3 });
		expect(limitsFor(settings, undefined)).toEqual({ zone1: 100, zone2: 10 });
	});
});
