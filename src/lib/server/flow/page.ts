/**
 * What the playground page may see of a flow (never the client secret): its page data (`view`) and
 * a docs link's setup (`prefillFrom`), each for the app serving the page (its presets and sandbox,
 * handed in by the page's `load`). The verbs that change a flow are sealed-flow.ts's.
 */
import { CONSENT_PARAM_HELP } from '$lib/oauth/consent';
import { endpoints, setupWith, type Setup } from '$lib/oauth/setup';
import { consentExchange, scriptCodeExchange } from '../steps/flow-steps';
import type { Playground } from '../playground';
import type { Presets } from './presets';
import { hasPrefill, parsePrefill, prefillLink, type Prefill } from '$lib/oauth/prefill';
import type { Session } from '../session/session';
import { FLOW_PARAM } from '$lib/oauth/flow-id';
import { presetSetup, secretView } from './secret';
import { presetChanged, secretHosts } from '$lib/oauth/secret-binding';
import { vouchFor } from '$lib/oauth/token-binding';
import { flowHosts } from '$lib/oauth/flow-hosts';
import { outward } from './way-out';
import { undoSlot } from './start-over';
import { stampSetup } from './setup-id';
import { apiSuggestions } from './api-examples';
import { canRaceRefresh, canReplay, canReplayRefresh } from '../steps/replay';
import { registeredRedirectHint, refusalAhead } from '../steps/registered-redirect';
import { flowAdvice } from './flow-advice';

function defaultSetup(presets: Presets, origin: string): Setup {
	return setupWith({
		base_url: presets.sandboxEnabled ? `${origin}/sandbox` : '',
		redirect_uri: `${origin}/callback`
	});
}

/**
 * A docs link's setup, with a named preset's non-secret fields under the link's own values. The
 * banner names every host that would receive the secret (`base` is the setup the form starts from),
 * and whether the link changes a preset's client id or URLs, so that its secret is not used.
 */
export function prefillFrom(
	app: Playground,
	url: URL,
	base: Setup = defaultSetup(app.presets, url.origin)
):
	| (Prefill & {
			presetLabel?: string;
			presetHasSecret?: boolean;
			presetChanged?: string;
			secretHosts: string[];
	  })
	| null {
	// The flow id is the page's own parameter, not a link's.
	const params = new URLSearchParams(url.searchParams);
	params.delete(FLOW_PARAM);
	if (!hasPrefill(params)) return null;
	const p = parsePrefill(params);
	const hostsFor = (values: Partial<Setup>) => secretHosts({ ...base, ...values });
	if (!p.preset) return { ...p, secretHosts: hostsFor(p.values) };
	const preset = app.presets.find(url.origin, p.preset);
	if (!preset)
		return {
			...p,
			errors: { ...p.errors, preset: `There is no preset named "${p.preset}".` },
			preset: undefined,
			secretHosts: hostsFor(p.values)
		};
	const own = presetSetup(preset, url.origin);
	const values = { ...own, ...p.values };
	return {
		...p,
		values,
		host: new URL(values.base_url).host,
		presetLabel: preset.label,
		presetHasSecret: !!preset.client_secret,
		presetChanged: presetChanged(own, values),
		secretHosts: hostsFor(values)
	};
}

