/**
 * The step-up after a call refused for want of scope (403 `insufficient_scope`), and the call sent
 * again once the new tokens are in. Pure, but for the tab's record of the API console's last call.
 *
 * - Whether to offer the step-up: the diagnosis names the scope to ask for (diagnose.ts, which
 *   already offers none when the token's own consent asked for it and was granted less); none
 *   either when this setup's flow has shown that the registration cannot have it: a consent that
 *   asked for it refused with `invalid_scope`, or a token answer to a consent that asked for it
 *   that granted less.
 * - The call sent again: the API console keeps its last call's fields in the tab (sessionStorage,
 *   by flow): what the user typed, never an Authorization header (the console refuses one), so it
 *   lasts the consent page's round trip. Once a token answer that grants the scope asked for came
 *   after the refused call, "Send the call again" fills the console with it and sends it.
 */
import type { Exchange } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';
import { scopeTokens } from '$lib/oauth/token-set';

/** The finding of a call refused for want of scope (oauth/catalogue/resource-call.ts). */
const SCOPE_REFUSED = 'insufficient_scope';

/** The scope a refused call's diagnosis says to ask for, if it says one. */
function suggestedScope(refused: Exchange | undefined): string | undefined {
	return refused?.findings.find((f) => f.code === SCOPE_REFUSED)?.suggest?.value;
}

/** Whether every scope-token of `wanted` is in `scope` (RFC 6749 §3.3: a set of words). */
function covers(scope: string | undefined, wanted: string): boolean {
	const have = new Set(scopeTokens(scope));
	return scopeTokens(wanted).every((w) => have.has(w));
}

/** A token answer's granted scope: its `scope`, else what was asked (RFC 6749 §5.1). */
function granted(ex: Exchange, asked: string | undefined): string | undefined {
	try {
		const body: unknown = JSON.parse(ex.response?.body ?? '');
		const scope = (body as { scope?: unknown } | null)?.scope;
		return typeof scope === 'string' ? scope : asked;
	} catch {
		return asked;
	}
}

const ok = (ex: Exchange) => !!ex.response && ex.response.status >= 200 && ex.response.status < 300;

/** What a redirect back returned (RFC 6749 §4.1.2): its `error`, if any. */
function returnedError(ex: Exchange): string | null {
	return URL.canParse(ex.request.url) ? new URL(ex.request.url).searchParams.get('error') : null;
}

/**
 * Each code exchange's token answer and each refused consent of `exchanges` (one setup's, in
 * order), with the scope its consent request asked for and the scope granted (none for a
 * refusal). A refresh answers for the grant it refreshes, not for the consent opened last (which
 * may have been left without a decision), so it counts for neither.
 */
function* grants(
	exchanges: readonly Exchange[]
): Generator<{ index: number; asked: string | undefined; granted?: string }> {
	let asked: string | undefined;
	for (const [index, ex] of exchanges.entries()) {
		if (ex.replay) continue;
		const shape = specOf(ex.step).verdict;
		if (shape === 'opened' && URL.canParse(ex.request.url))
			asked = new URL(ex.request.url).searchParams.get('scope') ?? undefined;
		else if (shape === 'consent' && returnedError(ex) === 'invalid_scope') yield { index, asked };
		else if (shape === 'tokens' && specOf(ex.step).grantType === 'authorization_code' && ok(ex))
			yield { index, asked, granted: granted(ex, asked) };
	}
}

/**
 * Whether this setup's flow showed that the registration cannot have `wanted`: a consent that asked
 * for it was refused (`invalid_scope`), or granted less.
 */
export function cannotHave(wanted: string, exchanges: readonly Exchange[]): boolean {
	for (const g of grants(exchanges)) {
		// A refused consent granted nothing.
		if (g.asked && covers(g.asked, wanted) && !covers(g.granted, wanted)) return true;
	}
	return false;
}

/** The scope the step-up asks for after `refused`, or none (see the module's comment). */
export function stepUpScope(
	refused: Exchange | undefined,
	exchanges: readonly Exchange[]
): string | undefined {
	const wanted = suggestedScope(refused);
	return wanted && !cannotHave(wanted, exchanges) ? wanted : undefined;
}

