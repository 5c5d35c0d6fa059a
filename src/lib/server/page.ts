/**
 * What the playground page may see of the session (never the client secret), and the helpers its
 * form actions share: read the session, run a step, write the session back.
 */
import { error, fail, type Actions, type Cookies, type RequestEvent } from '@sveltejs/kit';
import { z } from 'zod';
import { CONSENT_PARAM_HELP } from '$lib/oauth/consent';
import {
	endpoints,
	fieldErrors,
	secretSchema,
	setupFromForm,
	setupRuleErrors,
	setupSchema,
	setupWith,
	type FieldErrors,
	type Setup
} from '$lib/oauth/setup';
import type { Exchange } from '$lib/exchange/types';
import { inSlot, overLimit } from './abuse';
import { clientAddress } from '$lib/proxy.server';
import { consentExchange, prepareConsent, type StepResult } from './flow';
import { requestPlayground } from './playground';
import type { Sender } from './send';
import { hasPrefill, parsePrefill, prefillLink, type Prefill } from '$lib/oauth/prefill';
import { currentRequest, readAllFlows, readSession, writeSession, type Session } from './session';
import { FLOW_PARAM, flowParam, newFlowId } from '$lib/oauth/flow-id';
import { presetSession, presetSetup, secretAfterSave, secretView } from './secret';
import { bindingChanges, bindSecret, listChanges, secretHosts } from '$lib/oauth/secret-binding';
import { vouchedFor } from '$lib/oauth/token-binding';
import { tokensAfterSave } from './tokens';
import { outward } from './way-out';
import { UNDO_MS, undoSlot, withUndo, withoutUndo } from './undo';
import { newSetupId, nextSetupId, stampSetup } from './setup-id';
import { apiSuggestions } from './api-examples';
import { canReplay, replayCode } from './replay';
import { readForm } from './form';
import {
	keepRegisteredRedirect,
	registeredRedirectHint,
	refusalAhead
} from './registered-redirect';

function defaultSetup(origin: string): Setup {
	return setupWith({
		base_url: requestPlayground().presets.sandboxEnabled ? `${origin}/sandbox` : '',
		redirect_uri: `${origin}/callback`
	});
}

/**
 * A docs link's setup, with a named preset's non-secret fields under the link's own values. The
 * banner names every host that would receive the secret (`base` is the setup the form starts from),
 * and whether the link changes a preset's client id or URLs, so that its secret is not used.
 */
export function prefillFrom(
	url: URL,
	base: Setup = defaultSetup(url.origin)
):
	| (Prefill & {
			presetLabel?: string;
			presetHasSecret?: boolean;
			presetChanged?: string;
			secretHosts: string[];
	  })
	| null {
	// The flow id is the page's own parameter, not a link's.
	const params = new URLSearchParams(url.searchParams);
	params.delete(FLOW_PARAM);
	if (!hasPrefill(params)) return null;
	const p = parsePrefill(params);
	const hostsFor = (values: Partial<Setup>) => secretHosts({ ...base, ...values });
	if (!p.preset) return { ...p, secretHosts: hostsFor(p.values) };
	const preset = requestPlayground().presets.find(url.origin, p.preset);
	if (!preset)
		return {
			...p,
			errors: { ...p.errors, preset: `There is no preset named "${p.preset}".` },
			preset: undefined,
			secretHosts: hostsFor(p.values)
		};
	const own = presetSetup(preset, url.origin);
	const values = { ...own, ...p.values };
	const changes = bindingChanges(bindSecret(own), { ...own, ...values });
	return {
		...p,
		values,
		host: new URL(values.base_url).host,
		presetLabel: preset.label,
		presetHasSecret: !!preset.client_secret,
		presetChanged: changes.length ? listChanges(changes) : undefined,
		secretHosts: hostsFor(values)
	};
}

