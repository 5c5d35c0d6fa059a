/**
 * What a step of the flow is, written once in its spec (`<id>-step.ts` beside this file): its card,
 * its names, and what the rest of the playground would otherwise decide by comparing its name. The
 * registry (registry.ts) gathers the specs; every other module asks `specOf(ex.step)` a question
 * of behaviour (`spends === 'code'`, `grantType`, `travels`), never which step it is.
 *
 * A spec is plain data and small pure functions: the page's first load carries every spec, so a
 * spec imports nothing of ours but types (the import check holds it, `.dependency-cruiser.js`).
 * What a step's answer means is worked out from these facts where the words are: diagnose.ts and
 * wrong-endpoint.ts read the endpoint, the grant and how the request travels; strict-client.ts
 * runs the judge the spec names.
 */
import type { Endpoints } from '$lib/oauth/endpoints';

/**
 * How a request travels, and so how the diagram draws it and what an export does with it:
 * - `navigation`: the browser opens it, and no answer is recorded (the consent page);
 * - `redirect-back`: the service sent the browser back with it to the playground's redirect URI (the callback);
 * - `server`: the playground server sends it to the service, and records the answer.
 */
export type Travels = 'navigation' | 'redirect-back' | 'server';

/** The token endpoint's grants (RFC 6749 §4.1.3, §6), by their grant_type. */
export type GrantType = 'authorization_code' | 'refresh_token';

/**
 * What sending the request again uses up: the code (single-use, RFC 6749 §4.1.2), the refresh
 * token (it may rotate, §6), or a token's validity (a revocation, RFC 7009).
 */
export type Spend = 'code' | 'refresh' | 'revoke';

/**
 * The oauth4webapi function that judges the step's answer as a strict client would
 * (strict-client.ts), where the library has one.
 */
export type StrictJudge =
	| 'processAuthorizationCodeResponse'
	| 'processRefreshTokenResponse'
	| 'processPushedAuthorizationResponse'
	| 'processRevocationResponse'
	| 'processIntrospectionResponse';

/**
 * A step's form action: the page posts `?/<name>` (ui/flow.svelte.ts), and the server runs the step
 * for it (server/steps/runs.ts, one run for each spec's action).
 */
export interface StepAction {
	/** The action's name, the step's id unless it says another (the metadata fill posts `discover`). */
	readonly name: string;
	/**
	 * What the progress line says while its request is under way; none when the step shows its own
	 * progress (the metadata fill).
	 */
	readonly busy?: string;
	/**
	 * What the live region says when it is done, after the card's number (`Step 3: …`), so that a
	 * screen reader hears the step it sees. Only the automatic ones (the exchange on return, the
	 * refresh before expiry) need it: after any other, focus goes to the result, which says it.
	 */
	readonly done?: string;
}

/** A HAR entry's request, as its step is recognised from it (har/entry.ts). */
export interface HarRequest {
	/** The URL's path, without the slashes at its end. */
	path: string;
	/** The fields of its form body, read when a rule asks for them. */
	form(): readonly (readonly [name: string, value: string])[];
}

export interface StepSpec {
	/** The step's name in an Exchange (`step`), a HAR's `_step` and the card's id. */
	readonly id: string;
	/** The card's number; none for a request with no card of its own. */
	readonly n?: number;
	/** Names an exchange in the views and the exports ("Code exchange"). */
	readonly title: string;
	/** The step card's heading; none without a card. */
	readonly heading?: string;
	/** The name inside a sentence and in the diagram ("code exchange"). */
	readonly name: string;
	/** The step's status comes from its exchanges (ui/step-status.ts), not from the flow's state. */
	readonly fromExchanges?: true;
	/**
	 * It belongs to the setup, not to the flow's steps: the setup shows its exchange (the metadata
	 * fill), and the Markdown report puts it after the flow's, with the setup.
	 */
	readonly belongsTo?: 'setup';
	/** How its request travels: the diagram's lanes, and whether an export sends it or shows it. */
	readonly travels: Travels;
	/**
	 * The endpoint its URL is meant for (oauth/endpoints.ts): which answers it can give, and which
	 * base URL was probably meant when it gives another (wrong-endpoint.ts).
	 */
	readonly endpoint?: keyof Endpoints;
	/** A token request's grant: the errors explained for it, and what its answer must hold. */
	readonly grantType?: GrantType;
	/** It sends the access token as its credential (RFC 6750): a call of a protected resource. */
	readonly sendsAccessToken?: true;
	/** What it uses up when sent again: an export runs it only when asked to (exchange/spending.ts). */
	readonly spends?: Spend;
	/**
	 * It goes on a connection of its own, never on a kept-alive one the server may be closing, and
	 * it is never sent twice (server/outbound/send.ts).
	 */
	readonly freshConnection?: true;
	/** The strict client library's judge of its answer (oauth/strict-client.ts). */
	readonly strictJudge?: StrictJudge;
	/**
	 * The shape of its verdict, the flow's one line when it is the newest attempt
	 * (exchange/verdict.ts): `tokens`, on a token answer; `opened`, on the consent page opened (while
	 * nothing came back); `consent`, on the redirect back (a code, or
	 * the consent refused or declined); `registration`, on the registration check; `secret`, on the
	 * client secret check (whether the service accepted the client's credentials, and how surely).
	 * A step without one never replaces the line.
	 */
	readonly verdict?: 'tokens' | 'opened' | 'consent' | 'registration' | 'secret';
	/**
	 * The exports show its request and never send it, and this says why (the client secret check:
	 * its code is made up). It spends nothing.
	 */
	readonly exportsShowOnly?: string;
	/**
	 * Its answer is a success whatever its HTTP status when its judgement raised one of these
	 * findings (by code), said in these words: its card's status, its badge, its arrow and a HAR
	 * import's first failure (the client secret check: the credentials accepted, though the made-up
	 * code was refused with a 400).
	 */
	readonly okWhen?: Readonly<Record<string, string>>;
	/** Its form action, where it has a form: the page's progress words, and the run it names. */
	readonly action?: StepAction;
	/**
	 * How a HAR entry without `_step` is recognised as this step (har/entry.ts): the rules are tried
	 * by `rank`, lowest first, and the first that matches names the step.
	 */
	readonly har?: {
		readonly rank: number;
		readonly matches: (request: HarRequest) => boolean;
	};
}
