/**
 * One flow, opened from its sealed cookie (session.ts), the way SvelteKit's sverdle demo keeps its
 * game: a plain object built from the cookie, one method per verb of the page's own, `run` for a
 * step's form action (its run in server/steps/runs.ts), and `seal()`, which writes it back. A verb changes the flow in memory only. Nothing reaches a cookie before `seal()`, and a flow
 * that no verb changed is not sealed again. A verb drops Start over's undo slot (start-over.ts), except
 * those that make one (Start over, a save that dropped the tokens) or keep the flow as it is beside
 * what they add (Undo, the redirect back).
 *
 * The form actions (+page.server.ts) run each verb through one wrapper (flow/action.ts), the page's
 * `load` takes the callback's exchange from its outbox, and /callback (callback-route.ts) records
 * the redirect back with `receiveCallback`. Each opens the flow with its context (flow/context.ts:
 * the request's cookies and URL, the app, the visitor, the abort signal), which the verbs hand to
 * the steps they run. A verb answers, or returns a named refusal (refusals.ts), which the wrapper
 * turns into the action's failure.
 */
import { z } from 'zod';
import { secretSchema, setupFromForm, setupRuleErrors, setupSchema } from '$lib/oauth/setup';
import { fieldErrors, type FieldErrors, type Setup } from '$lib/oauth/setup';
import { bindingChanges, bindSecret } from '$lib/oauth/secret-binding';
import { newFlowId } from '$lib/oauth/flow-id';
import type { Exchange } from '$lib/exchange/types';
import { prepareConsent, type StepResult } from '../steps/flow-steps';
import type { StepRun } from '../steps/runs';
import {
	canReplay,
	canRaceRefresh,
	canReplayRefresh,
	raceRefresh,
	replayCode,
	replayFork,
	replayRefresh
} from '../steps/replay';
import { forkOf, refreshHold } from './fork';
import { handleCallback } from '../steps/redirect-back';
import { presetSession, secretAfterSave } from './secret';
import { tokensAfterSave } from './tokens';
import { keepRegisteredRedirect } from '../steps/registered-redirect';
import { newSetupId, nextCredentialsId, nextSetupId, stampSetup } from './setup-id';
import { outward } from './way-out';
import {
	freshSession,
	startOver,
	undoExpired,
	undoSlot,
	undoStartOver,
	UNDO_MS,
	withoutUndo,
	withUndo
} from './start-over';
import {
	dropFlow,
	fitsInCookies,
	forkFits,
	readAllFlows,
	readSession,
	writeSession,
	type Session
} from '../session/session';
import type { FlowContext } from './context';
import {
	flowDropped,
	FORK_HELD,
	NOTHING_TO_TAKE,
	REFRESH_FORK_HELD,
	REFRESH_HELD,
	REFRESH_HELD_FORK_GONE,
	FORK_TOO_LARGE,
	formRefused,
	NO_CONSENT_TO_OPEN,
	NO_SETUP,
	NOT_ITS_FORK,
	refuse,
	SETUP_NEEDS_FIXING,
	STATE_TAKEN,
	UNKNOWN_PRESET,
	VERIFIER_STAYS_HERE,
	type Refusal
} from './refusals';

const presetSchema = z.object({ preset: z.string().min(1).max(100) });

export class SealedFlow {
	/** The session as the cookie held it. */
	readonly opened: Session;
	#session: Session;
	/** How `seal` writes: not at all, without Start over's undo slot, or as it is. */
	#write: 'none' | 'plain' | 'as-is' = 'none';
	/** Other flows a verb made (a fork), sealed with this one. */
	#made: SealedFlow[] = [];
	/** Other flows a verb closed (this flow's fork), dropped when this one is sealed. */
	#closed: string[] = [];

	constructor(
		/** The request and the app it runs in; its `source` names the flow (the request's `?flow=`, or the one the callback found). */
		readonly context: FlowContext,
		session: Session
	) {
		this.opened = session;
		this.#session = session;
	}

	/** The flow the context names, read from the request's cookies. */
	static async open(context: FlowContext): Promise<SealedFlow> {
		return new SealedFlow(context, await readSession(context.cookies, context.source));
	}

	/** The flow as the verbs so far left it. */
	get session(): Session {
		return this.#session;
	}

	/** Whether a verb changed the flow, so that `seal` writes it. */
	get changed(): boolean {
		return this.#write !== 'none';
	}

