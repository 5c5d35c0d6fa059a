/**
 * A 400 from the reader API over an item id (edit-tag's `i`): what the valid forms are and where
 * the ids come from. The forms are Google Reader's, as the built-in sandbox takes them: the decimal
 * id that `stream/items/ids` returns, its 16-hex-digit form, and the long form that
 * `stream/contents` returns. Pure: it reads only the Exchange. The findings' words are in the
 * catalogue (catalogue/resource-call.ts).
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { headerValue } from '$lib/exchange/types';
import { specOf } from '$lib/steps/registry';
import { raise } from './catalogue/raise';
import { ITEM_ID_MALFORMED, ITEM_ID_MISSING, ITEM_ID_UNKNOWN } from './catalogue/resource-call';

const LONG = /^tag:google\.com,2005:reader\/item\/[0-9a-f]{1,16}$/i;
const SHORT_HEX = /^[0-9a-f]{16}$/i;
const DECIMAL = /^-?\d{1,20}$/;

/** Whether a value has the form of an item id (whether the service knows the item is another matter). */
export function isItemIdForm(id: string): boolean {
	const t = id.trim();
	return LONG.test(t) || SHORT_HEX.test(t) || DECIMAL.test(t);
}

/** The `i` values of a request: from its query, and from its body when it is form-encoded. */
export function itemIdsSent(ex: Exchange): string[] {
	const out: string[] = [];
	if (URL.canParse(ex.request.url)) out.push(...new URL(ex.request.url).searchParams.getAll('i'));
	const ct = headerValue(ex.request.headers, 'Content-Type') ?? '';
	if (/^application\/x-www-form-urlencoded/i.test(ct))
		out.push(...new URLSearchParams(ex.request.body).getAll('i'));
	return out;
}

function said(body: string): string {
	try {
		const v = JSON.parse(body) as { error_description?: unknown };
		return typeof v.error_description === 'string' ? v.error_description : body;
	} catch {
		return body;
	}
}

const short = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** The finding for a 400 from the API that is about an item id, or undefined. */
export function badItemIdFinding(ex: Exchange): Finding | undefined {
	const res = ex.response;
	if (specOf(ex.step).endpoint !== 'api' || !res || res.status !== 400) return undefined;
	const editTag =
		URL.canParse(ex.request.url) && /\/edit-tag\/?$/.test(new URL(ex.request.url).pathname);
	const text = said(res.body);
	const aboutItems = /\bitem id\b|\bparameter i\b/i.test(text);
	if (!aboutItems && !editTag) return undefined;
	const ids = itemIdsSent(ex);
	const malformed = ids.filter((id) => !isItemIdForm(id));
	if (malformed.length) return raise(ITEM_ID_MALFORMED, malformed.map(short));
	if (!aboutItems) return undefined;
	if (!ids.length) return raise(ITEM_ID_MISSING);
	return raise(ITEM_ID_UNKNOWN, short(text));
}
