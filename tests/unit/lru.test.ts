// The memo an app's redactors keep their matchers in (exchange/lru.ts): bounded by the total weight
// of what it keeps, the least recently used dropped first, and a value dropped is made again.
import { describe, expect, test } from 'vitest';
import { createLru } from '$lib/exchange/lru';

/** A memo of strings weighing their length, bounded at `max`, that counts what it had to make. */
function memo(max: number) {
	const made: string[] = [];
	const lru = createLru<string, string>(max, (v) => v.length);
	const get = (key: string, value = key) =>
		lru.get(key, () => {
			made.push(key);
			return value;
		});
	return { get, made };
}

describe('a memo bounded by weight', () => {
	test('a value is made once, then handed back as it was kept', () => {
		const m = memo(100);
		const first = m.get('abc', 'value of abc');
		expect(m.get('abc', 'another value')).toBe(first);
		expect(m.made).toEqual(['abc']);
	});

	test('the least recently used goes first when the total would pass the bound; the rest stay', () => {
		const m = memo(10);
		m.get('aaa');
		m.get('bbb');
		m.get('aaa'); // aaa is now the more recent of the two
		m.get('ccc'); // 9 in all: everything fits
		expect(m.made).toEqual(['aaa', 'bbb', 'ccc']);
		m.get('dd'); // 11: bbb, the least recently used, goes
		m.get('aaa');
		m.get('ccc');
		m.get('dd');
		expect(m.made).toEqual(['aaa', 'bbb', 'ccc', 'dd']);
		m.get('bbb'); // made again; aaa (least recently used) goes to make room
		expect(m.made).toEqual(['aaa', 'bbb', 'ccc', 'dd', 'bbb']);
		m.get('ccc');
		m.get('aaa');
		expect(m.made).toEqual(['aaa', 'bbb', 'ccc', 'dd', 'bbb', 'aaa']);
	});

	test('what weighs exactly the bound together is kept; a value heavier than the bound alone is not', () => {
		const m = memo(6);
		m.get('abc');
		m.get('def');
		m.get('abc');
		m.get('def');
		expect(m.made).toEqual(['abc', 'def']);
		expect(m.get('seven!!')).toBe('seven!!');
		m.get('seven!!');
		expect(m.made).toEqual(['abc', 'def', 'seven!!', 'seven!!']);
	});

	test('two memos keep nothing in common', () => {
		const [one, two] = [memo(100), memo(100)];
		one.get('k', 'one');
		expect(two.get('k', 'two')).toBe('two');
		expect(one.get('k')).toBe('one');
		expect([one.made, two.made]).toEqual([['k'], ['k']]);
	});
});
