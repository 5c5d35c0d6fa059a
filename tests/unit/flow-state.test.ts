/**
 * The tab's flow state as the step forms drive it through use:enhance: the submit function is
 * called as SvelteKit calls it, and its callback with the action result SvelteKit hands over.
 */
import type { ActionName } from '$lib/exchange/step-registry';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { ActionResult } from '@sveltejs/kit';
import type { Exchange } from '$lib/exchange/types';
import { STEPS } from '$lib/steps/registry';
import {
	CANCELLED,
	Flow,
	SLOW_AFTER_MS,
	UNREACHABLE,
	shouldAutoExchange,
	type FlowFacts
} from '$lib/ui/flow.svelte';
import { stepViews } from '$lib/ui/step-status';
import { transcript } from '$lib/ui/transcript.svelte';

const facts: FlowFacts = {
	flow: 'AAAAAAAAAAAAAAAA',
	setup: null,
	secret: null,
	pending: null,
	callback: null,
	hasCode: false,
	tokens: null
};
const form = { id: 'the-form' } as unknown as HTMLFormElement;
const exchange = (id: string): Exchange =>
	({
		id,
		step: 'userinfo',
		startedAt: '2026-03-14T09:00:00.000Z',
		findings: []
	}) as unknown as Exchange;

let invalidate: ReturnType<typeof vi.fn<() => Promise<void>>>;
let flow: Flow;

beforeEach(() => {
	vi.useFakeTimers();
	transcript.clear();
	invalidate = vi.fn(async () => {});
	flow = new Flow(() => facts, invalidate);
});
afterEach(() => {
	vi.useRealTimers();
	vi.unstubAllGlobals();
});

/** Submits like use:enhance: the submit function now, the callback once `answer` is called. */
function post(name: ActionName, after?: Parameters<Flow['submit']>[1], formData = new FormData()) {
	const controller = new AbortController();
	const callback = flow.submit(
		name,
		after
	)({
		action: new URL('http://127.0.0.1/?/' + name),
		formData,
		formElement: form,
		controller,
		submitter: null,
		cancel: () => {}
	}) as (opts: { result: ActionResult }) => Promise<void>;
	return {
		controller,
		formData,
		answer: (result: ActionResult) => callback({ result })
	};
}

describe('a step in flight', () => {
	test('is busy with its own text, announced, with its old error cleared', () => {
		flow.errors = { userinfo: 'old', api: 'other step' };
		post('userinfo');
		expect(flow.busy).toBe('userinfo');
		expect(flow.announce).toBe('Reading the user info…');
		expect(flow.errors).toEqual({ userinfo: '', api: 'other step' });
	});

	test('counts as slow (Cancel offered) after 2 s, not before', () => {
		post('check');
		vi.advanceTimersByTime(SLOW_AFTER_MS - 1);
		expect(flow.slow).toBe(false);
		vi.advanceTimersByTime(1);
		expect(flow.slow).toBe(true);
	});
});

