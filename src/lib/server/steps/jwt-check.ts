/**
 * "Check the signature": the issuer's keys are fetched from the setup's JWKS URL by `sendStep`
 * (send-step.ts; step `jwks`, a plain GET that carries no credentials), then the token's signature
 * is checked with them (oauth/jwt-signature.ts: asymmetric algorithms only), and `iss`, `exp` and
 * `typ` are reported apart. Nothing is stored in the session: the keys are fetched each time.
 * What the check reads from its form is `jwtInput`, below.
 */
import { z } from 'zod';
import { endpoints } from '$lib/oauth/setup';
import { decodeJwt } from '$lib/oauth/jwt';
import { expectedIssuer } from '$lib/oauth/issuer';
import {
	claimFindings,
	parseJwks,
	signatureFinding,
	verifySignature,
	type ClaimContext,
	type JwtCheckResult
} from '$lib/oauth/jwt-signature';
import { raise } from '$lib/oauth/catalogue/raise';
import * as signedJwt from '$lib/oauth/catalogue/signed-jwt';
import type { Exchange, Finding } from '$lib/exchange/types';
import type { StepResult } from './flow-steps';
import { sendStep } from './send-step';
import type { StepContext } from '../flow/context';
import type { Session } from '../session/session';
import { realTokens } from '../flow/tokens';
import { ok, refused, type FormInput } from '../flow/step-forms';
import {
	NO_JWKS_URI,
	NO_JWT_PASTED,
	NO_SETUP,
	noSuchToken,
	NOT_A_JWT,
	refuse,
	type Refused
} from '../flow/refusals';

export type JwtKind = ClaimContext['kind'];

/** What the signature check found. */
type Signature = Awaited<ReturnType<typeof verifySignature>>;

/** The token a check is about: one of the flow's, or a pasted one. */
function tokenToCheck(
	session: Session,
	kind: JwtKind,
	pasted: string
): { ok: true; token: string; shown: string } | Refused {
	const t = session.tokens;
	// The page shows the redacted set; the signature is checked on the token as it was received.
	const real = realTokens(session);
	const [token, shown] =
		kind === 'pasted'
			? [pasted.trim(), pasted.trim()]
			: kind === 'id_token'
				? typeof t?.extra.id_token === 'string'
					? [t.extra.id_token, t.extra.id_token]
					: []
				: [real?.[kind], t?.[kind]];
	if (!token) return refuse(kind === 'pasted' ? NO_JWT_PASTED : noSuchToken(kind));
	if (!decodeJwt(token).ok) return refuse(NOT_A_JWT);
	return { ok: true, token, shown: shown ?? token };
}

/**
 * What the keys say of the token: its signature checked with them (an answer that is no key set
 * says so), and its claims, when the signature verifies.
 */
async function judgeKeys(
	answer: Exchange,
	token: string,
	jwksUri: string,
	claims: Omit<ClaimContext, 'now'>,
	now: () => number
): Promise<{ findings: Finding[]; verdict?: Signature }> {
	const findings: Finding[] = [];
	let verdict: Signature | undefined;
	if (answer.response && answer.response.status === 200) {
		const jwks = parseJwks(answer.response.body);
		if (jwks.ok) verdict = await verifySignature(token, jwks.jwks);
		else findings.push(raise(signedJwt.NOT_A_KEY_SET, jwksUri));
	} else if (answer.response)
		findings.push(raise(signedJwt.KEY_SET_NOT_SERVED, jwksUri, answer.response.status));
	if (verdict) findings.push(signatureFinding(verdict, jwksUri));
	// The claims of a token whose signature does not verify are anyone's words: not reported.
	if (verdict?.valid) findings.push(...claimFindings(token, { ...claims, now: now() }));
	return { findings, verdict };
}

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

export async function checkJwt(
	c: StepContext,
	session: Session,
	{ which: kind, token: pasted }: { which: JwtKind; token: string }
): Promise<StepResult> {
	const now = c.app.sender.clock;
	const setup = session.setup;
	if (!setup) return refuse(NO_SETUP);
	const jwksUri = endpoints(setup).jwks;
	if (!jwksUri) return refuse(NO_JWKS_URI);
	const picked = tokenToCheck(session, kind, pasted);
	if (!picked.ok) return picked;
	const { shown: exchange, judged } = await sendStep(
		c,
		session,
		{
			step: 'jwks',
			method: 'GET',
			url: jwksUri,
			note: 'The issuer’s public keys (JWKS, RFC 7517 §5), fetched to check a JWT’s signature. The request carries no credentials.'
		},
		{
			judge: (answer) =>
				judgeKeys(
					answer,
					picked.token,
					jwksUri,
					{ issuer: expectedIssuer(setup.issuer)?.issuer ?? '', kind },
					now
				)
		}
	);
	const verdict = judged!.verdict;
	return {
		ok: true,
		session,
		exchanges: [exchange],
		answer: {
			jwt: {
				token: picked.shown,
				kind,
				verified: verdict !== undefined,
				valid: verdict?.valid ?? false,
				...(verdict?.kid !== undefined ? { kid: verdict.kid } : {}),
				...(verdict?.alg !== undefined ? { alg: verdict.alg } : {}),
				jwks_uri: jwksUri,
				checked_at: now(),
				exchange_id: exchange.id,
				findings: exchange.findings
			} satisfies JwtCheckResult
		}
	};
}
