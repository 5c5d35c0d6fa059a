/**
 * Calls of the sandbox's reader API that work as they stand, for the playground's API step to offer
 * (the server hook hands them over, so that neither side imports the other). The item ids are the
 * demo account's, in the form `stream/items/ids` returns them; the edit-tag example stars one of
 * them. Each is sent as shown by a test, which expects a 2xx.
 */
import { endpointList } from './api.server';
import { READING_LIST, ReaderState, STARRED, streamItemIds, subscriptionList } from './demo.server';

export interface SandboxApiExample {
	method: 'GET' | 'POST';
	/** Below `/reader/api/0/`. */
	path: string;
	query: string;
	body: string;
	zone: 1 | 2;
	/** What it does, in a few words. */
	title: string;
}

/** `user/<id>/…` written as the current user's `user/-/…`, as clients send it. */
const asCurrentUser = (id: string) => id.replace(/^user\/\d+\//, 'user/-/');

export function sandboxApiExamples(): SandboxApiExample[] {
	const ids = streamItemIds(READING_LIST, { n: 2 }, new ReaderState())!.itemRefs.map((r) => r.id);
	const reading = asCurrentUser(READING_LIST);
	const starred = asCurrentUser(STARRED);
	const feed = subscriptionList().subscriptions.at(-1)!.id;
	const zone = (path: string) => endpointList().find((e) => e.path.split('/<')[0] === path)!.zone;
	const get = (path: string, query: string, title: string, zonePath = path): SandboxApiExample => ({
		method: 'GET',
		path,
		query,
		body: '',
		zone: zone(zonePath),
		title
	});
	const post = (path: string, body: string, title: string): SandboxApiExample => ({
		method: 'POST',
		path,
		query: '',
		body,
		zone: zone(path),
		title
	});
	return [
		get('user-info', '', 'the current user'),
		get('subscription/list', 'output=json', 'the feeds'),
		get('tag/list', 'output=json', 'folders and tags'),
		get('unread-count', 'output=json', 'unread counts'),
		get('stream/items/ids', `s=${reading}&n=5&output=json`, 'item ids, to use in edit-tag'),
		get(
			`stream/contents/${reading}`,
			'n=2&output=json',
			'the newest items with their content',
			'stream/contents'
		),
		post('edit-tag', `i=${ids[0]}&a=${starred}`, `star item ${ids[0]}`),
		post('edit-tag', `i=${ids[1]}&r=${starred}`, `unstar item ${ids[1]}`),
		post('mark-all-as-read', `s=${feed}`, 'mark one feed read')
	];
}
