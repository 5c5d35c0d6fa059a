/**
 * The refresh tokens a flow received, generation by generation (RFC 6749 §6; rotation: RFC 9700
 * §4.14.2), from its exchanges: for each, the answer that gave it (#n) and when, the refresh that
 * replaced it with another (#m), the refreshes that sent it and got it back unchanged or got no new
 * one (RFC 6749 §6 keeps the old one then), and its expiry when the answer said
 * (`refresh_token_expires_in`, Keycloak's `refresh_expires_in`). The token panel, the imported
 * recording's view and the Markdown report show the same list, the tokens always shortened to
 * their first and last 4 characters.
 */
import { specOf } from '$lib/steps/registry';
import { formFields, isFormBody, jsonObject } from './text';
import type { Exchange } from './types';

export interface Generation {
	/** The refresh token, shortened: its first and last 4 characters. */
	short: string;
	/** The answer that gave it: its number (#n) and when it was sent. */
	from: number;
	at: string;
	/** The grant of the answer that gave it: a code exchange starts a new family. */
	byCode: boolean;
	/** The refresh that sent it and got another in its place (#m): rotated. */
	replacedBy?: number;
	/** The refreshes that sent it and got it back: not rotated. */
	returnedBy: number[];
	/** The refreshes that sent it and got no refresh token: the old one is kept (RFC 6749 §6). */
	keptBy: number[];
	/** Its expiry (ms since the epoch), when the answer that gave it said, and in which field. */
	expiresAt?: number;
	field?: string;
}

/** The first and last 4 characters of a token; one an export already shortened stays as it is. */
export function shortened(token: string): string {
	return token.includes('…') || token.length <= 12
		? token
		: `${token.slice(0, 4)}…${token.slice(-4)}`;
}

/** The fields a refresh token's expiry comes in: the common one, and Keycloak's. */
const EXPIRY_FIELDS = ['refresh_token_expires_in', 'refresh_expires_in'] as const;

/**
 * The refresh tokens received in `exchanges`, oldest first. `numbers` gives each exchange's running
 * number (#n) as the page counts them; by default its place in the list.
 */
export function refreshGenerations(
	exchanges: readonly Exchange[],
	numbers?: ReadonlyMap<string, number>
): Generation[] {
	const out: Generation[] = [];
	const byToken = new Map<string, Generation>();
	exchanges.forEach((ex, i) => {
		const grant = specOf(ex.step).grantType;
		const res = ex.response;
		if (!grant || !res || res.status < 200 || res.status >= 300) return;
		const body = jsonObject(res.body);
		if (!body || typeof body.access_token !== 'string') return;
		const n = numbers?.get(ex.id) ?? i + 1;
		const form = isFormBody(ex.request.headers, ex.request.body) ? formFields(ex.request.body) : [];
		const sent =
			grant === 'refresh_token' ? form.find(([k]) => k === 'refresh_token')?.[1] : undefined;
		const before = sent === undefined ? undefined : byToken.get(sent);
		const next = typeof body.refresh_token === 'string' ? body.refresh_token : undefined;
		if (before && next === undefined) before.keptBy.push(n);
		else if (before && next === sent) before.returnedBy.push(n);
		if (next === undefined || next === sent || byToken.has(next)) return;
		if (before) before.replacedBy = n;
		const field = EXPIRY_FIELDS.find((f) => typeof body[f] === 'number' && (body[f] as number) > 0);
		const generation: Generation = {
			short: shortened(next),
			from: n,
			at: ex.startedAt,
			byCode: grant === 'authorization_code',
			returnedBy: [],
			keptBy: [],
			...(field
				? {
						expiresAt: Date.parse(ex.startedAt) + (body[field] as number) * 1000,
						field
					}
				: {})
		};
		byToken.set(next, generation);
		out.push(generation);
	});
	return out;
}
