/**
 * Revocation (RFC 7009) and introspection (RFC 7662): the request bodies, and what their answers
 * mean. Pure: the server sends the requests (server/steps/introspect-revoke.ts) and attaches the client's
 * authentication (server/flow/client-auth.ts).
 * The bodies are written here, not by oauth4webapi, for the reason token-endpoint.ts gives (the
 * library orders the fields its own way, appends `;charset=UTF-8` and refuses an empty secret); it
 * judges the answers instead (strict-client.ts).
 */
import { z } from '$lib/zod';
import { headerValue, type Exchange, type Finding } from '$lib/exchange/types';
import { raise } from './catalogue/raise';
import * as answers from './catalogue/revocation-introspection';

export type WhichToken = 'access_token' | 'refresh_token';

export const TOKEN_NAME: Record<WhichToken, string> = {
	access_token: 'access token',
	refresh_token: 'refresh token'
};

/**
 * The form body of both requests: the token, its type as a hint (RFC 7009 §2.1, RFC 7662 §2.1),
 * then the client's own fields where its authentication method puts them in the body.
 */
export function tokenAdminBody(
	token: string,
	hint: WhichToken,
	client: { client_id?: string; client_secret?: string }
): string {
	const pairs: [string, string][] = [
		['token', token],
		['token_type_hint', hint]
	];
	if (client.client_id !== undefined) pairs.push(['client_id', client.client_id]);
	if (client.client_secret !== undefined) pairs.push(['client_secret', client.client_secret]);
	return new URLSearchParams(pairs).toString();
}

const introspectionSchema = z.looseObject({
	active: z.boolean(),
	scope: z.string().optional(),
	client_id: z.string().optional(),
	username: z.string().optional(),
	token_type: z.string().optional(),
	exp: z.number().optional(),
	iat: z.number().optional(),
	sub: z.string().optional(),
	aud: z.union([z.string(), z.array(z.string())]).optional(),
	iss: z.string().optional()
});

export type Introspection = z.output<typeof introspectionSchema>;

function json(ex: Exchange): unknown {
	try {
		return JSON.parse(ex.response?.body ?? '');
	} catch {
		return undefined;
	}
}

const errorOf = (ex: Exchange): string | undefined => {
	const body = json(ex);
	return body && typeof body === 'object' && 'error' in body && typeof body.error === 'string'
		? body.error
		: undefined;
};

/** A 503 (with Retry-After when given) or an `unsupported_token_type` answer, in words. */
function refusal(ex: Exchange, what: string): Finding | undefined {
	const res = ex.response;
	if (!res) return undefined;
	if (res.status === 503) {
		return raise(answers.REVOCATION_RETRY, what, headerValue(res.headers, 'retry-after'));
	}
	if (errorOf(ex) === 'unsupported_token_type') return raise(answers.REVOCATION_UNSUPPORTED, what);
	return undefined;
}

/** What an introspection answer says, in words; the parsed answer when it is one. */
export function judgeIntrospection(
	ex: Exchange,
	which: WhichToken
): { findings: Finding[]; result?: Introspection } {
	const res = ex.response;
	if (!res || res.status !== 200) {
		const r = refusal(ex, 'introspection');
		return { findings: r ? [r] : [] };
	}
	const parsed = introspectionSchema.safeParse(json(ex));
	if (!parsed.success)
		return {
			findings: [raise(answers.INTROSPECTION_MALFORMED)]
		};
	const r = parsed.data;
	const name = TOKEN_NAME[which];
	const details = [
		r.scope !== undefined ? `scope "${r.scope}"` : '',
		r.client_id ? `client ${r.client_id}` : '',
		r.sub ? `subject ${r.sub}` : '',
		typeof r.exp === 'number' ? `expires ${new Date(r.exp * 1000).toISOString()}` : ''
	].filter(Boolean);
	return {
		result: r,
		findings: [
			r.active
				? raise(answers.INTROSPECTION_ACTIVE, name, details)
				: raise(answers.INTROSPECTION_INACTIVE, name)
		]
	};
}

/** What the revocation answer alone says: a 200 proves nothing yet (RFC 7009 §2.2). */
export function judgeRevocation(ex: Exchange): Finding[] {
	const res = ex.response;
	if (!res) return [];
	if (res.status === 200) return [raise(answers.REVOCATION_ACCEPTED)];
	const r = refusal(ex, 'revocation');
	return r ? [r] : [];
}

/**
 * What the proof says: the revoked token used again, with the user-info call (access token) or
 * the refresh grant (refresh token). A refusal proves the revocation; a success disproves it.
 */
export function judgeProof(proof: Exchange, which: WhichToken): Finding | undefined {
	const res = proof.response;
	if (!res) return undefined;
	const name = TOKEN_NAME[which];
	const use = which === 'access_token' ? 'the user-info call' : 'the refresh grant';
	if (res.status >= 200 && res.status < 300)
		return raise(answers.REVOCATION_NOT_EFFECTIVE, name, use, res.status);
	const error = errorOf(proof) ?? headerValue(res.headers, 'www-authenticate') ?? '';
	return raise(answers.REVOCATION_PROVEN, name, use, res.status, error);
}
