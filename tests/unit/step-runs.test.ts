/**
 * The server's table of runs (server/steps/runs.ts): one run for every form action the step specs
 * name and for no other, held by `npm run check` (the `@ts-expect-error` lines below are checked
 * there: each must be an error, or the check fails); and the step actions made from it
 * (`stepActions`, flow/action.ts), each reading its form and running its step on the flow
 * (`flow.run`, sealed-flow.ts).
 */
import { describe, expect, test } from 'vitest';
import { STEP_ACTIONS } from '$lib/steps/registry';
import { STEP_RUNS, stepRun, type StepRuns } from '$lib/server/steps/runs';
import { exchangeCode } from '$lib/server/steps/flow-steps';
import { adminToken } from '$lib/server/steps/introspect-revoke';
import { stepActions } from '$lib/server/flow/action';
import type { Session } from '$lib/server/session/session';
import { testApp } from './test-app';
import { FakeCookies } from './fake-cookies';
import { SANDBOX_FLOW, actionEvent, flowModules } from './flow-modules';

const { revoke: _revoke, ...withoutRevoke } = STEP_RUNS;
// @ts-expect-error: a spec's action (revoke) without a run.
const missing: StepRuns = withoutRevoke;
// @ts-expect-error: a run whose name no spec's action has.
const extra: StepRuns = { ...STEP_RUNS, nosuchaction: STEP_RUNS.exchange };
// @ts-expect-error: an input the step does not take (a token's name, not the exchange's choice).
const mismatched = stepRun(adminToken, exchangeCode);

describe('the table of runs', () => {
	test('has a run for each step action the specs name, and no other', () => {
		expect(Object.keys(STEP_RUNS).sort()).toEqual(Object.keys(STEP_ACTIONS).sort());
		// What the type check refuses is what this table would be without its line, or with one more.
		expect(Object.keys(missing)).not.toContain('revoke');
		expect(Object.keys(extra)).toContain('nosuchaction');
		expect(mismatched.input).toBe(adminToken);
	});
});

describe('the step actions made from it', () => {
	const app = testApp(11);
	const URL_ = new URL('http://127.0.0.1:5173/?flow=AAAAAAAAAAAAAAAA');

	async function posted(body: string) {
		const m = await flowModules();
		const jar = new FakeCookies();
		await m.save(jar, URL_, SANDBOX_FLOW, app);
		return actionEvent(jar, URL_, app, body);
	}

	test('an action per run: its form read, then its step run on the flow with what the form held', async () => {
		const seen: unknown[] = [];
		const actions = stepActions({
			...STEP_RUNS,
			introspect: stepRun(adminToken, (c, s, which) => {
				seen.push(which, c.origin, c.app === app, s.client_secret);
				const session: Session = { ...s, notice: 'ran' };
				return { ok: true, session, exchanges: [], answer: { ran: which } };
			})
		});
		expect(Object.keys(actions).sort()).toEqual(Object.keys(STEP_RUNS).sort());
		const r = await actions.introspect(await posted('which=refresh_token'));
		expect(seen).toEqual(['refresh_token', 'http://127.0.0.1:5173', true, 'sandbox-rw-secret']);
		// The step changed the flow: its answer, without `unchanged`.
		expect(r).toEqual({ exchanges: [], ran: 'refresh_token' });
	});

	test('a form that does not pass is a 400 with its reason and field, and no step runs', async () => {
		const actions = stepActions(STEP_RUNS);
		const r = await actions.revoke(await posted('which=id_token'));
		expect(r).toMatchObject({
			status: 400,
			data: { message: 'Choose the access token or the refresh token', field: 'which' }
		});
	});
});
