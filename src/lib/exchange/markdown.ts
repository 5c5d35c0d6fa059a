/**
 * The transcript as a Markdown report, for a support ticket or an issue: the verdict (the page's,
 * verdict.ts) and what failed first, then a summary of the exchanges and each exchange with its
 * findings and its raw request and response, then the setup (never a secret; empty fields left
 * out), then the metadata documents fetched, which are long and rarely the point.
 * Tokens and authorization codes are shortened unless asked not to be, and the client secret is
 * scrubbed again (docs/security.md, "What the browser may see"). A URL over 100 characters is shortened in
 * the prose (a code span does not wrap) and kept whole in the request's fenced block. Text from the service (error descriptions, bodies) can't
 * change the report's structure: prose is escaped, and code blocks get a fence longer than any run
 * of backticks inside them.
 */
import { refreshGenerations } from './generations';
import { latestAttempt, verdictOf, type RevokedByFork } from './verdict';
import { prepareForExport } from './redact';
import { prettyJson, requestHead, responseHead } from './raw';
import { statusLine, type Exchange, type Finding } from './types';
import { specOf, STEPS } from '$lib/steps/registry';

/** The setup fields worth showing; any field whose name mentions a secret or password is left out. */
export interface MarkdownSetup {
	base_url?: string;
	client_id?: string;
	scope?: string;
	redirect_uri?: string;
	token_location?: string;
	[field: string]: unknown;
}

export interface MarkdownOptions {
	setup?: MarkdownSetup;
	/** Write access and refresh tokens in full. Default: shortened to their first and last 4 characters. */
	includeTokens?: boolean;
	generatedAt?: Date;
	/** What the flow's fork found about its tokens: the page's verdict says it, so does the report's. */
	revokedByFork?: RevokedByFork | null;
}

const NEVER_SHOWN = /secret|password|passwd/i;

function oneLine(s: string): string {
	return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').trim();
}

