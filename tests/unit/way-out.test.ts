import { describe, expect, test } from 'vitest';
import type { Exchange } from '$lib/exchange/types';
import type { Session } from '$lib/server/session/session';
import { createRedactors, outward as outwardWith, secretsOf } from '$lib/server/flow/way-out';
import { copiesIn } from '../helpers/copies';

const before = 'Old-Secret+/=1';
const after = 'New-Secret&2';

function exchange(text: string): Exchange {
	return {
		id: 'x',
		step: 'exchange',
		startedAt: '2026-01-01T00:00:00Z',
		request: {
			method: 'POST',
			url: 'https://reader.test/oauth2/token',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: `client_secret=${encodeURIComponent(text)}`
		},
		response: {
			status: 400,
			statusText: 'Bad Request',
			httpVersion: '1.1',
			headers: [],
			body: JSON.stringify({ error: 'invalid_client', echoed: text }),
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

const session = (client_secret?: string) => ({ v: 1, client_secret }) as Session;

/** `outward` with redactors of the test's own, as an app's. */
const outward = <T>(value: T, ...sessions: (Session | undefined)[]) =>
	outwardWith(createRedactors(), value, ...sessions);

describe('one way out', () => {
	test('the secrets are those of every session named, each once', () => {
		expect(secretsOf(session(before), undefined, session(after), session(before))).toEqual([
			{ name: 'client_secret', value: before },
			{ name: 'client_secret', value: after }
		]);
		expect(secretsOf(session(), undefined)).toEqual([]);
	});

	test('an exchange, or a list of them, goes out without the secret of the session before or after the step, and says where it was', () => {
		const [one, two] = outward(
			[exchange(before), exchange(after)],
			session(before),
			session(after)
		);
		for (const [out, secret] of [
			[one!, before],
			[two!, after]
		] as const) {
			expect(copiesIn(secret, JSON.stringify(out))).toEqual([]);
			expect(out.redactions?.map((r) => r.what)).toContain('client_secret');
		}
		const single = outward(exchange(before), session(before));
		expect(copiesIn(before, JSON.stringify(single))).toEqual([]);
		expect(single.redactions).not.toEqual([]);
	});

	test('any other value goes out with the secret replaced wherever it is, and nothing else changed', () => {
		const value = { jwt: { header: { kid: 'k' }, note: `signed with ${before}` }, list: [before] };
		const out = outward(value, session(before));
		expect(copiesIn(before, JSON.stringify(out))).toEqual([]);
		expect(out.jwt.header).toEqual({ kid: 'k' });
		expect(outward(value, session())).toBe(value);
	});
});
