/**
 * The demo account of the sandbox: one made-up user with four feeds, a few tags and twelve items,
 * answered in the Google-Reader-style JSON the reader API uses. Writes (edit-tag, mark-all-as-read)
 * change a small per-client copy of the read/starred/label state, kept in memory.
 */

export const DEMO_USER = {
	userId: '1001',
	userName: 'Demo Reader',
	userProfileId: '1001',
	userEmail: 'demo@example.com',
	isBloggerUser: false,
	signupTimeSec: 1_600_000_000,
	isMultiLoginEnabled: false
} as const;

const UID = DEMO_USER.userId;
const STATE = `user/${UID}/state/com.google`;
export const READING_LIST = `${STATE}/reading-list`;
const READ = `${STATE}/read`;
export const STARRED = `${STATE}/starred`;
const label = (name: string) => `user/${UID}/label/${name}`;

interface Feed {
	id: string;
	title: string;
	htmlUrl: string;
	folder: string;
}

const FEEDS: Feed[] = [
	{
		id: 'feed/https://blog.example.com/feed.xml',
		title: 'Example Engineering Blog',
		htmlUrl: 'https://blog.example.com/',
		folder: 'Tech'
	},
	{
		id: 'feed/https://news.example.org/rss',
		title: 'Example World News',
		htmlUrl: 'https://news.example.org/',
		folder: 'News'
	},
	{
		id: 'feed/https://cooking.example.net/atom.xml',
		title: 'Weeknight Cooking',
		htmlUrl: 'https://cooking.example.net/',
		folder: 'Food'
	},
	{
		id: 'feed/https://podcast.example.com/episodes.rss',
		title: 'The Example Podcast',
		htmlUrl: 'https://podcast.example.com/',
		folder: 'Tech'
	}
];

const TAGS = ['Later'];
const DEMO_AUTHOR = 'Example Author';

interface Item {
	/** Decimal item id; the long form is `tag:google.com,2005:reader/item/<16 hex digits>`. */
	num: number;
	feed: Feed;
	title: string;
	path: string;
	summary: string;
	published: number;
}

const BASE_TIME = 1_736_935_200; // 2025-01-15 10:00 UTC
const TITLES: [number, string, string][] = [
	[
		0,
		'Shipping a feature flag system in a week',
		'What we learned replacing a homegrown toggle table.'
	],
	[0, 'Why our build got 40% faster', 'Caching, fewer workers, and one surprising default.'],
	[0, 'On-call without burnout', 'Rotations, runbooks and saying no.'],
	[
		1,
		'City council approves new bike lanes',
		'Twelve kilometres of protected lanes by next spring.'
	],
	[1, 'Library extends weekend hours', 'Branches stay open until 8 pm on Saturdays.'],
	[1, 'Local bakery wins regional award', 'The sourdough judges were unanimous.'],
	[2, 'Ten-minute tomato soup', 'Pantry staples, one pot.'],
	[2, 'Sheet-pan chickpeas with lemon', 'Crispy, bright, and almost no washing up.'],
	[2, 'The only pancake recipe you need', 'Fluffy, forgiving, weekend-proof.'],
	[3, 'Episode 41: Reading feeds in 2025', 'Why RSS is still the best way to follow the web.'],
	[
		3,
		'Episode 42: OAuth without tears',
		'Codes, tokens and the state parameter, explained slowly.'
	],
	[3, 'Episode 43: Listener questions', 'Tags, folders and keeping unread counts low.']
];

const ITEMS: Item[] = TITLES.map(([feed, title, summary], i) => ({
	num: 1001 + i,
	feed: FEEDS[feed]!,
	title,
	path: title
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, ''),
	summary,
	published: BASE_TIME - i * 5400
}));

export const itemLongId = (num: number) =>
	`tag:google.com,2005:reader/item/${num.toString(16).padStart(16, '0')}`;

/** Finds an item from any of its id forms: long, 16-hex short form, or decimal. */
export function findItem(id: string): Item | undefined {
	const text = id.trim();
	let num: number | undefined;
	const long = /^tag:google\.com,2005:reader\/item\/([0-9a-f]{1,16})$/i.exec(text);
	if (long) num = parseInt(long[1]!, 16);
	else if (/^[0-9a-f]{16}$/i.test(text)) num = parseInt(text, 16);
	else if (/^\d{1,15}$/.test(text)) num = Number(text);
	return num === undefined ? undefined : ITEMS.find((it) => it.num === num);
}

/** The read/starred/label state of the demo items, as one client sees and changes it. */
export class ReaderState {
	read = new Set<number>([1003, 1006, 1009]);
	starred = new Set<number>([1002]);
	labels = new Map<number, Set<string>>([[1011, new Set([label('Later')])]]);

