// Lifetimes of the sandbox's codes and tokens (SANDBOX_CODE_TTL, SANDBOX_ACCESS_TTL, SANDBOX_REFRESH_TTL),
// and a restart of a memory-store process refusing what the one before issued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, sessionKey, type TestServer } from '../helpers/server';
import {
	api,
	exchangeFields,
	expectOAuthError,
	getCode,
	jwtPayload,
	openConsent,
	postDecision,
	postToken,
	refreshFields,
	startSandbox,
	tokensFor,
	untilServerTime
} from './sandbox-helpers';

describe('short lifetimes', () => {
	// Lifetimes are whole seconds (JWT exp), so a 1-second code can be gone within a few ms of its issue:
	// the code test has a server of its own, and the token tests get codes that live long enough.
	let srv: TestServer;
	let codeSrv: TestServer;
	beforeAll(async () => {
		[srv, codeSrv] = await Promise.all([
			startSandbox({ SANDBOX_ACCESS_TTL: '1', SANDBOX_REFRESH_TTL: '1' }),
			startSandbox({ SANDBOX_CODE_TTL: '1' })
		]);
	});
	afterAll(() => Promise.all([srv?.stop(), codeSrv?.stop()]));

	it('an expired code: invalid_grant saying it expired', async () => {
		const { code } = await getCode(codeSrv);
		await untilServerTime(codeSrv, jwtPayload(code).exp as number);
		expectOAuthError(
			await postToken(codeSrv, exchangeFields(codeSrv, code)),
			400,
			'invalid_grant',
			/expired/
		);
	});

	it('an expired access token: 401 invalid_token saying it expired; an expired refresh token: invalid_grant', async () => {
		const t = await tokensFor(srv);
		expect(t.expires_in).toBe(1);
		await untilServerTime(
			srv,
			Math.max(jwtPayload(t.access_token).exp as number, jwtPayload(t.refresh_token).exp as number)
		);
		const res = await api(srv, 'user-info', { token: t.access_token });
		expect(res.status).toBe(401);
		expect(res.headers.get('www-authenticate')).toBe(
			'Bearer realm="sandbox", error="invalid_token", error_description="The access token has expired"'
		);
		expect((await res.json()).error_description).toMatch(/expired/);
		// The refresh token (1 s) has expired too by now.
		expectOAuthError(
			await postToken(srv, refreshFields('sandbox-rw', t.refresh_token)),
			400,
			'invalid_grant',
			/expired/
		);
	});

	it('the sandbox-short registration keeps its own 5-second lifetime', async () => {
		const t = await tokensFor(srv, 'sandbox-short');
		expect(t.expires_in).toBe(5);
	});
});

describe('restart with the same key', () => {
	it('replayed code and ticket: a memory-store process refuses what the one before it issued (it cannot know what was used)', async () => {
		const port = await freePort();
		const first = await startSandbox({}, port);
		let code: string;
		let used: string;
		let ticket: string;
		try {
			({ code } = await getCode(first));
			({ code: used } = await getCode(first));
			expect((await postToken(first, exchangeFields(first, used))).res.status).toBe(200);
			({ ticket } = await openConsent(first));
			expect((await postDecision(first, 'authorize', { ticket })).status).toBe(303);
		} finally {
			await first.stop();
		}
		const second = await startSandbox({}, port);
		try {
			for (const c of [code, used])
				expectOAuthError(
					await postToken(second, exchangeFields(second, c)),
					400,
					'invalid_grant',
					/store was emptied or replaced/
				);
			const replay = await postDecision(second, 'authorize', { ticket });
			expect(replay.headers.get('location')).toBeNull();
			expect(replay.status).toBe(400);
			// What the new process issues works.
			const fresh = await getCode(second);
			expect((await postToken(second, exchangeFields(second, fresh.code))).res.status).toBe(200);
		} finally {
			await second.stop();
		}
	});

	it('does not accept codes signed under another key', async () => {
		const port = await freePort();
		const first = await startSandbox(
			{ PLAYGROUND_SESSION_KEY: sessionKey('one key for the first server run') },
			port
		);
		let code: string;
		try {
			({ code } = await getCode(first));
		} finally {
			await first.stop();
		}
		const second = await startSandbox(
			{ PLAYGROUND_SESSION_KEY: sessionKey('another key for the second run') },
			port
		);
		try {
			expectOAuthError(
				await postToken(second, exchangeFields(second, code)),
				400,
				'invalid_grant',
				/invalid/
			);
		} finally {
			await second.stop();
		}
	});
});
