/**
 * The setup field "Redirect URI as registered": optional, kept as written, not a secret (it goes
 * into links and the exports' setup section), and filled in by presets.
 */
import { describe, expect, test } from 'vitest';
import { setupFromForm, setupSchema } from '$lib/oauth/setup';
import { parsePrefill, prefillLink } from '$lib/oauth/prefill';
import { presetsFrom } from '$lib/server/flow/presets';
import { toMarkdown } from '$lib/exchange/markdown';

const base = {
	base_url: 'https://reader.test',
	client_id: 'app',
	redirect_uri: 'http://127.0.0.1:5173/callback'
};

describe('the setup field', () => {
	test('optional: empty by default', () => {
		expect(setupSchema.parse(base).registered_redirect_uri).toBe('');
	});
	test('kept as written: a trailing slash, a port, an escape, a query are the point of it', () => {
		const uri = 'HTTP://LocalHost:80/Call%7eback/?x=1';
		expect(setupSchema.parse({ ...base, registered_redirect_uri: ` ${uri} ` })).toMatchObject({
			registered_redirect_uri: uri
		});
	});
	test('not a URL: a clear message naming the field', () => {
		const r = setupSchema.safeParse({ ...base, registered_redirect_uri: 'callback/' });
		expect(r.success).toBe(false);
		expect(r.error!.issues[0]).toMatchObject({
			path: ['registered_redirect_uri'],
			message: expect.stringMatching(/^Redirect URI as registered is not a valid URL/)
		});
	});
	test('read from the form', () => {
		const f = new FormData();
		f.set('registered_redirect_uri', 'https://app.test/cb/');
		expect(setupFromForm(f).registered_redirect_uri).toBe('https://app.test/cb/');
	});
});

describe('not a secret: links and exports carry it', () => {
	test('a docs link round-trips it', () => {
		const link = prefillLink('http://127.0.0.1:5173', {
			...base,
			registered_redirect_uri: 'https://app.test/cb/'
		});
		expect(new URL(link).searchParams.get('registered_redirect_uri')).toBe('https://app.test/cb/');
		const p = parsePrefill(new URL(link).searchParams);
		expect(p.values.registered_redirect_uri).toBe('https://app.test/cb/');
		expect(p.unknown).toEqual([]);
	});
	test("the Markdown report's setup section lists it", () => {
		const setup = setupSchema.parse({ ...base, registered_redirect_uri: 'https://app.test/cb/' });
		expect(toMarkdown([], { setup, generatedAt: new Date(0) })).toMatch(
			/\| `registered_redirect_uri` \| `https:\/\/app\.test\/cb\/` \|/
		);
	});
});

test('a configured preset may name it', () => {
	const [p] = presetsFrom([
		{ name: 'acme', ...base, registered_redirect_uri: 'https://app.test/cb/' }
	]);
	expect(p!.setup.registered_redirect_uri).toBe('https://app.test/cb/');
	expect(() => presetsFrom([{ name: 'x', ...base, registered_redirect_uri: 'nope' }])).toThrow(
		/entry 0: field registered_redirect_uri/
	);
});
