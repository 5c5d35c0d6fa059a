/**
 * "Replay the previous refresh token" against a scripted service (server/steps/replay.ts): what
 * reaches the wire and what each answer is taken to mean. Only `invalid_grant` (or GitHub's
 * `bad_refresh_token`), at whatever status but a 3xx or a 5xx, is a refusal of the token; any
 * other answer stops the try there, and the current token is not sent. The previous token
 * accepted without a new refresh token leaves the fork with its own current one. The check
 * after the try is not sent once the newest access token has expired (it would refresh first). No
 * try after step 8 revoked one of the tokens.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { testApp } from './test-app';
import { stepOf } from './flow-modules';
import type { Exchange } from '$lib/exchange/types';
import type { Session } from '$lib/server/session/session';
import type { TokenSet } from '$lib/oauth/token-set';
import { setupWith } from '$lib/oauth/setup';
import { bindSecret } from '$lib/oauth/secret-binding';
import { bindTokens } from '$lib/oauth/token-binding';
import {
	startScriptedService,
	type ScriptedAnswer,
	type ScriptedService
} from '../helpers/scripted-service';

const app = testApp(3);
const step = stepOf(app);
const { replayRefresh, replayCode, raceRefresh, canReplayRefresh } =
	await import('$lib/server/steps/replay');
const { realTokens } = await import('$lib/server/flow/tokens');

let service: ScriptedService;
beforeAll(async () => {
	service = await startScriptedService();
});
afterAll(() => service.close());
beforeEach(() => service.reset());
afterEach(() => {
	expect(service.unscripted, 'every request found a scripted answer').toEqual([]);
	expect(service.queued(), 'every scripted answer was used').toBe(0);
});

const json = (status: number, body: unknown): ScriptedAnswer => ({
	status,
	headers: [['Content-Type', 'application/json']],
	body: JSON.stringify(body)
});
const refused = json(400, { error: 'invalid_grant', error_description: 'Token is not active' });
const tokenAnswer = (access: string, refresh?: string) =>
	json(200, {
		access_token: access,
		token_type: 'Bearer',
		expires_in: 3600,
		...(refresh ? { refresh_token: refresh } : {})
	});

function flow(over: Partial<TokenSet> = {}): Session {
	const setup = setupWith({
		base_url: service.url,
		redirect_uri: 'http://127.0.0.1:5173/callback',
		client_id: 'app-1',
		scope: 'read'
	});
	const now = app.sender.clock();
	const tokens: TokenSet = {
		access_token: 'at-2',
		token_type: 'Bearer',
		refresh_token: 'rt-2',
		expires_in: 3600,
		obtained_at: now,
		expires_at: now + 3_600_000,
		requested_scope: 'read',
		extra: {},
		refresh: { rotated: true, kept_old: false },
		...over
	};
	return {
		v: 1,
		setup,
		client_secret: 'the-client-secret-42',
		secret_for: bindSecret(setup),
		setup_id: 'set-1',
		tokens,
		tokens_for: bindTokens(setup),
		previous_refresh: { value: 'rt-1', replaced_at: now - 12_000, by: 'ex-9', setup_id: 'set-1' }
	};
}

const sentRefresh = () =>
	service.received
		.filter((r) => r.body.includes('grant_type=refresh_token'))
		.map((r) => new URLSearchParams(r.body).get('refresh_token'));
const codes = (ex: Exchange | undefined) => ex?.findings.map((f) => f.code) ?? [];

async function tryIt(s: Session) {
	const r = await replayRefresh(step, s, 'parent-flow');
	expect(r.ok).toBe(true);
	if (!r.ok) throw new Error('refused');
	return r as typeof r & { fork: Session };
}

describe('what each answer is taken to mean', () => {
	test('refused, then the current one kept: the fork holds the new tokens; the check says the access token works', async () => {
		service.answer(refused, tokenAnswer('at-3', 'rt-3'), json(200, { userId: '1' }));
		const s = flow();
		const r = await tryIt(s);
		expect(sentRefresh()).toEqual(['rt-1', 'rt-2']);
		expect(r.exchanges.map(codes).map((c) => c[0])).toEqual([
			'refresh-replay-refused',
			'refresh-replay-current-kept',
			'refresh-replay-access-works'
		]);
		expect(r.exchanges[0]!.findings[0]!.message).toContain('replaced 12 seconds ago');
		expect(realTokens(r.fork)?.refresh_token).toBe('rt-3');
		// Its refresh gave the fork new tokens: the parent's refresh token is superseded by them.
		expect(r.fork.fork_of).toEqual({ flow: 'parent-flow', by: 'refresh', superseded: true });
		// The original flow's session is handed back as it was.
		expect(r.session).toBe(s);
	});

	test('a refusal at the status another server gives it (Auth0’s 403 invalid_grant, GitHub’s 200 bad_refresh_token) is a refusal: the current token is sent next', async () => {
		for (const previous of [
			json(403, { error: 'invalid_grant', error_description: 'Unknown or invalid refresh token.' }),
			json(200, {
				error: 'bad_refresh_token',
				error_description: 'The refresh token passed is incorrect or expired.'
			})
		]) {
			service.reset();
			service.answer(previous, tokenAnswer('at-3', 'rt-3'), json(200, { userId: '1' }));
			const r = await tryIt(flow());
			expect(sentRefresh()).toEqual(['rt-1', 'rt-2']);
			expect(r.exchanges.map(codes).map((c) => c[0])).toEqual([
				'refresh-replay-refused',
				'refresh-replay-current-kept',
				'refresh-replay-access-works'
			]);
			expect(r.exchanges[0]!.findings[0]!.message).toMatch(
				/^The service refused the refresh token it had replaced 12 seconds ago \(HTTP (403, invalid_grant|200, bad_refresh_token)\)/
			);
		}
	});

	test('an answer that is no refusal of the token (503, invalid_client, none) stops the try: the current token is not sent', async () => {
		for (const answer of [
			json(503, { error: 'temporarily_unavailable' }),
			json(401, { error: 'invalid_client' }),
			{ cut: 'before-answer' } as ScriptedAnswer
		]) {
			service.reset();
			service.answer(answer);
			const r = await tryIt(flow());
			expect(sentRefresh()).toEqual(['rt-1']);
			expect(r.exchanges).toHaveLength(1);
			expect(codes(r.exchanges[0])[0]).toBe('refresh-replay-untold');
			expect(r.exchanges[0]!.findings[0]!.message).toMatch(
				/^The previous refresh token got (HTTP 503|HTTP 401, invalid_client|no answer)/
			);
		}
	});

	test('the previous token accepted without a new refresh token: the fork keeps its own current one', async () => {
		service.answer(tokenAnswer('at-3'), json(200, { userId: '1' }));
		const r = await tryIt(flow());
		expect(codes(r.exchanges[0])[0]).toBe('refresh-replay-accepted');
		expect(r.exchanges[0]!.findings[0]!.message).toContain('at least 12 seconds');
		expect(realTokens(r.fork)?.refresh_token).toBe('rt-2');
		expect(r.fork.tokens?.refresh_token).toBe('rt-2');
		expect(realTokens(r.fork)?.access_token).toBe('at-3');
	});

	test('a 2xx that is no token answer is not called an acceptance', async () => {
		service.answer(json(200, { ok: true }));
		const r = await tryIt(flow());
		expect(codes(r.exchanges[0])[0]).toBe('refresh-replay-untold');
		expect(sentRefresh()).toEqual(['rt-1']);
	});

	test('family revoked, with the access token expired: no check is sent, and that is said', async () => {
		service.answer(refused, refused);
		const now = app.sender.clock();
		// (No new tokens: nothing of the parent's is superseded, below.)
		const r = await tryIt(flow({ obtained_at: now - 7_200_000, expires_at: now - 3_600_000 }));
		expect(sentRefresh()).toEqual(['rt-1', 'rt-2']);
		expect(r.exchanges).toHaveLength(2);
		expect(codes(r.exchanges[1])).toEqual([
			'refresh-replay-family-revoked',
			'refresh-replay-not-checked'
		]);
		expect(r.fork.fork_of).toEqual({ flow: 'parent-flow', by: 'refresh' });
	});
});

describe('when the try is offered', () => {
	test('not after step 8 proved a token revoked, nor under another setup', () => {
		expect(canReplayRefresh(flow())).toBe(true);
		expect(canReplayRefresh(flow({ revoked: { refresh: true } }))).toBe(false);
		expect(canReplayRefresh(flow({ revoked: { access: true } }))).toBe(false);
		expect(canReplayRefresh({ ...flow(), setup_id: 'set-2' })).toBe(false);
	});
});

describe("a code's replay with the access token expired", () => {
	test('the check of revocation is not sent, and the replay says so', async () => {
		service.answer(json(400, { error: 'invalid_grant' }));
		const now = app.sender.clock();
		const s: Session = {
			...flow({ obtained_at: now - 7_200_000, expires_at: now - 3_600_000 }),
			spent: {
				value: 'c0de',
				redirect_uri: 'http://127.0.0.1:5173/callback',
				scope: 'read',
				setup_id: 'set-1'
			}
		};
		const r = await replayCode(step, s, 'parent-flow');
		expect(r.ok).toBe(true);
		if (!r.ok) return;
		expect(service.received).toHaveLength(1);
		expect(r.exchanges).toHaveLength(1);
		expect(codes(r.exchanges[0])).toEqual(['code-replay-refused', 'tokens-not-checked']);
	});
});

describe('two refreshes at once', () => {
	const race = async (...answers: ScriptedAnswer[]) => {
		service.answer(...answers);
		const r = await raceRefresh(step, flow(), 'parent-flow');
		expect(r.ok).toBe(true);
		if (!r.ok) throw new Error('refused');
		// The current refresh token, twice, and nothing else: the tokens they return are not tried.
		expect(sentRefresh()).toEqual(['rt-2', 'rt-2']);
		expect(service.received).toHaveLength(2);
		return {
			...(r as typeof r & { fork: Session }),
			found: r.exchanges.map((ex) => codes(ex)[0]).sort()
		};
	};

	test('one refused as a reuse: each answer says so, and the fork keeps the new tokens', async () => {
		const r = await race(tokenAnswer('at-3', 'rt-3'), refused);
		expect(r.found).toEqual(['refresh-race-accepted', 'refresh-race-refused']);
		expect(realTokens(r.fork)?.refresh_token).toBe('rt-3');
		expect(r.fork.fork_of).toEqual({ flow: 'parent-flow', by: 'refresh', superseded: true });
	});

	test('both accepted, both refused, and an answer that is no refusal of the token', async () => {
		expect((await race(tokenAnswer('a', 'r3'), tokenAnswer('b', 'r4'))).found).toEqual([
			'refresh-race-both-accepted',
			'refresh-race-both-accepted'
		]);
		service.reset();
		const both = await race(refused, refused);
		expect(both.found).toEqual(['refresh-race-both-refused', 'refresh-race-both-refused']);
		expect(both.fork.fork_of).toEqual({ flow: 'parent-flow', by: 'refresh' });
		service.reset();
		expect((await race(refused, json(503, {}))).found).toEqual([
			'refresh-race-refused-alone',
			'refresh-replay-untold'
		]);
	});
});
