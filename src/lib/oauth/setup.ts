/**
 * The playground setup: what a developer enters before the flow starts.
 * Endpoints follow the service's API docs (§4.1 `/oauth2/auth`, §4.2 `/oauth2/token`, §4.4 `/reader/api/0/user-info`)
 * unless overridden. The client secret is not part of the setup: it is kept apart, sealed on the server.
 */
import { z } from '$lib/zod';
import {
	FIELD_ROWS,
	PRESET_FIELDS,
	rowOf,
	scopeRule,
	type DefaultedName,
	type PresetShape,
	type SetupFieldRow,
	type SetupShape
} from './setup-fields';

export { MAX_FIELD, type AuthMethod, type PkceMethod } from './setup-fields';

/** RFC 6749 §3.3 (the table's rule for the scope field). */
export const scopeSchema = scopeRule(z);

/** A field's schema as the setup checks it: its rule, with its default unless a value must be entered. */
function withDefault(f: SetupFieldRow): z.ZodType {
	const rule = f.rule(z);
	return f.default === undefined || f.required ? rule : rule.default(f.default as never);
}

/** Each field's schema, from the table of setup fields (setup-fields.ts). */
const setupShape = Object.fromEntries(
	FIELD_ROWS.map((f) => [f.name, withDefault(f)])
) as SetupShape;

/** The setup's schema: each field's rule and default, from the table of setup fields. */
export const setupSchema = z.object(setupShape);

/**
 * A preset entry's fields (PLAYGROUND_PRESETS, server/flow/presets.ts): one that must be entered must be
 * there, one with a default may be left out (it takes the default), and one without either (the
 * redirect URI) may be left out for the page to fill in.
 */
export const presetShape = Object.fromEntries(
	PRESET_FIELDS.map((name) => {
		const f = rowOf(name);
		const schema = setupShape[name];
		return [name, f.required || f.default !== undefined ? schema : schema.optional()];
	})
) as PresetShape;

/**
 * The rules between fields, checked when a setup is saved: a public client proves itself with PKCE
 * (RFC 9700 §2.1.1), and pushing the request needs somewhere to push it.
 */
export function setupRuleErrors(setup: Setup): FieldErrors {
	const errors: FieldErrors = {};
	if (setup.token_endpoint_auth_method === 'none' && setup.pkce === 'off')
		errors.pkce =
			'A public client (no client authentication) must use PKCE (RFC 9700 §2.1.1): choose S256.';
	if (setup.use_par && !setup.pushed_authorization_request_endpoint)
		errors.pushed_authorization_request_endpoint =
			'Enter the pushed authorization request endpoint (RFC 9126), or turn off “Push the request”.';
	return errors;
}

export type Setup = z.output<typeof setupSchema>;

export const secretSchema = z
	.string()
	.max(1024, 'Client secret is too long (at most 1024 characters)')
	.refine((v) => !/[\r\n]/.test(v), 'Client secret must be on one line');

/** Every field that has a default, at that default (the table's, setup-fields.ts). */
export const SETUP_DEFAULTS = Object.fromEntries(
	FIELD_ROWS.filter((f) => f.default !== undefined).map((f) => [f.name, f.default])
) as Readonly<Pick<Setup, DefaultedName>>;

/** A full setup from the fields that matter, every other field at its default. */
export function setupWith(
	fields: Pick<Setup, 'base_url' | 'redirect_uri'> & Partial<Setup>
): Setup {
	return { ...SETUP_DEFAULTS, ...fields };
}

export { endpoints } from './endpoints';

export type FieldErrors = Partial<Record<keyof Setup | 'client_secret' | 'form', string>>;

/** zod issues → one message per field, the first one. */
export function fieldErrors(error: z.ZodError): FieldErrors {
	const out: Record<string, string> = {};
	for (const issue of error.issues) {
		const key = String(issue.path[0] ?? 'form');
		out[key] ??= issue.message;
	}
	return out as FieldErrors;
}

/**
 * Reads the setup form: each field as typed, a missing one at its default. Checkboxes arrive only
 * when checked.
 */
export function setupFromForm(form: FormData): Record<string, unknown> {
	const text = (k: string) => {
		const v = form.get(k);
		return typeof v === 'string' ? v : undefined;
	};
	return Object.fromEntries(
		FIELD_ROWS.map((f) => [
			f.name,
			f.input === 'checkbox'
				? form.has(f.name) && text(f.name) !== 'false'
				: (text(f.name) ?? (f.default as string | undefined) ?? '')
		])
	);
}
