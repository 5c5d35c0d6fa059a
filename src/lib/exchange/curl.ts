/**
 * curl commands for the transcript: one per exchange, each runnable as-is in bash.
 *
 * - Method, URL and every request header except Host, Content-Length and Connection (curl writes
 *   those itself), the body with `--data-binary`, `--include` to show the response headers, and
 *   `--max-redirs 0` because the playground never follows a redirect either.
 * - Everything is single-quoted (a `'` inside becomes `'\''`), so no character of a URL, header or
 *   body is ever read by the shell.
 * - The client secret is never in a transcript: the server sends `<redacted>` in its place. It becomes
 *   `$CLIENT_SECRET`, read from the environment (`export CLIENT_SECRET=…` first):
 *   - form body field `client_secret=<redacted>`: that one field goes in its own
 *     `--data-urlencode "client_secret=$CLIENT_SECRET"`, between `--data-binary` parts holding the
 *     fields around it. curl joins the parts with `&` in order, and percent-encodes the secret, which
 *     a form body needs (a secret with `&`, `=`, `+`, `%` or a space would break otherwise);
 *   - `client_secret` in the query: `--url-query "client_secret=$CLIENT_SECRET"` (curl ≥ 7.87),
 *     which encodes it the same way and appends it to the query;
 *   - `Authorization: Basic <redacted>`: `--user 'client_id:'"$CLIENT_SECRET"` (the client id from
 *     the body or query, else `$CLIENT_ID`);
 *   - anywhere else (a JSON body, another header): `"$CLIENT_SECRET"` spliced in as-is.
 * - Tokens, by default: the `Authorization: Bearer` token becomes `$ACCESS_TOKEN`, and the
 *   `access_token`/`refresh_token` form or query fields become `$ACCESS_TOKEN`/`$REFRESH_TOKEN`
 *   (URL-encoded like the secret), so the command still runs once they are exported; any other copy
 *   of a token is shortened to its first and last 4 characters. With `includeTokens: true` the
 *   tokens are written out in full.
 * - The consent redirect is made by the browser, not by a server: it is shown as the quoted URL,
 *   printed (`printf '%s\n' '<URL>'`, so a script runs through it), with a comment to open it in a
 *   browser. The callback (the browser's return to the playground) is shown the same way.
 */
import { formDecode, isFormBody, mapFormFields, placeholder, splitPair, splitUrl } from './text';
import { REDACTED, collectTokens, redactTokens, scrubSecrets } from './redact';
import { STEPS, statusLine, type Exchange } from './types';

export interface CurlOptions {
	/** Write access and refresh tokens in full. Default: `$ACCESS_TOKEN`/`$REFRESH_TOKEN`, other copies shortened. */
	includeTokens?: boolean;
}

export type CurlEnv = 'CLIENT_SECRET' | 'CLIENT_ID' | 'ACCESS_TOKEN' | 'REFRESH_TOKEN';

const ENV_HELP: Record<CurlEnv, string> = {
	CLIENT_SECRET: 'the client secret; the transcript never holds it',
	CLIENT_ID: 'the client id, for the Basic header',
	ACCESS_TOKEN: 'the access token, from the playground’s token panel',
	REFRESH_TOKEN: 'the refresh token, from the playground’s token panel'
};

// A value standing for an environment variable while the command is put together. NUL can't be in a
// shell word, so it can't be confused with recorded text (stray NULs are dropped when quoting).
const mark = (v: CurlEnv) => `\u0000${v}\u0000`;
const MARK = /\u0000(CLIENT_SECRET|CLIENT_ID|ACCESS_TOKEN|REFRESH_TOKEN)\u0000/;
const PLACES = new RegExp(`${MARK.source}|${REDACTED}`, 'g');

type Segment = string | { env: CurlEnv };
type Word = Segment[];

/** Text as a word: marks and `<redacted>` become variables; the rest stays literal. */
function word(text: string): Word {
	const out: Word = [];
	let last = 0;
	for (const m of text.matchAll(PLACES)) {
		if (m.index > last) out.push(text.slice(last, m.index));
		out.push({ env: (m[1] as CurlEnv | undefined) ?? 'CLIENT_SECRET' });
		last = m.index + m[0].length;
	}
	if (last < text.length) out.push(text.slice(last));
	return out;
}

/** Single quotes around literal text: nothing inside is special to the shell but `'` itself. */
export function shellQuote(s: string): string {
	return `'${s.replace(/\u0000/g, '').replace(/'/g, `'\\''`)}'`;
}

function quote(w: Word): string {
	const segs = w.filter((s) => s !== '');
	if (segs.length === 0) return "''";
	if (segs.length === 1 && typeof segs[0] === 'string' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(segs[0]))
		return segs[0];
	const hasEnv = segs.some((s) => typeof s !== 'string');
	// "…$VAR…" when the literal parts have nothing a double quote would expand; else '…'"$VAR"'…'.
	if (hasEnv && segs.every((s) => typeof s !== 'string' || !/[$`"\\!\u0000]/.test(s))) {
		let out = '"';
		segs.forEach((s, i) => {
			if (typeof s === 'string') out += s;
			else {
				const next = segs[i + 1];
				out +=
					typeof next === 'string' && /^[A-Za-z0-9_]/.test(next) ? `\${${s.env}}` : `$${s.env}`;
			}
		});
		return out + '"';
	}
	return segs.map((s) => (typeof s === 'string' ? shellQuote(s) : `"$${s.env}"`)).join('');
}

