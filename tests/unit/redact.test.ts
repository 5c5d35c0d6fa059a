import { expect, test } from 'vitest';
import {
	REDACTED,
	prepareForExport,
	redactExchange,
	redactTokens,
	shortenToken
} from '$lib/exchange/redact';
import type { Exchange } from '$lib/exchange/types';

const secret = 'S3cr+t/with&odd=chars';
const body = new URLSearchParams([
	['code', 'c'],
	['client_id', 'id'],
	['client_secret', secret],
	['scope', '']
]).toString();

function ex(): Exchange {
	return {
		id: '1',
		step: 'exchange',
		startedAt: '2026-01-01T00:00:00Z',
		request: {
			method: 'POST',
			url: `https://reader.test/oauth2/token?client_secret=${encodeURIComponent(secret)}`,
			httpVersion: '1.1',
			headers: [
				['Host', 'reader.test'],
				['Content-Length', String(body.length)],
				['Authorization', `Basic ${btoa(`id:${secret}`)}`]
			],
			body
		},
		response: {
			status: 400,
			statusText: 'Bad Request',
			httpVersion: '1.1',
			headers: [],
			body: `{"echo":"${secret}"}`,
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

test('the client secret is gone from URL, body, Basic header and an echoing response', () => {
	const out = redactExchange(ex(), [{ name: 'client_secret', value: secret }]);
	const text = JSON.stringify(out);
	expect(text).not.toContain(secret);
	expect(text).not.toContain(encodeURIComponent(secret));
	expect(text).not.toContain(btoa(`id:${secret}`));
	expect(out.request.body).toBe(`code=c&client_id=id&client_secret=${REDACTED}&scope=`);
	expect(out.request.headers.find(([n]) => n === 'Authorization')?.[1]).toBe(`Basic ${REDACTED}`);
});

test('Content-Length keeps the true sent value, and the real length is noted', () => {
	const out = redactExchange(ex(), [{ name: 'client_secret', value: secret }]);
	expect(out.request.headers.find(([n]) => n === 'Content-Length')?.[1]).toBe(String(body.length));
	expect(out.redactions?.find((r) => r.what === 'client_secret')?.length).toBe(secret.length);
});

test('the original exchange is not changed', () => {
	const original = ex();
	redactExchange(original, [{ name: 'client_secret', value: secret }]);
	expect(original.request.body).toContain(encodeURIComponent(secret).replace(/%20/g, '+'));
});

test('tokens are shortened to their first and last 4 characters for exports', () => {
	const token = 'abcdEFGHijklMNOPqrst';
	expect(shortenToken(token)).toBe('abcd…qrst <20 chars>');
	const e = ex();
	e.request.headers.push(['Authorization', `Bearer ${token}`]);
	const out = redactTokens(e, [token]);
	expect(JSON.stringify(out)).not.toContain(token);
	expect(JSON.stringify(out)).toContain('abcd…qrst');
});

test('a failure message that quotes the secret is redacted, by the server and again by the exports', () => {
	const failed: Exchange = {
		...ex(),
		response: undefined,
		failure: { kind: 'network', message: `The request to reader.test failed: bad value ${secret}` }
	};
	const out = redactExchange(failed, [{ name: 'client_secret', value: secret }]);
	expect(out.failure).toEqual({
		kind: 'network',
		message: `The request to reader.test failed: bad value ${REDACTED}`
	});
	// The exports do not know the secret: they find it in the form body, then everywhere else.
	const [exported] = prepareForExport([failed]);
	expect(exported!.failure?.message).toBe(
		`The request to reader.test failed: bad value ${REDACTED}`
	);
	expect(failed.failure?.message).toContain(secret);
});

test('response headers that echo the secret are redacted, and each is noted', () => {
	const e = ex();
	e.response!.headers = [
		['Content-Type', 'application/json'],
		['X-Echo', secret],
		['Location', `https://app.test/cb?client_secret=${encodeURIComponent(secret)}`],
		['Authorization', `Basic ${btoa(`id:${secret}`)}`]
	];
	const out = redactExchange(e, [{ name: 'client_secret', value: secret }]);
	expect(out.response?.headers).toEqual([
		['Content-Type', 'application/json'],
		['X-Echo', REDACTED],
		['Location', `https://app.test/cb?client_secret=${REDACTED}`],
		['Authorization', `Basic ${REDACTED}`]
	]);
	const what = out.redactions?.map((r) => r.what) ?? [];
	expect(what).toContain('client_secret (in the X-Echo header)');
	expect(what).toContain('client_secret (in the Location header)');
	expect(JSON.stringify(prepareForExport([e]))).not.toContain(encodeURIComponent(secret));
});