describe('what comes back', () => {
	test('success: its exchanges join the transcript, the data reloads, then the step is done', async () => {
		let busyWhileReloading: string | null = null;
		invalidate.mockImplementation(async () => {
			busyWhileReloading = flow.busy;
		});
		let busyAfter: string | null = 'not called';
		const after = vi.fn(() => (busyAfter = flow.busy));
		const { answer } = post('userinfo', after);
		await answer({ type: 'success', status: 200, data: { exchanges: [exchange('e1')] } });
		expect(transcript.items.map((e) => e.id)).toEqual(['e1']);
		expect(invalidate).toHaveBeenCalledOnce();
		expect(busyWhileReloading).toBe('userinfo');
		expect(flow.busy).toBeNull();
		expect(flow.announce).toBe('Done.');
		expect(flow.errors.userinfo).toBe('');
		expect(after).toHaveBeenCalledWith({ exchanges: [exchange('e1')] }, form);
		expect(busyAfter, 'the follow-up runs once the step is no longer busy').toBeNull();
	});

	test('a success that left the session as it was (unchanged): the page data is not loaded again', async () => {
		const after = vi.fn();
		const data = { exchanges: [exchange('e3')], unchanged: true };
		await post('userinfo', after).answer({ type: 'success', status: 200, data });
		expect(transcript.items.map((e) => e.id)).toEqual(['e3']);
		expect(invalidate).not.toHaveBeenCalled();
		expect(flow.busy).toBeNull();
		expect(flow.announce).toBe('Done.');
		expect(after).toHaveBeenCalledWith(data, form);
		// Only the word itself counts: anything else reloads.
		await post('userinfo').answer({
			type: 'success',
			status: 200,
			data: { exchanges: [], unchanged: 'true' }
		});
		expect(invalidate).toHaveBeenCalledOnce();
		await post('api').answer({
			type: 'failure',
			status: 400,
			data: { message: 'No.', exchanges: [], unchanged: true }
		});
		expect(invalidate).toHaveBeenCalledTimes(2);
	});

	test('a refusal shows its message at the step and announces it; its exchanges still count', async () => {
		const after = vi.fn();
		const { answer } = post('api', after);
		await answer({
			type: 'failure',
			status: 400,
			data: { message: 'Enter a path below /reader/api/0/', exchanges: [exchange('e2')] }
		});
		expect(flow.errors.api).toBe('Enter a path below /reader/api/0/');
		expect(flow.announce).toBe('Enter a path below /reader/api/0/');
		expect(transcript.items.map((e) => e.id)).toEqual(['e2']);
		expect(invalidate).toHaveBeenCalledOnce();
		expect(after.mock.calls[0]![0]).toMatchObject({ failure: true, message: expect.any(String) });
	});

	test('a refusal without a message names the status', async () => {
		await post('exchange').answer({ type: 'failure', status: 429 });
		expect(flow.errors.exchange).toBe('The request failed (HTTP 429).');
	});

	test('a server error shows its message; the page data is not reloaded', async () => {
		const after = vi.fn();
		await post('refresh', after).answer({
			type: 'error',
			status: 500,
			error: { message: 'Internal Error' }
		});
		expect(flow.errors.refresh).toBe('Internal Error');
		expect(flow.announce).toBe('Internal Error');
		expect(invalidate).not.toHaveBeenCalled();
		expect(flow.busy).toBeNull();
		expect(after).toHaveBeenCalledWith(undefined, form);
	});

	test('no answer at all (network down, not an action result): the server could not be reached', async () => {
		await post('userinfo').answer({ type: 'error', error: new TypeError('Failed to fetch') });
		expect(flow.errors.userinfo).toBe(UNREACHABLE);
		expect(flow.announce).toBe(UNREACHABLE);
	});
});

describe('an answer that is no action result', () => {
	// The server refuses some requests before any action runs, with a JSON reason of its own
	// (hooks.server.ts): use:enhance hands that object on as the result, with no type.
	const refused = (body: object) => body as unknown as ActionResult;

	test('a save over the server’s size cap: its reason is shown at the step and announced', async () => {
		const message =
			'The request body is 70514 bytes; the playground accepts at most 65536 (PLAYGROUND_MAX_REQUEST_BYTES).';
		const after = vi.fn();
		await post('setup', after).answer(refused({ error: 'request_too_large', message }));
		expect(flow.errors.setup).toBe(message);
		expect(flow.announce).toBe(message);
		expect(flow.busy).toBeNull();
		expect(invalidate).not.toHaveBeenCalled();
		expect(after).toHaveBeenCalledWith(undefined, form);
	});

	test('one without a reason still says the step got no result', async () => {
		await post('userinfo').answer(refused({ ok: true }));
		expect(flow.errors.userinfo).toBe(
			'The server answered with something that is not a step’s result.'
		);
		expect(flow.attempts.userinfo?.outcome).toBe('failed');
	});
});

describe('Cancel', () => {
	test('aborts the request, says so at the step, and the step is no longer busy', () => {
		const after = vi.fn();
		const { controller } = post('check', after);
		vi.advanceTimersByTime(SLOW_AFTER_MS);
		flow.cancel();
		expect(controller.signal.aborted).toBe(true);
		expect(flow.errors.check).toBe(CANCELLED);
		expect(flow.announce).toBe(CANCELLED);
		expect(flow.busy).toBeNull();
		expect(flow.slow).toBe(false);
		expect(after).toHaveBeenCalledWith(undefined, form);
		vi.advanceTimersByTime(SLOW_AFTER_MS);
		expect(flow.slow).toBe(false);
	});

	test('after the answer came, changes nothing', async () => {
		const { controller, answer } = post('userinfo');
		invalidate.mockImplementation(async () => flow.cancel());
		await answer({ type: 'success', status: 200, data: {} });
		expect(controller.signal.aborted).toBe(false);
		expect(flow.errors.userinfo).toBe('');
		expect(flow.announce).toBe('Done.');
	});
});