function envIn(w: Word, into: Set<CurlEnv>): void {
	for (const s of w) if (typeof s !== 'string') into.add(s.env);
}

/** A comment line can't be broken out of: control characters and line breaks become spaces. */
function comment(text: string): string {
	return `# ${text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ')}`;
}

const TOKEN_ENV = new Map<string, CurlEnv>([
	['access_token', 'ACCESS_TOKEN'],
	['refresh_token', 'REFRESH_TOKEN']
]);

/** Tokens in their usual places become marks, so the command reads them from the environment. */
function markTokens(ex: Exchange): Exchange {
	const field = (name: string, value: string) => {
		const env = TOKEN_ENV.get(name);
		return env && value ? mark(env) : undefined;
	};
	const request = { ...ex.request };
	const u = splitUrl(request.url);
	if (u.query !== undefined) {
		const q = mapFormFields(u.query, field);
		if (q.changed) request.url = `${u.base}?${q.text}${u.hash}`;
	}
	if (isFormBody(request.headers, request.body))
		request.body = mapFormFields(request.body, field).text;
	request.headers = request.headers.map(([n, v]) => {
		const m = /^(\s*bearer\s+)\S+(\s*)$/i.exec(v);
		return n.toLowerCase() === 'authorization' && m
			? [n, `${m[1]}${mark('ACCESS_TOKEN')}${m[2]}`]
			: [n, v];
	});
	return { ...ex, request };
}

/** The environment variable a form or query value stands for, if it is one. */
function envValue(rawValue: string): CurlEnv | undefined {
	const v = formDecode(rawValue);
	if (v === REDACTED) return 'CLIENT_SECRET';
	const m = new RegExp(`^${MARK.source}$`).exec(v);
	return m ? (m[1] as CurlEnv) : undefined;
}

interface Arg {
	opt: string;
	word?: Word;
}

const CURL_SETS = new Set(['host', 'content-length', 'connection']);

function dataArg(text: string): Arg {
	// --data-binary reads a file when the text starts with @; --data-raw never does.
	return { opt: text.startsWith('@') ? '--data-raw' : '--data-binary', word: word(text) };
}

function bodyArgs(body: string, form: boolean): Arg[] {
	if (!form) return [dataArg(body)];
	const out: Arg[] = [];
	let literal: string[] = [];
	const flush = () => {
		if (literal.length) out.push(dataArg(literal.join('&')));
		literal = [];
	};
	for (const piece of body.split('&')) {
		const [rawName, rawValue] = splitPair(piece);
		const env = piece.includes('=') ? envValue(rawValue) : undefined;
		if (!env) {
			literal.push(piece);
			continue;
		}
		flush();
		out.push({ opt: '--data-urlencode', word: [`${rawName}=`, { env }] });
	}
	flush();
	return out;
}

function urlArgs(url: string): { url: string; extra: Arg[] } {
	const u = splitUrl(url);
	if (u.query === undefined) return { url, extra: [] };
	const kept: string[] = [];
	const extra: Arg[] = [];
	for (const piece of u.query.split('&')) {
		const [rawName, rawValue] = splitPair(piece);
		const env = piece.includes('=') ? envValue(rawValue) : undefined;
		if (env) extra.push({ opt: '--url-query', word: [`${rawName}=`, { env }] });
		else kept.push(piece);
	}
	if (extra.length === 0) return { url, extra };
	return { url: `${u.base}${kept.length ? `?${kept.join('&')}` : ''}${u.hash}`, extra };
}

function clientIdOf(ex: Exchange): string | undefined {
	const fromFields = (text: string) =>
		text
			.split('&')
			.map(splitPair)
			.find(([n]) => formDecode(n) === 'client_id');
	const pair =
		(isFormBody(ex.request.headers, ex.request.body) ? fromFields(ex.request.body) : undefined) ??
		fromFields(splitUrl(ex.request.url).query ?? '');
	const id = pair ? formDecode(pair[1]) : '';
	return id && !id.includes(':') ? id : undefined;
}

function label(ex: Exchange, index?: number): string {
	const title = STEPS[ex.step].title;
	const status = ex.response
		? statusLine(ex.response)
		: ex.failure
			? `failed (${ex.failure.kind})`
			: 'no response recorded';
	return `${index !== undefined ? `${index}. ` : ''}${title}: ${ex.request.method} ${ex.request.url} → ${status}`;
}

interface Built {
	/** The exchange as the comments show it: secret scrubbed, tokens shortened unless included. */
	shown: Exchange;
	lines: string[];
	env: Set<CurlEnv>;
}

