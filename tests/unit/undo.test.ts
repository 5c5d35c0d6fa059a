/**
 * Start over with Undo (server/flow/start-over.ts): the old flow is kept sealed inside the fresh one for 30
 * seconds, Undo puts it back, any other action drops it, and after the 30 seconds Undo is refused
 * with a reason. The clock is faked: no test waits.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Session } from '$lib/server/session/session';
import { testApp } from './test-app';
import { FakeCookies } from './fake-cookies';
import { SANDBOX_FLOW, actionEvent, flowModules, sourceAt } from './flow-modules';

const NOW = 1_800_000_000_000;
const URL_ = new URL('http://127.0.0.1:5173/?flow=AAAAAAAAAAAAAAAA');
/** The app serving the requests: its session key is the test's own. */
const app = testApp(7);

/** The modules, loaded once with a session key of the test's own. */
const modules = flowModules();
const load = () => modules;
beforeAll(() => modules);

const flow: Session = {
	...SANDBOX_FLOW,
	tokens: {
		access_token: 'at-1',
		token_type: 'Bearer',
		obtained_at: NOW - 5000,
		requested_scope: 'read write',
		extra: {}
	}
};

beforeEach(() => {
	vi.useFakeTimers({ toFake: ['Date'] });
	vi.setSystemTime(NOW);
});
afterEach(() => {
	vi.useRealTimers();
});

describe('the undo slot', () => {
	test('Start over keeps the old flow for 30 seconds, never an older undo or a notice', async () => {
		const { startOver } = await import('$lib/server/flow/start-over');
		const first = startOver({ ...flow, notice: 'x' });
		expect(first).toEqual({ v: 1, undo: { session: flow, until: NOW + 30_000 } });
		// Start over twice: the second keeps the fresh flow, not a slot inside a slot.
		const second = startOver(first);
		expect(second).toEqual({ v: 1, undo: { session: { v: 1 }, until: NOW + 30_000 } });
	});

	test('Undo restores within 30 seconds, to the millisecond', async () => {
		const { startOver, undoStartOver } = await import('$lib/server/flow/start-over');
		const fresh = startOver(flow);
		vi.advanceTimersByTime(30_000);
		expect(undoStartOver(fresh)).toEqual({ ok: true, session: flow });
	});

	test('too late: Undo one millisecond after the 30 seconds is refused, saying why', async () => {
		const { startOver, undoStartOver, undoExpired } = await import('$lib/server/flow/start-over');
		const fresh = startOver(flow);
		vi.advanceTimersByTime(30_001);
		expect(undoExpired(fresh)).toBe(true);
		const r = undoStartOver(fresh);
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toMatch(/^Too late to undo: Start over was more than 30 seconds/);
	});

	test('too late: Undo without a slot (another action came between) is refused, saying why', async () => {
		const { undoStartOver } = await import('$lib/server/flow/start-over');
		const r = undoStartOver(flow);
		expect(r.ok).toBe(false);
		if (!r.ok) expect(r.message).toMatch(/^Too late to undo: another action came after Start over/);
	});
});

/** The request's flow, as the serving app reads and writes it. */
const source = () => sourceAt(app, URL_);
/** The flow in `jar`, as the serving app reads it. */
const read = async (jar: FakeCookies) => (await load()).readSession(jar, source());
/** Writes a flow into `jar`, as its seal after a verb would. */
const save = async (jar: FakeCookies, session: Session) =>
	(await load()).save(jar, URL_, session, app);

/** The page's `reset` or `undo` action, on the flow in `jar`. */
async function act(name: 'reset' | 'undo', jar: FakeCookies) {
	const { actions } = await load();
	return actions[name]!(actionEvent(jar, URL_, app) as never);
}

describe('the reset and undo actions on the cookies', () => {
	test('reset clears the flow; undo within 30 s brings it back whole', async () => {
		const jar = new FakeCookies();
		await save(jar, flow);
		expect(await act('reset', jar)).toEqual({ reset: true, undoMs: 30_000 });
		const after = await read(jar);
		expect(after.setup).toBeUndefined();
		expect(after.client_secret).toBeUndefined();
		vi.advanceTimersByTime(29_000);
		expect(await act('undo', jar)).toEqual({ undone: true });
		expect(await read(jar)).toEqual(flow);
	});

	test('too late: undo 30 s after reset is a 410 with the reason, and the old flow is dropped', async () => {
		const jar = new FakeCookies();
		await save(jar, flow);
		await act('reset', jar);
		vi.advanceTimersByTime(30_001);
		const r = await act('undo', jar);
		expect(r).toMatchObject({ status: 410, data: { message: expect.stringMatching(/^Too late/) } });
		expect(await read(jar)).toEqual({ v: 1 });
	});

	test('any other action drops the slot: a step that changes nothing, then undo is too late', async () => {
		const { actions } = await load();
		const jar = new FakeCookies();
		await save(jar, flow);
		await act('reset', jar);
		// A refused step (no setup) changes nothing in the session, yet the slot goes.
		const refused = await actions.userinfo!(actionEvent(jar, URL_, app) as never);
		expect(refused).toMatchObject({ status: 409, data: { message: 'Save the setup first.' } });
		expect(await read(jar)).toEqual({ v: 1 });
		const r = await act('undo', jar);
		expect(r).toMatchObject({ status: 410 });
		expect(await read(jar)).toEqual({ v: 1 });
	});

	test('a flow too large to keep with its undo slot is still cleared, without Undo', async () => {
		const { writeSession } = await load();
		const { startOver } = await import('$lib/server/flow/start-over');
		// The largest secret that still fits once: with the slot's bookkeeping it no longer fits.
		const fits = async (session: Session) => {
			try {
				await writeSession(new FakeCookies(), session, false, source());
				return true;
			} catch {
				return false;
			}
		};
		let n = 8000;
		const sized = (k: number) => ({ ...flow, client_secret: 'x'.repeat(k) });
		while (await fits(sized(n + 10))) n += 10;
		expect(await fits(sized(n))).toBe(true);
		expect(await fits(startOver(sized(n)))).toBe(false);
		// fitsInCookies says so before anything is written, for this request's flow only.
		const { fitsInCookies } = await load();
		expect(await fitsInCookies(sized(n), source())).toBe(true);
		expect(await fitsInCookies(startOver(sized(n)), source())).toBe(false);
		expect(await fitsInCookies(sized(0), { ...source(), flow: undefined })).toBe(false);
		const jar = new FakeCookies();
		await save(jar, sized(n));
		expect(await act('reset', jar)).toEqual({ reset: true, undoMs: 0 });
		expect(await read(jar)).toEqual({ v: 1 });
	});
});
