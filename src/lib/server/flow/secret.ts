/**
 * The client secret in the session: which secret a saved setup keeps, and whether the secret may be
 * sent with the session's setup. The rule itself (what a secret is bound to, and what changed) is
 * oauth/secret-binding.ts; this module applies it to the session, the presets and the page.
 */
import type { Setup } from '$lib/oauth/setup';
import {
	bindingChanges,
	bindSecret,
	presetDetachedMessage,
	type SecretBinding,
	secretClearedMessage,
	secretDestinations,
	secretHosts,
	secretMismatchMessage
} from '$lib/oauth/secret-binding';
import { API_DOCS } from '$lib/oauth/docs';
import type { Preset, Presets } from './presets';
import type { Session } from '../session/session';

type SecretFields = Pick<Session, 'client_secret' | 'secret_for' | 'preset' | 'secret_note'>;
/** The four, each present (undefined drops one), so that spreading them over a session replaces them all. */
type AllSecretFields = {
	client_secret: string | undefined;
	secret_for: SecretBinding | undefined;
	preset: string | undefined;
	secret_note: string | undefined;
};

/** A preset's full setup, as choosing it saves it. */
export function presetSetup(preset: Preset, origin: string): Setup {
	return { ...preset.setup, redirect_uri: preset.setup.redirect_uri ?? `${origin}/callback` };
}

/** What choosing a preset puts in the session: its setup, and its server-held secret bound to it. */
export function presetSession(preset: Preset, origin: string): { setup: Setup } & AllSecretFields {
	const setup = presetSetup(preset, origin);
	return {
		setup,
		client_secret: preset.client_secret,
		secret_for: preset.client_secret ? bindSecret(setup) : undefined,
		preset: preset.name,
		secret_note: undefined
	};
}

/**
 * The secret fields after a setup is saved, all four given (undefined drops one). A typed secret is
 * bound to this setup. Otherwise a preset named by the form brings its server-held secret only when
 * this setup has the preset's own client id and URLs, and the secret already held is kept only while
 * its binding matches. Anything else drops it, and the note says why, naming what changed.
 * `presets` are the app's: the session's preset is looked up there.
 */
export function secretAfterSave(
	presets: Presets,
	session: Session,
	setup: Setup,
	typed: string,
	formPreset: Preset | undefined,
	origin: string,
	keepFor?: string[]
): AllSecretFields {
	const { client_secret, secret_for, preset, secret_note } = decide(
		presets,
		session,
		setup,
		typed,
		formPreset,
		origin,
		keepFor
	);
	return { client_secret, secret_for, preset, secret_note };
}

/** The confirmed list is exactly the URLs that would receive the secret with this setup, in order. */
function sameList(keepFor: string[] | undefined, setup: Setup): boolean {
	const urls = secretDestinations(setup).map((d) => d.url);
	return !!keepFor && keepFor.length === urls.length && keepFor.every((u, i) => u === urls[i]);
}

function decide(
	presets: Presets,
	session: Session,
	setup: Setup,
	typed: string,
	formPreset: Preset | undefined,
	origin: string,
	keepFor?: string[]
): SecretFields {
	const changesFrom = (p: Preset) => bindingChanges(bindSecret(presetSetup(p, origin)), setup);
	const held = session.preset ? presets.find(origin, session.preset) : undefined;
	const samePreset = [formPreset, held].find((p) => p && !changesFrom(p).length);
	if (typed)
		return { client_secret: typed, secret_for: bindSecret(setup), preset: samePreset?.name };
	if (formPreset?.client_secret && samePreset === formPreset)
		return {
			client_secret: formPreset.client_secret,
			secret_for: bindSecret(setup),
			preset: formPreset.name
		};
	if (session.client_secret) {
		const changes = bindingChanges(session.secret_for, setup);
		if (!changes.length)
			return {
				client_secret: session.client_secret,
				secret_for: session.secret_for,
				preset: samePreset?.name
			};
		const fromPreset = !!held?.client_secret && held.client_secret === session.client_secret;
		// The user confirmed these very destinations (a fill from metadata moved them): the user's
		// own secret, for the same client, goes with them. Anything else drops it as before.
		if (!fromPreset && !changes.includes('client id') && sameList(keepFor, setup))
			return { client_secret: session.client_secret, secret_for: bindSecret(setup) };
		return { secret_note: secretClearedMessage(changes, fromPreset ? held.label : undefined) };
	}
	// The form's preset (a docs link's) with its client id or URLs changed: its secret is not used.
	if (formPreset?.client_secret)
		return { secret_note: secretClearedMessage(changesFrom(formPreset), formPreset.label) };
	if (held && !samePreset)
		return { secret_note: presetDetachedMessage(changesFrom(held), held.label) };
	return { preset: samePreset?.name, secret_note: session.secret_note };
}

/**
 * The secret, when it may be sent with the session's setup: set, and bound to this very client id
 * and these URLs. A session whose setup and binding disagree never sends it.
 */
export function usableSecret(
	session: Session
): { ok: true; secret: string } | { ok: false; message: string } {
	if (!session.client_secret || !session.setup)
		return {
			ok: false,
			message: `Enter the client secret in the setup first: token requests need it (${API_DOCS} §4.2).`
		};
	if (!session.secret_for)
		return {
			ok: false,
			message:
				'Enter the client secret in the setup again: the one in this session is not bound to a client id and token endpoint, so it is not sent.'
		};
	const changes = bindingChanges(session.secret_for, session.setup);
	if (changes.length) return { ok: false, message: secretMismatchMessage(changes) };
	return { ok: true, secret: session.client_secret };
}

/**
 * What the page may know of the secret: whether it is set and whose it is (never a character of
 * it, nor its length), why it is not set, and the preset this setup still is (among the app's
 * `presets`).
 */
export function secretView(presets: Presets, session: Session, origin: string) {
	const usable = usableSecret(session);
	const preset = session.preset ? presets.find(origin, session.preset) : undefined;
	const presetsSecret = !!preset?.client_secret && preset.client_secret === session.client_secret;
	return {
		secret: usable.ok
			? presetsSecret
				? "set: the preset's, kept on the server"
				: 'set, kept on the server'
			: null,
		secretNote:
			session.secret_note ?? (session.client_secret && !usable.ok ? usable.message : null),
		preset: session.preset ? (preset?.label ?? session.preset) : null
	};
}

/**
 * The question "Fill from metadata" asks (the keep rule is `decide()` below): when a fill would move a URL that receives the user's own secret (not a preset's), the hosts it
 * would then go to and the exact destinations the user is asked to confirm.
 */
export function moveSecretQuestion(
	s: Session,
	filled: Partial<Setup>
): { hosts: string[]; destinations: string[] } | undefined {
	if (!s.setup || !s.client_secret || !s.secret_for || s.preset) return undefined;
	const proposed: Setup = {
		...s.setup,
		...Object.fromEntries(Object.entries(filled).filter(([, v]) => v !== '' && v !== undefined))
	};
	const changes = bindingChanges(s.secret_for, proposed);
	if (!changes.length || changes.includes('client id')) return undefined;
	return {
		hosts: secretHosts(proposed),
		destinations: secretDestinations(proposed).map((d) => d.url)
	};
}
