/**
 * One send per step: every step that calls the service sends its request here, and what comes back
 * is fit for the page. `sendStep` hands the request to the app's one sender (send.ts) with what the
 * step's context and the setup decide: the setup's TLS choice, the visitor's address (the sender's
 * pool shares a host's connections by it, host-slots.ts) and the request's abort signal. Each
 * attempt is then redacted with the flow's secrets (way-out.ts), diagnosed (`present`), given the
 * step's own findings on its answer (its `judge`), and judged a second time by oauth4webapi when
 * the step has such a judge (strict-client.ts). Nothing redacts these exchanges again on their way
 * to the page.
 */
import { diagnose, type DiagnoseContext } from '$lib/oauth/diagnose';
import { endpoints } from '$lib/oauth/setup';
import { withStrictVerdict } from '$lib/oauth/strict-client';
import { hasCode } from '$lib/oauth/catalogue/raise';
import { clientAuthFindings } from '$lib/oauth/pkce-auth';
import type { Exchange, Finding } from '$lib/exchange/types';
import type { StepContext } from '../flow/context';
import type { SendInput } from '../outbound/send';
import type { Session } from '../session/session';
import { outward } from '../flow/way-out';
import { flowAdvice } from '../flow/flow-advice';

/**
 * Redact, then diagnose: what leaves the server. The diagnosis knows the playground itself: its own
 * origin and whether its sandbox is on, since a base URL on that origin outside `/sandbox` reaches
 * the playground, not a service (oauth/wrong-endpoint.ts).
 */
export function present(
	c: StepContext,
	ex: Exchange,
	session: Session,
	ctx: DiagnoseContext = {}
): Exchange {
	const clean = outward(c.app.redactors, ex, session);
	const playground = { origin: c.origin, sandbox: c.app.presets.sandboxEnabled };
	// Whose advice fits this flow's setup: the service's own words only for its setup (advice.ts).
	const advice = flowAdvice(c.app.presets, session, c.origin);
	const findings = diagnose(clean, { playground, advice, ...ctx });
	const setup = session.setup;
	// The metadata's methods count only for the token endpoint it was fetched for.
	const metadata = session.metadata_for;
	const supported =
		setup && metadata?.auth_methods && metadata.token_endpoint === endpoints(setup).token
			? metadata.auth_methods
			: undefined;
	const client = setup
		? clientAuthFindings(clean, {
				method: setup.token_endpoint_auth_method,
				pkce: setup.pkce,
				supported
			})
		: [];
	// One finding per failure, the precise one: where the method is the cause, it says so instead
	// of "check the client id and secret", whose fix it already ends with; where PKCE is required
	// and was off, that is the invalid_grant's cause, and its finding says it alone.
	const replaces = client.some(
		(f) => hasCode(f, 'client-auth-method') || hasCode(f, 'public-client-refused')
	);
	const pkce = client.some((f) => hasCode(f, 'pkce-required'));
	const kept = findings.filter(
		(f) => !(replaces && hasCode(f, 'invalid_client')) && !(pkce && hasCode(f, 'invalid_grant'))
	);
	return { ...clean, findings: [...clean.findings, ...kept, ...client] };
}

/** A step's request: what the step writes. The context and the setup add the rest. */
type StepRequest = Omit<SendInput, 'signal' | 'client' | 'allowInvalidTls'>;

/** What a step's own judge read of its answer: its findings, and whatever else the step keeps. */
export interface Judged {
	findings: Finding[];
}

/** How a step's answer is made fit for the page, beyond what every step gets. */
interface Presenting<J extends Judged> {
	/**
	 * What the diagnosis knows beyond the exchange (diagnose.ts). `false`: no diagnosis, the step's
	 * judge says all there is to say (discovery's documents).
	 */
	diagnosis?: DiagnoseContext | false;
	/**
	 * The step's own reading of its answer as received (the last attempt): its findings follow the
	 * diagnosis, redacted like the rest, and what else it read comes back as `judged`.
	 */
	judge?: (answer: Exchange) => J | Promise<J>;
	/** The verifier a code exchange sends and the challenge its consent URL carried. */
	pkce?: { verifier?: string; challenge?: string };
	/**
	 * A GET on a kept-alive connection that the server had closed before any byte of the answer is
	 * sent once more on a fresh one, and both attempts are shown (the sender's `sendAll`).
	 */
	retry?: boolean;
}

export interface Sent<J> {
	/**
	 * The answer as received, not redacted (the last attempt): for what the step keeps in the session
	 * (the tokens, a request_uri), never for the page.
	 */
	raw: Exchange;
	/** Every attempt, fit for the page. */
	exchanges: Exchange[];
	/** The last attempt, fit for the page. */
	shown: Exchange;
	/** What the step's judge read of the answer, when it has one. */
	judged?: J;
}

/**
 * Sends a step's request through the app's one sender and returns what the page may be shown of it
 * (see the top of this file). The request's TLS choice is the setup's, when the flow has one.
 */
export async function sendStep<J extends Judged = Judged>(
	c: StepContext,
	session: Session,
	request: StepRequest,
	how: Presenting<J> = {}
): Promise<Sent<J>> {
	const { sender } = c.app;
	const input: SendInput = {
		...request,
		signal: c.signal,
		client: c.client,
		allowInvalidTls: session.setup?.allow_invalid_tls
	};
	const attempts = how.retry ? await sender.sendAll(input) : [await sender.send(input)];
	const raw = attempts.at(-1)!;
	const judged = how.judge && (await how.judge(raw));
	const exchanges = await Promise.all(
		attempts.map((ex) => {
			const shown =
				how.diagnosis === false
					? outward(c.app.redactors, ex, session)
					: present(c, ex, session, how.diagnosis);
			const own = ex === raw && judged ? outward(c.app.redactors, judged.findings, session) : [];
			return withStrictVerdict(
				{ ...shown, findings: [...shown.findings, ...own] },
				session.setup,
				how.pkce
			);
		})
	);
	return { raw, exchanges, shown: exchanges.at(-1)!, judged };
}