	/** The app's clock, now (base.server.ts). */
	#now(): number {
		return this.context.app.clock();
	}

	/** This flow's id. */
	get id(): string | undefined {
		return this.context.source.flow;
	}

	/** The flow after a verb; `keepUndo`: as it is, else without Start over's undo slot. */
	#set(next: Session, keepUndo = false): void {
		this.#session = next;
		this.#write = keepUndo ? 'as-is' : 'plain';
	}

	/**
	 * Drops any flow a verb closed, writes any flow a verb made (a fork), then this flow, if a verb
	 * changed it, into their cookies.
	 */
	async seal(): Promise<void> {
		const { cookies, source } = this.context;
		for (const id of this.#closed) dropFlow(cookies, id, source);
		for (const made of this.#made) await made.seal();
		if (this.#write === 'none') return;
		const s = this.#write === 'plain' ? withoutUndo(this.#session) : this.#session;
		await writeSession(cookies, s, source.https, source);
	}

	/**
	 * Runs a step on the flow: its new session is kept (a step that left it as it was, with no undo
	 * slot to drop, changes nothing, so the cookie is not sealed again).
	 */
	async step(run: (s: Session) => Promise<StepResult> | StepResult): Promise<StepResult> {
		const before = this.#session;
		const result = await run(before);
		if ((result.session && result.session !== before) || undoSlot(before))
			this.#set(result.session ?? before);
		return result;
	}

	/**
	 * A step's form action (its run in server/steps/runs.ts): the step, on this flow's context and
	 * session, with what its form held, through `step`. The replay of a code is a verb of its own
	 * below: it makes a fork of the flow.
	 */
	run<T>(step: StepRun<T>, input: T): Promise<StepResult> {
		const c = { ...this.context, refreshHeld: (s: Session) => this.#refreshHeld(s) };
		return this.step((s) => step.run(c, s, input));
	}

	/** Why a refresh is held, if it is: a fork superseded this flow's refresh token (fork.ts). */
	async #refreshHeld(s: Session): Promise<Refusal | undefined> {
		const at = s.tokens?.obtained_at;
		// Only a flow a try superseded (or, recorded before the try said so here, one that saw a
		// rotation) can be held: others are not, without reading the browser's other flows.
		if (!s.previous_refresh && (at === undefined || s.fork_superseded !== at)) return undefined;
		const hold = refreshHold(s, await this.liveForkOf());
		return hold === 'fork' ? REFRESH_HELD : hold === 'gone' ? REFRESH_HELD_FORK_GONE : undefined;
	}

	/**
	 * "Take the fork's newest tokens": after a try whose refresh superseded this flow's refresh
	 * token, the fork's current tokens come into this flow, and the fork is closed (two flows never
	 * hold one refresh token, where one's refresh would supersede the other's).
	 */
	async takeForkTokens() {
		const { cookies, source } = this.context;
		if (!this.id) return refuse(NOTHING_TO_TAKE);
		const fork = (await readAllFlows(cookies, source)).find(
			(f) => f.id !== this.id && f.session.fork_of?.flow === this.id
		);
		const from = fork?.session;
		if (
			!fork ||
			!from?.fork_of?.superseded ||
			!from.tokens ||
			from.setup_id !== this.#session.setup_id
		)
			return refuse(NOTHING_TO_TAKE);
		const { tokens, token_values, tokens_for } = from;
		this.#set({
			...this.#session,
			tokens,
			token_values,
			tokens_for,
			token_note: undefined,
			previous_refresh: undefined,
			fork_superseded: undefined
		});
		this.#closed.push(fork.id);
		return { taken: fork.id };
	}

	/**
	 * "Replay this code" (replay.ts), confirmed: the replay runs in a fork of this flow, made under a
	 * new flow id (#inFork).
	 */
	replay() {
		return this.#inFork(canReplay, 'code', FORK_HELD, replayCode);
	}

	/** "Replay the previous refresh token" (replay.ts), confirmed: in a fork, as a code's replay. */
	replayRefresh() {
		return this.#inFork(canReplayRefresh, 'refresh', REFRESH_FORK_HELD, replayRefresh);
	}

	/** "Two refreshes at once" (replay.ts), confirmed: in a fork, as a code's replay. */
	raceRefresh() {
		return this.#inFork(canRaceRefresh, 'refresh', REFRESH_FORK_HELD, raceRefresh);
	}

	/**
	 * A deliberate send in a fork of this flow (replay.ts). Its exchanges belong to the fork's
	 * transcript, not this tab's: they come back under their own name (`forkExchanges`), beside the
	 * fork's id, and this flow stays as it was. One fork at a time (fork.ts): while this flow's fork
	 * exists, the send is refused with the fork's id (`held`), and so is a fork that could not be
	 * kept beside this flow; nothing is sent then. `can` says whether this flow may send it at all
	 * (else `send` refuses, with its own reason).
	 */
	#inFork(
		can: (s: Session) => boolean,
		by: 'code' | 'refresh',
		held: Refusal,
		send: (c: FlowContext, s: Session, from: string) => Promise<StepResult & { fork?: Session }>
	) {
		const c = this.context;
		return this.step(async (s): Promise<StepResult> => {
			if (can(s)) {
				const fork = await this.liveFork();
				if (fork) return refuse(held, { answer: { fork } });
				const copy = replayFork(s, this.id!, this.#now(), by);
				if (!(await forkFits(copy, c.source))) return refuse(FORK_TOO_LARGE);
			}
			const r = await send(c, s, this.id!);
			if (!r.ok || !r.fork) return r;
			const fork = this.#make(r.fork).id!;
			return {
				ok: true,
				session: withForkFound(r.session ?? s, r.fork, by),
				exchanges: [],
				answer: { fork, forkExchanges: stampSetup(r.exchanges, s) }
			};
		});
	}

	/** This flow's fork (fork.ts), found among the browser's flows; none when it has none. */
	async liveFork(): Promise<string | undefined> {
		return (await this.liveForkOf())?.id;
	}

	/** This flow's fork and what made it (a code replay, or a try of the previous refresh token). */
	async liveForkOf(): Promise<ReturnType<typeof forkOf>> {
		if (!this.id) return undefined;
		return forkOf(await readAllFlows(this.context.cookies, this.context.source), this.id);
	}

	/**
	 * "Close that fork", confirmed: this flow's fork is dropped (its tab then says it was closed),
	 * and a new one may be made. A fork already gone says so; a flow that is not this flow's fork
	 * is not closed. This flow is not written.
	 */
	async closeFork(fork: string) {
		const { cookies, source } = this.context;
		const found = (await readAllFlows(cookies, source)).find((f) => f.id === fork);
		if (!found) return { closed: fork, gone: true };
		if (!this.id || found.session.fork_of?.flow !== this.id) return refuse(NOT_ITS_FORK);
		this.#closed.push(fork);
		const { by, revoked } = found.session.fork_of;
		// A code replay may have revoked the grant: its previous refresh token is no longer offered
		// (a try now could only say what the replay did).
		if (by === 'code' && this.#session.previous_refresh)
			this.#set({ ...this.#session, previous_refresh: undefined });
		// What the fork found about the tokens both hold outlives it: the verdict goes on saying it.
		// (A try records it here when it runs; a fork made before that did not.)
		if (revoked !== undefined && revoked === this.#session.tokens?.obtained_at)
			this.#set({ ...this.#session, fork_found: { by, revoked } });
		// Closed on purpose: its newer tokens are given up, and this flow's refreshes go on.
		if (this.#session.fork_superseded !== undefined)
			this.#set({ ...this.#session, fork_superseded: undefined });
		return { closed: fork };
	}

	/** A new flow, sealed with this one, under a new id. */
	#make(session: Session): SealedFlow {
		const c = this.context;
		const made = new SealedFlow({ ...c, source: { ...c.source, flow: newFlowId() } }, session);
		made.#write = 'plain';
		this.#made.push(made);
		return made;
	}

	// The redirect back, and the page's own verbs.

	/** The redirect back to /callback, read, judged and recorded (redirect-back.ts). */
	receiveCallback(url: URL, headers: Headers, now: number, location: string): void {
		const next = handleCallback(this.context, this.#session, url, headers, now, location);
		this.#set(next.session, true);
	}

	/** The callback's recorded exchange, handed to the page once (redacted). */
	takeOutbox(): Exchange[] {
		const s = this.#session;
		if (!s.outbox?.length) return [];
		this.#set({ ...s, outbox: undefined });
		return stampSetup(outward(this.context.app.redactors, s.outbox, s), s);
	}

	/**
	 * What the page's `load` does besides showing the flow: a flow read with a notice (a cookie that
	 * could not be opened) starts empty, and Start over's expired undo slot is dropped (it holds the
	 * old flow's secret).
	 */
	tidy(): void {
		const s = this.#session;
		if (s.notice && !s.dropped) this.#set({ v: 1 });
		else if (undoExpired(s, this.#now())) this.#set(s);
	}

	/** The setup form: validate, keep the secret apart, prepare a fresh consent request. */
	async saveSetup(form: FormData) {
		const { app, origin } = this.context;
		const session = this.#session;
		const values = setupFromForm(form);
		const secretRaw = form.get('client_secret');
		const secret = secretSchema.safeParse(typeof secretRaw === 'string' ? secretRaw : '');
		const parsed = setupSchema.safeParse(values);
		const errors: FieldErrors = parsed.success
			? setupRuleErrors(parsed.data)
			: fieldErrors(parsed.error);
		if (parsed.success && (await this.#stateTaken(parsed.data.custom_state)))
			errors.custom_state = STATE_TAKEN.message;
		if (!secret.success)
			errors.client_secret = secret.error.issues[0]?.message ?? 'Invalid client secret';
		let next: Session = { ...session, notice: undefined };
		// A typed secret is bound to the setup it is saved with, so a failed save keeps none (the field
		// keeps what was typed): it would otherwise go with the setup saved before.
		if (!parsed.success || !secret.success || Object.keys(errors).length) {
			this.#set(next);
			return refuse(SETUP_NEEDS_FIXING, { errors, values });
		}
		const presetName = form.get('preset');
		const preset =
			typeof presetName === 'string' && presetName
				? app.presets.find(origin, presetName)
				: undefined;
		const kept = secretAfterSave(
			app.presets,
			session,
			parsed.data,
			secret.data,
			preset,
			origin,
			confirmedList(form.get('keep_secret_for'))
		);
		// Tokens belong to the client and service that issued them, as the secret does, and to the API
		// they were issued for: moved to another origin without a yes, they are dropped, with Undo.
		const moved = session.setup && bindingChanges(bindSecret(session.setup), parsed.data).length;
		const tokens = tokensAfterSave(
			session,
			parsed.data,
			confirmedList(form.get('keep_tokens_for')),
			!!moved
		);
		next = {
			...next,
			...kept,
			...tokens.fields,
			setup: keepRegisteredRedirect(session.setup, parsed.data),
			setup_id: nextSetupId(session, parsed.data),
			iss_param_for: issParamFor(session, parsed.data.issuer, form.get('iss_parameter_supported'))
		};
		next = prepareConsent(
			{ ...next, credentials_id: nextCredentialsId(session, next) },
			this.#now()
		);
		if (tokens.dropped) this.#set(withUndo(next, session, this.#now()), true);
		else this.#set(next);
		return {
			saved: true,
			secretSet: !!next.client_secret,
			secretCleared: !!kept.secret_note,
			...(tokens.dropped ? { tokensDropped: true, undoMs: UNDO_MS } : {})
		};
	}

	/** A named setup (presets.ts), with its secret, in place of this flow's. */
	applyPreset(form: FormData) {
		const { app, origin } = this.context;
		const parsed = presetSchema.safeParse({ preset: form.get('preset') });
		const preset = parsed.success ? app.presets.find(origin, parsed.data.preset) : undefined;
		if (!preset) return refuse(UNKNOWN_PRESET);
		const session = this.#session;
		const next: Session = {
			v: 1,
			...presetSession(preset, origin),
			setup_id: newSetupId(),
			credentials_id: newSetupId(),
			recent_states: session.recent_states
		};
		if (session.setup?.auto_exchange === false) next.setup!.auto_exchange = false;
		this.#set(prepareConsent(next, this.#now()));
		return { saved: true, preset: preset.name };
	}

	/**
	 * A new consent request for the same setup ("Try again"). With a `scope` in the form ("Try again
	 * with scope read", after invalid_scope) or a `redirect_uri` ("Try again with" the registered one,
	 * after a near miss), the setup's field becomes that value first, checked as the setup form
	 * checks it.
	 */
	async restart(form: FormData) {
		const session = this.#session;
		if (session.dropped) return refuse(flowDropped(session.notice!));
		if (!session.setup) return refuse(NO_SETUP);
		if (await this.#stateTaken(session.setup.custom_state)) return refuse(STATE_TAKEN);
		const changed: Partial<Pick<Setup, 'scope' | 'redirect_uri'>> = {};
		for (const field of ['scope', 'redirect_uri'] as const) {
			const value = form.get(field);
			if (typeof value !== 'string') continue;
			const parsed = setupSchema.shape[field].safeParse(value);
			if (!parsed.success)
				return refuse(
					formRefused(parsed.error.issues[0]?.message ?? `That ${field} cannot be used`, field)
				);
			changed[field] = parsed.data;
		}
		const setup = { ...session.setup, ...changed };
		const next = { ...session, setup, setup_id: nextSetupId(session, setup) };
		this.#set(prepareConsent({ ...next, callback: undefined, code: undefined }, this.#now()));
		return { restarted: true, ...changed };
	}

	/**
	 * A duplicated tab's own flow: a new flow with a copy of this flow's setup and secret binding (not
	 * its pending state, code or tokens) and a fresh consent request. This flow is not written.
	 */
	fork() {
		const session = this.#session;
		if (!session.setup) return { flow: newFlowId() };
		const { setup, client_secret, secret_for, preset, secret_note } = session;
		const copy = prepareConsent(
			{ v: 1, setup, client_secret, secret_for, preset, secret_note },
			this.#now()
		);
		return { flow: this.#make(copy).id! };
	}

	/**
	 * "Get a code for the script": the pending consent request is opened as it is, but its code, once
	 * back, is shown for the curl script to exchange instead of exchanged here. Not with PKCE: the
	 * verifier stays on this server, so the script could not exchange the code.
	 */
	forScript() {
		const session = this.#session;
		if (session.dropped) return refuse(flowDropped(session.notice!));
		if (!session.pending) return refuse(NO_CONSENT_TO_OPEN);
		if (session.pending.code_verifier) return refuse(VERIFIER_STAYS_HERE);
		this.#set({ ...session, pending: { ...session.pending, for_script: true } });
		return { consent_url: session.pending.consent_url };
	}

	/**
	 * Start over, with Undo (start-over.ts). When the old flow is too large to be kept beside the fresh
	 * one's bookkeeping, the flow is cleared all the same, without Undo, and the answer says so.
	 */
	async reset() {
		const old = this.#session;
		const held = startOver(old, this.#now());
		if (await fitsInCookies(held, this.context.source)) {
			this.#set(held, true);
			return { reset: true, undoMs: UNDO_MS };
		}
		this.#set(freshSession(old));
		return { reset: true, undoMs: 0 };
	}

	/** Undo: the old flow back within UNDO_MS, else a 410 with the reason. */
	undo() {
		const current = this.#session;
		const undone = undoStartOver(current, this.#now());
		if (!undone.ok) {
			// An expired slot is dropped at once: it holds the old flow's secret.
			if (undoSlot(current)) this.#set(current);
			return undone;
		}
		this.#set(undone.session, true);
		return { undone: true };
	}

	/** Whether a custom state is the pending state of another flow of this browser. */
	async #stateTaken(state: string | undefined): Promise<boolean> {
		if (!state) return false;
		const own = this.id;
		return (await readAllFlows(this.context.cookies, this.context.source)).some(
			(f) => f.id !== own && f.session.pending?.state === state
		);
	}
}

/**
 * The issuer whose metadata advertised the `iss` parameter (RFC 9207): the one the fill named, when
 * the saved issuer is it, or the one already known while the issuer stays the same.
 */
function issParamFor(
	session: Session,
	issuer: string,
	filled: FormDataEntryValue | null
): string | undefined {
	if (!issuer) return undefined;
	if (filled === issuer) return issuer;
	return session.iss_param_for === issuer ? issuer : undefined;
}

/**
 * What the user confirmed in the setup form (a JSON list of URLs or origins), if anything: the
 * destinations the secret may go to (`keep_secret_for`), the new origins the tokens may go to
 * (`keep_tokens_for`).
 */
function confirmedList(raw: FormDataEntryValue | null): string[] | undefined {
	if (typeof raw !== 'string' || !raw || raw.length > 8192) return undefined;
	try {
		const list: unknown = JSON.parse(raw);
		return Array.isArray(list) && list.every((u) => typeof u === 'string') ? list : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The flow a try ran from, with what its fork found about the tokens both hold (fork.ts): revoked
 * (`fork_found`), or this flow's refresh token superseded by the fork's refresh
 * (`fork_superseded`). A code replay may have revoked the grant: the previous refresh token is no
 * longer offered (a try could only say what the replay did). Recorded as the try runs, so that it
 * outlives the fork, closed or dropped to make room.
 */
function withForkFound(session: Session, fork: Session, by: 'code' | 'refresh'): Session {
	const at = session.tokens?.obtained_at;
	const of = fork.fork_of;
	let next = session;
	if (at !== undefined && of?.revoked === at) next = { ...next, fork_found: { by, revoked: at } };
	if (at !== undefined && of?.superseded) next = { ...next, fork_superseded: at };
	if (by === 'code' && next.previous_refresh) next = { ...next, previous_refresh: undefined };
	return next;
}
