/**
 * The one way a form action runs (flow/action.ts) on the flow object (sealed-flow.ts). A step's
 * answer says when it left the session as it was (`unchanged`), so that the page keeps its data
 * instead of loading it again; any change, an undo slot dropped, a session read with a notice, or a
 * refusal, leaves the word out and the page reloads. A verb changes the flow in memory; the wrapper
 * seals it, and only when it changed.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Session } from '$lib/server/session/session';
import { testApp, testClock } from './test-app';
import { FakeCookies } from './fake-cookies';
import type { StepResult } from '$lib/server/steps/flow-steps';
import { SANDBOX_FLOW, actionEvent, flowModules, sourceAt } from './flow-modules';

const URL_ = new URL('http://127.0.0.1:5173/?flow=AAAAAAAAAAAAAAAA');
/** The app serving the requests: its session key is the test's own (one test serves them with another). */
let app = testApp(9);

const modules = flowModules();
beforeAll(() => modules);

const flow = SANDBOX_FLOW;

/** The flow of URL_ in the jar, as the serving app reads it. */
const read = async (jar: FakeCookies) => (await modules).readSession(jar, sourceAt(app, URL_));

async function withSession(session: Session | undefined) {
	const m = await modules;
	const jar = new FakeCookies();
	if (session) await m.save(jar, URL_, session, app);
	const event = actionEvent(jar, URL_, app);
	const { stepAction } = await import('$lib/server/flow/action');
	/** Runs `step` as a step's form action, on the flow in the jar. */
	const runStep = (step: (s: Session) => Promise<StepResult>) =>
		stepAction(null, (f) => f.step(step))(event);
	return { m, jar, event, runStep };
}

describe('a step: unchanged', () => {
	test('a step that returns the session it was given: unchanged, and the cookie is not written', async () => {
		const { jar, runStep } = await withSession(flow);
		const before = jar.sets.length;
		const r = await runStep(async (s) => ({ ok: true, session: s, exchanges: [] }));
		expect(r).toEqual({ exchanges: [], unchanged: true });
		expect(jar.sets.length).toBe(before);
	});

	test('a step that changes the session: no word, and the new session is saved', async () => {
		const { jar, runStep } = await withSession(flow);
		const r = await runStep(async (s) => ({
			ok: true,
			session: { ...s, code: undefined },
			exchanges: []
		}));
		expect(r).toEqual({ exchanges: [] });
		expect(await read(jar)).toEqual(flow);
	});

	test('a step after Start over drops the undo slot: that is a change', async () => {
		const { m, jar, runStep } = await withSession(flow);
		await m.actions.reset!(actionEvent(jar, URL_, app) as never);
		const r = await runStep(async (s) => ({ ok: true, session: s, exchanges: [] }));
		expect(r).toEqual({ exchanges: [] });
	});

	test('a session read with a notice (a cookie that could not be read): no word, so the page shows the notice', async () => {
		const { jar, runStep } = await withSession(undefined);
		jar.set('pg_flow_AAAAAAAAAAAAAAAA', 'not-a-sealed-session', { path: '/' });
		const r = await runStep(async (s) => ({ ok: true, session: s, exchanges: [] }));
		expect(r).toEqual({ exchanges: [] });
	});

	test('a refusal that changes nothing: no word either', async () => {
		const { runStep } = await withSession(flow);
		const r = await runStep(async (s) => ({
			ok: false,
			status: 409,
			message: 'No.',
			session: s
		}));
		expect(r).toMatchObject({ status: 409, data: { message: 'No.', exchanges: [] } });
		expect(r).not.toHaveProperty('data.unchanged');
	});
});

describe('a step: the answer', () => {
	test("a step's answer goes with its exchanges, with the secrets of both sessions redacted", async () => {
		const { runStep } = await withSession(flow);
		const r = await runStep(async (s) => ({
			ok: true,
			session: { ...s, client_secret: 'the-next-secret' },
			exchanges: [],
			answer: { echo: `${flow.client_secret} and the-next-secret`, n: 1 }
		}));
		expect(r).toEqual({ exchanges: [], echo: '<redacted> and <redacted>', n: 1 });
	});

	test('unchanged, with an answer', async () => {
		const { runStep } = await withSession(flow);
		const r = await runStep(async (s) => ({
			ok: true,
			session: s,
			exchanges: [],
			answer: { found: true }
		}));
		expect(r).toEqual({ exchanges: [], found: true, unchanged: true });
	});
});

