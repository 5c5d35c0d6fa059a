import { describe, expect, test } from 'vitest';
import { decodeJwt, relativeTime } from '$lib/oauth/jwt';
import {
	API_DOCS,
	API_DOCS_PATH,
	API_DOCS_SECTIONS,
	apiDocs,
	apiDocsHref,
	citationParts
} from '$lib/oauth/docs';

const b64u = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const jwt = (payload: string) => `${b64u('{"alg":"none"}')}.${b64u(payload)}.`;

describe('decodeJwt time claims', () => {
	test('the range a Date can hold, either side of the epoch, is listed; beyond it is not', () => {
		const d = decodeJwt(jwt('{"exp":8640000000000,"iat":-8640000000000,"nbf":8640000000001}'));
		expect(d.ok && d.times).toEqual([
			{ name: 'exp', value: 8.64e12, date: '+275760-09-13T00:00:00.000Z' },
			{ name: 'iat', value: -8.64e12, date: '-271821-04-20T00:00:00.000Z' }
		]);
		const inf = decodeJwt(jwt('{"exp":1e400,"iat":0}'));
		expect(inf.ok && inf.times.map((t) => t.name)).toEqual(['iat']);
	});
	test('an unsigned JWT is still decoded for display', () => {
		expect(decodeJwt(jwt('{"sub":"s"}'))).toEqual({
			ok: true,
			header: { alg: 'none' },
			payload: { sub: 's' },
			times: []
		});
	});
});

describe('relativeTime at its unit boundaries', () => {
	const now = 1_000_000_000_000;
	test.each([
		[999, 'now'],
		[-999, 'now'],
		[1_000, 'in 1 s'],
		[-1_000, '1 s ago'],
		[59_999, 'in 59 s'],
		[60_000, 'in 1 min'],
		[3_599_999, 'in 59 min'],
		[3_600_000, 'in 1 h'],
		[3_660_000, 'in 1 h 1 min'],
		[48 * 3_600_000 - 1, 'in 47 h 59 min'],
		[48 * 3_600_000, 'in 2 days'],
		[-72 * 3_600_000 + 1, '2 days ago']
	])('%d ms from now → %s', (diff, text) => {
		expect(relativeTime(now + diff, now)).toBe(text);
	});
});

describe('the service’s API docs', () => {
	test('are named the same everywhere, and summarised at /api-docs in nine sections', () => {
		expect(API_DOCS).toBe("the service's API docs");
		expect(API_DOCS_PATH).toBe('/api-docs');
		expect(API_DOCS_SECTIONS.map((s) => s.id)).toEqual([
			'1',
			'2',
			'3',
			'4',
			'5',
			'6',
			'7',
			'8',
			'9'
		]);
		expect(apiDocs()).toBe("the service's API docs ");
	});
	test('a section reference must be the whole text, trimmed', () => {
		expect(apiDocsHref(' §8 ')).toBe('/api-docs#section-8');
		expect(apiDocsHref('§4.2.1')).toBe('/api-docs');
		expect(apiDocsHref('see §4')).toBe('/api-docs');
		expect(apiDocsHref('§5 step')).toBe('/api-docs');
		expect(apiDocsHref('§')).toBe('/api-docs');
	});
	test('citation parts: text before, between and after the sections; nothing empty', () => {
		expect(citationParts("the service's API docs §4")).toEqual([
			{ text: "the service's API docs" },
			{ text: ' ' },
			{ text: '§4', href: '/api-docs#section-4' }
		]);
		expect(citationParts("(the service's API docs §4.1 and §8).")).toEqual([
			{ text: "(the service's API docs" },
			{ text: ' ' },
			{ text: '§4.1', href: '/api-docs#section-4.1' },
			{ text: ' and ' },
			{ text: '§8', href: '/api-docs#section-8' },
			{ text: ').' }
		]);
		expect(citationParts("the service's API docs")).toEqual([{ text: "the service's API docs" }]);
		expect(citationParts('plain')).toEqual([{ text: 'plain' }]);
	});
	test('two citations back to back', () => {
		const text = "the service's API docs §1the service's API docs §2";
		expect(citationParts(text)).toEqual([
			{ text: "the service's API docs" },
			{ text: ' ' },
			{ text: '§1', href: '/api-docs#section-1' },
			{ text: "the service's API docs" },
			{ text: ' ' },
			{ text: '§2', href: '/api-docs#section-2' }
		]);
	});
});

test('sections and steps of more than one digit are cited and linked', () => {
	expect(apiDocsHref('§10')).toBe('/api-docs#section-10');
	expect(apiDocsHref('§4.12')).toBe('/api-docs#section-4.12');
	expect(apiDocsHref('§5 step 12')).toBe('/api-docs#section-5-step-12');
	const links = citationParts("the service's API docs §10, §4.12 and §5 step 12.").filter(
		(p) => p.href
	);
	expect(links).toEqual([
		{ text: '§10', href: '/api-docs#section-10' },
		{ text: '§4.12', href: '/api-docs#section-4.12' },
		{ text: '§5 step 12', href: '/api-docs#section-5-step-12' }
	]);
});