/** Prose: the characters that would start emphasis, links, HTML, code or a table cell are escaped. */
function escapeText(s: string): string {
	return s.replace(/[\\`*_[\]<>|~#]/g, (c) => `\\${c}`);
}

/** An http(s) URL in prose, up to white space or a character no URL holds; trailing punctuation is the sentence's. */
const URL_IN_PROSE = /https?:\/\/[^\s<>"`|\\]+?(?=[.,;:!?)]*(?:\s|$))/g;

/**
 * Prose, escaped, with each URL as an autolink (`<https://…#section-3.2>`): escaping a URL's `#` or
 * `_` would put the backslash into the link.
 */
function escape(s: string): string {
	const text = oneLine(s);
	let out = '';
	let at = 0;
	for (const m of text.matchAll(URL_IN_PROSE)) {
		out += escapeText(text.slice(at, m.index)) + `<${m[0]}>`;
		at = m.index + m[0].length;
	}
	return out + escapeText(text.slice(at));
}

/** An inline code span that no backtick inside can close. */
function code(s: string): string {
	const text = oneLine(s);
	const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
	const ticks = '`'.repeat(longest + 1);
	const pad = text.startsWith('`') || text.endsWith('`') || text === '' ? ' ' : '';
	return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** A table cell: inside a table even a code span needs its pipes escaped. */
function cell(s: string): string {
	return code(s).replace(/\|/g, '\\|');
}

/** A fenced block that the content can't close: the fence is longer than any backtick run inside. */
export function fenced(content: string, lang = ''): string {
	const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
	const fence = '`'.repeat(Math.max(3, longest + 1));
	return `${fence}${lang}\n${content}\n${fence}`;
}

/** Longer URLs are shortened in the prose, which can't wrap a code span; the request block has them whole. */
export const LONG_URL = 100;

/** The request line for the prose: a long URL keeps its start and end, and says how long it is. */
function requestLine(ex: Exchange): string {
	const { method, url } = ex.request;
	if (url.length <= LONG_URL) return `${method} ${url}`;
	return `${method} ${url.slice(0, 60)}…${url.slice(-20)} (${url.length} characters, in full in the request below)`;
}

function title(ex: Exchange): string {
	return STEPS[ex.step].title;
}

function statusOf(ex: Exchange): string {
	if (ex.response) return statusLine(ex.response);
	if (ex.failure) return `failed (${ex.failure.kind})`;
	return specOf(ex.step).travels === 'navigation' ? 'opened in the browser' : 'no response';
}

function firstProblem(findings: Finding[]): Finding | undefined {
	return findings.find((f) => f.level === 'error') ?? findings.find((f) => f.level === 'warning');
}

function setupValue(v: unknown): string {
	if (typeof v === 'boolean') return v ? 'yes' : 'no';
	if (v === '' || v === undefined || v === null) return '(empty)';
	return typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
}

/** The setup's fields that hold something: an empty one says nothing a reader needs. */
function setupTable(setup: MarkdownSetup): string[] {
	const rows = Object.entries(setup).filter(
		([k, v]) => !NEVER_SHOWN.test(k) && setupValue(v) !== '(empty)'
	);
	if (rows.length === 0) return [];
	return [
		'## Setup',
		'',
		'| Field | Value |',
		'|---|---|',
		...rows.map(([k, v]) => `| ${cell(k)} | ${cell(setupValue(v))} |`),
		'',
		'The client secret is not part of this report.',
		''
	];
}

function findingLines(f: Finding): string[] {
	const lines = [`- **${f.level}** ${code(f.code)}: ${escape(f.message)}`];
	if (f.fix) lines.push(`  Fix: ${escape(f.fix)}`);
	if (f.ref) lines.push(`  Reference: ${escape(f.ref)}`);
	return lines.map((l, i) => (i < lines.length - 1 ? `${l}  ` : l));
}

function withBody(head: string, body: string): string {
	if (!body) return head;
	return `${head}\n\n${prettyJson(body) ?? body}`;
}

/**
 * The newest exchange with an error, right after the verdict: the step, what was sent, what came
 * back, and its first error with the fix, before the pages of exchanges that lead to it; called
 * an earlier failure when it came before the latest attempt, which the verdict is on.
 */
function whatFailed(shown: Exchange[]): string[] {
	const i = shown.findLastIndex((ex) => ex.failure || ex.findings.some((f) => f.level === 'error'));
	if (i < 0) return [];
	const ex = shown[i]!;
	const error = ex.findings.find((f) => f.level === 'error');
	// A failure before the latest attempt (the verdict's exchange) is an earlier one, not its cause.
	const latest = latestAttempt(shown);
	const earlier = i < latest;
	const out = [
		earlier ? '## Earlier failure' : '## What failed',
		'',
		`${earlier ? `Before the latest attempt (#${latest + 1}, ${escape(title(shown[latest]!))}), exchange` : 'Exchange'} #${i + 1}, ${escape(title(ex))}: ${code(requestLine(ex))} → ${escape(statusOf(ex))}.`,
		''
	];
	if (error) out.push(...findingLines(error), '');
	else if (ex.failure)
		out.push(`**Failure** (${escape(ex.failure.kind)}): ${escape(ex.failure.message)}`, '');
	return out;
}

function section(ex: Exchange, n: number, level = '##'): string[] {
	// "#4", the running number the page shows (exchangeNumbers), never "4." for step 4.
	const out = [`${level} #${n} ${escape(title(ex))}`, ''];
	if (ex.note) out.push(`*${escape(ex.note)}*`, '');
	out.push(`${code(requestLine(ex))}, started ${escape(ex.startedAt)}, ${ex.timing.total} ms.`, '');
	if (ex.findings.length) out.push('**Findings**', '', ...ex.findings.flatMap(findingLines), '');
	else out.push('No findings.', '');
	out.push(
		'**Request**',
		'',
		fenced(withBody(requestHead(ex.request), ex.request.body), 'http'),
		''
	);
	for (const r of ex.redactions ?? [])
		out.push(`${escape(r.what)}: shown as ${code('<redacted>')}; ${r.length} bytes were sent.`, '');
	if (ex.failure)
		out.push(`**Failure** (${escape(ex.failure.kind)}): ${escape(ex.failure.message)}`, '');
	if (ex.response) {
		out.push(
			'**Response**',
			'',
			fenced(withBody(responseHead(ex.response), ex.response.body), 'http'),
			''
		);
		if (ex.response.truncated)
			out.push('The body was cut at the size cap; only its start is shown.', '');
	} else if (specOf(ex.step).travels === 'navigation')
		out.push(
			'No response here: the browser opened this URL and the service showed its consent page.',
			''
		);
	else if (!ex.failure) out.push('No response was recorded.', '');
	return out;
}

/**
 * The refresh tokens the transcript holds, generation by generation (generations.ts), shortened
 * whatever `includeTokens` says: the list is about which answer gave which, not the tokens.
 */
function generationsSection(exchanges: Exchange[]): string[] {
	const generations = refreshGenerations(exchanges);
	if (generations.length === 0) return [];
	const lines = generations.map((g, i) => {
		const state =
			g.replacedBy !== undefined
				? `replaced by #${g.replacedBy}`
				: i === generations.length - 1
					? 'current'
					: 'not replaced: a later code exchange started another grant';
		const more = [
			g.returnedBy.length
				? `sent back unchanged by ${g.returnedBy.map((n) => `#${n}`).join(', ')}`
				: '',
			g.keptBy.length ? `kept by ${g.keptBy.map((n) => `#${n}`).join(', ')}` : '',
			g.expiresAt !== undefined ? `expires ${new Date(g.expiresAt).toISOString()} (${g.field})` : ''
		].filter(Boolean);
		return `${i + 1}. ${code(g.short)} from #${g.from} (${g.byCode ? 'code exchange' : 'refresh'}) at ${g.at}; ${[state, ...more].join('; ')}`;
	});
	return ['## Refresh tokens', '', ...lines, ''];
}

export function toMarkdown(exchanges: Exchange[], opts: MarkdownOptions = {}): string {
	const shown = prepareForExport(exchanges, opts.includeTokens);
	const generatedAt = opts.generatedAt ?? new Date();
	const verdict = verdictOf(shown, generatedAt.getTime(), undefined, undefined, opts.revokedByFork);
	const out: string[] = [
		// The page's verdict first, as its title has it.
		`# ${verdict ? `${escape(verdict.text)} · ` : ''}Feed-reader OAuth playground transcript`,
		'',
		`Generated ${generatedAt.toISOString()}. ${shown.length} exchange${shown.length === 1 ? '' : 's'}. ` +
			(opts.includeTokens
				? '**This report holds full access and refresh tokens and codes: share it only where they may be seen.**'
				: 'Tokens and codes are shortened to their first and last 4 characters.') +
			' The client secret is never in a transcript.',
		''
	];
	out.push(...whatFailed(shown));
	out.push('## Summary', '');
	if (shown.length === 0) out.push('No exchanges yet.', '');
	shown.forEach((ex, i) => {
		const p = firstProblem(ex.findings);
		out.push(
			`${i + 1}. **${escape(title(ex))}** (${ex.step}): ${code(requestLine(ex))} → ${escape(statusOf(ex))}${p ? `. ${p.level}: ${escape(p.message)}` : ''}`
		);
	});
	out.push('');
	out.push(...generationsSection(exchanges));
	// Each exchange keeps its number in the summary (its place in the list, as exchangeNumbers
	// counts on the page); the metadata documents come last.
	const numbered = shown.map((ex, i) => ({ ex, n: i + 1 }));
	const ofSetup = ({ ex }: { ex: Exchange }) => specOf(ex.step).belongsTo === 'setup';
	for (const { ex, n } of numbered.filter((x) => !ofSetup(x))) out.push(...section(ex, n));
	if (opts.setup) out.push(...setupTable(opts.setup));
	const metadata = numbered.filter(ofSetup);
	if (metadata.length) {
		out.push('## Metadata', '');
		for (const { ex, n } of metadata) out.push(...section(ex, n, '###'));
	}
	return out.join('\n').trimEnd() + '\n';
}
