import { describe, expect, it } from 'vitest';
import { findEndpoint } from '$lib/sandbox/api.server';
import {
	DEMO_USER,
	ReaderState,
	editTag,
	findItem,
	itemLongId,
	markAllAsRead,
	streamContents,
	streamItemIds,
	subscriptionList,
	tagList,
	unreadCount
} from '$lib/sandbox/demo.server';

const total = (s: ReaderState) =>
	unreadCount(s).unreadcounts.find((u) => u.id.endsWith('/reading-list'))!.count;

describe('sandbox demo account', () => {
	it('has the user-info fields of the real service', () => {
		expect(Object.keys(DEMO_USER).sort()).toEqual(
			[
				'userId',
				'userName',
				'userProfileId',
				'userEmail',
				'isBloggerUser',
				'signupTimeSec',
				'isMultiLoginEnabled'
			].sort()
		);
	});

	it('lists 3-4 feeds, tags and unread counts', () => {
		const subs = subscriptionList().subscriptions;
		expect(subs.length).toBeGreaterThanOrEqual(3);
		expect(subs.length).toBeLessThanOrEqual(4);
		for (const s of subs) expect(s.id).toMatch(/^feed\/https:\/\//);
		expect(tagList().tags.some((t) => t.id.endsWith('/state/com.google/starred'))).toBe(true);
		expect(total(new ReaderState())).toBe(9);
	});

	it('finds items by long, short-hex and decimal ids', () => {
		expect(findItem(itemLongId(1001))?.num).toBe(1001);
		expect(findItem('00000000000003e9')?.num).toBe(1001);
		expect(findItem('1001')?.num).toBe(1001);
		expect(findItem('99')).toBeUndefined();
		expect(findItem('nonsense')).toBeUndefined();
	});

	it('edit-tag marks read and unread, stars, labels', () => {
		const s = new ReaderState();
		expect(editTag(s, ['1001', itemLongId(1002)], ['user/-/state/com.google/read'], [])).toEqual({
			ok: true
		});
		expect(total(s)).toBe(7);
		expect(editTag(s, ['1001'], [], ['user/-/state/com.google/read'])).toEqual({ ok: true });
		expect(total(s)).toBe(8);
		editTag(s, ['1004'], ['user/-/state/com.google/starred', 'user/-/label/Keep'], []);
		expect(
			streamItemIds('user/-/state/com.google/starred', { n: 20 }, s)!.itemRefs.map((r) => r.id)
		).toContain('1004');
		expect(streamItemIds('user/-/label/Keep', { n: 20 }, s)!.itemRefs.map((r) => r.id)).toEqual([
			'1004'
		]);
	});

	it('edit-tag refuses missing or unknown items and tags', () => {
		const s = new ReaderState();
		expect(editTag(s, [], ['user/-/state/com.google/read'], []).ok).toBe(false);
		expect(editTag(s, ['1001'], [], []).ok).toBe(false);
		expect(editTag(s, ['424242'], ['user/-/state/com.google/read'], []).ok).toBe(false);
		expect(editTag(s, ['1001'], ['user/-/state/com.google/broadcast-friends'], []).ok).toBe(false);
		expect(total(s)).toBe(9);
	});

	it('keeps at most 20 labels on an item', () => {
		const s = new ReaderState();
		for (let i = 0; i < 50; i++) editTag(s, ['1001'], [`user/-/label/L${i}`], []);
		expect(s.labels.get(1001)!.size).toBe(20);
	});

	it('mark-all-as-read marks a stream, optionally up to a time', () => {
		const s = new ReaderState();
		const feed = subscriptionList().subscriptions[3]!.id;
		const items = streamContents(feed, { n: 20 }, s)!.items;
		const oldest = Math.min(...items.map((i) => Number(i.timestampUsec)));
		expect(markAllAsRead(s, feed, String(oldest))).toEqual({ ok: true });
		expect(unreadCount(s).unreadcounts.find((u) => u.id === feed)!.count).toBe(2);
		expect(markAllAsRead(s, feed, undefined)).toEqual({ ok: true });
		expect(unreadCount(s).unreadcounts.find((u) => u.id === feed)!.count).toBe(0);
		expect(markAllAsRead(s, undefined, undefined).ok).toBe(false);
		expect(markAllAsRead(s, 'feed/https://unknown.example/', undefined).ok).toBe(false);
	});

	it('pages stream contents with n, c, r and xt', () => {
		const s = new ReaderState();
		const first = streamContents('user/-/state/com.google/reading-list', { n: 5 }, s)!;
		expect(first.items).toHaveLength(5);
		expect(first.continuation).toBe('5');
		const rest = streamContents('user/-/state/com.google/reading-list', { n: 20, c: '5' }, s)!;
		expect(rest.items).toHaveLength(7);
		expect(rest.continuation).toBeUndefined();
		const unread = streamContents(
			'user/-/state/com.google/reading-list',
			{ n: 20, xt: 'user/-/state/com.google/read' },
			s
		)!;
		expect(unread.items).toHaveLength(9);
		const oldestFirst = streamContents(
			'user/-/state/com.google/reading-list',
			{ n: 1, r: 'o' },
			s
		)!;
		expect(oldestFirst.items[0]!.id).toBe(itemLongId(1012));
		expect(streamContents('feed/https://nope.example/', { n: 5 }, s)).toBeUndefined();
	});

	it('routes API paths to endpoints', () => {
		expect(findEndpoint('user-info')?.endpoint).toMatchObject({ method: 'GET', zone: 1 });
		expect(findEndpoint('edit-tag')?.endpoint).toMatchObject({ method: 'POST', zone: 2 });
		expect(findEndpoint('mark-all-as-read')?.endpoint.zone).toBe(2);
		expect(findEndpoint('stream/contents/feed/https://a.example/rss')).toMatchObject({
			name: 'stream/contents',
			rest: 'feed/https://a.example/rss'
		});
		expect(findEndpoint('stream/contents')).toMatchObject({ name: 'stream/contents', rest: '' });
		expect(findEndpoint('user-info/extra')).toBeUndefined();
		expect(findEndpoint('nope')).toBeUndefined();
	});
});
