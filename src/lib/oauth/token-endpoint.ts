/**
 * Token-endpoint requests for both grants (the service's API docs §4.2, §4.3; RFC 6749 §4.1.3, §6) and the token response
 * (the service's API docs §2.3, RFC 6749 §5.1). Pure: the sender makes the request.
 * The bodies are written here, not by oauth4webapi, because the service's API docs fix their bytes (the field order of
 * §4.2 and §4.3, `Content-Type: application/x-www-form-urlencoded` without parameters, `scope` sent empty, the secret in
 * the body) and the library cannot write them: it orders the fields its own way, appends `;charset=UTF-8`, lower-cases
 * header names and refuses an empty secret. It judges the answers instead (strict-client.ts).
 */
import { z } from '$lib/zod';
import type { Exchange } from '$lib/exchange/types';
import { fromResponse, type TokenSet } from './token-set';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/** The client's own fields, present only where its authentication method puts them in the body. */
interface ClientFields {
	client_id?: string;
	client_secret?: string;
}

const present = (pairs: [string, string | undefined][]): [string, string][] =>
	pairs.filter((p): p is [string, string] => p[1] !== undefined);

/**
 * The exchange body of the service's API docs §4.2, in its order, with `scope` sent empty. The
 * client's fields are left out where it authenticates otherwise (HTTP Basic); the PKCE verifier
 * (RFC 7636 §4.5) goes last.
 */
export function exchangeBody(
	p: { code: string; redirect_uri: string; code_verifier?: string } & ClientFields
): string {
	return new URLSearchParams(
		present([
			['code', p.code],
			['redirect_uri', p.redirect_uri],
			['client_id', p.client_id],
			['client_secret', p.client_secret],
			['scope', ''],
			['grant_type', 'authorization_code'],
			['code_verifier', p.code_verifier]
		])
	).toString();
}

/** The refresh body of the service's API docs §4.3, in its order. */
export function refreshBody(p: { refresh_token: string } & ClientFields): string {
	return new URLSearchParams(
		present([
			['client_id', p.client_id],
			['client_secret', p.client_secret],
			['grant_type', 'refresh_token'],
			['refresh_token', p.refresh_token]
		])
	).toString();
}

/**
 * What the service's API docs promise (§2.3). Lenient on purpose: extra fields pass through, and the diagnostics say
 * what is missing or mistyped instead of the flow falling over.
 */
const tokenResponseSchema = z.looseObject({
	access_token: z.string().min(1),
	token_type: z.string(),
	expires_in: z.number().int().optional(),
	refresh_token: z.string().min(1).optional(),
	scope: z.string().optional()
});

export type TokenResponse = z.output<typeof tokenResponseSchema>;

const errorResponseSchema = z.looseObject({
	error: z.string(),
	error_description: z.string().optional(),
	error_uri: z.string().optional()
});

export type ParsedTokenBody =
	| { ok: true; tokens: TokenResponse; extra: Record<string, unknown> }
	| { ok: false; error?: z.output<typeof errorResponseSchema>; problem: string };

const KNOWN = new Set(['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope']);

/** Parses a token-endpoint response body. Some servers send expires_in as a numeric string; that is accepted. */
export function parseTokenBody(status: number, body: string): ParsedTokenBody {
	let json: unknown;
	try {
		json = JSON.parse(body);
	} catch {
		return { ok: false, problem: 'The token endpoint did not answer with JSON.' };
	}
	if (status < 200 || status >= 300 || (json && typeof json === 'object' && 'error' in json)) {
		const err = errorResponseSchema.safeParse(json);
		return err.success
			? { ok: false, error: err.data, problem: `The token endpoint answered ${err.data.error}.` }
			: {
					ok: false,
					problem: `The token endpoint answered HTTP ${status} without an RFC 6749 §5.2 error object.`
				};
	}
	if (json && typeof json === 'object' && 'expires_in' in json) {
		const o = json as Record<string, unknown>;
		if (typeof o.expires_in === 'string' && /^\d+$/.test(o.expires_in))
			o.expires_in = Number(o.expires_in);
	}
	const parsed = tokenResponseSchema.safeParse(json);
	if (!parsed.success) {
		const first = parsed.error.issues[0];
		return {
			ok: false,
			problem: `The token response is not usable: ${first?.path.join('.') || 'body'}: ${first?.message}.`
		};
	}
	const extra: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(parsed.data)) if (!KNOWN.has(k)) extra[k] = v;
	return { ok: true, tokens: parsed.data, extra };
}

/**
 * The token set a token-endpoint Exchange carries, or undefined when it carries none. The page's
 * set is built from the redacted Exchange, so every field it shows has been through redaction.
 */
export function tokensFromExchange(
	ex: Exchange,
	requestedScope: string,
	now: number,
	previous?: TokenSet
): TokenSet | undefined {
	if (!ex.response) return undefined;
	const parsed = parseTokenBody(ex.response.status, ex.response.body);
	return parsed.ok
		? fromResponse(parsed.tokens, parsed.extra, requestedScope, now, previous)
		: undefined;
}
