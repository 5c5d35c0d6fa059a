/**
 * What the playground page may see of the session (never the client secret), and the helpers its
 * form actions share: read the session, run a step, write the session back.
 */
import { fail, type Cookies, type RequestEvent } from '@sveltejs/kit';
import { z } from 'zod';
import { CONSENT_PARAM_HELP } from '$lib/oauth/consent';
import {
	endpoints,
	fieldErrors,
	secretSchema,
	setupFromForm,
	setupSchema,
	setupWith,
	type FieldErrors,
	type Setup
} from '$lib/oauth/setup';
import type { Exchange } from '$lib/exchange/types';
import { overLimit } from './abuse';
import { consentExchange, prepareConsent, type StepResult } from './flow';
import { findPreset, presets, sandboxEnabled } from './presets';
import { config } from '$lib/env.server';
import { hasPrefill, parsePrefill, prefillLink, type Prefill } from '$lib/oauth/prefill';
import { readSession, writeSession, type Session } from './session';
import { redactExchange, redactValue } from '$lib/exchange/redact';
import { secretsOf } from './tokens';

export const API_SUGGESTIONS = [
	{ method: 'GET', path: 'user-info', zone: 1 },
	{ method: 'GET', path: 'subscription/list', zone: 1 },
	{ method: 'GET', path: 'tag/list', zone: 1 },
	{ method: 'GET', path: 'unread-count', zone: 1 },
	{ method: 'GET', path: 'stream/items/ids', zone: 1 },
	{ method: 'POST', path: 'edit-tag', zone: 2 },
	{ method: 'POST', path: 'mark-all-as-read', zone: 2 }
] as const;

export function secretHint(secret: string | undefined): string | null {
	if (!secret) return null;
	return secret.length >= 12
		? `set, ends in …${secret.slice(-4)}`
		: `set (${secret.length} characters)`;
}

export function defaultSetup(origin: string): Setup {
	return setupWith({
		base_url: sandboxEnabled() ? `${origin}/sandbox` : '',
		redirect_uri: `${origin}/callback`
	});
}

/** A docs link's setup, with a named preset's non-secret fields under the link's own values. */
export function prefillFrom(
	url: URL
): (Prefill & { presetLabel?: string; presetHasSecret?: boolean }) | null {
	if (!hasPrefill(url.searchParams)) return null;
	const p = parsePrefill(url.searchParams);
	if (!p.preset) return p;
	const preset = findPreset(url.origin, p.preset);
	if (!preset)
		return {
			...p,
			errors: { ...p.errors, preset: `There is no preset named "${p.preset}".` },
			preset: undefined
		};
	const values = {
		...preset.setup,
		redirect_uri: preset.setup.redirect_uri ?? `${url.origin}/callback`,
		...p.values
	};
	return {
		...p,
		values,
		host: new URL(values.base_url).host,
		presetLabel: preset.label,
		presetHasSecret: !!preset.client_secret
	};
}

export function view(session: Session, origin: string) {
	const setup = session.setup ?? null;
	// What came from the service or the wire goes through redaction (the setup is the user's own).
	const secrets = secretsOf(session);
	const shown = <T>(v: T) => redactValue(v, secrets);
	const consent = consentExchange(session);
	const defaults = defaultSetup(origin);
	return {
		origin,
		callbackUrl: `${origin}/callback`,
		defaults,
		setup,
		shareLink: setup ? prefillLink(origin, setup, defaults) : null,
		guardMode: config().policy.mode,
		endpoints: setup ? endpoints(setup) : null,
		secret: secretHint(session.client_secret),
		pending: session.pending
			? {
					consent_url: session.pending.consent_url,
					state: session.pending.state,
					params: [...new URL(session.pending.consent_url).searchParams.entries()].map(
						([k, v]) => ({
							name: k,
							value: v,
							help:
								CONSENT_PARAM_HELP[k] ??
								'A parameter that was already on the authorization endpoint.'
						})
					),
					exchange: consent && redactExchange(consent, secrets)
				}
			: null,
		callback: shown(session.callback ?? null),
		hasCode: !!session.code,
		tokens: shown(session.tokens ?? null),
		presets: presets(origin).map(({ name, label, description }) => ({ name, label, description })),
		sandbox: sandboxEnabled(),
		apiSuggestions: API_SUGGESTIONS,
		notice: session.notice ?? null
	};
}