export function view(app: Playground, session: Session, origin: string) {
	const setup = session.setup ?? null;
	// What came from the service or the wire goes out redacted (the setup is the user's own).
	const shown = <T>(v: T) => outward(app.redactors, v, session);
	const consent = consentExchange(session);
	const forScript = scriptCodeExchange(session);
	const defaults = defaultSetup(app.presets, origin);
	return {
		origin,
		callbackUrl: `${origin}/callback`,
		defaults,
		setup,
		shareLink: setup ? prefillLink(origin, setup, defaults) : null,
		/** The hosts the setup sends something to, for a flow the tab did not start (ui/tab-flow.ts); null: only this playground's. */
		flowHosts: setup ? flowHosts(setup, new URL(origin).host) : null,
		guardMode: app.config.policy.mode,
		endpoints: setup ? endpoints(setup) : null,
		...secretView(app.presets, session, origin),
		pending: session.pending
			? {
					consent_url: session.pending.consent_url,
					state: session.pending.state,
					/** A pushed request's handle expires (RFC 9126 §2.2): the consent step counts down to it. */
					request_uri_expires_at: session.pending.request_uri_expires_at ?? null,
					params: [...new URL(session.pending.consent_url).searchParams.entries()].map(
						([k, v]) => ({
							name: k,
							value: v,
							help:
								CONSENT_PARAM_HELP[k] ??
								'A parameter that was already on the authorization endpoint.'
						})
					),
					exchange: consent && stampSetup([outward(app.redactors, consent, session)], session)[0]
				}
			: null,
		callback: shown(session.callback ?? null),
		hasCode: !!session.code,
		/** The code exchange a code kept for the script is to be sent as, by its script (redacted). */
		scriptExchange: forScript ? outward(app.redactors, forScript, session) : null,
		/** The issuer check (RFC 9207) held the code back: no automatic exchange. */
		codeHeld: !!session.code?.held,
		tokens: shown(session.tokens ?? null),
		/** Why a save dropped the tokens; `tokenUndo` while Undo can bring them back. */
		tokenNote: session.token_note ?? null,
		tokenUndo: !!session.token_note && !!undoSlot(session),
		/** The origins the tokens are bound to (the setup form asks before others). */
		tokenOrigins: session.tokens ? (session.tokens_for?.origins ?? []) : null,
		/** What the verified metadata of the tokens' own issuer vouches for (no question while the setup names it). */
		tokenVouch: session.tokens ? vouchFor(session.tokens_for, session.metadata_for) : null,
		presets: app.presets
			.list(origin)
			.map(({ name, label, description }) => ({ name, label, description })),
		sandbox: app.presets.sandboxEnabled,
		/** The setup's consent page is the built-in sandbox's (wording may name its buttons). */
		sandboxTarget: app.presets.isSandboxTarget(setup, origin),
		/** Whose advice fits the setup: the service's own words only for its setup (oauth/advice.ts). */
		advice: flowAdvice(app.presets, session, origin),
		/** The sandbox's own registration, to prefill an empty "Redirect URI as registered". */
		registeredHint: registeredRedirectHint(app.presets, setup, origin),
		/** The pending consent's redirect_uri will be refused: the near miss, named before consent. */
		redirectRefusal: refusalAhead(app.presets, setup, session.pending?.redirect_uri, origin),
		apiSuggestions: apiSuggestions(app, setup ?? defaults, origin),
		notice: session.notice ?? null,
		/** The current setup's id: a step counts only the exchanges that carry it (ui/step-status.ts). */
		setupId: session.setup_id ?? null,
		/** The current credentials' id: a client secret check of others is no verdict (setup-id.ts). */
		credentialsId: session.credentials_id ?? null,
		/** The code this flow exchanged may be replayed on purpose, in a fork (replay.ts). */
		canReplay: canReplay(session),
		/** This flow is a fork made to replay a code of that flow (fork.ts). */
		replayOf: session.fork_of?.by === 'code' ? session.fork_of.flow : null,
		/**
		 * The refresh token a rotation of this flow replaced may be sent again on purpose, in a fork
		 * (replay.ts): when it was replaced (ms), for the dialog's words.
		 */
		previousRefresh: canReplayRefresh(session) ? session.previous_refresh!.replaced_at : null,
		/** "Two refreshes at once" may be sent, in a fork (replay.ts). */
		canRace: canRaceRefresh(session),
		/** This flow is a fork made to try the previous refresh token of that flow. */
		refreshTryOf: session.fork_of?.by === 'refresh' ? session.fork_of.flow : null,
		/**
		 * This flow is a fork: the record of a try, which sends nothing more (flow/action.ts). Its
		 * cards show what it holds and offer no step.
		 */
		record: !!session.fork_of
	};
}
