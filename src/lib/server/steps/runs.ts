/**
 * What the server runs for each step's form action: the table of runs, one for every action the
 * step specs name (`action` in `$lib/steps/<id>-step.ts`) and for no other, which `npm run check`
 * holds (`StepRuns`). A run is what the step reads from its form (its input, written beside its
 * function in this folder; `null` when it reads nothing, and its body is not read) and the step's
 * function, which takes the step's context, the session and that input and returns the step's
 * result (flow-steps.ts). `+page.server.ts` makes the step actions from this table (`stepActions`,
 * flow/action.ts), and the flow runs each through `flow.run` (flow/sealed-flow.ts).
 */
import type { StepActionName } from '$lib/steps/registry';
import type { FormInput } from '../flow/step-forms';
import type { StepContext } from '../flow/context';
import type { Session } from '../session/session';
import { fillFromMetadata, metadataLookup } from './discovery';
import {
	apiCallInput,
	callApi,
	checkRegistration,
	exchangeChoice,
	exchangeCode,
	pastedAddress,
	pasteBack,
	refreshChoice,
	refreshTokens,
	type StepResult
} from './flow-steps';
import { pushConsent } from './push-consent';
import { checkSecret } from './check-secret';
import { checkJwt, jwtInput } from './jwt-check';
import { adminToken, introspect, revoke } from './introspect-revoke';

/** A step's form action, as the server runs it. */
export interface StepRun<T> {
	/** What the step reads from its form; `null`: nothing (its body is not read). */
	readonly input: FormInput<T> | null;
	/** The step, on the flow's context and session, with what its form held. */
	run(c: StepContext, session: Session, input: T): Promise<StepResult> | StepResult;
}

/**
 * One run for every step action the specs name, and for no other name: a spec's action without a
 * run, or a run whose name no spec's action has, fails `npm run check`.
 */
export type StepRuns = { readonly [A in StepActionName]: StepRun<unknown> };

/** A run: the input and the step that takes it, checked against each other. */
export function stepRun<T>(
	input: FormInput<T> | null,
	run: (c: StepContext, session: Session, input: T) => Promise<StepResult> | StepResult
): StepRun<T> {
	return { input, run };
}

/** The refresh's note when the switch under the tokens sent it. */
const AUTOMATIC_REFRESH = 'Automatic refresh before expiry (the switch under the tokens).';

/** Each step action's run, by the action's name. */
export const STEP_RUNS = {
	/** "Fill from metadata": nothing is saved; the page fills the form. */
	discover: stepRun(metadataLookup, fillFromMetadata),
	/** Step 1's "Check the registration": the consent page asked, without a browser. */
	check: stepRun(null, checkRegistration),
	/** "Check the client secret": the client's credentials, with a made-up code or a pushed request. */
	secret: stepRun(null, checkSecret),
	/** Push the pending consent request (RFC 9126); the consent link then carries its request_uri. */
	par: stepRun(null, pushConsent),
	/** Paste-back mode: the address the user's application landed on, read as the callback. */
	pasteback: stepRun(pastedAddress, pasteBack),
	exchange: stepRun(exchangeChoice, exchangeCode),
	userinfo: stepRun(null, (c, s) => callApi(c, s, 'userinfo')),
	refresh: stepRun(refreshChoice, (c, s, { auto }) =>
		refreshTokens(c, s, auto ? AUTOMATIC_REFRESH : undefined)
	),
	api: stepRun(apiCallInput, (c, s, call) => callApi(c, s, 'api', call)),
	/** A JWT's signature against the setup's JWKS URL: one of the flow's tokens, or a pasted one. */
	jwt: stepRun(jwtInput, checkJwt),
	/** Introspection of the access or the refresh token (RFC 7662). */
	introspect: stepRun(adminToken, introspect),
	/** Revocation of the access or the refresh token (RFC 7009), then its proof. */
	revoke: stepRun(adminToken, revoke)
} satisfies StepRuns;
