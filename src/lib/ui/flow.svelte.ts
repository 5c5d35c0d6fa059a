/**
 * The tab's flow state in one place: which step is busy and whether it is slow, each step's error,
 * what the live region announces, the setup's field errors, the auto-refresh switch, an imported
 * HAR and the exchange picked in the diagram. One instance per page, handed down with context
 * (`setFlow` in the page, `getFlow` in the steps), never module state: the server renders many
 * pages at once.
 *
 * Every step posts its own `<form method="POST">` with SvelteKit's `use:enhance`; `submit(name)`
 * is the submit function they share: it marks the step busy, adds the returned exchanges to the
 * transcript, shows a refusal where the step shows errors, and reloads the page data.
 */
import { createContext, tick } from 'svelte';
import type { ActionResult, SubmitFunction } from '@sveltejs/kit';
import { exchangeNumbers, type Exchange } from '$lib/exchange/types';
import type { LeftOut } from '$lib/exchange/har/import';
import { busyText, doneText, type ActionName } from '$lib/exchange/step-registry';
import {
	EXCHANGE_STEPS,
	STEP_ACTIONS,
	type ActionSpec,
	type ExchangeStep
} from '$lib/steps/registry';
import type { FieldErrors } from '$lib/oauth/setup';
import { issuerStops, type IssuerVerdict } from '$lib/oauth/issuer';
import type { RevokedByFork } from '$lib/exchange/verdict';
import { loadVerdicts, type VerdictModule } from './steps/parts';
import {
	latestOf,
	ofSetup,
	otherCredentials,
	stepViews,
	type Attempt,
	type StepName,
	type StepState
} from './step-status';
import { Clock } from './clock.svelte';
import { flowAction } from '$lib/oauth/flow-id';
import { transcript } from './transcript.svelte';
import { focusOutcome } from './focus';
import { UndoOffer } from './undo.svelte';
import type { Vouch } from '$lib/oauth/token-binding';

/** After this long a step counts as slow, and the progress line offers Cancel. */
export const SLOW_AFTER_MS = 2000;

export const CANCELLED =
	'Cancelled. Nothing was changed in the page; the request may still have reached the service.';
export const UNREACHABLE = 'The playground server could not be reached.';

/**
 * What a step's follow-up gets: the action's data when it succeeded, the same with `failure: true`
 * when the action refused, nothing when no action result came back (cancelled, unreachable, error).
 */
export type StepOutcome = (Record<string, unknown> & { failure?: true }) | undefined;
export type AfterStep = (outcome: StepOutcome, form: HTMLFormElement) => unknown;

/** The page data the step states are worked out from. */
export interface FlowFacts {
	/** This tab's flow id (oauth/flow-id.ts): every form's action carries it. */
	flow: string;
	setup: unknown;
	secret: string | null;
	/** The consent request waiting for its redirect back (its URL, as step 1 shows it); null: none. */
	pending: { consent_url: string } | null;
	callback: { verdict: string; error?: string; iss?: IssuerVerdict } | null;
	hasCode: boolean;
	/** The issuer check held the code back (RFC 9207): only "Exchange anyway" exchanges it. */
	codeHeld?: boolean;
	tokens: unknown;
	/** The current setup's id: only its exchanges count for the steps (step-status.ts). */
	setupId?: string | null;
	/** The current credentials' id: a client secret check of others is no verdict (step-status.ts). */
	credentialsId?: string | null;
	/** This flow is a fork, the record of a try (server/flow/page.ts): it sends nothing more. */
	record?: boolean;
	/** This flow's fork found the tokens both hold revoked (exchange/verdict.ts, RevokedByFork). */
	revokedByFork?: RevokedByFork | null;
	/** The verdict's module, when the page's parts brought it (steps/parts.ts). */
	verdicts?: VerdictModule;
}

/**
 * Back from the consent page with a code: exchange it at once when the setup says so, unless the
 * issuer check held it back (then the user decides, with "Exchange anyway") or the consent was
 * opened to get a code for the curl script (then it is shown, for the script to spend).
 */
export function shouldAutoExchange(d: {
	hasCode: boolean;
	codeHeld?: boolean;
	setup: { auto_exchange: boolean } | null;
	callback?: { for_script?: boolean } | null;
}): boolean {
	return d.hasCode && !d.codeHeld && !!d.setup?.auto_exchange && !d.callback?.for_script;
}

export interface Imported {
	name: string;
	exchanges: Exchange[];
	leftOut: LeftOut[];
}

