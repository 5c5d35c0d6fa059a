/**
 * Every step an exchange can belong to, one spec each (`<id>-step.ts`, the interface in spec.ts),
 * and every list of them derived from here: the step names and their type, the cards' numbers and
 * headings, the diagram's names, the exports' titles, the steps a HAR import accepts and how it
 * recognises them, the steps whose status comes from their exchanges, and the steps' form actions
 * (the page's texts for them: exchange/step-registry.ts; the server's runs: server/steps/runs.ts). Any other module asks a
 * step's spec what it does (`specOf(ex.step).spends`); none compares its name. How to add a step:
 * docs/architecture.md.
 *
 * The numbers follow the order of the flow, as the page shows the cards: the token is used
 * (user-info) before it is refreshed (the service's API docs §5 steps 5 and 6). Introspection and
 * revocation come last: revoking ends what the others use. The registration check, the client secret
 * check and the metadata fetch belong to the setup, the pushed request to the consent step and the key fetch to the
 * tokens, so they have no number and no card of their own.
 */
import type { HarRequest, StepAction, StepSpec } from './spec';
import { spec as consent } from './consent-step';
import { spec as callback } from './callback-step';
import { spec as exchange } from './exchange-step';
import { spec as userinfo } from './userinfo-step';
import { spec as refresh } from './refresh-step';
import { spec as api } from './api-step';
import { spec as introspect } from './introspect-step';
import { spec as revoke } from './revoke-step';
import { spec as check } from './check-step';
import { spec as secret } from './secret-step';
import { spec as discovery } from './discovery-step';
import { spec as par } from './par-step';
import { spec as jwks } from './jwks-step';

/** The specs in the order of the table: the numbered steps in the page's order, then the rest. */
const SPECS = [
	consent,
	callback,
	exchange,
	userinfo,
	refresh,
	api,
	introspect,
	revoke,
	check,
	secret,
	discovery,
	par,
	jwks
] as const;

type Spec = (typeof SPECS)[number];

/** Every step an exchange can belong to, by its id. */
export type Step = Spec['id'];

type SpecOf<S extends Step> = Extract<Spec, { id: S }>;

/** Requests that belong to a numbered step or to the setup, with no card of their own. */
export type UnnumberedStep = {
	[K in Step]: SpecOf<K> extends { n: number } ? never : K;
}[Step];

/** The steps whose status comes from their exchanges. */
export type ExchangeStep = {
	[K in Step]: SpecOf<K> extends { fromExchanges: true } ? K : never;
}[Step];

/** The form actions the steps post (`?/name`), by the names their specs give them. */
export type StepActionName = {
	[K in Step]: SpecOf<K> extends { action: { name: infer A extends string } } ? A : never;
}[Step];

/** What a card and a sentence call a step. */
type Names = Pick<StepSpec, 'n' | 'title' | 'heading' | 'name'>;

const BY_ID = Object.fromEntries(SPECS.map((s) => [s.id, s])) as { [S in Step]: SpecOf<S> };

/** Each step's card number, heading, title and name: a numbered step has all four. */
export const STEPS: Readonly<
	Record<Exclude<Step, UnnumberedStep>, Required<Names>> &
		Record<UnnumberedStep, Names & { n?: undefined; heading?: undefined }>
> = BY_ID;

/** Every step, in the order of the table. */
export const STEP_NAMES = SPECS.map((s) => s.id) as [Step, ...Step[]];

/** The steps whose status comes from their exchanges, in the page's order. */
export const EXCHANGE_STEPS = SPECS.flatMap((s): ExchangeStep[] =>
	'fromExchanges' in s ? [s.id] : []
);

/** What the step does: the one place to ask, instead of comparing its name. */
export function specOf(step: Step): StepSpec {
	return BY_ID[step];
}

/** A step with a form: its card's number, if it has a card, and its action. */
export interface ActionSpec {
	readonly n?: number;
	readonly action: StepAction;
	/** The shape of its verdict, when it has one (spec.ts `verdict`). */
	readonly verdict?: StepSpec['verdict'];
}

/** Each step's form action, by its name: the specs that have one, in the order of the table. */
export const STEP_ACTIONS = Object.fromEntries(
	SPECS.flatMap((s): [StepActionName, ActionSpec][] => ('action' in s ? [[s.action.name, s]] : []))
) as Readonly<Record<StepActionName, ActionSpec>>;

/** The rules that recognise a HAR entry's step, in the order they are tried. */
const HAR_RULES = SPECS.flatMap(
	(s): { id: Step; rank: number; matches: (r: HarRequest) => boolean }[] =>
		'har' in s ? [{ id: s.id, ...s.har }] : []
).sort((a, b) => a.rank - b.rank);

/** The step a HAR entry's request is recognised as, by the first rule that matches; undefined for none. */
export function harStep(request: HarRequest): Step | undefined {
	return HAR_RULES.find((r) => r.matches(request))?.id;
}
