/**
 * What each step reads from its form, checked: the inputs of the page's steps, in one place. A
 * form that does not pass answers 400 with the reason and, where there is one, the field it is
 * about, before anything is sent (`stepAction`, flow/action.ts).
 */
import { z } from 'zod';
import { parseApiCall, type ApiCall } from '$lib/oauth/api-request';
import { setupSchema, type AuthMethod, type PkceMethod } from '$lib/oauth/setup';
import type { WhichToken } from '$lib/oauth/token-admin';
import { isFlowId } from '$lib/oauth/flow-id';
import type { JwtKind } from '../steps/jwt-check';

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; field?: string };

/** A step's input, read from its form. */
export type FormInput<T> = (form: FormData) => Parsed<T>;

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });

/** zod's first message (a failed parse has at least one); `field` when the failure names one. */
function refused(error: z.ZodError, field?: string): Parsed<never> {
	const message = error.issues[0]?.message ?? 'Invalid input';
	return field === undefined ? { ok: false, message } : { ok: false, message, field };
}

const pasteSchema = z.object({
	pasted: z
		.string()
		.trim()
		.min(1, 'Paste the address your application landed on')
		.max(8192, 'That is too long for a redirect address (at most 8192 characters)')
});

/** Paste-back mode: the address the user's application landed on. */
export const pastedAddress: FormInput<string> = (form) => {
	const parsed = pasteSchema.safeParse({ pasted: form.get('pasted') ?? '' });
	return parsed.success ? ok(parsed.data.pasted) : refused(parsed.error);
};

/** The exchange: "Exchange anyway", after the issuer check (`anyway=1`). */
export const exchangeChoice: FormInput<{ anyway: boolean }> = (form) =>
	ok({ anyway: form.get('anyway') === '1' });

/** The refresh: sent by the switch under the tokens before the token expires (`auto=1`). */
export const refreshChoice: FormInput<{ auto: boolean }> = (form) =>
	ok({ auto: form.get('auto') === '1' });

/** Any API call: method, path, query, headers and body, as the console sends them. */
export const apiCallInput: FormInput<ApiCall> = (form) => {
	const text = (k: string) => {
		const v = form.get(k);
		return typeof v === 'string' ? v : '';
	};
	const method = text('method') || 'GET';
	// A form without a body kind (an older page, a script) sends a POST's body as a form.
	const kind = text('body_kind') || (method === 'POST' && text('body') ? 'form' : 'none');
	const parsed = parseApiCall({
		method,
		path: text('path'),
		query: text('query'),
		headers: text('headers'),
		bodyKind: kind,
		body: text('body'),
		contentType: text('content_type')
	});
	return parsed.ok ? ok(parsed.value) : { ok: false, message: parsed.message, field: parsed.field };
};

const jwtSchema = z.object({
	which: z.enum(['access_token', 'id_token', 'refresh_token', 'pasted'], {
		error: 'Choose which token to check'
	}),
	token: z.string().max(16_000, 'That is too long for a JWT here (at most 16,000 characters)')
});

/** The JWT check: one of the flow's tokens, or a pasted one. */
export const jwtInput: FormInput<{ which: JwtKind; token: string }> = (form) => {
	const parsed = jwtSchema.safeParse({
		which: form.get('which'),
		token: form.get('token') ?? ''
	});
	return parsed.success ? ok(parsed.data) : refused(parsed.error, 'token');
};

const whichSchema = z.enum(['access_token', 'refresh_token'], {
	error: 'Choose the access token or the refresh token'
});

/** Introspection and revocation: the access token or the refresh token. */
export const adminToken: FormInput<WhichToken> = (form) => {
	const parsed = whichSchema.safeParse(form.get('which'));
	return parsed.success ? ok(parsed.data) : refused(parsed.error, 'which');
};

const discoverSchema = z
	.object({
		base_url: z.union([z.literal(''), setupSchema.shape.base_url]),
		issuer: setupSchema.shape.issuer,
		token_endpoint_auth_method: setupSchema.shape.token_endpoint_auth_method,
		pkce: setupSchema.shape.pkce
	})
	.refine((d) => d.base_url || d.issuer, {
		message: 'Enter the base URL (or the issuer) first: metadata is looked up from it',
		path: ['base_url']
	});

export interface MetadataLookup {
	base_url: string;
	issuer: string;
	/** The two choices the fill respects. */
	current: { token_endpoint_auth_method: AuthMethod; pkce: PkceMethod };
}

/**
 * "Fill from metadata": only the base URL, the issuer and the two choices the fill respects, never
 * the secret.
 */
export const metadataLookup: FormInput<MetadataLookup> = (form) => {
	const parsed = discoverSchema.safeParse({
		base_url: form.get('base_url') ?? '',
		issuer: form.get('issuer') ?? '',
		token_endpoint_auth_method: form.get('token_endpoint_auth_method') ?? undefined,
		pkce: form.get('pkce') ?? undefined
	});
	if (parsed.success) {
		const { base_url, issuer, ...current } = parsed.data;
		return ok({ base_url, issuer, current });
	}
	return refused(parsed.error, String(parsed.error.issues[0]?.path[0] ?? 'base_url'));
};

/** The setup form, a preset's or Start over's: the verb reads the whole form. */
export const wholeForm: FormInput<FormData> = (form) => ok(form);

/** "Replay this code": only once confirmed, since the service may revoke the tokens issued from it. */
export const replayConfirmed: FormInput<true> = (form) =>
	form.get('confirm') === 'replay'
		? ok(true)
		: {
				ok: false,
				message:
					'A code is replayed only after its confirmation: the service may revoke the tokens issued from it.'
			};

/** "Close that fork", confirmed: the fork's flow id, as the refusal of a second replay named it. */
export const forkToClose: FormInput<string> = (form) => {
	const fork = form.get('fork');
	return isFlowId(fork)
		? ok(fork)
		: {
				ok: false,
				message:
					'Name the fork to close by its flow id (16 characters of A-Z, a-z, 0-9, "-" and "_"): nothing was closed.',
				field: 'fork'
			};
};
