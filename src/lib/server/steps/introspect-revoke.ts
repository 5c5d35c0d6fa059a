/**
 * Steps 7 and 8: introspection (RFC 7662) and revocation (RFC 7009) of the flow's access or refresh
 * token, each sent by `sendStep` (send-step.ts), with the client's authentication attached by
 * client-auth.ts.
 * A revocation is followed by a proof: the revoked token used again, so that the page says what the
 * server did, not what it answered. Both read which token from their form (`adminToken`, below).
 */
import { z } from 'zod';
import { endpoints } from '$lib/oauth/setup';
import { FORM_CONTENT_TYPE } from '$lib/oauth/token-endpoint';
import {
	judgeIntrospection,
	judgeProof,
	judgeRevocation,
	TOKEN_NAME,
	tokenAdminBody,
	type WhichToken
} from '$lib/oauth/token-admin';
import type { Exchange } from '$lib/exchange/types';
import { hasCode } from '$lib/oauth/catalogue/raise';
import { clientAuth } from '../flow/client-auth';
import { refreshTokens, withToken, type StepResult } from './flow-steps';
import { sendStep, type Judged, type Sent } from './send-step';
import type { StepContext } from '../flow/context';
import type { Session } from '../session/session';
import { realTokens } from '../flow/tokens';
import { ok, refused, type FormInput } from '../flow/step-forms';
import { NO_REFRESH_TOKEN, NO_TOKENS, refuse, type Refused } from '../flow/refusals';

const withFindings = (ex: Exchange, findings: Exchange['findings']): Exchange => ({
	...ex,
	findings: [...ex.findings, ...findings]
});

/** The token to act on, or why there is none. */
function tokenOf(session: Session, which: WhichToken): { ok: true; token: string } | Refused {
	const tokens = realTokens(session);
	if (!tokens) return refuse(NO_TOKENS);
	const token = which === 'access_token' ? tokens.access_token : tokens.refresh_token;
	if (!token) return refuse(NO_REFRESH_TOKEN);
	return { ok: true, token };
}

/** One of the two endpoints that act on a token: its step, its endpoint's metadata name, its note. */
interface AdminEndpoint {
	step: 'introspect' | 'revoke';
	endpoint: 'introspection_endpoint' | 'revocation_endpoint';
	note: (token: string) => string;
}

const INTROSPECTION: AdminEndpoint = {
	step: 'introspect',
	endpoint: 'introspection_endpoint',
	note: (token) => `Introspection of the ${token} (RFC 7662 §2.1), from the playground server.`
};

const REVOCATION: AdminEndpoint = {
	step: 'revoke',
	endpoint: 'revocation_endpoint',
	note: (token) => `Revocation of the ${token} (RFC 7009 §2.1), from the playground server.`
};

/** The request to the introspection or the revocation endpoint, with what the step judges of its answer. */
async function adminRequest<J extends Judged>(
	c: StepContext,
	session: Session,
	{ step, endpoint, note }: AdminEndpoint,
	which: WhichToken,
	judge: (answer: Exchange) => J
): Promise<({ ok: true } & Sent<J>) | Refused> {
	const token = tokenOf(session, which);
	if (!token.ok) return token;
	const auth = clientAuth(session, endpoint);
	if (!auth.ok) return auth;
	const sent = await sendStep(
		c,
		session,
		{
			step,
			method: 'POST',
			url: auth.url,
			headers: [['Content-Type', FORM_CONTENT_TYPE], ...auth.headers],
			body: tokenAdminBody(token.token, which, auth.body),
			note: note(TOKEN_NAME[which])
		},
		{ judge }
	);
	return { ok: true, ...sent };
}

const whichSchema = z.enum(['access_token', 'refresh_token'], {
	error: 'Choose the access token or the refresh token'
});

/** Introspection and revocation: the access token or the refresh token. */
export const adminToken: FormInput<WhichToken> = (form) => {
	const parsed = whichSchema.safeParse(form.get('which'));
	return parsed.success ? ok(parsed.data) : refused(parsed.error, 'which');
};

/** Step 7: asks the server whether the token is active, and what it holds. */
export async function introspect(
	c: StepContext,
	session: Session,
	which: WhichToken
): Promise<StepResult> {
	const r = await adminRequest(c, session, INTROSPECTION, which, (answer) =>
		judgeIntrospection(answer, which)
	);
	if (!r.ok) return r;
	return { ok: true, session, exchanges: [r.shown] };
}

/**
 * Step 8: revokes the token, then, when the server answered 200, uses it again: the user-info call
 * with the access token (never refreshed first), or the refresh grant with the refresh token. The
 * finding on the revocation comes from that proof.
 */
export async function revoke(
	c: StepContext,
	session: Session,
	which: WhichToken
): Promise<StepResult> {
	const r = await adminRequest(c, session, REVOCATION, which, (answer) => ({
		findings: judgeRevocation(answer)
	}));
	if (!r.ok) return r;
	const shown = r.shown;
	if (r.raw.response?.status !== 200) return { ok: true, session, exchanges: [shown] };
	let next = session;
	let proof: Exchange;
	if (which === 'access_token') {
		const t = withToken(endpoints(session.setup!).userinfo, session);
		if (!t.ok) return { ...t, exchanges: [shown] };
		const sent = await sendStep(c, session, {
			step: 'userinfo',
			method: 'GET',
			url: t.url,
			headers: t.headers,
			note: 'The proof of the revocation: the user-info call with the revoked access token.'
		});
		proof = sent.shown;
	} else {
		const refreshed = await refreshTokens(
			c,
			session,
			'The proof of the revocation: the refresh grant with the revoked refresh token.'
		);
		if (!refreshed.ok) return { ...refreshed, exchanges: [shown, ...(refreshed.exchanges ?? [])] };
		next = refreshed.session;
		proof = refreshed.exchanges[0]!;
	}
	const verdict = judgeProof(proof, which);
	// Proven: the token panel says so, until new tokens replace this set.
	if (verdict && hasCode(verdict, 'revocation-proven') && next.tokens)
		next = {
			...next,
			tokens: {
				...next.tokens,
				revoked: {
					...next.tokens.revoked,
					[which === 'access_token' ? 'access' : 'refresh']: true
				}
			}
		};
	return {
		ok: true,
		session: next,
		exchanges: [verdict ? withFindings(shown, [verdict]) : shown, proof]
	};
}