export type PageView = ReturnType<typeof view>;

export async function save(cookies: Cookies, url: URL, session: Session): Promise<void> {
	await writeSession(cookies, session, url.protocol === 'https:');
}

/** Runs a flow step as a form action: the new session is saved, the exchanges go to the tab's transcript. */
export async function runStep(
	event: Pick<RequestEvent, 'cookies' | 'url' | 'getClientAddress' | 'setHeaders'>,
	step: (s: Session) => Promise<StepResult>
) {
	const { cookies, url } = event;
	const limited = overLimit(event);
	if (limited) return limited;
	const session = await readSession(cookies);
	const result = await step(session);
	// A step that changed nothing (a plain API call) leaves the cookie as it is: no re-sealing.
	if (result.session && result.session !== session) await save(cookies, url, result.session);
	const secrets = secretsOf(session, result.session);
	const exchanges = (result.exchanges ?? []).map((ex) => redactExchange(ex, secrets));
	if (!result.ok) return fail(result.status, { message: result.message, exchanges });
	return { exchanges };
}

export type SetupFailure = {
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
	const errors: FieldErrors = parsed.success ? {} : fieldErrors(parsed.error);
	if (!secret.success)
		errors.client_secret = secret.error.issues[0]?.message ?? 'Invalid client secret';
	let next: Session = { ...session, notice: undefined };
	// Keep a newly entered secret even when another field is wrong, so it need not be typed again.
	if (secret.success && secret.data) next.client_secret = secret.data;
	// A preset opened from a link brings its server-side secret when its client is kept.
	const presetName = form.get('preset');
	const preset =
		typeof presetName === 'string' && presetName ? findPreset(url.origin, presetName) : undefined;
	if (
		preset?.client_secret &&
		!(secret.success && secret.data) &&
		parsed.success &&
		parsed.data.client_id === preset.setup.client_id
	)
		next.client_secret = preset.client_secret;
	if (!parsed.success || !secret.success) {
		await save(cookies, url, next);
		return fail(400, {
			errors,
			values,
			message: 'Some fields need fixing.'
		} satisfies SetupFailure);
	}
	const changedClient = session.setup && session.setup.client_id !== parsed.data.client_id;
	next = { ...next, setup: parsed.data, tokens: changedClient ? undefined : next.tokens };
	next = prepareConsent(next);
	await save(cookies, url, next);
	return { saved: true, secretSet: !!next.client_secret };
}

const presetSchema = z.object({ preset: z.string().min(1).max(100) });

export async function applyPreset(cookies: Cookies, url: URL, form: FormData) {
	const parsed = presetSchema.safeParse({ preset: form.get('preset') });
	const preset = parsed.success ? findPreset(url.origin, parsed.data.preset) : undefined;
	if (!preset) return fail(400, { message: 'Unknown preset.' });
	const session = await readSession(cookies);
	let next: Session = {
		v: 1,
		setup: { ...preset.setup, redirect_uri: preset.setup.redirect_uri ?? `${url.origin}/callback` },
		client_secret: preset.client_secret
	};
	if (session.setup?.auto_exchange === false) next.setup!.auto_exchange = false;
	next = prepareConsent(next);
	await save(cookies, url, next);
	return { saved: true, preset: preset.name };
}

/** A fresh consent request (new state), e.g. after a state mismatch. */
export async function restart(cookies: Cookies, url: URL) {
	const session = await readSession(cookies);
	if (!session.setup) return fail(409, { message: 'Save the setup first.' });
	await save(cookies, url, prepareConsent({ ...session, callback: undefined, code: undefined }));
	return { restarted: true };
}

/** Hands the callback's recorded exchange to the page once. */
export async function takeOutbox(
	cookies: Cookies,
	url: URL,
	session: Session
): Promise<Exchange[]> {
	if (!session.outbox?.length) return [];
	const out = session.outbox.map((ex) => redactExchange(ex, secretsOf(session)));
	await save(cookies, url, { ...session, outbox: undefined });
	return out;
}