	/** The state as JSON, for the store: item numbers, and each item's labels. */
	toJSON(): { read: number[]; starred: number[]; labels: [number, string[]][] } {
		return {
			read: [...this.read],
			starred: [...this.starred],
			labels: [...this.labels].filter(([, l]) => l.size).map(([num, l]) => [num, [...l]])
		};
	}

	/** The state a store kept (`undefined`: none yet, the demo's starting state). */
	static from(json: string | undefined): ReaderState {
		const state = new ReaderState();
		if (json === undefined) return state;
		const data = JSON.parse(json) as ReturnType<ReaderState['toJSON']>;
		state.read = new Set(data.read);
		state.starred = new Set(data.starred);
		state.labels = new Map(data.labels.map(([num, l]) => [num, new Set(l)]));
		return state;
	}

	categories(item: Item): string[] {
		const out = [READING_LIST, label(item.feed.folder)];
		if (this.read.has(item.num)) out.push(READ);
		if (this.starred.has(item.num)) out.push(STARRED);
		for (const l of this.labels.get(item.num) ?? []) out.push(l);
		return out;
	}
}

/** `user/-/…` means the current user. */
function normalizeStreamId(id: string): string {
	return id.replace(/^user\/-\//, `user/${UID}/`);
}

/** The items of a stream, newest first; undefined when the stream is unknown. */
function streamItems(streamId: string, state: ReaderState): Item[] | undefined {
	const id = normalizeStreamId(streamId);
	if (id === READING_LIST) return ITEMS;
	if (id === STARRED) return ITEMS.filter((it) => state.starred.has(it.num));
	if (id === READ) return ITEMS.filter((it) => state.read.has(it.num));
	if (FEEDS.some((f) => f.id === id)) return ITEMS.filter((it) => it.feed.id === id);
	const labelName = id.startsWith(`user/${UID}/label/`)
		? id.slice(`user/${UID}/label/`.length)
		: undefined;
	if (labelName !== undefined) {
		if (FEEDS.some((f) => f.folder === labelName))
			return ITEMS.filter((it) => it.feed.folder === labelName);
		return ITEMS.filter((it) => state.labels.get(it.num)?.has(id));
	}
	return undefined;
}

export function subscriptionList() {
	return {
		subscriptions: FEEDS.map((f, i) => ({
			id: f.id,
			title: f.title,
			categories: [{ id: label(f.folder), label: f.folder }],
			sortid: (0x10000000 + i).toString(16).toUpperCase(),
			firstitemmsec: (BASE_TIME - 90 * 86400) * 1000,
			url: f.id.slice('feed/'.length),
			htmlUrl: f.htmlUrl,
			iconUrl: ''
		}))
	};
}

export function tagList() {
	const folders = [...new Set(FEEDS.map((f) => f.folder))];
	return {
		tags: [
			{ id: STARRED },
			{ id: `${STATE}/broadcast` },
			...folders.map((name) => ({ id: label(name), type: 'folder' })),
			...TAGS.map((name) => ({ id: label(name), type: 'tag' }))
		]
	};
}

const usec = (sec: number) => String(sec * 1_000_000);

export function unreadCount(state: ReaderState) {
	const unread = ITEMS.filter((it) => !state.read.has(it.num));
	const entry = (id: string, items: Item[]) => ({
		id,
		count: items.length,
		newestItemTimestampUsec: usec(Math.max(0, ...items.map((it) => it.published)))
	});
	const folders = [...new Set(FEEDS.map((f) => f.folder))];
	return {
		max: 1000,
		unreadcounts: [
			...FEEDS.map((f) =>
				entry(
					f.id,
					unread.filter((it) => it.feed.id === f.id)
				)
			),
			...folders.map((name) =>
				entry(
					label(name),
					unread.filter((it) => it.feed.folder === name)
				)
			),
			entry(READING_LIST, unread)
		]
	};
}

export interface StreamQuery {
	/** Number of items, 1..100. */
	n: number;
	/** Oldest first when 'o'. */
	r?: string | undefined;
	/** Exclude items carrying this category (e.g. user/-/state/com.google/read). */
	xt?: string | undefined;
	/** Continuation: an offset written by a previous page. */
	c?: string | undefined;
}

function page(items: Item[], q: StreamQuery, state: ReaderState) {
	let list = q.xt
		? items.filter((it) => !state.categories(it).includes(normalizeStreamId(q.xt!)))
		: items;
	if (q.r === 'o') list = [...list].reverse();
	const offset = q.c && /^\d+$/.test(q.c) ? Number(q.c) : 0;
	const slice = list.slice(offset, offset + q.n);
	const next = offset + q.n < list.length ? String(offset + q.n) : undefined;
	return { slice, next };
}

export function streamContents(streamId: string, q: StreamQuery, state: ReaderState) {
	const items = streamItems(streamId, state);
	if (!items) return undefined;
	const { slice, next } = page(items, q, state);
	const id = normalizeStreamId(streamId);
	const feed = FEEDS.find((f) => f.id === id);
	return {
		direction: 'ltr',
		id,
		title: feed?.title ?? id.split('/').pop() ?? id,
		description: '',
		self: { href: '' },
		updated: BASE_TIME,
		updatedUsec: usec(BASE_TIME),
		items: slice.map((it) => ({
			crawlTimeMsec: String(it.published * 1000),
			timestampUsec: usec(it.published),
			id: itemLongId(it.num),
			categories: state.categories(it),
			title: it.title,
			published: it.published,
			updated: it.published,
			canonical: [{ href: `${it.feed.htmlUrl}${it.path}` }],
			alternate: [{ href: `${it.feed.htmlUrl}${it.path}`, type: 'text/html' }],
			summary: { direction: 'ltr', content: `<p>${it.summary}</p>` },
			author: DEMO_AUTHOR,
			origin: { streamId: it.feed.id, title: it.feed.title, htmlUrl: it.feed.htmlUrl }
		})),
		...(next && { continuation: next })
	};
}

export function streamItemIds(streamId: string, q: StreamQuery, state: ReaderState) {
	const items = streamItems(streamId, state);
	if (!items) return undefined;
	const { slice, next } = page(items, q, state);
	return {
		items: [],
		itemRefs: slice.map((it) => ({
			id: String(it.num),
			directStreamIds: [],
			timestampUsec: usec(it.published)
		})),
		...(next && { continuation: next })
	};
}

export type EditResult = { ok: true } | { ok: false; description: string };

const MAX_LABELS = 20;
const EDITABLE = /^user\/(?:-|\d+)\/(?:state\/com\.google\/(?:read|starred)|label\/[^/]{1,100})$/;

/** Google Reader's edit-tag: `i` item ids (repeatable), `a` tags to add, `r` tags to remove. */
export function editTag(
	state: ReaderState,
	ids: string[],
	add: string[],
	remove: string[]
): EditResult {
	if (ids.length === 0) return { ok: false, description: 'Parameter i (item id) is required' };
	if (add.length === 0 && remove.length === 0)
		return { ok: false, description: 'Give a tag to add (a) or to remove (r)' };
	const items: Item[] = [];
	for (const id of ids) {
		const item = findItem(id);
		if (!item)
			return { ok: false, description: `Unknown item id ${JSON.stringify(id.slice(0, 80))}` };
		items.push(item);
	}
	for (const tag of [...add, ...remove]) {
		if (!EDITABLE.test(tag)) {
			return {
				ok: false,
				description: `Tag ${JSON.stringify(tag.slice(0, 80))} cannot be edited: use user/-/state/com.google/read, user/-/state/com.google/starred or user/-/label/<name>`
			};
		}
	}
	const apply = (tag: string, on: boolean) => {
		const id = normalizeStreamId(tag);
		for (const it of items) {
			const set = id === READ ? state.read : id === STARRED ? state.starred : undefined;
			if (set) {
				if (on) set.add(it.num);
				else set.delete(it.num);
				continue;
			}
			const labels = state.labels.get(it.num) ?? new Set<string>();
			if (on) {
				labels.add(id);
				// Memory stays bounded: an item keeps its last MAX_LABELS labels.
				for (const oldest of labels) if (labels.size > MAX_LABELS) labels.delete(oldest);
			} else labels.delete(id);
			state.labels.set(it.num, labels);
		}
	};
	for (const tag of add) apply(tag, true);
	for (const tag of remove) apply(tag, false);
	return { ok: true };
}

/** Google Reader's mark-all-as-read: `s` stream, optional `ts` (microseconds): only items up to then. */
export function markAllAsRead(
	state: ReaderState,
	stream: string | undefined,
	ts: string | undefined
): EditResult {
	if (!stream) return { ok: false, description: 'Parameter s (stream id) is required' };
	const items = streamItems(stream, state);
	if (!items)
		return { ok: false, description: `Unknown stream ${JSON.stringify(stream.slice(0, 120))}` };
	if (ts !== undefined && !/^\d{1,20}$/.test(ts))
		return { ok: false, description: 'Parameter ts must be a timestamp in microseconds' };
	const limit = ts === undefined ? Infinity : Number(ts) / 1_000_000;
	for (const it of items) if (it.published <= limit) state.read.add(it.num);
	return { ok: true };
}
