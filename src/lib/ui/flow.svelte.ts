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
import { createContext } from 'svelte';
import type { ActionResult, SubmitFunction } from '@sveltejs/kit';
import type { Exchange } from '$lib/exchange/types';
import type { FieldErrors } from '$lib/oauth/setup';
import { issuerStops, type IssuerVerdict } from '$lib/oauth/issuer';
import { flowAction } from '$lib/oauth/flow-id';
import { stepStates } from './steps';
import { transcript } from './transcript.svelte';

/** What the progress line says while a step's request is under way. */
export const BUSY_TEXT: Record<string, string> = {
	setup: 'Saving the setup…',
	preset: 'Filling in the sandbox client…',
	restart: 'Preparing a new consent request…',
	exchange: 'Exchanging the code for tokens…',
	refresh: 'Refreshing the access token…',
	userinfo: 'Reading the user info…',
	api: 'Calling the API…',
	reset: 'Starting over…',
	check: 'Checking the consent URL with the service…',
	pasteback: 'Reading the pasted address…'
};

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
	pending: unknown;
	callback: { verdict: string; iss?: IssuerVerdict } | null;
	hasCode: boolean;
	/** The issuer check held the code back (RFC 9207): only "Exchange anyway" exchanges it. */
	codeHeld?: boolean;
	tokens: unknown;
}

/**
 * Back from the consent page with a code: exchange it at once when the setup says so, unless the
 * issuer check held it back (then the user decides, with "Exchange anyway").
 */
export function shouldAutoExchange(d: {
	hasCode: boolean;
	codeHeld?: boolean;
	setup: { auto_exchange: boolean } | null;
}): boolean {
	return d.hasCode && !d.codeHeld && !!d.setup?.auto_exchange;
}

export interface Imported {
	name: string;
	exchanges: Exchange[];
	skipped: number;
}

export class Flow {
	busy = $state<string | null>(null);
	slow = $state(false);
	errors = $state<Record<string, string>>({});
	setupErrors = $state<FieldErrors>({});
	announce = $state('');
	autoRefresh = $state(false);
	/** An imported HAR opens in the same views, in place of this tab's transcript, until closed. */
	imported = $state<Imported | null>(null);
	/** The exchange the diagram points at, open in the transcript. */
	selectedId = $state<string | undefined>();

	readonly steps = $derived.by(() => {
		const d = this.#facts();
		return stepStates({
			setupDone: !!d.setup && !!d.secret,
			pending: !!d.pending,
			callbackVerdict: d.callback?.verdict ?? null,
			issuerStop: issuerStops(d.callback?.iss),
			hasCode: d.hasCode,
			codeHeld: !!d.codeHeld,
			hasTokens: !!d.tokens,
			latest: (s) => transcript.latest(s),
			busy: this.busy
		});
	});
	readonly currentStep = $derived(
		(Object.entries(this.steps).find(([, st]) => st === 'current' || st === 'busy') ?? [])[0]
	);
	readonly shown = $derived(this.imported ? this.imported.exchanges : transcript.items);
	/** In the step cards only the newest exchange starts open; the rest fold, so the page reads at a glance. */
	readonly newestId = $derived(transcript.items.at(-1)?.id);

	#facts: () => FlowFacts;
	#invalidate: () => Promise<void>;
	#controller: AbortController | undefined;
	#slowTimer: ReturnType<typeof setTimeout> | undefined;
	#extra: Record<string, string> = {};

	/** `facts` reads the current page data; `invalidate` reloads it (SvelteKit's invalidateAll). */
	constructor(facts: () => FlowFacts, invalidate: () => Promise<void>) {
		this.#facts = facts;
		this.#invalidate = invalidate;
	}

	/**
	 * The submit function of a step's form (`use:enhance={flow.submit('exchange')}`). `after` runs
	 * once the step is no longer busy, with what came back and the form.
	 */
	submit(name: string, after?: AfterStep): SubmitFunction {
		return ({ formData, formElement, controller }) => {
			for (const [k, v] of Object.entries(this.#extra)) formData.set(k, v);
			this.#begin(name, controller, () => after?.(undefined, formElement));
			return async ({ result }) => {
				// The answer is in: a late Cancel changes nothing.
				if (this.#controller === controller) this.#controller = undefined;
				const outcome = await this.#settle(name, result);
				this.#end();
				await after?.(outcome, formElement);
			};
		};
	}

	/** Cancel: the request in flight is aborted; the page keeps what it had. */
	cancel(): void {
		this.#controller?.abort();
	}

	/** A step form's action: `?flow=<id>&/name`, so that a post without script names the flow too. */
	action(name: string): string {
		return flowAction(this.#facts().flow, name);
	}

	/**
	 * Submits a step's form (the one marked `data-action={name}`) from code (the automatic exchange
	 * and refresh), as its button would, with `extra` fields added to what the form holds.
	 */
	trigger(name: string, extra: Record<string, string> = {}): void {
		const form = document.querySelector<HTMLFormElement>(`form[data-action="${name}"]`);
		if (!form) return;
		this.#extra = extra;
		try {
			form.requestSubmit(); // enhance calls the submit function at once, within this call
		} finally {
			this.#extra = {};
		}
	}

	/** Start over: the transcript, the errors and the setup's field errors go. */
	forget(): void {
		transcript.clear();
		this.setupErrors = {};
		this.errors = {};
	}

	#begin(name: string, controller: AbortController, cancelled: () => unknown): void {
		this.busy = name;
		this.slow = false;
		this.errors = { ...this.errors, [name]: '' };
		this.announce = BUSY_TEXT[name] ?? 'Working…';
		this.#controller = controller;
		clearTimeout(this.#slowTimer);
		this.#slowTimer = setTimeout(() => (this.slow = true), SLOW_AFTER_MS);
		// use:enhance drops an aborted request silently; the step says so here.
		controller.signal.addEventListener(
			'abort',
			() => {
				if (this.#controller !== controller) return;
				this.#fail(name, CANCELLED);
				this.#end();
				cancelled();
			},
			{ once: true }
		);
	}

	async #settle(name: string, result: ActionResult): Promise<StepOutcome> {
		if (result.type === 'success' || result.type === 'failure') {
			const d = (result.data ?? {}) as Record<string, unknown>;
			if (Array.isArray(d.exchanges)) transcript.add(d.exchanges as Exchange[]);
			if (result.type === 'failure')
				this.#fail(name, String(d.message ?? `The request failed (HTTP ${result.status}).`));
			else this.announce = 'Done.';
			await this.#invalidate();
			return result.type === 'success' ? d : { failure: true, ...d };
		}
		if (result.type === 'error') {
			// Without a status no action result came back: the request failed, or the answer was not one.
			if (result.status === undefined) this.#fail(name, UNREACHABLE);
			else
				this.errors = {
					...this.errors,
					[name]:
						(result.error as { message?: string } | undefined)?.message ??
						'The server could not handle that.'
				};
		}
		if (result.type === 'redirect') location.assign(result.location);
		return undefined;
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
export const [getFlow, setFlow] = createContext<Flow>();
