/**
 * One source of truth for the step statuses (ui/step-status.ts), driven through the page's Flow as the
 * page drives it: the page data (with the current setup's id), the tab's transcript, and what the
 * step forms get back. A step is done only when its latest exchange succeeded and belongs to the
 * current setup; a failure, a time-out or Cancel shows as such, the earlier good result kept but
 * marked as earlier; another setup's exchange is never a step's result.
 */
import type { ActionName } from '$lib/exchange/step-registry';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ActionResult } from '@sveltejs/kit';
import type { Exchange, Step } from '$lib/exchange/types';
import { Flow, SLOW_AFTER_MS, type FlowFacts } from '$lib/ui/flow.svelte';
import { transcript } from '$lib/ui/transcript.svelte';

const SANDBOX = 'http://127.0.0.1:5173/sandbox';
const form = {} as HTMLFormElement;

/** Page data after a sign-in with setup `setupId`: tokens held, no code waiting. */
const signedIn = (setupId: string | undefined): FlowFacts & { setupId?: string } => ({
	flow: 'AAAAAAAAAAAAAAAA',
	setup: { auto_exchange: true },
	secret: 'set',
	pending: null,
	callback: { verdict: 'code' },
	hasCode: false,
	tokens: { access_token: 'a' },
	setupId
});

let n = 0;
function ex(step: Step, setup: string | undefined, answer: number | 'timeout' = 200): Exchange {
	return {
		id: `ex-${++n}`,
		step,
		setup,
		startedAt: '2026-03-14T09:00:00.000Z',
		request: {
			method: step === 'exchange' || step === 'refresh' ? 'POST' : 'GET',
			url: `${SANDBOX}/oauth2/token`,
			httpVersion: '1.1',
			headers: [],
			body: ''
		},
		...(answer === 'timeout'
			? { failure: { kind: 'timeout', message: 'No answer within 15 s.' } }
			: {
					response: {
						status: answer,
						statusText: answer === 200 ? 'OK' : 'Internal Server Error',
						httpVersion: '1.1',
						headers: [],
						body: '',
						truncated: false
					}
				}),
		timing: { total: 5 },
		findings: []
	} as Exchange;
}

let facts: FlowFacts;
let flow: Flow;

beforeEach(() => {
	vi.useFakeTimers();
	transcript.clear();
	facts = signedIn('setup-A');
	flow = new Flow(
		() => facts,
		async () => {}
	);
});
afterEach(() => vi.useRealTimers());

/** Posts a step's form as use:enhance does; `answer` hands its callback the action result. */
function post(name: ActionName) {
	const controller = new AbortController();
	const callback = flow.submit(name)({
		action: new URL('http://127.0.0.1/?/' + name),
		formData: new FormData(),
		formElement: form,
		controller,
		submitter: null,
		cancel: () => {}
	}) as (opts: { result: ActionResult }) => Promise<void>;
	return { controller, answer: (result: ActionResult) => callback({ result }) };
}

describe('a step that fails after succeeding', () => {
	test('step 3 is failed over a 500, not done; the earlier result is kept, marked as earlier', () => {
		const good = ex('exchange', 'setup-A');
		const bad = ex('exchange', 'setup-A', 500);
		transcript.add([good, bad]);
		expect(flow.steps.exchange).toBe('failed');
		expect(flow.views.exchange.latest?.id).toBe(bad.id);
		expect(flow.views.exchange.earlier?.id).toBe(good.id);
	});

	test('a time-out (no answer) fails the step too, with the earlier result marked as earlier', () => {
		const good = ex('userinfo', 'setup-A');
		const late = ex('userinfo', 'setup-A', 'timeout');
		transcript.add([good, late]);
		expect(flow.steps.userinfo).toBe('failed');
		expect(flow.views.userinfo).toMatchObject({ latest: late, earlier: good });
	});

	test('a success after the failure makes the step done again, with nothing marked as earlier', () => {
		const last = ex('exchange', 'setup-A');
		transcript.add([ex('exchange', 'setup-A'), ex('exchange', 'setup-A', 500), last]);
		expect(flow.steps.exchange).toBe('done');
		expect(flow.views.exchange).toEqual({ state: 'done', latest: last });
	});
});

