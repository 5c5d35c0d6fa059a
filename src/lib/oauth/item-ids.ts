/**
 * A 400 from the reader API over an item id (edit-tag's `i`): what the valid forms are and where
 * the ids come from. The forms are Google Reader's, as the built-in sandbox takes them: the decimal
 * id that `stream/items/ids` returns, its 16-hex-digit form, and the long form that
 * `stream/contents` returns. Pure: it reads only the Exchange.
 */
import type { Exchange, Finding } from '$lib/exchange/types';
import { headerValue } from '$lib/exchange/types';
import { BAD_ITEM_ID } from './findings';

const LONG = /^tag:google\.com,2005:reader\/item\/[0-9a-f]{1,16}$/i;
const SHORT_HEX = /^[0-9a-f]{16}$/i;
const DECIMAL = /^-?\d{1,20}$/;

/** Whether a value has the form of an item id (whether the service knows the item is another matter). */
export function isItemIdForm(id: string): boolean {
	const t = id.trim();
	return LONG.test(t) || SHORT_HEX.test(t) || DECIMAL.test(t);
}

const ITEM_ID_FORMS =
	'the decimal id that stream/items/ids returns (itemRefs[].id, e.g. 1001), its 16-hex-digit form (00000000000003e9), or the long form tag:google.com,2005:reader/item/00000000000003e9 that stream/contents returns (items[].id)';

const WHERE_IDS_COME_FROM =
	'GET stream/items/ids with s=user/-/state/com.google/reading-list lists the ids of the reading list';

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
	if (ex.step !== 'api' || !res || res.status !== 400) return undefined;
	const editTag =
		URL.canParse(ex.request.url) && /\/edit-tag\/?$/.test(new URL(ex.request.url).pathname);
	const text = said(res.body);
	const aboutItems = /\bitem id\b|\bparameter i\b/i.test(text);
	if (!aboutItems && !editTag) return undefined;
	const ids = itemIdsSent(ex);
	const malformed = ids.filter((id) => !isItemIdForm(id));
	const fix = `Use ${ITEM_ID_FORMS}. ${WHERE_IDS_COME_FROM}.`;
	const ref = 'Google Reader API conventions, as the built-in sandbox follows them (/sandbox)';
	if (malformed.length)
		return {
			level: 'error',
			code: BAD_ITEM_ID,
			message: `The service refused the call (400): ${malformed.map(short).join(', ')} ${malformed.length > 1 ? 'are not item ids' : 'is not an item id'}.`,
			fix,
			ref
		};
	if (!aboutItems) return undefined;
	if (!ids.length)
		return {
			level: 'error',
			code: BAD_ITEM_ID,
			message: 'The service refused the call (400): it needs at least one item id, i=….',
			fix,
			ref
		};
	return {
		level: 'error',
		code: BAD_ITEM_ID,
		message: `The service refused the call (400): the item id is well-formed, but the service does not know it (it said ${short(text)}).`,
		fix: `Take the ids from the account itself: ${WHERE_IDS_COME_FROM}.`,
		ref
	};
}
