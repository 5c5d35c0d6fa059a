/**
 * "Check the signature": the issuer's keys are fetched from the setup's JWKS URL through the one
 * sender (step `jwks`, a plain GET that carries no credentials), then the token's signature is
 * checked with them (oauth/jwt-signature.ts: asymmetric algorithms only), and `iss`, `exp` and
 * `typ` are reported apart. Nothing is stored in the session: the keys are fetched each time.
 */
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
import { present, type StepResult } from './flow';
import type { Sender } from './send';
import type { Session } from './session';
import { realTokens } from './tokens';

export type JwtKind = ClaimContext['kind'];

/** Why nothing can be checked without a JWKS URL (nothing is sent then). */
const NO_JWKS_URI =
	'The setup has no JWKS URL (jwks_uri), so there are no issuer keys to check the signature with, and nothing was sent. Enter the issuer’s jwks_uri in the setup (Advanced settings; the server’s metadata names it). A token signed with a shared secret (HS256, as the built-in sandbox signs its tokens) can only be checked by the issuer itself.';

/** The token a check is about: one of the flow's, or a pasted one. */
function tokenToCheck(
	session: Session,
	kind: JwtKind,
	pasted: string
): { ok: true; token: string; shown: string } | { ok: false; message: string } {
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
	if (!token)
		return {
			ok: false,
			message:
				kind === 'pasted' ? 'Paste a JWT to check.' : `There is no ${kind} in this flow's tokens.`
		};
	if (!decodeJwt(token).ok)
		return {
			ok: false,
			message:
				'That is not a signed JWT: a JWT is three base64url parts joined by dots (header.payload.signature), and its header and payload are JSON.'
		};
	return { ok: true, token, shown: shown ?? token };
}

export async function checkJwt(
	sender: Sender,
	session: Session,
	kind: JwtKind,
	pasted: string,
	signal?: AbortSignal,
	now: () => number = sender.clock,
	client?: string
): Promise<StepResult> {
	const { send } = sender;
	const setup = session.setup;
	if (!setup) return { ok: false, status: 409, message: 'Save the setup first.' };
	const jwksUri = endpoints(setup).jwks;
	if (!jwksUri) return { ok: false, status: 409, message: NO_JWKS_URI };
	const picked = tokenToCheck(session, kind, pasted);
	if (!picked.ok) return { ok: false, status: 400, message: picked.message };
	const raw = await send({
		step: 'jwks',
		method: 'GET',
		url: jwksUri,
		note: 'The issuer’s public keys (JWKS, RFC 7517 §5), fetched to check a JWT’s signature. The request carries no credentials.',
		signal,
		allowInvalidTls: setup.allow_invalid_tls,
		client
	});
	const shown = present(raw, session);
	const findings: Finding[] = [];
	let verdict: Awaited<ReturnType<typeof verifySignature>> | undefined;
	if (raw.response && raw.response.status === 200) {
		const jwks = parseJwks(raw.response.body);
		if (jwks.ok) verdict = await verifySignature(picked.token, jwks.jwks);
		else findings.push(raise(signedJwt.NOT_A_KEY_SET, jwksUri));
	} else if (raw.response)
		findings.push(raise(signedJwt.KEY_SET_NOT_SERVED, jwksUri, raw.response.status));
	if (verdict) findings.push(signatureFinding(verdict, jwksUri));
	// The claims of a token whose signature does not verify are anyone's words: not reported.
	if (verdict?.valid) {
		findings.push(
			...claimFindings(picked.token, {
				issuer: expectedIssuer(setup.issuer)?.issuer ?? '',
				kind,
				now: now()
			})
		);
	}
	const exchange: Exchange = { ...shown, findings: [...shown.findings, ...findings] };
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
