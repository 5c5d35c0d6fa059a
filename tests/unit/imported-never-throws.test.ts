/**
 * `importHar` never throws: if the diagnostics fail on something a file holds, the import answers
 * with a reason instead of breaking the page. The rules are made to throw here, since no file
 * known to pass the reader makes them throw.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { toHar } from '$lib/exchange/har/export';
import { importHar } from '$lib/oauth/imported';
import { transcript } from './transcript';

const rule = vi.hoisted(() => ({ throws: undefined as unknown }));

vi.mock('$lib/oauth/diagnose', async (original) => {
	const real = await original<typeof import('$lib/oauth/diagnose')>();
	return {
		...real,
		diagnose: (...args: Parameters<typeof real.diagnose>) => {
			if (rule.throws !== undefined) throw rule.throws;
			return real.diagnose(...args);
		}
	};
});

// Built while the rules still work: the fixture goes through the server's own diagnostics.
// Made in each test (before the rule is made to throw), not at collection: code run at collection
// is covered by no test.
const file = () => JSON.stringify(toHar(transcript()));
afterEach(() => {
	rule.throws = undefined;
});

test('a rule that throws on an imported exchange gives an unreadable-file answer, not an exception', () => {
	const har = file();
	rule.throws = new TypeError('a rule broke');
	expect(importHar(har)).toEqual({
		ok: false,
		reason: 'unreadable',
		message: expect.stringMatching(/: a rule broke$/)
	});
});

test('a rule that throws something other than an Error is reported by its text', () => {
	const har = file();
	rule.throws = 'not an Error';
	expect(importHar(har)).toEqual({
		ok: false,
		reason: 'unreadable',
		message: expect.stringMatching(/: not an Error$/)
	});
});
