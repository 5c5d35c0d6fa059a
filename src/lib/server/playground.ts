/**
 * The playground's services, as the composition root (src/lib/app.server.ts) builds them once per
 * app: the functions of `server/` take what they need of this object, never a module variable.
 */
import type { Base } from '$lib/base.server';
import { createLimits, type Limits } from './outbound/abuse';
import {
	createPresets,
	type Presets,
	type SandboxClientInfo,
	type SandboxRegistrations
} from './flow/presets';
import type { ApiExample } from './flow/api-examples';
import { createSender, outboundFrom, type Sender } from './outbound/send';
import { createRedactors, type Redactors } from './flow/way-out';

export interface Playground extends Base {
	/** The abuse limit, the in-flight cap and who a request comes from (abuse.ts). */
	readonly limits: Limits;
	/** THE one sender, with this app's outbound policy, limits and connection pools (send.ts). */
	readonly sender: Sender;
	/** The named setups, and what the playground knows of its built-in sandbox (presets.ts). */
	readonly presets: Presets;
	/** The built-in sandbox's working API calls, for the API step to offer (api-examples.ts). */
	readonly apiExamples: readonly ApiExample[];
	/**
	 * What redacts the client secret on the way out (way-out.ts `outward`): it keeps the matchers
	 * of the secrets used lately, for this app alone, and goes with it.
	 */
	readonly redactors: Redactors;
}

/**
 * What the built-in sandbox offers the playground, handed over by the composition root (the one
 * module that knows both): its clients as presets (only when it is on), its redirect-URI
 * registrations, and its working API calls.
 */
export interface SandboxOffer {
	clients?: readonly SandboxClientInfo[];
	registrations?: SandboxRegistrations;
	apiExamples?: readonly ApiExample[];
}

/** The playground's services on an app's base. A bad PLAYGROUND_PRESETS entry throws. */
export function playgroundOn(base: Base, offer: SandboxOffer = {}): Playground {
	return {
		...base,
		limits: createLimits(base),
		sender: createSender(outboundFrom(base.config), base.clock),
		presets: createPresets({
			config: base.config,
			sandboxClients: offer.clients,
			sandboxRegistrations: offer.registrations
		}),
		apiExamples: offer.apiExamples ?? [],
		redactors: createRedactors()
	};
}