export function view(session: Session, origin: string) {
	const app = requestPlayground();
	const setup = session.setup ?? null;
	// What came from the service or the wire goes out redacted (the setup is the user's own).
	const shown = <T>(v: T) => outward(v, session);
	const consent = consentExchange(session);
	const defaults = defaultSetup(origin);
	return {
		origin,
		callbackUrl: `${origin}/callback`,
		defaults,
		setup,
		shareLink: setup ? prefillLink(origin, setup, defaults) : null,
		guardMode: app.config.policy.mode,
		endpoints: setup ? endpoints(setup) : null,
		...secretView(session, origin),
		pending: session.pending
			? {
					consent_url: session.pending.consent_url,
					state: session.pending.state,
					/** A pushed request's handle expires (RFC 9126 §2.2): the consent step counts down to it. */
					request_uri_expires_at: session.pending.request_uri_expires_at ?? null,
					params: [...new URL(session.pending.consent_url).searchParams.entries()].map(
						([k, v]) => ({
							name: k,
							value: v,
							help:
								CONSENT_PARAM_HELP[k] ??
								'A parameter that was already on the authorization endpoint.'
						})
					),
					exchange: consent && stampSetup([outward(consent, session)], session)[0]
				}
			: null,
		callback: shown(session.callback ?? null),
		hasCode: !!session.code,
		/** The issuer check (RFC 9207) held the code back: no automatic exchange. */
		codeHeld: !!session.code?.held,
		tokens: shown(session.tokens ?? null),
		/** Why a save dropped the tokens; `tokenUndo` while Undo can bring them back. */
		tokenNote: session.token_note ?? null,
		tokenUndo: !!session.token_note && !!undoSlot(session),
		/** The origins the tokens may go to without a question (the setup form asks before others). */
		tokenOrigins: session.tokens
			? [
					...new Set([
						...(session.tokens_for?.origins ?? []),
						...vouchedFor(session.tokens_for, session.metadata_for)
					])
				]
			: null,
		presets: app.presets
			.list(origin)
			.map(({ name, label, description }) => ({ name, label, description })),
		sandbox: app.presets.sandboxEnabled,
		/** The setup's consent page is the built-in sandbox's (wording may name its buttons). */
		sandboxTarget: app.presets.isSandboxTarget(setup, origin),
		/** The sandbox's own registration, to prefill an empty "Redirect URI as registered". */
		registeredHint: registeredRedirectHint(setup, origin),
		/** The pending consent's redirect_uri will be refused: the near miss, named before consent. */
		redirectRefusal: refusalAhead(setup, session.pending?.redirect_uri, origin),
		apiSuggestions: apiSuggestions(app, setup ?? defaults, origin),
		notice: session.notice ?? null,
		/** The current setup's id: a step counts only the exchanges that carry it (ui/step-status.ts). */
		setupId: session.setup_id ?? null,
		/** The code this flow exchanged may be replayed on purpose, in a fork (replay.ts). */
		canReplay: canReplay(session),
		/** This flow is a fork made to replay a code of that flow. */
		replayOf: session.replay_of ?? null
	};
}

/** Saves the session after an action: Start over's undo slot does not outlive the next action. */
export async function save(cookies: Cookies, url: URL, session: Session): Promise<void> {
	await writeSession(cookies, withoutUndo(session), url.protocol === 'https:');
}

/**
 * What a step may use besides the session: the app's sender, and the visitor's address its pool
 * counts connections by.
 */
export interface StepContext {
	sender: Sender;
	client: string | undefined;
}

/**
 * Runs a flow step as a form action: the new session is saved, the exchanges go to the tab's
 * transcript, and what else the step has for the page (`answer`) goes with them. All of it leaves
 * through `outward`.
 */
