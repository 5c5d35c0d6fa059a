/**
 * Revocation (RFC 7009) and introspection (RFC 7662): the request bodies, and what their answers
 * mean. Pure: the server sends the requests (server/introspect-revoke.ts) and attaches the client's
 * authentication (server/client-auth.ts).
 * The bodies are written here, not by oauth4webapi, for the reason token-endpoint.ts gives (the
 * library orders the fields its own way, appends `;charset=UTF-8` and refuses an empty secret); it
 * judges the answers instead (strict-client.ts).
 */
import { z } from '$lib/zod';
import { headerValue, type Exchange, type Finding } from '$lib/exchange/types';
import {
	INTROSPECTION_ACTIVE,
	INTROSPECTION_INACTIVE,
	INTROSPECTION_MALFORMED,
	REVOCATION_ACCEPTED,
	REVOCATION_NOT_EFFECTIVE,
	REVOCATION_PROVEN,
	REVOCATION_RETRY,
	REVOCATION_UNSUPPORTED
} from './findings';

export type WhichToken = 'access_token' | 'refresh_token';

export const TOKEN_NAME: Record<WhichToken, string> = {
	access_token: 'access token',
	refresh_token: 'refresh token'
};

const RFC7009 = 'https://www.rfc-editor.org/rfc/rfc7009';
const RFC7662 = 'https://www.rfc-editor.org/rfc/rfc7662';

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
		const after = headerValue(res.headers, 'retry-after');
		return {
			level: 'warning',
			code: REVOCATION_RETRY,
			message: `The server is unavailable for ${what} now (503)${after ? `; it asks to try again after ${after}${/^\d+$/.test(after) ? ' seconds' : ''}` : ''}.`,
			fix: 'Try again later. Until it succeeds, the token stays valid.',
			ref: `${RFC7009}#section-2.2.1`
		};
	}
	if (errorOf(ex) === 'unsupported_token_type')
		return {
			level: 'warning',
			code: REVOCATION_UNSUPPORTED,
			message: `The server does not support ${what} for this kind of token (unsupported_token_type). Structured (JWT) access tokens often cannot be taken back: they stay valid until they expire.`,
			fix: 'Revoke the refresh token instead, which ends the grant on most servers, or let the access token expire.',
			ref: `${RFC7009}#section-2.2.1`
		};
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
			findings: [
				{
					level: 'error',
					code: INTROSPECTION_MALFORMED,
					message:
						'The introspection answer is not JSON with a boolean "active" member, which RFC 7662 §2.2 requires.',
					ref: `${RFC7662}#section-2.2`
				}
			]
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
				? {
						level: 'info',
						code: INTROSPECTION_ACTIVE,
						message: `The ${name} is active${details.length ? `: ${details.join(', ')}` : ''}.`,
						ref: `${RFC7662}#section-2.2`
					}
				: {
						level: 'info',
						code: INTROSPECTION_INACTIVE,
						message: `The ${name} is not active: it expired, was revoked, is unknown to this server, or this client may not ask about it. The server does not say which (RFC 7662 §2.2).`,
						ref: `${RFC7662}#section-2.2`
					}
		]
	};
}

/** What the revocation answer alone says: a 200 proves nothing yet (RFC 7009 §2.2). */
export function judgeRevocation(ex: Exchange): Finding[] {
	const res = ex.response;
	if (!res) return [];
	if (res.status === 200)
		return [
			{
				level: 'info',
				code: REVOCATION_ACCEPTED,
				message:
					'The server answered 200. That alone proves nothing: a server answers 200 for a token it does not know, too (RFC 7009 §2.2). The request below shows whether the token still works.',
				ref: `${RFC7009}#section-2.2`
			}
		];
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
		return {
			level: 'error',
			code: REVOCATION_NOT_EFFECTIVE,
			message: `The revoked ${name} still works: ${use} with it succeeded (${res.status}) after the server answered 200 to the revocation.`,
			fix: 'The server may revoke asynchronously, cache tokens at the resource server, or ignore the token_type_hint. Try the proof again in a moment; if it still works, the revocation endpoint does not revoke this token.',
			ref: `${RFC7009}#section-2.2`
		};
	const error = errorOf(proof) ?? headerValue(res.headers, 'www-authenticate') ?? '';
	return {
		level: 'info',
		code: REVOCATION_PROVEN,
		message: `The ${name} no longer works: ${use} with it was refused (${res.status}${error ? `, ${error}` : ''}).`,
		ref: `${RFC7009}#section-2`
	};
}
