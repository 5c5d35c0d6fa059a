import { describe, expect, test } from 'vitest';
import { requestFields, spends } from '$lib/exchange/spending';
import type { Exchange, Step } from '$lib/exchange/types';

function exchange(step: Step, url: string, body = '', contentType?: string): Exchange {
	return {
		id: 'x1',
		step,
		startedAt: '2026-03-14T10:00:00.000Z',
		request: {
			method: body ? 'POST' : 'GET',
			url,
			httpVersion: '1.1',
			headers: contentType ? [['Content-Type', contentType]] : [],
			body
		},
		timing: { total: 5 },
		findings: []
	};
}

describe('spends: which recorded requests use something up when sent again', () => {
	test('a form-encoded code exchange spends the code, a refresh the refresh token', () => {
		const form = 'application/x-www-form-urlencoded';
		const token = 'https://svc.test/oauth2/token';
		expect(spends(exchange('exchange', token, 'grant_type=authorization_code&code=c1', form))).toBe(
			'code'
		);
		expect(
			spends(exchange('refresh', token, 'grant_type=refresh_token&refresh_token=r1', form))
		).toBe('refresh');
		expect(spends(exchange('api', 'https://svc.test/reader/api/0/user-info'))).toBeUndefined();
	});

	test('a token request with a JSON body is recognised by its grant_type too', () => {
		const token = 'https://svc.test/oauth2/token';
		const json = 'application/json';
		expect(
			spends(
				exchange('refresh', token, '{"grant_type":"refresh_token","refresh_token":"r1"}', json)
			)
		).toBe('refresh');
		expect(
			spends(exchange('exchange', token, '{"grant_type":"authorization_code","code":"c1"}', json))
		).toBe('code');
	});

	test('a request to a revocation endpoint revokes; a path that only starts with "revoke" does not', () => {
		expect(spends(exchange('api', 'https://svc.test/oauth2/revoke', 'token=t1'))).toBe('revoke');
		expect(spends(exchange('api', 'https://svc.test/oauth2/Revocation/?x=1', 'token=t1'))).toBe(
			'revoke'
		);
		expect(spends(exchange('api', 'https://svc.test/reader/api/0/revoked-items'))).toBeUndefined();
		expect(spends(exchange('api', 'https://svc.test/revocation/status'))).toBeUndefined();
	});

	test('the consent page and the callback spend nothing, even when their URL carries a grant_type or ends in /revoke', () => {
		const url = 'https://app.test/revoke?grant_type=authorization_code&code=c1';
		expect(spends(exchange('consent', url))).toBeUndefined();
		expect(spends(exchange('callback', url))).toBeUndefined();
		// The same URL as a token-endpoint call would spend the code: it is the step that rules.
		expect(spends(exchange('exchange', url))).toBe('code');
	});
});

describe('requestFields', () => {
	test('query, form body and a JSON object body give their fields; a JSON body gives only its top-level strings', () => {
		const json = exchange(
			'api',
			'https://svc.test/x?a=1',
			'{"grant_type":"refresh_token","expires_in":3600,"nested":{"b":"2"},"ok":true}',
			'application/json'
		).request;
		expect(Object.fromEntries(requestFields(json))).toEqual({
			a: '1',
			grant_type: 'refresh_token'
		});
		const form = exchange(
			'api',
			'https://svc.test/x',
			'c=3&d=4',
			'application/x-www-form-urlencoded'
		).request;
		expect(Object.fromEntries(requestFields(form))).toEqual({ c: '3', d: '4' });
	});

	test('a JSON body that is not an object (null, an array, a string) gives no fields and does not throw', () => {
		for (const body of ['null', '["authorization_code"]', '"grant_type"']) {
			const req = exchange('exchange', 'https://svc.test/token', body, 'application/json').request;
			expect(Object.fromEntries(requestFields(req)), body).toEqual({});
		}
	});
});