export async function runStep(
	event: Pick<RequestEvent, 'cookies' | 'url' | 'getClientAddress' | 'setHeaders' | 'locals'> &
		Partial<Pick<RequestEvent, 'platform'>>,
	step: (s: Session, context: StepContext) => Promise<StepResult>
) {
	const { cookies, url } = event;
	const { limits, sender } = event.locals.app;
	const limited = await overLimit(limits, event);
	if (limited) return limited;
	const session = await readSession(cookies);
	if (session.dropped) return fail(409, { message: session.notice, exchanges: [] });
	const held = await inSlot(limits, event, () =>
		step(session, { sender, client: clientAddress(event, limits.proxy) })
	);
	if (!held.ok) return held.failure;
	const result = held.value;
	// A step that changed nothing (a plain API call) leaves the cookie as it is: no re-sealing.
	const changed = (result.session && result.session !== session) || !!undoSlot(session);
	if (changed) await save(cookies, url, result.session ?? session);
	const exchanges = stampSetup(outward(result.exchanges ?? [], session, result.session), session);
	if (!result.ok) return fail(result.status, { message: result.message, exchanges });
	const answer = result.answer && outward(result.answer, session, result.session);
	// Nothing the page data is made of changed (the session, read without a notice, is as it was):
	// the page need not load its data again (flow.svelte.ts).
	return changed || session.notice
		? { exchanges, ...answer }
		: { exchanges, ...answer, unchanged: true as const };
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

type SetupFailure = {
	errors: FieldErrors;
	values: Record<string, unknown>;
	message: string;
};

/** The setup form: validate, keep the secret apart, prepare a fresh consent request. */
export async function saveSetup(cookies: Cookies, url: URL, form: FormData) {
	const session = await readSession(cookies);
	const values = setupFromForm(form);
	const secretRaw = form.get('client_secret');
	const secret = secretSchema.safeParse(typeof secretRaw === 'string' ? secretRaw : '');
	const parsed = setupSchema.safeParse(values);
	const errors: FieldErrors = parsed.success
		? setupRuleErrors(parsed.data)
		: fieldErrors(parsed.error);
	if (parsed.success && (await stateTaken(cookies, parsed.data.custom_state)))
		errors.custom_state = STATE_TAKEN;
	if (!secret.success)
		errors.client_secret = secret.error.issues[0]?.message ?? 'Invalid client secret';
	let next: Session = { ...session, notice: undefined };
	// A typed secret is bound to the setup it is saved with, so a failed save keeps none (the field
	// keeps what was typed): it would otherwise go with the setup saved before.
	if (!parsed.success || !secret.success || Object.keys(errors).length) {
		await save(cookies, url, next);
		return fail(400, {
			errors,
			values,
			message: 'Some fields need fixing.'
		} satisfies SetupFailure);
	}
	const presetName = form.get('preset');
	const preset =
		typeof presetName === 'string' && presetName
			? requestPlayground().presets.find(url.origin, presetName)
			: undefined;
	const kept = secretAfterSave(
		session,
		parsed.data,
		secret.data,
		preset,
		url.origin,
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
	next = prepareConsent(next);
	if (tokens.dropped)
		await writeSession(cookies, withUndo(next, session), url.protocol === 'https:');
	else await save(cookies, url, next);
	return {
		saved: true,
		secretSet: !!next.client_secret,
		secretCleared: !!kept.secret_note,
		...(tokens.dropped ? { tokensDropped: true, undoMs: UNDO_MS } : {})
	};
}

const presetSchema = z.object({ preset: z.string().min(1).max(100) });

export async function applyPreset(cookies: Cookies, url: URL, form: FormData) {
	const parsed = presetSchema.safeParse({ preset: form.get('preset') });
	const preset = parsed.success
		? requestPlayground().presets.find(url.origin, parsed.data.preset)
		: undefined;
	if (!preset) return fail(400, { message: 'Unknown preset.' });
	const session = await readSession(cookies);
	let next: Session = {
		v: 1,
		...presetSession(preset, url.origin),
		setup_id: newSetupId(),
		recent_states: session.recent_states
	};
	if (session.setup?.auto_exchange === false) next.setup!.auto_exchange = false;
	next = prepareConsent(next);
	await save(cookies, url, next);
	return { saved: true, preset: preset.name };
}

/**
 * A new consent request for the same setup ("Try again"). With a `scope` in the form ("Try again
 * with scope read", after invalid_scope) or a `redirect_uri` ("Try again with" the registered one,
 * after a near miss), the setup's field becomes that value first, checked as the setup form checks
 * it.
 */
export async function restart(cookies: Cookies, url: URL, form?: FormData) {
	const session = await readSession(cookies);
	if (session.dropped) return fail(409, { message: session.notice });
	if (!session.setup) return fail(409, { message: 'Save the setup first.' });
	if (await stateTaken(cookies, session.setup.custom_state))
		return fail(409, { message: STATE_TAKEN });
	let setup = session.setup;
	const changed: Partial<Pick<Setup, 'scope' | 'redirect_uri'>> = {};
	for (const field of ['scope', 'redirect_uri'] as const) {
		const value = form?.get(field);
		if (typeof value !== 'string') continue;
		const parsed = setupSchema.shape[field].safeParse(value);
		if (!parsed.success)
			return fail(400, {
				message: parsed.error.issues[0]?.message ?? `That ${field} cannot be used`,
				field
			});
		changed[field] = parsed.data;
	}
	setup = { ...setup, ...changed };
	const next = { ...session, setup, setup_id: nextSetupId(session, setup) };
	await save(cookies, url, prepareConsent({ ...next, callback: undefined, code: undefined }));
	return { restarted: true, ...changed };
}

const STATE_TAKEN =
	'This state is already pending in another flow of this browser (another tab): a redirect carrying it could not tell the two apart. Use another one, or leave it empty for a random state.';

/** Whether a custom state is the pending state of another flow of this browser. */
async function stateTaken(cookies: Cookies, state: string | undefined): Promise<boolean> {
	if (!state) return false;
	const own = currentRequest()?.flow;
	return (await readAllFlows(cookies)).some(
		(f) => f.id !== own && f.session.pending?.state === state
	);
}

/**
 * A duplicated tab's own flow: a new flow id with a copy of this flow's setup and secret binding
 * (not its pending state, code or tokens) and a fresh consent request. Only the new flow is written.
 */
export async function forkFlow(cookies: Cookies, url: URL) {
	const session = await readSession(cookies);
	const flow = newFlowId();
	if (session.setup) {
		const { setup, client_secret, secret_for, preset, secret_note } = session;
		const copy = prepareConsent({ v: 1, setup, client_secret, secret_for, preset, secret_note });
		const https = url.protocol === 'https:';
		const source = currentRequest();
		if (!source) throw new Error('A fork runs inside a request');
		await writeSession(cookies, copy, https, { ...source, flow });
	}
	return { flow };
}

/**
 * "Get a code for the script": the pending consent request is opened as it is, but its code, once
 * back, is shown for the curl script to exchange instead of exchanged here. Not with PKCE: the
 * verifier stays on this server, so the script could not exchange the code.
 */
export async function forScript(cookies: Cookies, url: URL) {
	const session = await readSession(cookies);
	if (session.dropped) return fail(409, { message: session.notice });
	if (!session.pending)
		return fail(409, { message: 'Save the setup first: there is no consent request to open.' });
	if (session.pending.code_verifier)
		return fail(409, {
			message:
				'With PKCE on, the verifier stays on the playground server, so the script could not exchange this consent request’s code. Turn PKCE off in the setup to get a code for the script.'
		});
	await save(cookies, url, { ...session, pending: { ...session.pending, for_script: true } });
	return { consent_url: session.pending.consent_url };
}

/**
 * "Replay this code" (replay.ts), once confirmed: the replay runs in a fork of this flow, written
 * under a new flow id, whose id comes back with the exchanges; this flow's session is not written.
 */
export async function replayAction(event: RequestEvent) {
	const body = await readForm(event.request);
	if (!body.ok) return body.failure;
	if (body.form.get('confirm') !== 'replay')
		return fail(400, {
			message:
				'A code is replayed only after its confirmation: the service may revoke the tokens issued from it.'
		});
	const source = currentRequest();
	if (!source?.flow) return fail(400, { message: 'This request names no flow.' });
	let fork: string | undefined;
	const result = await runStep(event, async (s, { sender }) => {
		const r = await replayCode(sender, s, source.flow!, event.request.signal);
		if (r.ok && r.fork) {
			fork = newFlowId();
			await writeSession(event.cookies, r.fork, event.url.protocol === 'https:', {
				...source,
				flow: fork
			});
		}
		return r;
	});
	// The exchanges belong to the fork's transcript, not this tab's: they come back under their own
	// name, and this flow's page data stands as it was.
	return fork && !('status' in result)
		? { fork, forkExchanges: result.exchanges, unchanged: true as const }
		: result;
}

/**
 * Every form action runs within one flow, named by `?flow=<id>` in its address (flow-id.ts): without
 * one, or with a malformed one, it answers 400 with the reason, before reading anything.
 */
export function inFlow(actions: Actions): Actions {
	return Object.fromEntries(
		Object.entries(actions).map(([name, action]) => [
			name,
			(event: Parameters<typeof action>[0]) => {
				const flow = flowParam(event.url.searchParams);
				if (!flow.ok) error(400, flow.message);
				return action(event);
			}
		])
	);
}

/** Hands the callback's recorded exchange to the page once. */
export async function takeOutbox(
	cookies: Cookies,
	url: URL,
	session: Session
): Promise<Exchange[]> {
	if (!session.outbox?.length) return [];
	const out = stampSetup(outward(session.outbox, session), session);
	await save(cookies, url, { ...session, outbox: undefined });
	return out;
}