describe('stepAction', () => {
	const post = (body: BodyInit, type = 'application/x-www-form-urlencoded') =>
		new Request(URL_, { method: 'POST', body, headers: { 'content-type': type } });
	const input = (form: FormData) =>
		form.get('n') === 'bad'
			? {
					ok: false as const,
					message: 'Not a number.',
					...(form.has('field') ? { field: 'n' } : {})
				}
			: { ok: true as const, value: String(form.get('n')) };

	test("the form read and checked, then the verb with its input, on the flow opened with the request's context", async () => {
		const { event } = await withSession(flow);
		const { stepAction } = await import('$lib/server/flow/action');
		const seen: unknown[] = [];
		const request = post('n=7');
		const action = stepAction(input, async (f, value) => {
			const c = f.context;
			seen.push(value, c.origin, c.signal === request.signal, c.app === app, c.client);
			seen.push(c.source.flow);
			return { ok: true, session: f.session, exchanges: [] };
		});
		const r = await action({ ...event, request } as never);
		expect(r).toEqual({ exchanges: [], unchanged: true });
		expect(seen).toEqual([
			'7',
			'http://127.0.0.1:5173',
			true,
			true,
			'127.0.0.1',
			'AAAAAAAAAAAAAAAA'
		]);
	});

	test('a form that does not pass: 400 with the reason, and the field when there is one; the verb does not run', async () => {
		const { event } = await withSession(flow);
		const { stepAction } = await import('$lib/server/flow/action');
		let ran = false;
		const action = stepAction(input, async (f) => {
			ran = true;
			return { ok: true, session: f.session, exchanges: [] };
		});
		const bad = (await action({ ...event, request: post('n=bad') } as never)) as {
			status: number;
			data: unknown;
		};
		expect(bad.status).toBe(400);
		expect(bad.data).toStrictEqual({ message: 'Not a number.' });
		expect(await action({ ...event, request: post('n=bad&field=1') } as never)).toEqual({
			status: 400,
			data: { message: 'Not a number.', field: 'n' }
		});
		const unreadable = await action({
			...event,
			request: post('n=1', 'multipart/form-data; boundary=nothing')
		} as never);
		expect(unreadable).toMatchObject({ status: 400 });
		expect(ran).toBe(false);
	});

	test('a step that reads no form: its body is not read', async () => {
		const { event } = await withSession(flow);
		const { stepAction } = await import('$lib/server/flow/action');
		const request = post('n=1', 'multipart/form-data; boundary=nothing');
		const r = await stepAction(null, async (f, value) => ({
			ok: true,
			session: f.session,
			exchanges: [],
			answer: { value: value ?? 'none' }
		}))({ ...event, request } as never);
		expect(r).toEqual({ exchanges: [], value: 'none', unchanged: true });
		expect(request.bodyUsed).toBe(false);
	});
});

describe('flowAction and the flow object', () => {
	test("a verb's answer comes back as it is, after the flow it changed is sealed", async () => {
		const { jar, event } = await withSession(flow);
		const { flowAction } = await import('$lib/server/flow/action');
		const r = await flowAction(null, async (f) => {
			await f.step(async (s) => ({ ok: true, session: { ...s, token_note: 'x' }, exchanges: [] }));
			// Changed in memory only: the cookie still holds the flow as it was.
			expect(await read(jar)).toEqual(flow);
			return { done: true };
		})(event);
		expect(r).toEqual({ done: true });
		expect(await read(jar)).toEqual({ ...flow, token_note: 'x' });
	});

	test('a flow no verb changed is not sealed again', async () => {
		const { jar, event } = await withSession(flow);
		const { flowAction } = await import('$lib/server/flow/action');
		const before = jar.sets.length;
		const r = await flowAction(null, (f) => ({ changed: f.changed }))(event);
		expect(r).toEqual({ changed: false });
		expect(jar.sets.length).toBe(before);
	});

	test('a request that names no flow: 400 with the reason, before the form is read', async () => {
		const { event } = await withSession(flow);
		const { flowAction } = await import('$lib/server/flow/action');
		const url = new URL('http://127.0.0.1:5173/');
		const request = new Request(url, { method: 'POST', body: 'a=1' });
		let ran = false;
		const action = flowAction(
			(form) => ({ ok: true as const, value: form }),
			() => {
				ran = true;
				return {};
			}
		);
		await expect(action({ ...event, url, request })).rejects.toMatchObject({ status: 400 });
		expect(request.bodyUsed).toBe(false);
		expect(ran).toBe(false);
	});

	test("a fork is a new flow, sealed with the verb's flow; the flow forked is not written", async () => {
		const { m, jar, event } = await withSession(flow);
		const before = jar.sets.length;
		const r = (await m.actions.fork!(event as never)) as { flow: string };
		expect(r.flow).toMatch(/^[A-Za-z0-9_-]{16}$/);
		expect(r.flow).not.toBe('AAAAAAAAAAAAAAAA');
		const copy = await m.readSession(jar, {
			keys: app.keys,
			clock: app.clock,
			header: '',
			https: false,
			flow: r.flow
		});
		expect(copy).toMatchObject({ setup: flow.setup, client_secret: flow.client_secret });
		expect(copy.pending?.state).toBeTruthy();
		expect(jar.sets.slice(before).map(({ name }) => name)).toEqual([`pg_flow_${r.flow}`]);
		expect(await read(jar)).toEqual(flow);
	});
});

describe("the flow object's time is the app's clock", () => {
	test('Undo is too late once the app clock is past the 30 seconds, whatever the machine clock says', async () => {
		const T = Date.UTC(2040, 0, 1);
		const clock = testClock(T);
		const was = app;
		app = testApp(9, {}, clock);
		try {
			const { m, jar } = await withSession(flow);
			const post = () => actionEvent(jar, URL_, app) as never;
			expect(await m.actions.reset!(post())).toEqual({ reset: true, undoMs: 30_000 });
			clock.set(T + 30_001);
			expect(await m.actions.undo!(post())).toMatchObject({ status: 410 });
		} finally {
			app = was;
		}
	});
});
