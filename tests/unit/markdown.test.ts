import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { fenced, toMarkdown } from '$lib/exchange/markdown';
import { importHar } from '$lib/oauth/imported';
import type { Exchange } from '$lib/exchange/types';
import { ACCESS_1, CODE, SECRET, TOKENS, transcript } from './transcript';

const setup = {
	base_url: 'http://127.0.0.1:5173/sandbox',
	client_id: 'sandbox-rw',
	scope: 'read',
	redirect_uri: 'http://127.0.0.1:5173/callback',
	token_location: 'header',
	auto_exchange: true
};
const generatedAt = new Date('2026-03-14T10:00:00Z');

/** The fenced blocks of a Markdown text, read the way CommonMark does: a fence closes on a line of at least as many backticks. */
function blocks(md: string): { fence: string; lang: string; content: string }[] {
	const out: { fence: string; lang: string; content: string }[] = [];
	const lines = md.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const open = /^(`{3,})(\S*)$/.exec(lines[i]!);
		if (!open) continue;
		const content: string[] = [];
		let j = i + 1;
		for (; j < lines.length && !new RegExp(`^\`{${open[1]!.length},}\\s*$`).test(lines[j]!); j++)
			content.push(lines[j]!);
		out.push({ fence: open[1]!, lang: open[2]!, content: content.join('\n') });
		i = j;
	}
	return out;
}