/** The API console's fields, as its form posts them. */
export interface CallFields {
	method: string;
	path: string;
	query: string;
	headers: string;
	body_kind: string;
	body: string;
	content_type: string;
}

/**
 * The API console's last call: its fields and the exchange it brought back; after a step-up for
 * it, the setup's scope before (`scopeBefore`) and the one the step-up saved (`scopeAsked`), for
 * its Undo.
 */
export interface KeptCall {
	exchange: string;
	fields: CallFields;
	scopeBefore?: string;
	scopeAsked?: string;
}

const FIELDS = ['method', 'path', 'query', 'headers', 'body_kind', 'body', 'content_type'] as const;

/** The console's fields from its form's data (a field the form did not post is ''). */
export function callFields(form: FormData): CallFields {
	const get = (k: string) => {
		const v = form.get(k);
		return typeof v === 'string' ? v : '';
	};
	return Object.fromEntries(FIELDS.map((k) => [k, get(k)])) as unknown as CallFields;
}

/**
 * Whether `refused` may be sent again now: it is the console's newest call, kept in the tab, and a
 * token answer that grants the scope it was refused for came after it. The kept call, or none.
 */
export function callToSendAgain(
	kept: KeptCall | undefined,
	refused: Exchange | undefined,
	exchanges: readonly Exchange[]
): KeptCall | undefined {
	const wanted = suggestedScope(refused);
	if (!kept || !refused || !wanted || kept.exchange !== refused.id) return undefined;
	const at = exchanges.findIndex((e) => e.id === refused.id);
	if (at < 0) return undefined;
	for (const g of grants(exchanges))
		if (g.index > at && g.granted !== undefined && covers(g.granted, wanted)) return kept;
	return undefined;
}

/** The words of the call, as a button says it: "POST edit-tag". */
export function callWords(kept: KeptCall, refused: Exchange): string {
	const path = kept.fields.path.trim() || new URL(refused.request.url).pathname;
	return `${kept.fields.method || refused.request.method} ${path}`;
}

/**
 * The step-up's Undo: while the refused call is the console's newest and the setup still holds
 * the scope the step-up saved, the scope it had before (to save again); else none.
 */
export function scopeToRestore(
	kept: KeptCall | undefined,
	refused: Exchange | undefined,
	setupScope: string | undefined
): string | undefined {
	if (!kept?.scopeAsked || kept.exchange !== refused?.id) return undefined;
	return setupScope === kept.scopeAsked ? kept.scopeBefore : undefined;
}

const KEY = (flow: string) => `playground.api-call.${flow}`;

function storage(): Storage | undefined {
	try {
		return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
	} catch {
		return undefined;
	}
}

/** Whether the fields carry an Authorization header (the console refuses one; never kept). */
function carriesAuthorization(fields: CallFields): boolean {
	return fields.headers
		.split(/\r?\n/)
		.some((line) => line.split(':')[0]!.trim().toLowerCase() === 'authorization');
}

/** Keeps the console's last call of `flow` in the tab; never one with an Authorization header. */
export function keepCall(flow: string, kept: KeptCall): void {
	if (carriesAuthorization(kept.fields)) return;
	try {
		storage()?.setItem(KEY(flow), JSON.stringify(kept));
	} catch {
		// Storage full or turned off: the call is not offered again, nothing else changes.
	}
}

/** The console's last call of `flow` kept in this tab, if any (and well-formed). */
export function keptCall(flow: string): KeptCall | undefined {
	try {
		const raw: unknown = JSON.parse(storage()?.getItem(KEY(flow)) ?? 'null');
		const kept = raw as KeptCall | null;
		if (
			!kept ||
			typeof kept.exchange !== 'string' ||
			typeof kept.fields !== 'object' ||
			!kept.fields ||
			!FIELDS.every((k) => typeof kept.fields[k] === 'string')
		)
			return undefined;
		const { exchange, fields, scopeBefore, scopeAsked } = kept;
		return typeof scopeBefore === 'string' && typeof scopeAsked === 'string'
			? { exchange, fields, scopeBefore, scopeAsked }
			: { exchange, fields };
	} catch {
		return undefined;
	}
}
