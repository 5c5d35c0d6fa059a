/**
 * Every way a verb of the flow says no, each written once: the status its form action answers and
 * the words the page shows. A verb (sealed-flow.ts, and the step functions it runs) returns one
 * with `refuse`, beside anything else the page needs to show it (the exchanges sent before, the
 * fields to fix); it never builds SvelteKit's `fail()` itself. Only the wrapper that runs the
 * verbs (flow/action.ts) turns a refusal into the action's failure.
 *
 * A refusal whose words depend on what was found is a function of it. Words that a rule of the
 * protocol writes (a URL the token may not go to, why the secret is not sent) stay with that rule;
 * the refusal gives them their status.
 */
import { STEPS } from '$lib/steps/registry';

/** The statuses a refusal answers with: the request, the flow's state, too late, a step it needed. */
type RefusalStatus = 400 | 409 | 410 | 424;

/** A refusal: its status and its words, and the form field it is about, if any. */
export interface Refusal {
	readonly status: RefusalStatus;
	readonly message: string;
	readonly field?: string;
}

/** What a verb answers when it refuses: the refusal, and `more` for the page. */
export type Refused = { readonly ok: false } & Refusal;

/** The refusal as a verb answers it, with what else the page needs (`more`). */
export function refuse<M extends object = object>(refusal: Refusal, more?: M): Refused & M {
	return { ok: false, ...more, ...refusal } as Refused & M;
}

/** Whether a verb's answer is a refusal. */
export function isRefused(answer: object): answer is Refused {
	return (answer as { ok?: unknown }).ok === false;
}

// The request itself.

/** A form that does not pass its check (a `FormInput`, step-forms.ts), or a field the verb cannot use. */
export const formRefused = (message: string, field?: string): Refusal =>
	field === undefined ? { status: 400, message } : { status: 400, message, field };

// The flow as it stands.

/** The flow was dropped to make room for newer ones, or closed from its parent: its notice says which. */
export const flowDropped = (notice: string): Refusal => ({ status: 409, message: notice });

export const NO_SETUP: Refusal = { status: 409, message: 'Save the setup first.' };

/** "Get a code for the script" with no consent request pending. */
export const NO_CONSENT_TO_OPEN: Refusal = {
	status: 409,
	message: 'Save the setup first: there is no consent request to open.'
};

/** A custom state that another flow of this browser is waiting for. */
export const STATE_TAKEN: Refusal = {
	status: 409,
	message:
		'This state is already pending in another flow of this browser (another tab): a redirect carrying it could not tell the two apart. Use another one, or leave it empty for a random state.'
};

/** The setup form, saved with fields that do not pass (the answer names them). */
export const SETUP_NEEDS_FIXING: Refusal = { status: 400, message: 'Some fields need fixing.' };

export const UNKNOWN_PRESET: Refusal = { status: 400, message: 'Unknown preset.' };

/** "Get a code for the script" with PKCE on. */
export const VERIFIER_STAYS_HERE: Refusal = {
	status: 409,
	message:
		'With PKCE on, the verifier stays on the playground server, so the script could not exchange this consent request’s code. Turn PKCE off in the setup to get a code for the script.'
};

/** Undo after another action (or with nothing to undo). */
export const UNDO_GONE: Refusal = {
	status: 410,
	message:
		'Too late to undo: another action came after Start over (or there was nothing to undo), and the old flow is gone.'
};

/** Undo after its time. */
export const undoTooLate = (seconds: number): Refusal => ({
	status: 410,
	message: `Too late to undo: Start over was more than ${seconds} seconds ago, and the old flow is gone.`
});

// The forks (fork.ts).

/** A second fork, refused while the first exists (the answer names the first). */
export const FORK_HELD: Refusal = {
	status: 409,
	message:
		'This flow already has a fork: a flow keeps one fork at a time, so its code is not replayed while that fork exists. Open the fork, or close it to replay the code here. Nothing was sent.'
};

