/**
 * The step-up after a zone-2 403 (issue: the budget and the scope, explained): the diagnosis of a
 * call refused for want of scope names the scope to ask for, which the API card offers in one click
 * ("Ask for read write and authorize again"); a registration that can only read gets no offer, and
 * its fix names the registration; another server's challenge names its own scope (RFC 6750 §3.1).
 */
import { describe, expect, test } from 'vitest';
import { diagnose, type DiagnoseContext } from '$lib/oauth/diagnose';
import type { Exchange, HeaderList } from '$lib/exchange/types';

function refused(headers: HeaderList = [], body = '{"error":"insufficient_scope"}'): Exchange {
	return {
		id: 'api-1',
		step: 'api',
		startedAt: '2026-03-14T10:00:00.000Z',
		request: {
			method: 'POST',
			url: 'https://reader.example/reader/api/0/edit-tag',
			httpVersion: '1.1',
			headers: [],
			body: 'i=1'
		},
		response: {
			status: 403,
			statusText: 'Forbidden',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json'], ...headers],
			body,
			truncated: false
		},
		timing: { total: 5 },
		findings: []
	};
}

const scopeFinding = (ex: Exchange, ctx: DiagnoseContext) =>
	diagnose(ex, ctx).find((f) => f.code === 'insufficient_scope');

describe('the scope a 403 insufficient_scope asks for', () => {
	test('the service, a token asked and granted read: ask for read write, in one click', () => {
		const f = scopeFinding(refused(), { requestedScope: 'read', grantedScope: 'read' });
		expect(f?.suggest).toEqual({ field: 'scope', value: 'read write' });
		expect(f?.fix).toMatch(/^Ask for scope "read write" at consent and authorize again/);
		// Other words of the token's scope are kept.
		const openid = scopeFinding(refused(), { requestedScope: 'openid read' });
		expect(openid?.suggest).toEqual({ field: 'scope', value: 'openid read write' });
	});

	test('the service, asked for read write and granted read: the registration can only read, no offer', () => {
		const f = scopeFinding(refused(), { requestedScope: 'read write', grantedScope: 'read' });
		expect(f?.suggest).toBeUndefined();
		expect(f?.message).toContain('the consent asked for "read write"');
		expect(f?.fix).toMatch(/^Set the registration to "Read and write"/);
	});

	test("the challenge names its scope (RFC 6750 §3.1): that one, added to the token's", () => {
		const www: HeaderList = [
			['WWW-Authenticate', 'Bearer error="insufficient_scope", scope="items:write"']
		];
		const other: DiagnoseContext = {
			requestedScope: 'items:read',
			advice: { service: false }
		};
		expect(scopeFinding(refused(www), other)?.suggest).toEqual({
			field: 'scope',
			value: 'items:write'
		});
		// The service's challenge too.
		const sandbox: HeaderList = [
			['WWW-Authenticate', 'Bearer error="insufficient_scope", scope="read write"']
		];
		expect(scopeFinding(refused(sandbox), { requestedScope: 'read' })?.suggest?.value).toBe(
			'read write'
		);
		// Without a named scope another server's refusal offers nothing to guess.
		expect(scopeFinding(refused(), other)?.suggest).toBeUndefined();
	});
});
