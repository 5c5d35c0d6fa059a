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

describe('item ids: edges of the request and of the answer', () => {
	test('an id padded with spaces still has the form of an item id', () => {
		expect(isItemIdForm(' 1001 ')).toBe(true);
		expect(isItemIdForm('\t00000000000003e9\n')).toBe(true);
	});
	test('an unparseable URL: the ids of the form body are still read, no throw', () => {
		const e = ex('edit-tag', 'i=item-1');
		e.request.url = 'http://[not a url/edit-tag?i=2';
		expect(itemIdsSent(e)).toEqual(['item-1']);
		const f = badItemIdFinding({ ...e, response: { ...e.response!, body: 'bad item id' } })!;
		expect(f.code).toBe('bad-item-id');
	});
	test('a request without Content-Type, or with another type naming the form type later: its body is not read', () => {
		const none = ex('edit-tag', 'i=1', 400, '', '?i=3');
		none.request.headers = [];
		expect(itemIdsSent(none)).toEqual(['3']);
		const other = ex('edit-tag', 'i=1', 400, '', '?i=3');
		other.request.headers = [
			['Content-Type', 'text/plain; note=application/x-www-form-urlencoded']
		];
		expect(itemIdsSent(other)).toEqual(['3']);
	});
	test('what the service said is quoted: its error_description, else the whole body', () => {
		const desc = badItemIdFinding(ex('edit-tag', 'i=999999', 400, 'Unknown item id 999999'))!;
		expect(desc.message).toContain(JSON.stringify('Unknown item id 999999'));
		expect(desc.message).not.toContain('invalid_request');
		const noDesc = ex('edit-tag', 'i=999999');
		noDesc.response!.body = '{"error":"no such item id"}';
		expect(badItemIdFinding(noDesc)!.message).toContain(
			JSON.stringify('{"error":"no such item id"}')
		);
		const numeric = ex('edit-tag', 'i=999999');
		numeric.response!.body = '{"error_description":42,"error":"item id"}';
		expect(badItemIdFinding(numeric)!.message).toContain(JSON.stringify(numeric.response!.body));
		const text = ex('edit-tag', 'i=999999');
		text.response!.body = 'Unknown item id';
		expect(badItemIdFinding(text)!.message).toContain('"Unknown item id"');
	});
	test('a malformed id of exactly 60 characters is quoted whole; a longer one is cut at 60 with an ellipsis', () => {
		const sixty = 'x'.repeat(60);
		expect(badItemIdFinding(ex('edit-tag', `i=${sixty}`))!.message).toContain(`"${sixty}"`);
		const long = 'y'.repeat(60) + 'z'.repeat(20);
		const m = badItemIdFinding(ex('edit-tag', `i=${long}`))!.message;
		expect(m).toContain(`"${'y'.repeat(60)}…"`);
		expect(m).not.toContain('z');
	});
	test('another call: a finding when the 400 is about an item id, none when it is not', () => {
		const about = badItemIdFinding(
			ex('stream/items/contents', 'i=item-1', 400, 'Invalid item id "item-1"')
		)!;
		expect(about.code).toBe('bad-item-id');
		expect(
			badItemIdFinding(ex('stream/items/contents', 'i=item-1', 400, 'Unknown stream'))
		).toBeUndefined();
		expect(
			badItemIdFinding(
				ex('stream/contents/user/-/label/edit-tags', 'i=item-1', 400, 'Unknown stream')
			)
		).toBeUndefined();
	});
	test('every item id finding is an error', () => {
		expect(badItemIdFinding(ex('edit-tag', 'i=item-1'))!.level).toBe('error');
		expect(badItemIdFinding(ex('edit-tag', 'a=t', 400, 'Parameter i is required'))!.level).toBe(
			'error'
		);
		expect(badItemIdFinding(ex('edit-tag', 'i=999999'))!.level).toBe('error');
	});
});
