/**
 * A flow's id: which of this browser's flows a tab runs. It is in the page's address
 * (`/?flow=<id>`) and in every form's action, and names the flow's sealed cookie. It is not a
 * secret (every flow is this browser's own); it only keeps one tab's flow apart from another's.
 * Pure functions: no I/O; the browser and the server use the same shape.
 */

/** The query parameter that carries the flow id. */
export const FLOW_PARAM = 'flow';

/** 12 random bytes in base64url: 16 characters of `[A-Za-z0-9_-]`. */
export const FLOW_ID_RE = /^[A-Za-z0-9_-]{16}$/;

export function isFlowId(value: unknown): value is string {
	return typeof value === 'string' && FLOW_ID_RE.test(value);
}

/** A new flow id: 12 random bytes, base64url (96 bits: no two tabs meet by chance). */
export function newFlowId(
	random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n))
): string {
	let bin = '';
	for (const b of random(12)) bin += String.fromCharCode(b);
	return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_');
}

export type FlowParam =
	{ ok: true; id: string } | { ok: false; reason: 'missing' | 'malformed'; message: string };

/** The flow id a request names in its query, or why it names none. */
export function flowParam(params: URLSearchParams): FlowParam {
	const all = params.getAll(FLOW_PARAM);
	if (all.length === 0)
		return {
			ok: false,
			reason: 'missing',
			message: `This form action names no flow: add ?${FLOW_PARAM}=<id> (the page's address carries it). Nothing was changed.`
		};
	if (all.length > 1 || !isFlowId(all[0]))
		return {
			ok: false,
			reason: 'malformed',
			message: `The flow id must be 16 characters of A-Z, a-z, 0-9, "-" and "_", given once. Nothing was changed.`
		};
	return { ok: true, id: all[0]! };
}

/** The page of a flow, and a form action of it (`?flow=<id>&/name`: SvelteKit takes the key that starts with "/"). */
export const flowPage = (id: string) => `/?${FLOW_PARAM}=${id}`;
export const flowAction = (id: string, name: string) => `?${FLOW_PARAM}=${id}&/${name}`;
