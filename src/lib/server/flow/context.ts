/**
 * What a flow is opened with: everything of the request, and of the app serving it, that the flow
 * and its steps need. The wrapper that runs the flow (flow/action.ts: the form actions, the page's
 * `load`, /callback) builds it once from the request event and hands it down, so the flow never
 * looks the request up, and there is no flow outside a request: nothing under src/lib reads the
 * request any other way (the import check's `app-handed-down` rule refuses `$app/server` there).
 * A unit test builds one for an app of its own (tests/unit/flow-modules.ts).
 */
import type { Cookies } from '@sveltejs/kit';
import type { Playground } from '../playground';
import type { CookieSource, Session } from '../session/session';
import type { Refusal } from './refusals';

/** What a step needs of the request that runs it. */
export interface StepContext {
	/** The app serving the request (`locals.app`, hooks.server.ts): its sender, presets and clock. */
	readonly app: Playground;
	/** The playground's own origin, as the browser reached it. */
	readonly origin: string;
	/** The visitor's address, which the sender's pool counts connections by. */
	readonly client?: string;
	/** Aborted when the browser gives up on the request. */
	readonly signal?: AbortSignal;
	/**
	 * Why a refresh of this flow is held, if it is: its refresh token is superseded by its fork's (a
	 * try that refreshed, replay.ts; fork.ts `refreshHold`). Asked only when one would be sent.
	 */
	readonly refreshHeld?: (session: Session) => Promise<Refusal | undefined>;
}

/** What a flow is opened with: its steps' context, and the request's cookies. */
export interface FlowContext extends StepContext {
	readonly cookies: Cookies;
	/** The request's Cookie header, scheme and flow id, with the app's keys and clock (session.ts). */
	readonly source: CookieSource;
}