describe('a replay in a fork (server/steps/replay.ts)', () => {
	test('the replayed exchange and its check of revocation are no step’s result', () => {
		const good = ex('exchange', 'setup-A');
		const seen = ex('userinfo', 'setup-A');
		const replay = { ...ex('exchange', 'setup-A', 500), replay: true as const };
		const check = { ...ex('userinfo', 'setup-A', 500), replay: true as const };
		transcript.add([good, seen, replay, check]);
		expect(flow.steps.exchange).toBe('done');
		expect(flow.views.exchange.latest?.id).toBe(good.id);
		expect(flow.views.userinfo.latest?.id).toBe(seen.id);
	});
});

describe('Cancel', () => {
	test('Cancel mid-request shows "cancelled", and the earlier result only as earlier', () => {
		const good = ex('userinfo', 'setup-A');
		transcript.add([good]);
		post('userinfo');
		vi.advanceTimersByTime(SLOW_AFTER_MS);
		flow.cancel();
		expect(flow.steps.userinfo).toBe('cancelled');
		expect(flow.views.userinfo.latest).toBeUndefined();
		expect(flow.views.userinfo.earlier?.id).toBe(good.id);
	});

	test('Cancel mid-request never shows another setup’s result (a 500 from another setup)', () => {
		transcript.add([ex('exchange', 'setup-B', 500)]);
		facts = { ...signedIn('setup-A'), tokens: null, hasCode: true };
		post('exchange');
		vi.advanceTimersByTime(SLOW_AFTER_MS);
		flow.cancel();
		expect(flow.steps.exchange).toBe('cancelled');
		expect(flow.views.exchange.latest).toBeUndefined();
		expect(flow.views.exchange.earlier).toBeUndefined();
	});

	test('a later exchange of the step is newer than the cancelled attempt', () => {
		post('refresh');
		flow.cancel();
		expect(flow.steps.refresh).toBe('cancelled');
		transcript.add([ex('refresh', 'setup-A')]); // the refresh before a user-info call
		expect(flow.steps.refresh).toBe('done');
	});
});

describe('another setup', () => {
	test('an exchange of another setup is never this step’s result', () => {
		transcript.add([ex('userinfo', 'setup-B'), ex('api', 'setup-B', 500)]);
		expect(flow.steps.userinfo).toBe('current');
		expect(flow.steps.api).toBe('todo');
		expect(flow.views.userinfo.latest).toBeUndefined();
		expect(flow.latest('userinfo')).toBeUndefined();
	});

	test('another setup’s success does not make this setup’s failed step done', () => {
		transcript.add([ex('refresh', 'setup-A', 500), ex('refresh', 'setup-B')]);
		expect(flow.steps.refresh).toBe('failed');
		expect(flow.views.refresh.earlier).toBeUndefined();
	});

	test('a new setup starts with its steps not done', () => {
		transcript.add([ex('userinfo', 'setup-A'), ex('refresh', 'setup-A')]);
		expect(flow.steps.refresh).toBe('done');
		facts = {
			...signedIn('setup-B'),
			tokens: null,
			callback: null,
			pending: { consent_url: 'https://svc.test/oauth2/auth?state=s' }
		};
		expect(flow.steps).toMatchObject({ userinfo: 'todo', refresh: 'todo', exchange: 'todo' });
	});
});

describe('refusals and no answer', () => {
	test('no answer from the playground server fails the step; the earlier result is earlier', async () => {
		const good = ex('api', 'setup-A');
		transcript.add([good]);
		await post('api').answer({ type: 'error', error: new TypeError('Failed to fetch') });
		expect(flow.steps.api).toBe('failed');
		expect(flow.views.api.earlier?.id).toBe(good.id);
	});

	test('a refusal with another step’s exchange (the refresh before user-info failed) fails user-info', async () => {
		transcript.add([ex('userinfo', 'setup-A')]);
		const refresh = ex('refresh', 'setup-A', 500);
		await post('userinfo').answer({
			type: 'failure',
			status: 424,
			data: { message: 'refreshing it failed', exchanges: [refresh] }
		});
		expect(flow.steps).toMatchObject({ userinfo: 'failed', refresh: 'failed' });
	});
});

describe('the callback', () => {
	test('a denial (access_denied) is its own state, not a failure and not done', () => {
		facts = {
			...signedIn('setup-A'),
			tokens: null,
			callback: { verdict: 'error', error: 'access_denied' }
		};
		expect(flow.steps.callback).toBe('denied');
		facts = { ...facts, callback: { verdict: 'error', error: 'invalid_scope' } };
		expect(flow.steps.callback).toBe('failed');
	});
});
