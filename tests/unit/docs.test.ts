import { describe, expect, test } from 'vitest';
import { API_DOCS, apiDocs, apiDocsHref, citationParts, codeParts } from '$lib/oauth/docs';

describe('citations of the service’s API docs', () => {
	test('a citation names the docs and the sections', () => {
		expect(apiDocs('§4.2')).toBe("the service's API docs §4.2");
		expect(apiDocs('§4.2', '§4.3')).toBe("the service's API docs §4.2, §4.3");
	});

	test('a section maps to its anchor on the in-app summary', () => {
		expect(apiDocsHref('§4.2')).toBe('/api-docs#section-4.2');
		expect(apiDocsHref('§4')).toBe('/api-docs#section-4');
		expect(apiDocsHref('§5 step 3')).toBe('/api-docs#section-5-step-3');
		expect(apiDocsHref('not a section')).toBe('/api-docs');
	});

	test('each cited section becomes a link; the rest stays text, and nothing is lost', () => {
		const text = `Send it on token requests (${API_DOCS} §4.2, §4.3 and §5 step 6); RFC 6749 §5.2 too.`;
		const parts = citationParts(text);
		expect(parts.map((p) => p.text).join('')).toBe(text);
		expect(parts.filter((p) => p.href)).toEqual([
			{ text: '§4.2', href: '/api-docs#section-4.2' },
			{ text: '§4.3', href: '/api-docs#section-4.3' },
			{ text: '§5 step 6', href: '/api-docs#section-5-step-6' }
		]);
	});

	test('RFC sections and text without a citation are not linked', () => {
		expect(citationParts('RFC 6749 §10.12')).toEqual([{ text: 'RFC 6749 §10.12' }]);
		expect(citationParts('')).toEqual([{ text: '' }]);
	});

	test('the typographic apostrophe is a citation too, and two citations both link', () => {
		const text = "the service’s API docs §2.1; see also the service's API docs §8.";
		const links = citationParts(text).filter((p) => p.href);
		expect(links.map((p) => p.href)).toEqual(['/api-docs#section-2.1', '/api-docs#section-8']);
		expect(
			citationParts(text)
				.map((p) => p.text)
				.join('')
		).toBe(text);
	});
});

describe('inline code in text', () => {
	test('code spans are parts of their own; the rest stays text, lone backticks included', () => {
		expect(codeParts('`read`, `read write`, or empty')).toEqual([
			{ text: 'read', code: true },
			{ text: ', ' },
			{ text: 'read write', code: true },
			{ text: ', or empty' }
		]);
		expect(codeParts('no code here')).toEqual([{ text: 'no code here' }]);
		expect(codeParts('a ` alone')).toEqual([{ text: 'a ` alone' }]);
		expect(codeParts('')).toEqual([]);
	});
});