function build(original: Exchange, includeTokens: boolean, tokens: string[]): Built {
	const clean = scrubSecrets(original);
	const shown = includeTokens ? clean : redactTokens(clean, tokens);
	const ex = includeTokens ? clean : redactTokens(markTokens(clean), tokens);
	const env = new Set<CurlEnv>();
	const lines: string[] = [];
	if (ex.note) lines.push(comment(ex.note));

	if (ex.step === 'consent' || ex.step === 'callback') {
		lines.push(
			comment(
				ex.step === 'consent'
					? 'Open this URL in a browser: the service shows its consent page to a person, so this is not a curl call.'
					: 'The service sent the browser back to the playground at this URL. Without the playground’s session cookie a repeat does nothing, so it is shown for the record.'
			)
		);
		const w = word(ex.request.url);
		envIn(w, env);
		lines.push(`printf '%s\\n' ${quote(w)}`);
		return { shown, lines, env };
	}
	if (ex.failure) lines.push(comment(`This request failed: ${ex.failure.message}`));

	const args: Arg[] = [];
	const method = ex.request.method;
	if (method.toUpperCase() === 'HEAD') args.push({ opt: '--head' });
	else args.push({ opt: '--request', word: [method] });
	const u = urlArgs(ex.request.url);
	if (/[[\]{}]/.test(u.url)) args.push({ opt: '--globoff' }); // else curl reads [] and {} as URL globs
	args.push({ opt: '--url', word: word(u.url) }, ...u.extra);

	for (const [name, value] of ex.request.headers) {
		const lower = name.toLowerCase();
		if (CURL_SETS.has(lower)) continue;
		if (lower === 'authorization' && /^\s*basic\s+<redacted>\s*$/i.test(value)) {
			const id = clientIdOf(ex);
			args.push({
				opt: '--user',
				word: id
					? [`${id}:`, { env: 'CLIENT_SECRET' }]
					: [{ env: 'CLIENT_ID' }, ':', { env: 'CLIENT_SECRET' }]
			});
			continue;
		}
		if (lower === 'cookie' && placeholder(value)) {
			lines.push(comment(`The ${name} header is left out: its value was not recorded (${value}).`));
			continue;
		}
		// "Name;" sends an empty header; "Name:" would remove it.
		args.push({ opt: '--header', word: word(value === '' ? `${name};` : `${name}: ${value}`) });
	}

	const body = ex.request.body;
	if (body.replace(new RegExp(MARK.source, 'g'), '').includes('\u0000'))
		lines.push(
			comment('The body holds NUL bytes, which a shell argument cannot carry; they are left out.')
		);
	if (body) args.push(...bodyArgs(body, isFormBody(ex.request.headers, body)));

	for (const a of args) if (a.word) envIn(a.word, env);
	const parts = args.map((a) => (a.word ? `${a.opt} ${quote(a.word)}` : a.opt));
	lines.push(['curl --include --max-redirs 0', ...parts].join(' \\\n  '));
	return { shown, lines, env };
}

function envLines(env: Set<CurlEnv>, prefix: string): string[] {
	return [...env].map((v) => comment(`${prefix}export ${v}='…'   (${ENV_HELP[v]})`));
}

/** One exchange as a curl command, with a comment naming it and the variables it reads. */
export function toCurl(ex: Exchange, opts: CurlOptions = {}): string {
	const includeTokens = !!opts.includeTokens;
	const built = build(ex, includeTokens, includeTokens ? [] : collectTokens([ex]));
	const needs = built.env.size ? [comment('Before running:'), ...envLines(built.env, '  ')] : [];
	return [comment(label(built.shown)), ...needs, ...built.lines].join('\n') + '\n';
}

/** The whole transcript as a bash script: one commented curl command per exchange, in order. */
export function toCurlScript(
	exchanges: Exchange[],
	opts: CurlOptions & { generatedAt?: Date } = {}
): string {
	const includeTokens = !!opts.includeTokens;
	const tokens = includeTokens ? [] : collectTokens(exchanges.map(scrubSecrets));
	const built = exchanges.map((ex) => build(ex, includeTokens, tokens));
	const env = new Set<CurlEnv>(built.flatMap((b) => [...b.env]));
	const head = [
		'#!/usr/bin/env bash',
		comment(
			'The feed-reader OAuth playground transcript as curl commands, one per exchange, in order.'
		),
		...(opts.generatedAt ? [comment(`Generated ${opts.generatedAt.toISOString()}.`)] : []),
		comment(
			'Each command repeats one recorded request. Codes are single-use and refresh tokens rotate,'
		),
		comment('so a repeat may get another answer than the recorded one.'),
		...(includeTokens
			? [comment('This script holds full access and refresh tokens: keep it private.')]
			: []),
		...(env.size ? ['#', comment('Before running:'), ...envLines(env, '  ')] : [])
	];
	const guards = [...env].map((v) => `: "\${${v}:?export ${v} first}"`);
	const body = built.map((b, i) =>
		['', comment(`── ${label(b.shown, i + 1)}`), ...b.lines].join('\n')
	);
	return [...head, ...guards, ...body].join('\n') + '\n';
}