describe('toMarkdown', () => {
	// Made in each test, not at collection: code run at collection is covered by no test, so each
	// of its mutants would run the whole unit suite.
	const report = () => toMarkdown(transcript(), { setup, generatedAt });

	test('a title, the setup as a table, a summary, then each exchange', () => {
		const md = report();
		// The page's verdict first: the newest token request, at the time of the report.
		expect(md).toMatch(
			/^# ✓ Tokens received, expires in 27 min · Feed-reader OAuth playground transcript\n/
		);
		expect(md).toContain('Generated 2026-03-14T10:00:00.000Z. 7 exchanges.');
		// What the flow's fork found about its tokens: the page's line, so the report's too.
		expect(
			toMarkdown(transcript(), { setup, generatedAt, revokedByFork: 'refresh' }).split('\n')[0]
		).toBe(
			'# ✕ Tokens revoked: the service revoked them when a superseded refresh token came back, in a fork of this flow · Feed-reader OAuth playground transcript'
		);
		expect(md).toContain('| `client_id` | `sandbox-rw` |');
		expect(md).toContain('| `redirect_uri` | `http://127.0.0.1:5173/callback` |');
		expect(md).toContain('| `auto_exchange` | `yes` |');
		expect(md).toMatch(
			/^6\. \*\*API call\*\* \(api\): `POST http:\/\/127\.0\.0\.1:5173\/sandbox\/reader\/api\/0\/edit-tag` → 403 Forbidden\. error: This call needs write permission/m
		);
		expect(md).toMatch(
			/^7\. \*\*API call\*\* \(api\): .* → failed \(refused\)\. error: Nothing is listening/m
		);
		expect(md.match(/^## #\d+ /gm)).toEqual([
			'## #1 ',
			'## #2 ',
			'## #3 ',
			'## #4 ',
			'## #5 ',
			'## #6 ',
			'## #7 '
		]);
	});

	test('findings with level, code, message, fix and reference', () => {
		const md = report();
		expect(md).toContain('- **error** `insufficient_scope`: This call needs write permission');
		expect(md).toMatch(/ {2}Fix: Ask for scope "read write" at consent/);
		expect(md).toContain('  Reference: RFC 6750 §3.1');
	});

	test('raw request and response in http blocks; JSON bodies pretty', () => {
		const md = report();
		const http = blocks(md).filter((b) => b.lang === 'http');
		expect(http.length).toBe(12); // 7 requests, 5 responses (no response for consent and the failure)
		// consent request; callback request and response; then the code exchange
		expect(http[3]!.content).toMatch(
			/^POST \/sandbox\/oauth2\/token HTTP\/1\.1\nHost: 127\.0\.0\.1:5173\n/
		);
		expect(http[3]!.content).toContain('\n\ncode=');
		expect(http[4]!.content).toMatch(/^HTTP\/1\.1 200 OK\n/);
		expect(http[4]!.content).toContain('{\n  "access_token": "eyJh…');
		expect(http[4]!.content).toContain('\n  "token_type": "Bearer",\n');
		expect(md).toContain('client\\_secret: shown as `<redacted>`; 17 bytes were sent.');
	});

	test('tokens are shortened by default and kept with includeTokens; the secret never appears', () => {
		const md = report();
		for (const tok of TOKENS) expect(md).not.toContain(tok);
		expect(md).toContain(`${ACCESS_1.slice(0, 4)}…${ACCESS_1.slice(-4)}`);
		const full = toMarkdown(transcript(), { setup, includeTokens: true, generatedAt });
		for (const tok of TOKENS) expect(full).toContain(tok);
		expect(full).toMatch(/holds full access and refresh tokens/);
		for (const text of [md, full]) {
			expect(text).not.toContain(SECRET);
			expect(text).not.toContain(encodeURIComponent(SECRET));
		}
	});

	test('nothing named secret is printed from the setup', () => {
		const text = toMarkdown([], {
			setup: {
				...setup,
				client_secret: 'hunter2-secret',
				clientSecret: 'x-secret-2',
				password: 'pw-3'
			},
			generatedAt
		});
		expect(text).not.toMatch(/hunter2|x-secret-2|pw-3|client_secret`/);
		expect(text).toContain('No exchanges yet.');
	});

	test('a body holding ``` cannot close its fence', () => {
		const ex = transcript()[3]!;
		const hostile: Exchange = {
			...ex,
			response: {
				...ex.response!,
				headers: [['Content-Type', 'text/plain']],
				body: 'before\n```\n# Injected heading\n````\nafter'
			}
		};
		const text = toMarkdown([hostile], { generatedAt });
		const response = blocks(text).find((b) => b.content.startsWith('HTTP/1.1'))!;
		expect(response.fence).toBe('`````');
		expect(response.content).toContain('# Injected heading\n````\nafter');
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme' }), (body) => {
				const [b] = blocks(fenced(body, 'http'));
				expect(b?.content).toBe(body);
			}),
			{ numRuns: 300 }
		);
	});

	test('text from the service cannot add Markdown structure outside code', () => {
		const ex = transcript()[5]!;
		const hostile: Exchange = {
			...ex,
			note: 'x\n# Heading\n<img src=x onerror=alert(1)> [link](javascript:alert(1)) | cell',
			findings: [
				{ level: 'error', code: 'a`b', message: '<script>alert(1)</script> **bold**\n## 2' }
			]
		};
		const text = toMarkdown([hostile], { generatedAt });
		expect(text).not.toMatch(/^# Heading/m);
		expect(text).not.toMatch(/^## 2/m);
		expect(text).not.toMatch(/(^|[^\\])<img/m);
		expect(text).not.toMatch(/(^|[^\\])<script/m);
		expect(text).toContain('\\<script\\>');
		expect(text).toContain('``a`b``');
	});

	test('an imported browser HAR gives a report without its client secret', () => {
		const r = importHar(readFileSync(new URL('../fixtures/browser.har', import.meta.url), 'utf8'));
		if (!r.ok) throw new Error(r.message);
		const text = toMarkdown(r.exchanges, { generatedAt });
		expect(text).not.toContain('inkwell-web-Zq9vL2pX7rT4');
		expect(text).toContain('failed (timeout)');
		expect(text).toMatch(/^cookie: <not imported>$/m);
	});

	test('a shortened code in a request line stays a placeholder that was plainly not sent: not percent-encoded', () => {
		const md = report();
		const shortened = `${CODE.slice(0, 4)}…${CODE.slice(-4)} <${CODE.length} chars>`;
		// The callback's request line, in its http block, as the prose has it.
		expect(md).toContain(`GET /callback?code=${shortened}&`);
		expect(md).not.toMatch(/%E2%80%A6|%3C\d+%20chars%3E/);
	});

	test('the order: verdict, what failed, summary, exchanges, setup (empty fields left out), metadata last', () => {
		const discovery: Exchange = {
			...transcript()[2]!,
			id: 'meta',
			step: 'discovery',
			request: {
				method: 'GET',
				url: 'http://127.0.0.1:5173/sandbox/.well-known/oauth-authorization-server',
				httpVersion: '1.1',
				headers: [],
				body: ''
			},
			findings: []
		};
		const md = toMarkdown([discovery, ...transcript()], {
			setup: { ...setup, jwks_uri: '' },
			generatedAt
		});
		const at = (text: string) => md.indexOf(text);
		expect(at('## What failed')).toBeGreaterThan(at('# ✓'));
		expect(at('## Summary')).toBeGreaterThan(at('## What failed'));
		// The newest failure: exchange 8 (7 of the transcript, after the metadata), its first error.
		expect(md).toMatch(
			/## What failed\n\nExchange #8, API call: .* → failed \(refused\)\.\n\n- \*\*error\*\*/
		);
		expect(at('## #8 API call')).toBeGreaterThan(at('## #2 '));
		expect(at('## Setup')).toBeGreaterThan(at('## #8 API call'));
		expect(at('## Metadata')).toBeGreaterThan(at('## Setup'));
		// The metadata keeps its number from the summary.
		expect(md).toContain('## Metadata\n\n### #1 Metadata');
		// Only there: not also among the exchanges.
		expect(md).not.toMatch(/^## #1 Metadata/m);
		expect(md).not.toContain('jwks_uri');
	});

	test('a failure before the latest attempt is called an earlier one, not what failed', () => {
		const t = transcript();
		const exchange = t.find((e) => e.step === 'exchange')!;
		const refused: Exchange = {
			...exchange,
			id: 'refused-first',
			response: { ...exchange.response!, status: 401, statusText: 'Unauthorized', body: '{}' },
			findings: [{ level: 'error', code: 'invalid_client', message: 'Bad client.' }]
		};
		const at = t.indexOf(exchange);
		// The code exchange refused first, then sent again and answered with the tokens.
		const md = toMarkdown([...t.slice(0, at), refused, exchange], { generatedAt });
		expect(md).not.toContain('## What failed');
		expect(md).toMatch(
			new RegExp(
				`## Earlier failure\n\nBefore the latest attempt \\(#${at + 2}, Code exchange\\), exchange #${at + 1}, Code exchange: .* → 401 Unauthorized\\.`
			)
		);
	});

	test('a URL in prose is an autolink, its # and _ not escaped', () => {
		const ex: Exchange = {
			...transcript()[2]!,
			findings: [
				{
					level: 'info',
					code: 'x',
					message:
						'See https://www.rfc-editor.org/rfc/rfc8414#section-3.2. Then a_b *c*, and http://127.0.0.1:5173/call_back.',
					ref: 'https://www.rfc-editor.org/rfc/rfc8414#section-3.2'
				}
			]
		};
		const md = toMarkdown([ex], { generatedAt });
		expect(md).toContain(
			'See <https://www.rfc-editor.org/rfc/rfc8414#section-3.2>. Then a\\_b \\*c\\*, and <http://127.0.0.1:5173/call_back>.'
		);
		expect(md).toContain('Reference: <https://www.rfc-editor.org/rfc/rfc8414#section-3.2>');
		expect(md).not.toContain('rfc8414\\#');
	});

	test('authorization codes are shortened like tokens (the callback and the code exchange), in full with includeTokens', () => {
		const md = report();
		expect(md).not.toContain(CODE);
		expect(md).toContain(`code=${CODE.slice(0, 4)}…${CODE.slice(-4)} <${CODE.length} chars>`);
		// Also a code that only came back in a Location header (an imported browser HAR's consent).
		const consent = transcript()[0]!;
		const redirected: Exchange = {
			...consent,
			response: {
				status: 302,
				statusText: 'Found',
				httpVersion: '1.1',
				headers: [['Location', `https://app.test/cb?code=${CODE}&state=s1`]],
				body: '',
				truncated: false
			}
		};
		expect(toMarkdown([redirected], { generatedAt })).not.toContain(CODE);
		const full = toMarkdown(transcript(), { setup, includeTokens: true, generatedAt });
		expect(full).toContain(`callback?code=${CODE}&`);
	});

	test('a URL of 600+ characters stays whole in the request block, and shortened in the prose (a code span does not wrap)', () => {
		const ex = transcript()[3]!;
		const long = `${ex.request.url}?output=json&q=${'x'.repeat(300)}&continuation=${'c'.repeat(300)}`;
		const text = toMarkdown([{ ...ex, request: { ...ex.request, url: long } }], { generatedAt });
		const prose = text
			.split(/^(`{3,})[^\n]*\n[\s\S]*?^\1$/m)
			.filter((_, i) => i % 2 === 0)
			.join('\n');
		const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
		expect(spans.length).toBeGreaterThan(0);
		for (const span of spans) expect(span.length, span).toBeLessThanOrEqual(160);
		expect(prose).not.toContain(long);
		expect(prose).toContain(`(${long.length} characters, in full in the request below)`);
		const request = blocks(text).find((b) => b.content.startsWith('GET '))!;
		expect(request.content.split('\n')[0]).toBe(
			`GET ${long.replace('http://127.0.0.1:5173', '')} HTTP/1.1`
		);
	});
});