test('a step sent from code (the automatic refresh) carries its extra fields', () => {
	const sent: FormData[] = [];
	const refreshForm = {
		requestSubmit() {
			sent.push(post('refresh', undefined, new FormData()).formData);
		}
	};
	const querySelector = vi.fn(() => refreshForm);
	vi.stubGlobal('document', { querySelector });
	flow.trigger('refresh', { auto: '1' });
	expect(querySelector).toHaveBeenCalledWith('form[data-action="refresh"]');
	expect(sent[0]!.get('auto')).toBe('1');
	// The extra fields were for that one submission only: the button's own submission has none.
	expect(post('refresh').formData.get('auto')).toBeNull();
});

test('Start over forgets the transcript and every error', () => {
	transcript.add([exchange('e3')]);
	flow.errors = { api: 'x' };
	flow.setupErrors = { client_id: 'Enter a client id' };
	flow.forget();
	expect(transcript.items).toEqual([]);
	expect(flow.errors).toEqual({});
	expect(flow.setupErrors).toEqual({});
});

describe('the automatic exchange and the step states after the issuer check', () => {
	const setup = { auto_exchange: true };
	test('mix-up: a code the issuer check held back is not exchanged automatically', () => {
		expect(shouldAutoExchange({ hasCode: true, codeHeld: true, setup })).toBe(false);
		expect(shouldAutoExchange({ hasCode: true, codeHeld: false, setup })).toBe(true);
		expect(shouldAutoExchange({ hasCode: true, setup: { auto_exchange: false } })).toBe(false);
		expect(shouldAutoExchange({ hasCode: false, setup })).toBe(false);
		expect(shouldAutoExchange({ hasCode: true, setup: null })).toBe(false);
	});
	test('a code asked for the curl script is shown, not exchanged automatically', () => {
		const callback = { for_script: true };
		expect(shouldAutoExchange({ hasCode: true, setup, callback })).toBe(false);
		expect(shouldAutoExchange({ hasCode: true, setup, callback: {} })).toBe(true);
		expect(shouldAutoExchange({ hasCode: true, setup, callback: null })).toBe(true);
	});
	test('mix-up: the callback step is failed and the exchange step is not next while the code is held', () => {
		const base = {
			setupDone: true,
			pending: false,
			callbackVerdict: 'code',
			hasCode: true,
			hasTokens: false,
			exchanges: [],
			busy: null
		};
		expect(stepViews(base)).toMatchObject({
			callback: { state: 'done' },
			exchange: { state: 'current' }
		});
		expect(stepViews({ ...base, issuerStop: true, codeHeld: true })).toMatchObject({
			callback: { state: 'failed' },
			exchange: { state: 'todo' }
		});
	});
	test('the steps’ states come in the page’s order, but for the refresh before the user-info call: a refresh under way is the current step while the user-info call is next', () => {
		const signedIn = {
			setupDone: true,
			pending: false,
			callbackVerdict: 'code',
			hasCode: false,
			hasTokens: true,
			exchanges: [],
			busy: 'refresh'
		};
		const states = Object.fromEntries(
			Object.entries(stepViews(signedIn)).map(([step, view]) => [step, view.state])
		);
		expect(Object.keys(states)).toEqual([
			'setup',
			'consent',
			'callback',
			'exchange',
			'refresh',
			'userinfo',
			'api',
			'introspect',
			'revoke'
		]);
		expect(states).toMatchObject({ refresh: 'busy', userinfo: 'current', api: 'todo' });
		const first = Object.entries(states).find(([, st]) => st === 'current' || st === 'busy');
		expect(first?.[0]).toBe('refresh');
	});
	test('the page data’s issuer verdict reaches the step states', () => {
		const held = new Flow(
			() => ({
				...facts,
				setup: {},
				secret: 'set',
				callback: {
					verdict: 'code',
					iss: { result: 'mismatch', expected: 'https://a.test', from: 'setup', returned: 'x' }
				},
				hasCode: true,
				codeHeld: true
			}),
			invalidate
		);
		expect(held.steps.callback).toBe('failed');
		expect(held.steps.exchange).toBe('todo');
	});
});

