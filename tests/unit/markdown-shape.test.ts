import { describe, expect, test } from 'vitest';
import { toMarkdown } from '$lib/exchange/markdown';
import type { Exchange, Step } from '$lib/exchange/types';

function exchange(step: Step, url: string, more: Partial<Exchange> = {}): Exchange {
	return {
		id: 'x1',
		step,
		startedAt: '2026-03-14T10:00:00.000Z',
		request: { method: 'GET', url, httpVersion: '1.1', headers: [['Host', 'svc.test']], body: '' },
		timing: { total: 12 },
		findings: [],
		...more
	};
}

describe('toMarkdown: the report reads as Markdown blocks, one blank line apart', () => {
	test('an API call with a note, findings, a redaction and a cut response, as a whole document', () => {
		const ex = exchange('api', 'https://svc.test/reader/api/0/tag/list', {
			note: '\n Sent again \r\n\r\nwith the new token \u2028',
			findings: [
				{ level: 'info', code: 'note', message: 'An info' },
				{ level: 'warning', code: 'slow', message: 'Slow answer', fix: 'Wait', ref: 'RFC 1' },
				{ level: 'error', code: 'bad', message: 'Broken' }
			],
			redactions: [{ what: 'client_secret', length: 17 }],
			response: {
				status: 200,
				statusText: 'OK',
				httpVersion: '1.1',
				headers: [['Content-Type', 'text/plain']],
				body: 'partial',
				truncated: true
			}
		});
		const md = toMarkdown([ex], {
			setup: { client_id: 'a|b', scope: '', auto: false, port: 8080, extra: null, gone: undefined },
			generatedAt: new Date('2026-03-14T10:00:00Z')
		});
		expect(md).toBe(EXPECTED_API);
	});

	test('the consent step says the browser opened it, and the report opens with the line saying so; a call with no response and no failure says so', () => {
		const consent = exchange('consent', 'https://svc.test/oauth2/authorize?client_id=c');
		const api = exchange('api', 'https://svc.test/reader/api/0/user-info', {
			findings: [{ level: 'info', code: 'note', message: 'Only info' }]
		});
		const md = toMarkdown([consent, api], { generatedAt: new Date('2026-03-14T10:00:00Z') });
		expect(md).toBe(EXPECTED_CONSENT);
	});

	test('a failed call shows its failure and no "no response" line; warnings lead the summary when there is no error', () => {
		const failed = exchange('userinfo', 'https://svc.test/userinfo', {
			failure: { kind: 'refused', message: 'Nothing is listening' },
			findings: [
				{ level: 'info', code: 'note', message: 'An info' },
				{ level: 'warning', code: 'w', message: 'A warning' }
			]
		});
		const md = toMarkdown([failed], { generatedAt: new Date('2026-03-14T10:00:00Z') });
		expect(md).toBe(EXPECTED_FAILED);
	});
});

describe('toMarkdown: inline code and table cells hold any text', () => {
	test('a code span is longer than any backtick run inside, and padded when the text starts or ends with one', () => {
		const findings = ['a``b', '`x', 'x`', ''].map((code) => ({
			level: 'info' as const,
			code,
			message: 'm'
		}));
		const md = toMarkdown([exchange('api', 'https://svc.test/', { findings })], {
			generatedAt: new Date('2026-03-14T10:00:00Z')
		});
		expect(md).toContain('- **info** ```a``b```: m');
		expect(md).toContain('- **info** `` `x ``: m');
		expect(md).toContain('- **info** `` x` ``: m');
		expect(md).toContain('- **info** `  `: m');
	});

	test('a URL of exactly 100 characters is kept whole in the prose; 101 is shortened', () => {
		const base = 'https://svc.test/';
		const at100 = base + 'p'.repeat(100 - base.length);
		const at101 = at100 + 'q';
		const md100 = toMarkdown([exchange('api', at100)], { generatedAt: new Date(0) });
		expect(md100).toContain(`\`GET ${at100}\`, started`);
		const md101 = toMarkdown([exchange('api', at101)], { generatedAt: new Date(0) });
		expect(md101).not.toContain(`\`GET ${at101}\``);
		expect(md101).toContain('(101 characters');
	});

	test('a setup with only secret fields gets no setup table at all', () => {
		const md = toMarkdown([], {
			setup: { client_secret: 's1', password: 'p' },
			generatedAt: new Date(0)
		});
		expect(md).not.toContain('| Field | Value |');
		expect(md).not.toContain('## Setup');
		expect(md.endsWith('## Summary\n\nNo exchanges yet.\n')).toBe(true);
	});

	test('a whole response says nothing about the size cap', () => {
		const ex = exchange('api', 'https://svc.test/', {
			response: {
				status: 204,
				statusText: 'No Content',
				httpVersion: '1.1',
				headers: [],
				body: '',
				truncated: false
			}
		});
		const md = toMarkdown([ex], { generatedAt: new Date(0) });
		expect(md.endsWith('```http\nHTTP/1.1 204 No Content\n```\n')).toBe(true);
	});
});

