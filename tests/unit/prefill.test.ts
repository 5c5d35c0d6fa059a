import { describe, expect, test } from 'vitest';
import { htmlSnippet, parsePrefill, prefillLink } from '$lib/oauth/prefill';

const q = (s: string) => new URLSearchParams(s);

describe('parsePrefill', () => {
	test('fills the known fields', () => {
		const p = parsePrefill(
			q(
				'base_url=https://reader.example/&client_id=app-1&scope=read&token_location=query&auto_exchange=false'
			)
		);
		expect(p.values).toEqual({
			base_url: 'https://reader.example',
			client_id: 'app-1',
			scope: 'read',
			token_location: 'query',
			auto_exchange: false
		});
		expect(p.host).toBe('reader.example');
		expect(p.errors).toEqual({});
	});
	test('a client_secret, token or code is refused and not used', () => {
		const p = parsePrefill(q('client_id=a&client_secret=s3cret&access_token=t&code=c&my_secret=x'));
		expect(p.refused).toEqual(['client_secret', 'access_token', 'code', 'my_secret']);
		expect(JSON.stringify(p)).not.toContain('s3cret');
		expect(p.values).toEqual({ client_id: 'a' });
	});
	test('invalid values get messages, unknown parameters are listed', () => {
		const p = parsePrefill(
			q('base_url=javascript:alert(1)&token_location=cookie&utm_source=docs&foo=1')
		);
		expect(p.errors.base_url).toMatch(/http/);
		expect(p.errors.token_location).toBeTruthy();
		expect(p.unknown).toEqual(['utm_source', 'foo']);
		expect(p.values).toEqual({});
	});
	test('a repeated parameter is an error', () => {
		expect(parsePrefill(q('client_id=a&client_id=b')).errors.client_id).toMatch(/2 times/);
	});
	test('names every object has (toString, constructor, __proto__) are unknown parameters, not a crash', () => {
		const p = parsePrefill(
			q('toString=1&constructor=x&__proto__=y&hasOwnProperty=z&client_id=app-1')
		);
		expect(p.unknown).toEqual(['toString', 'constructor', '__proto__', 'hasOwnProperty']);
		expect(p.values).toEqual({ client_id: 'app-1' });
		expect(p.errors).toEqual({});
	});
	test('a preset name is kept apart', () => {
		expect(parsePrefill(q('preset=sandbox-rw&scope=read')).preset).toBe('sandbox-rw');
	});
});

describe('prefillLink', () => {
	test('round-trips through parsePrefill and never carries a secret', () => {
		const setup = {
			base_url: 'https://reader.example',
			client_id: 'app 1',
			scope: 'read write',
			redirect_uri: 'https://app.example/cb',
			token_location: 'query' as const,
			auto_exchange: false
		};
		const link = prefillLink('http://127.0.0.1:5173', { ...setup, client_secret: 'nope' } as never);
		expect(link).not.toContain('nope');
		expect(link).not.toContain('secret');
		expect(parsePrefill(new URL(link).searchParams).values).toEqual(setup);
	});
	test('leaves out the defaults and the playground’s own callback', () => {
		const link = prefillLink(
			'http://127.0.0.1:5173',
			{
				base_url: 'https://r.example',
				client_id: 'a',
				redirect_uri: 'http://127.0.0.1:5173/callback',
				token_location: 'header',
				auto_exchange: true
			},
			{ token_location: 'header', auto_exchange: true }
		);
		expect(link).toBe('http://127.0.0.1:5173/?base_url=https%3A%2F%2Fr.example&client_id=a');
	});
});

test('the HTML snippet escapes the link', () => {
	expect(htmlSnippet('http://x/?a=1&b="<>')).toBe(
		'<a href="http://x/?a=1&amp;b=&quot;&lt;&gt;" target="_blank" rel="noopener">Try it in the playground</a>'
	);
});