describe('focus after a step: the user’s own steps move it, automatic ones never', () => {
	/** A document whose step results are one focusable element each, by selector; its form posts `name`. */
	function page(name: ActionName = 'exchange', box = { top: 100, bottom: 300 }) {
		const focused: string[] = [];
		const scrolled: string[] = [];
		const el = (sel: string) => ({
			focus: () => focused.push(sel),
			getBoundingClientRect: () => box,
			scrollIntoView: (o: ScrollIntoViewOptions) => scrolled.push(`${sel} ${o.block}`)
		});
		let answer: ((r: ActionResult) => Promise<void>) | undefined;
		const exchangeForm = {
			requestSubmit() {
				answer = post(name).answer;
			}
		};
		const querySelector = vi.fn((sel: string) =>
			sel.startsWith('form[') ? exchangeForm : sel.includes(name) ? el(sel) : null
		);
		vi.stubGlobal('document', { querySelector, documentElement: {} });
		// An 800 px window whose root stops what is scrolled to 40 px below its top (the sticky bar).
		vi.stubGlobal('window', { innerHeight: 800 });
		vi.stubGlobal('getComputedStyle', () => ({ scrollPaddingTop: '40px' }));
		return { focused, scrolled, answer: (r: ActionResult) => answer!(r) };
	}
	const ok: ActionResult = { type: 'success', status: 200, data: { exchanges: [] } };

	test('a step the user started: focus goes to its error first, else its result', async () => {
		const { focused } = page();
		await post('exchange').answer(ok);
		expect(focused).toEqual(['[data-error-of~="exchange"]']);
	});

	test('a result wholly in view stays where it is; one that is not is scrolled to its top', async () => {
		const inView = page('check');
		await post('check').answer(ok);
		expect(inView.focused).toEqual([`[data-error-of~="check"]`]);
		expect(inView.scrolled).toEqual([]);
		// Taller than the window below the bar: its top, not its end, is what the user sees first.
		for (const box of [
			{ top: 300, bottom: 1300 },
			{ top: -200, bottom: 600 }
		]) {
			const tall = page('check', box);
			await post('check').answer(ok);
			expect(tall.scrolled, JSON.stringify(box)).toEqual([`[data-error-of~="check"] start`]);
		}
		// Shorter, partly hidden (under the bar, or below the fold): the least scroll that shows it.
		for (const box of [
			{ top: 20, bottom: 400 },
			{ top: 700, bottom: 900 }
		]) {
			const short = page('check', box);
			await post('check').answer(ok);
			expect(short.scrolled, JSON.stringify(box)).toEqual([`[data-error-of~="check"] nearest`]);
		}
	});

	test('focus theft: the automatic exchange on return, with no verdict to land on, is announced and leaves focus alone', async () => {
		const { focused, answer } = page();
		flow.trigger('exchange');
		expect(flow.busy).toBe('exchange');
		await answer(ok);
		expect(focused).toEqual([]);
		expect(flow.announce).toBe('Step 3: the code was exchanged for tokens.');
		// The next submission from a button is the user's own again.
		await post('exchange').answer(ok);
		expect(focused).toHaveLength(1);
	});

	test('the automatic refresh is announced under the number its card shows (step 5, Refresh)', async () => {
		const { answer } = page('refresh');
		flow.trigger('refresh');
		await answer(ok);
		expect(STEPS.refresh.n).toBe(5);
		expect(flow.announce).toBe(`Step ${STEPS.refresh.n}: the access token was refreshed.`);
	});
});

describe('Start over and Undo in the tab', () => {
	test('Start over keeps what it cleared for Undo, which brings the transcript and errors back', () => {
		transcript.add([exchange('e7')]);
		flow.errors = { api: 'x' };
		flow.forget(30_000);
		expect(transcript.items).toEqual([]);
		expect(flow.undo.cleared).not.toBeNull();
		flow.restore();
		expect(transcript.items.map((e) => e.id)).toEqual(['e7']);
		expect(flow.errors).toEqual({ api: 'x' });
		expect(flow.undo.cleared).toBeNull();
	});

	test('the offer ends after its time', () => {
		flow.forget(30_000);
		vi.advanceTimersByTime(29_999);
		expect(flow.undo.cleared).not.toBeNull();
		vi.advanceTimersByTime(1);
		expect(flow.undo.cleared).toBeNull();
	});

	test('the offer ends at the next action, but not at Undo itself', () => {
		flow.forget(30_000);
		post('undo');
		expect(flow.undo.cleared).not.toBeNull();
		flow.forget(30_000);
		post('preset');
		expect(flow.undo.cleared).toBeNull();
	});

	test('no offer when the server kept nothing to undo', () => {
		flow.forget(0);
		expect(flow.undo.cleared).toBeNull();
	});
});