/** A fork that could not be written beside its parent. */
export const FORK_TOO_LARGE: Refusal = {
	status: 409,
	message:
		'This flow is too large to keep a fork beside it: the two together would go over the cap on the playground’s cookies, and a flow is never dropped to make room for its own fork. Shorten the longest setup fields, or start over with a shorter setup. Nothing was sent.'
};

/**
 * A step, a save or a try asked of a fork: a fork is the record of what the service did with a
 * replayed code or refresh token (replay.ts), and sends nothing more.
 */
export const FORK_IS_RECORD: Refusal = {
	status: 409,
	message:
		'This flow is a fork, kept as the record of what the service did with a replayed code or refresh token: it sends nothing more, and its setup stays as it was. Go on in the flow it was made from (the link at the top of the page). Nothing was sent.'
};

/** "Close that fork" naming a flow that is not this flow's fork. */
export const NOT_ITS_FORK: Refusal = {
	status: 409,
	message: 'That flow is not a fork of this flow: nothing was closed.'
};

/** "Replay this code" with no code of this flow's to replay (replay.ts). */
export const NOTHING_TO_REPLAY: Refusal = {
	status: 409,
	message:
		'There is no code to replay: only the code this flow exchanged for its tokens, under the current setup, can be replayed.'
};

/** "Replay the previous refresh token" with none to replay (replay.ts). */
export const NO_PREVIOUS_REFRESH: Refusal = {
	status: 409,
	message:
		'There is no previous refresh token to send: only the one a refresh of this flow replaced (the service rotated it), under the current setup and while the flow holds the tokens that replaced it, can be sent again. A service that returns the same refresh token has no older one to try.'
};

/** "Two refreshes at once" with no refresh token to send. */
export const NO_TOKENS_TO_RACE: Refusal = {
	status: 409,
	message:
		'There is no refresh token to send twice: "Two refreshes at once" needs this flow to hold a refresh token that no revocation has proven dead.'
};

/** A try of the previous refresh token, refused while the flow's fork exists. */
export const REFRESH_FORK_HELD: Refusal = {
	status: 409,
	message:
		'This flow already has a fork: a flow keeps one fork at a time, so the previous refresh token is not sent while that fork exists. Open the fork, or close it to try here. Nothing was sent.'
};

/** A refresh held: this flow's fork superseded its refresh token (replay.ts). */
export const REFRESH_HELD: Refusal = {
	status: 409,
	message: `This flow's refresh token was superseded by its fork's check: the fork's refresh replaced it, so a refresh here would send a superseded token, which the service may take as a reuse and answer by revoking the grant. Take the fork's newest tokens into this flow (step ${STEPS.refresh.n}), or close the fork. Nothing was sent.`
};

/** A refresh held: the fork whose try superseded this flow's refresh token was dropped (fork.ts). */
export const REFRESH_HELD_FORK_GONE: Refusal = {
	status: 409,
	message:
		"This flow's refresh token was superseded by its fork's check, and that fork, which held the newer tokens, was dropped to make room for newer flows: a refresh here would send a superseded token, which the service may take as a reuse and answer by revoking the grant. Start over for new tokens. Nothing was sent."
};

/** A try of this flow's refresh token, which a fork's try superseded (replay.ts). */
export const TRY_SUPERSEDED: Refusal = {
	status: 409,
	message:
		"This flow's refresh token was superseded by its fork's check: a try here would send a superseded token, as a refresh would, which the service may take as a reuse and answer by revoking the grant. Take the fork's newest tokens into this flow while the fork holds them, or start over. Nothing was sent."
};

/** "Take the fork's newest tokens" with no such fork. */
export const NOTHING_TO_TAKE: Refusal = {
	status: 409,
	message:
		"There are no fork's tokens to take: only a fork whose try of the previous refresh token refreshed, under this setup, holds newer tokens for this flow. Nothing was changed."
};

// What a step needs before it sends anything.

/** The URL a request with the client's credentials goes to is not in the setup (client-auth.ts). */
export const noEndpoint = (key: string): Refusal => ({
	status: 409,
	message: `The setup has no ${key.replace(/_/g, ' ')}: enter it in the setup first.`
});