export class Flow {
	busy = $state<string | null>(null);
	slow = $state(false);
	errors = $state<Record<string, string>>({});
	setupErrors = $state<FieldErrors>({});
	announce = $state('');
	autoRefresh = $state(false);
	/**
	 * An imported HAR opens in the same views, in place of this tab's transcript, until closed.
	 * Replaced whole, never changed in place: not made deeply reactive (thousands of exchanges).
	 */
	imported = $state.raw<Imported | null>(null);
	/** The exchange the diagram points at, open in the transcript. */
	selectedId = $state<string | undefined>();
	/** After Start over: what this tab cleared, offered back by Undo. */
	readonly undo = new UndoOffer();
	/**
	 * What the last "Fill from metadata" in this page found vouched for the flow's tokens (null: nothing;
	 * undefined: no fill yet, the page data's stands). Newer than the page data until it reloads.
	 */
	vouch = $state<Vouch | null | undefined>(undefined);

	/** The last attempt of each step that brought back no exchange of it (step-status.ts). */
	attempts = $state<Partial<Record<ExchangeStep, Attempt>>>({});
	/** The one clock of every expiry display on the page. */
	readonly clock: Clock;

	/** Each step's state and the results its card shows, worked out in step-status.ts. */
	readonly views = $derived.by(() => {
		const d = this.#facts();
		return stepViews({
			setupDone: !!d.setup && !!d.secret,
			pending: !!d.pending,
			callbackVerdict: d.callback?.verdict ?? null,
			callbackError: d.callback?.error ?? null,
			issuerStop: issuerStops(d.callback?.iss),
			hasCode: d.hasCode,
			codeHeld: !!d.codeHeld,
			hasTokens: !!d.tokens,
			setupId: d.setupId ?? null,
			exchanges: transcript.items,
			attempts: this.attempts,
			busy: this.busy
		});
	});
	/**
	 * This flow is a fork, kept as the record of a try (server/flow/page.ts): its cards show what it
	 * holds and offer no step, and no step of it is next.
	 */
	readonly record = $derived.by(() => !!this.#facts().record);
	/** What this flow's fork found about the tokens both hold (exchange/verdict.ts); null: nothing. */
	readonly revokedByFork = $derived.by(() => this.#facts().revokedByFork ?? null);
	readonly steps = $derived(
		Object.fromEntries(
			Object.entries(this.views).map(([k, v]) => [
				k,
				this.record && v.state === 'current' ? 'todo' : v.state
			])
		) as Record<StepName, StepState>
	);
	/** The current setup's id (page data): exchanges of any other setup are earlier ones. */
	readonly setupId = $derived.by(() => this.#facts().setupId ?? null);
	readonly currentStep = $derived(
		(Object.entries(this.steps).find(([, st]) => st === 'current' || st === 'busy') ?? [])[0]
	);
	readonly shown = $derived(this.imported ? this.imported.exchanges : transcript.items);
	/** The running number (#n) of each exchange of this tab's transcript, in sending order. */
	readonly numbers = $derived(exchangeNumbers(transcript.items));
	/** The same for the list the transcript shows (an imported HAR's, when there is one). */
	readonly shownNumbers = $derived(
		this.imported ? exchangeNumbers(this.imported.exchanges) : this.numbers
	);
	/**
	 * The flow's outcome in one line (exchange/verdict.ts), from this setup's newest attempt of a
	 * step with a verdict (a token request, the redirect back, the registration check); the page
	 * shows it at the top and in its title.
	 */
	readonly verdict = $derived.by(() => {
		const { setupId, credentialsId, pending, verdicts = this.#verdicts } = this.#facts();
		if (!verdicts) {
			// Not loaded with the page's parts (they come with a setup): a transcript of an earlier
			// setup has something to judge, so it loads, and the line follows.
			if (transcript.items.length && typeof window !== 'undefined') void this.loadVerdicts();
			return undefined;
		}
		const { importVerdict, verdictOf } = verdicts;
		// An imported recording is what the page shows: its verdict is the line.
		if (this.imported) return importVerdict(this.imported.name, this.imported.exchanges);
		// A consent request waiting to be opened: its navigation is not in the transcript yet.
		const url = pending?.consent_url;
		const prepared =
			url && !transcript.items.some((e) => e.request.url === url) ? { url } : undefined;
		return verdictOf(
			transcript.items.filter((e) => ofSetup(e, setupId) && !otherCredentials(e, credentialsId)),
			this.clock.now,
			this.numbers,
			prepared,
			this.revokedByFork
		);
	});
	/** In the step cards only the newest exchange starts open; the rest fold, so the page reads at a glance. */
	readonly newestId = $derived(transcript.items.at(-1)?.id);

	/** The verdict's module when this page loaded it itself (loadVerdicts). */
	#verdicts = $state.raw<VerdictModule | undefined>();

	/**
	 * The verdict's module: the page's parts bring it once a setup is saved; an import (which may
	 * come before any setup) or a transcript of an earlier setup loads it here first.
	 */
	async loadVerdicts(): Promise<VerdictModule> {
		const loaded = this.#facts().verdicts ?? this.#verdicts;
		if (loaded) return loaded;
		const verdicts = await loadVerdicts();
		this.#verdicts = verdicts;
		return verdicts;
	}

	#facts: () => FlowFacts;
	#invalidate: () => Promise<void>;
	#controller: AbortController | undefined;
	#slowTimer: ReturnType<typeof setTimeout> | undefined;
	#extra: Record<string, string> = {};
	/** Set while `trigger` submits: that submission is automatic. */
	#auto = false;

	/** `facts` reads the current page data; `invalidate` reloads it (SvelteKit's invalidateAll). */
	constructor(facts: () => FlowFacts, invalidate: () => Promise<void>, clock = new Clock()) {
		this.#facts = facts;
		this.#invalidate = invalidate;
		this.clock = clock;
	}

	/**
	 * The submit function of a step's form (`use:enhance={flow.submit('exchange')}`). `after` runs
	 * once the step is no longer busy, with what came back and the form. Then, when the user started
	 * it (not `trigger`), focus moves to the step's error or new result (focus.ts).
	 */
	submit(name: ActionName, after?: AfterStep): SubmitFunction {
		return ({ formData, formElement, controller }) => {
			const auto = this.#auto;
			for (const [k, v] of Object.entries(this.#extra)) formData.set(k, v);
			this.#begin(name, controller, () => after?.(undefined, formElement));
			return async ({ result }) => {
				// The answer is in: a late Cancel changes nothing.
				if (this.#controller === controller) this.#controller = undefined;
				const outcome = await this.#settle(name, result, auto);
				this.#end();
				await after?.(outcome, formElement);
				if (!auto && !(await this.#landOnCheck(name))) await focusOutcome(name);
				else if (name === 'exchange') await this.#landOnVerdict(outcome);
			};
		};
	}

	/** The step's newest exchange of the current setup, never another setup's. */
	latest(step: Exchange['step']): Exchange | undefined {
		return latestOf(transcript.items, step, this.#facts().setupId);
	}

	/** Cancel: the request in flight is aborted; the page keeps what it had. */
	cancel(): void {
		this.#controller?.abort();
	}

	/** A step form's action: `?flow=<id>&/name`, so that a post without script names the flow too. */
	action(name: ActionName): string {
		return flowAction(this.#facts().flow, name);
	}

	/**
	 * Submits a step's form (the one marked `data-action={name}`) from code (the automatic exchange
	 * and refresh), as its button would, with `extra` fields added to what the form holds. Such a
	 * submission is automatic: it does not move focus to its result; the refresh is announced in the
	 * live region, and the exchange on return lands on the verdict (#landOnVerdict).
	 */
	trigger(name: ActionName, extra: Record<string, string> = {}): void {
		const form = document.querySelector<HTMLFormElement>(`form[data-action="${name}"]`);
		if (!form) return;
		this.#extra = extra;
		this.#auto = true;
		try {
			form.requestSubmit(); // enhance calls the submit function at once, within this call
		} finally {
			this.#extra = {};
			this.#auto = false;
		}
	}

	/**
	 * Start over: the transcript, the errors and the setup's field errors go; for `undoMs` (the
	 * time the server keeps the old flow) Undo can bring them back.
	 */
	forget(undoMs = 0): void {
		const cleared = { items: transcript.items, errors: this.errors, setupErrors: this.setupErrors };
		transcript.clear();
		this.setupErrors = {};
		this.errors = {};
		this.attempts = {};
		this.undo.offer(cleared, undoMs);
		// The notice itself ("Started over. Undo") is what the live region says then.
		if (this.undo.cleared) this.announce = '';
	}

	/** Undo, once the server has the old flow back: this tab's transcript and errors return too. */
	restore(): void {
		const cleared = this.undo.take();
		if (!cleared) return;
		transcript.clear();
		transcript.add(cleared.items);
		this.errors = cleared.errors;
		this.setupErrors = cleared.setupErrors;
	}

	#begin(name: string, controller: AbortController, cancelled: () => unknown): void {
		// Undo is offered until the next action.
		if (name !== 'undo') {
			this.undo.drop();
			if (this.errors.undo || this.errors.reset)
				this.errors = { ...this.errors, undo: '', reset: '' };
		}
		this.busy = name;
		this.slow = false;
		this.errors = { ...this.errors, [name]: '' };
		this.announce = busyText(name);
		this.#controller = controller;
		clearTimeout(this.#slowTimer);
		this.#slowTimer = setTimeout(() => (this.slow = true), SLOW_AFTER_MS);
		// use:enhance drops an aborted request silently; the step says so here.
		controller.signal.addEventListener(
			'abort',
			() => {
				if (this.#controller !== controller) return;
				this.#attempt(name, 'cancelled');
				this.#fail(name, CANCELLED);
				this.#end();
				cancelled();
			},
			{ once: true }
		);
	}

	/**
	 * Back from the consent page with no exchange to follow (a consent refused or declined, a code
	 * kept for the script or held): the redirect back's verdict is the news, and lands as the
	 * exchange on return does (#landOnVerdict). An ignored redirect (stale or unsolicited) changes
	 * no verdict, and says so in its own alert.
	 */
	async landOnReturn(outbox: readonly Exchange[]): Promise<void> {
		if (outbox.some((e) => !e.findings.some((f) => f.code === 'callback-ignored')))
			await this.#landOnVerdict();
	}

	/**
	 * A check the user started (the registration check, the client secret check: a step whose verdict
	 * is a check's, `STEP_ACTIONS`) lands on its line when it answered: the verdict is the news, in
	 * the first screen with the focus, and its link leads to the card with the details. A refusal of
	 * the action itself (its error) lands on the error, as any step's does. Whether it landed.
	 */
	async #landOnCheck(name: ActionName): Promise<boolean> {
		const shape = (STEP_ACTIONS as Record<string, ActionSpec | undefined>)[name]?.verdict;
		if ((shape !== 'registration' && shape !== 'secret') || this.errors[name]) return false;
		await tick();
		const el = this.verdict && document.getElementById('verdict');
		if (!el) return false;
		this.announce = '';
		el.focus();
		return true;
	}

	/**
	 * The exchange on return has finished, or the redirect back brought no code to exchange: the
	 * verdict is the news. When the focus is still where the page load left it (on <body>), it goes
	 * to the verdict; when the user has moved it, it stays and the live region says the verdict
	 * instead. Once, never both.
	 */
	async #landOnVerdict(outcome?: StepOutcome): Promise<void> {
		await tick();
		const el = this.verdict && document.getElementById('verdict');
		if (!el || !this.verdict) {
			// No verdict to show (none is kept for this setup): the done text, as before.
			if (outcome && !outcome.failure) this.announce = doneText('exchange');
			return;
		}
		const active = document.activeElement;
		if (active === null || active === document.body) {
			this.announce = '';
			el.focus();
		} else this.announce = this.verdict.text;
	}

	async #settle(name: string, result: ActionResult, auto = false): Promise<StepOutcome> {
		if (result.type === 'success' || result.type === 'failure') {
			const d = (result.data ?? {}) as Record<string, unknown>;
			const exchanges = Array.isArray(d.exchanges) ? (d.exchanges as Exchange[]) : [];
			transcript.add(exchanges);
			if (result.type === 'failure') {
				if (!exchanges.some((ex) => ex.step === name)) this.#attempt(name, 'failed');
				this.#fail(name, String(d.message ?? `The request failed (HTTP ${result.status}).`));
			} else this.announce = auto && name === 'exchange' ? '' : doneText(name);
			// A step that left the session as it was (a plain API call) says so: its page data stands.
			if (!(result.type === 'success' && d.unchanged === true)) await this.#invalidate();
			return result.type === 'success' ? d : { failure: true, ...d };
		}
		if (result.type === 'redirect') {
			location.assign(result.location);
			return undefined;
		}
		this.#attempt(name, 'failed');
		if (result.type === 'error') {
			// Without a status no action result came back: the request failed, or the answer was not one.
			if (result.status === undefined) this.#fail(name, UNREACHABLE);
			else
				this.#fail(
					name,
					(result.error as { message?: string } | undefined)?.message ??
						'The server could not handle that.'
				);
		} else {
			// JSON that is no action result: the server refused the request before any action ran
			// (a body over its size cap, a host it does not serve), and says why in `message`.
			const { message } = result as { message?: unknown };
			this.#fail(
				name,
				typeof message === 'string' && message
					? message
					: 'The server answered with something that is not a step’s result.'
			);
		}
		return undefined;
	}

	/** A step's attempt ended with no exchange of it: the step shows that, not its older result. */
	#attempt(name: string, outcome: Attempt['outcome']): void {
		if (!(EXCHANGE_STEPS as readonly string[]).includes(name)) return;
		const setup = this.#facts().setupId ?? null;
		this.attempts = {
			...this.attempts,
			[name]: { outcome, setup, after: transcript.items.length }
		};
	}

	#fail(name: string, message: string): void {
		this.errors = { ...this.errors, [name]: message };
		this.announce = message;
	}

	#end(): void {
		clearTimeout(this.#slowTimer);
		this.#controller = undefined;
		this.busy = null;
		this.slow = false;
	}
}

/** `setFlow(new Flow(…))` in the page; `getFlow()` in the components below it. */
export const [getFlow, setFlow, hasFlow] = createContext<Flow>();