const EXPECTED_API = [
	'# Feed-reader OAuth playground transcript',
	'',
	'Generated 2026-03-14T10:00:00.000Z. 1 exchange. Tokens and codes are shortened to their first and last 4 characters. The client secret is never in a transcript.',
	'',
	'## What failed',
	'',
	'Exchange #1, API call: `GET https://svc.test/reader/api/0/tag/list` → 200 OK.',
	'',
	'- **error** `bad`: Broken',
	'',
	'## Summary',
	'',
	'1. **API call** (api): `GET https://svc.test/reader/api/0/tag/list` → 200 OK. error: Broken',
	'',
	'## #1 API call',
	'',
	'*Sent again  with the new token*',
	'',
	'`GET https://svc.test/reader/api/0/tag/list`, started 2026-03-14T10:00:00.000Z, 12 ms.',
	'',
	'**Findings**',
	'',
	'- **info** `note`: An info',
	'- **warning** `slow`: Slow answer  ',
	'  Fix: Wait  ',
	'  Reference: RFC 1',
	'- **error** `bad`: Broken',
	'',
	'**Request**',
	'',
	'```http',
	'GET /reader/api/0/tag/list HTTP/1.1',
	'Host: svc.test',
	'```',
	'',
	'client\\_secret: shown as `<redacted>`; 17 bytes were sent.',
	'',
	'**Response**',
	'',
	'```http',
	'HTTP/1.1 200 OK',
	'Content-Type: text/plain',
	'',
	'partial',
	'```',
	'',
	'The body was cut at the size cap; only its start is shown.',
	'',
	'## Setup',
	'',
	'| Field | Value |',
	'|---|---|',
	'| `client_id` | `a\\|b` |',
	'| `auto` | `no` |',
	'| `port` | `8080` |',
	'',
	'The client secret is not part of this report.',
	''
].join('\n');
const EXPECTED_CONSENT = [
	'# Step 1, consent page opened; nothing came back yet · Feed-reader OAuth playground transcript',
	'',
	'Generated 2026-03-14T10:00:00.000Z. 2 exchanges. Tokens and codes are shortened to their first and last 4 characters. The client secret is never in a transcript.',
	'',
	'## Summary',
	'',
	'1. **Consent redirect** (consent): `GET https://svc.test/oauth2/authorize?client_id=c` → opened in the browser',
	'2. **API call** (api): `GET https://svc.test/reader/api/0/user-info` → no response',
	'',
	'## #1 Consent redirect',
	'',
	'`GET https://svc.test/oauth2/authorize?client_id=c`, started 2026-03-14T10:00:00.000Z, 12 ms.',
	'',
	'No findings.',
	'',
	'**Request**',
	'',
	'```http',
	'GET /oauth2/authorize?client_id=c HTTP/1.1',
	'Host: svc.test',
	'```',
	'',
	'No response here: the browser opened this URL and the service showed its consent page.',
	'',
	'## #2 API call',
	'',
	'`GET https://svc.test/reader/api/0/user-info`, started 2026-03-14T10:00:00.000Z, 12 ms.',
	'',
	'**Findings**',
	'',
	'- **info** `note`: Only info',
	'',
	'**Request**',
	'',
	'```http',
	'GET /reader/api/0/user-info HTTP/1.1',
	'Host: svc.test',
	'```',
	'',
	'No response was recorded.',
	''
].join('\n');
const EXPECTED_FAILED = [
	'# Feed-reader OAuth playground transcript',
	'',
	'Generated 2026-03-14T10:00:00.000Z. 1 exchange. Tokens and codes are shortened to their first and last 4 characters. The client secret is never in a transcript.',
	'',
	'## What failed',
	'',
	'Exchange #1, User-info: `GET https://svc.test/userinfo` → failed (refused).',
	'',
	'**Failure** (refused): Nothing is listening',
	'',
	'## Summary',
	'',
	'1. **User-info** (userinfo): `GET https://svc.test/userinfo` → failed (refused). warning: A warning',
	'',
	'## #1 User-info',
	'',
	'`GET https://svc.test/userinfo`, started 2026-03-14T10:00:00.000Z, 12 ms.',
	'',
	'**Findings**',
	'',
	'- **info** `note`: An info',
	'- **warning** `w`: A warning',
	'',
	'**Request**',
	'',
	'```http',
	'GET /userinfo HTTP/1.1',
	'Host: svc.test',
	'```',
	'',
	'**Failure** (refused): Nothing is listening',
	''
].join('\n');