/** The secret may not go with this setup (secret.ts `usableSecret` says why). */
export const secretNotSent = (why: string): Refusal => ({ status: 409, message: why });

/** The access token may not go to this URL (oauth/token-binding.ts `tokenMayGo` says why). */
export const tokenNotSent = (why: string): Refusal => ({ status: 409, message: why });

/** An API call the token may not be sent with (oauth/api-request.ts `apiUrl` says why). */
export const apiCallRefused = (why: string): Refusal => ({ status: 400, message: why });

export const PASTE_NOT_A_URL: Refusal = {
	status: 400,
	message:
		'That is not a valid URL. Paste the whole address from the browser, or only the part after "?".'
};

export const PASTE_HOLDS_NOTHING: Refusal = {
	status: 400,
	message:
		'The pasted text holds no code, state or error parameter. Paste the full address the browser landed on after the consent page.'
};

export const NO_CODE: Refusal = {
	status: 409,
	message:
		'There is no code to exchange. Open the consent page and authorize first; a code is used once.'
};

/** The code the issuer check held back, exchanged without "Exchange anyway". */
export const CODE_HELD: Refusal = {
	status: 409,
	message:
		'The code was held back because the issuer check failed (possible mix-up attack, RFC 9207). Read the warning in step 2; "Exchange anyway" there exchanges it.'
};

export const NO_TOKENS: Refusal = {
	status: 409,
	message: 'There are no tokens yet: finish the code exchange first.'
};

export const NO_ACCESS_TOKEN: Refusal = {
	status: 409,
	message: 'There is no access token yet: finish the code exchange first.'
};

/** The refresh, when the service gave no refresh token. */
export const NOTHING_TO_REFRESH_WITH: Refusal = {
	status: 409,
	message: 'The service gave no refresh token, so there is nothing to refresh with.'
};

/** Introspection or revocation of a refresh token the service never gave. */
export const NO_REFRESH_TOKEN: Refusal = {
	status: 409,
	message: 'The service gave no refresh token, so there is none to act on.'
};

/** An API call whose expired token could not be refreshed first (the exchanges show why). */
export const REFRESH_FIRST_FAILED: Refusal = {
	status: 424, // Failed Dependency: the refresh it needed failed
	message:
		'The access token had expired and refreshing it failed (the refresh step shows why), so the call was not made.'
};

export const PAR_NOT_ON: Refusal = {
	status: 409,
	message:
		'The setup does not use pushed authorization requests: tick "Use PAR" in the setup (Advanced settings) first.'
};

/** "Check the client secret" for a public client, which has no secret to check. */
export const NO_SECRET_TO_CHECK: Refusal = {
	status: 409,
	message:
		'This setup is a public client (Client authentication: none): it sends no secret, so there is none to check. "Check the consent URL" checks its client id and redirect URI.'
};

export const NO_CONSENT_TO_PUSH: Refusal = {
	status: 409,
	message: 'There is no consent request to push: prepare a new one first.'
};

/** Why nothing can be checked without a JWKS URL (nothing is sent then). */
export const NO_JWKS_URI: Refusal = {
	status: 409,
	message:
		'The setup has no JWKS URL (jwks_uri), so there are no issuer keys to check the signature with, and nothing was sent. Enter the issuer’s jwks_uri in the setup (Advanced settings; the server’s metadata names it). A token signed with a shared secret (HS256, as the built-in sandbox signs its tokens) can only be checked by the issuer itself.'
};

export const NO_JWT_PASTED: Refusal = { status: 400, message: 'Paste a JWT to check.' };

/** A check of one of the flow's tokens that it does not hold. */
export const noSuchToken = (kind: string): Refusal => ({
	status: 400,
	message: `There is no ${kind} in this flow's tokens.`
});

export const NOT_A_JWT: Refusal = {
	status: 400,
	message:
		'That is not a signed JWT: a JWT is three base64url parts joined by dots (header.payload.signature), and its header and payload are JSON.'
};
