import { describe, expect, test } from 'vitest';
import type { Exchange } from '$lib/exchange/types';
import { badItemIdFinding, isItemIdForm, itemIdsSent } from '$lib/oauth/item-ids';
import { diagnose } from '$lib/oauth/diagnose';

function ex(
	path: string,
	body: string,
	status = 400,
	said = 'Unknown item id "x"',
	query = ''
): Exchange {
	return {
		id: 'x',
		step: 'api',
		startedAt: new Date(0).toISOString(),
		request: {
			method: 'POST',
			url: `https://r.test/reader/api/0/${path}${query}`,
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body
		},
		response: {
			status,
			statusText: '',
			httpVersion: '1.1',
			headers: [['Content-Type', 'application/json']],
			body: JSON.stringify({ error: 'invalid_request', error_description: said }),
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

describe('item id forms', () => {
	test.each([
		'1001',
		'00000000000003e9',
		'tag:google.com,2005:reader/item/00000000000003e9',
		'TAG:google.com,2005:reader/item/3E9'
	])('%s has the form of an item id', (id) => expect(isItemIdForm(id)).toBe(true));
	test.each(['item-1', '', '3e9', 'tag:google.com,2005:reader/item/', '1001x'])(
		'%j does not',
		(id) => expect(isItemIdForm(id)).toBe(false)
	);
	test('the ids sent: from the query, and from a form body only', () => {
		expect(itemIdsSent(ex('edit-tag', 'i=1&i=2&a=t', 400, '', '?i=3'))).toEqual(['3', '1', '2']);
		const json = ex('edit-tag', 'i=1');
		json.request.headers = [['Content-Type', 'application/json']];
		expect(itemIdsSent(json)).toEqual([]);
	});
});

describe('the finding for a 400 over an item id', () => {
	test('a malformed id: named, with the forms and where ids come from', () => {
		const f = badItemIdFinding(ex('edit-tag', 'i=item-1&a=user/-/state/com.google/starred'))!;
		expect(f.code).toBe('bad-item-id');
		expect(f.message).toBe('The service refused the call (400): "item-1" is not an item id.');
		expect(f.fix).toContain('stream/items/ids');
		expect(f.fix).toContain('tag:google.com,2005:reader/item/');
		const two = badItemIdFinding(ex('edit-tag', 'i=a&i=1001&i=b', 400, 'other'))!;
		expect(two.message).toContain('"a", "b" are not item ids');
	});
	test('a well-formed id the service does not know; no id at all', () => {
		expect(badItemIdFinding(ex('edit-tag', 'i=999999&a=t'))!.message).toContain('does not know it');
		expect(
			badItemIdFinding(ex('edit-tag', 'a=t', 400, 'Parameter i (item id) is required'))!.message
		).toContain('at least one item id');
	});
	test('no finding for another 400 of edit-tag, another status, or another call about no item', () => {
		expect(
			badItemIdFinding(ex('edit-tag', 'i=1001&a=bad', 400, 'Tag "bad" cannot be edited'))
		).toBeUndefined();
		expect(badItemIdFinding(ex('edit-tag', 'i=item-1', 403))).toBeUndefined();
		expect(badItemIdFinding(ex('mark-all-as-read', 's=x', 400, 'Unknown stream'))).toBeUndefined();
		expect(badItemIdFinding({ ...ex('edit-tag', 'i=x'), step: 'userinfo' })).toBeUndefined();
	});
	test('diagnose adds it to the API step', () => {
		expect(diagnose(ex('edit-tag', 'i=item-1')).map((f) => f.code)).toEqual(['bad-item-id']);
	});
});
