/**
 * curl commands for the transcript: one per exchange ("Copy as curl"), or the whole transcript as a
 * bash script (`toCurlScript`), each runnable as-is in bash.
 *
 * - Method, URL and every request header except Host, Content-Length and Connection (curl writes
 *   those itself), the body with `--data-binary`, `--include` to show the response headers,
 *   `--silent --show-error` (no progress meter when the output is piped, errors still shown), and
 *   `--max-redirs 0` because the playground never follows a redirect either.
 * - Everything is single-quoted (a `'` inside becomes `'\''`), so no character of a URL, header or
 *   body is ever read by the shell.
 * - Every secret, token and code is a shell variable read from the environment, named at the top
 *   of the text, with a `: "${NAME:?…}"` check for the ones the steps that will run need:
 *   - the client secret (never in a transcript: the server sends `<redacted>`) is `$CLIENT_SECRET`:
 *     a form field `client_secret=<redacted>` goes in its own `--data-urlencode
 *     "client_secret=$CLIENT_SECRET"` between `--data-binary` parts holding the fields around it
 *     (curl joins them with `&` in order and percent-encodes the secret); in the query it is
 *     `--url-query` (curl ≥ 7.87); anywhere else (a JSON body) `"$CLIENT_SECRET"` as-is;
 *   - `Authorization: Basic <redacted>` is built in the script: the client id (from the body or
 *     query, else `$CLIENT_ID`) and `$CLIENT_SECRET` each form-encoded, as RFC 6749 §2.3.1
 *     requires, by a small bash function, then `--user` (curl writes the base64);
 *   - the `Authorization: Bearer` token and `access_token` fields are `$ACCESS_TOKEN`,
 *     `refresh_token` fields `$REFRESH_TOKEN`, and the `code` of a code exchange `$CODE`. Any
 *     other copy of a token or code (the callback's address, a response) is shortened to its first
 *     and last 4 characters. With `includeTokens` the other copies stay in full, and the tokens
 *     last seen are written in as the variables' defaults (the code never is: it is spent).
 * - Steps that spend something (spending.ts: the code exchange, a refresh, a revocation) run only
 *   when `RUN_SPENDING_STEPS=1`; otherwise they print the command they would send (variables not
 *   expanded) and why they were skipped. When they run, the script takes the `access_token` and
 *   `refresh_token` of each token response into `ACCESS_TOKEN` and `REFRESH_TOKEN` (with sed: jq
 *   and node may be missing), so the steps after it use the new ones and a fresh `CODE` completes
 *   the flow.
 * - The consent redirect is made by the browser, not by a server: it is shown as the quoted URL,
 *   printed (`printf '%s\n' '<URL>'`, so a script runs through it), with a comment to open it in a
 *   browser. The callback (the browser's return to the playground) is shown the same way.
 */
import {
	bearerToken,
	formDecode,
	isFormBody,
	mapFormFields,
	parseJson,
	placeholder,
	queryFields,
	splitPair,
	splitUrl
} from './text';
import {
	REDACTED,
	collectTokens,
	createRedactors,
	redactTokens,
	scrubSecrets,
	type Redactors
} from './redact';
import { RUN_SPENDING, SPENDS, SPEND_WHY, notResent, requestFields, spends } from './spending';
import type { Spend, Travels } from '$lib/steps/spec';
import { statusLine, type Exchange } from './types';
import { specOf, STEPS } from '$lib/steps/registry';

export interface CurlOptions {
	/** Write tokens and codes in full. Default: variables, other copies shortened. */
	includeTokens?: boolean;
}

export type CurlEnv =
	'CLIENT_ID' | 'CLIENT_SECRET' | 'CODE' | 'CODE_VERIFIER' | 'ACCESS_TOKEN' | 'REFRESH_TOKEN';

/** The order the variables are listed and checked in. */
const ENV_ORDER: CurlEnv[] = [
	'CLIENT_ID',
	'CLIENT_SECRET',
	'CODE',
	'CODE_VERIFIER',
	'ACCESS_TOKEN',
	'REFRESH_TOKEN'
];

const ENV_HELP: Record<CurlEnv, string> = {
	CLIENT_SECRET: 'the client secret; the transcript never holds it',
	CLIENT_ID: 'the client id, for the HTTP Basic credentials',
	CODE: 'a fresh authorization code: open the consent URL, authorize, and take code= from the address you come back to',
	CODE_VERIFIER:
		'the PKCE verifier of the consent request that CODE answers (RFC 7636): the playground keeps its own on the server, so a code from the playground’s consent URL cannot be exchanged here',
	ACCESS_TOKEN: 'an access token, from the playground’s token panel',
	REFRESH_TOKEN: 'a refresh token, from the playground’s token panel'
};

// A value standing for an environment variable while the command is put together. NUL can't be in a
// shell word, so it can't be confused with recorded text (stray NULs are dropped when quoting).
const mark = (v: CurlEnv) => `\u0000${v}\u0000`;
const MARK = /\u0000(CLIENT_SECRET|CLIENT_ID|ACCESS_TOKEN|REFRESH_TOKEN|CODE_VERIFIER|CODE)\u0000/;
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

/** Tokens and the code in their usual places become marks, so the command reads them from the environment. */
function markTokens(ex: Exchange): Exchange {
	const codeGrant = spends(ex) === 'code';
	const field = (name: string, value: string) => {
		const env =
			name === 'access_token'
				? 'ACCESS_TOKEN'
				: name === 'refresh_token'
					? 'REFRESH_TOKEN'
					: name === 'code' && codeGrant
						? 'CODE'
						: name === 'code_verifier' && codeGrant
							? 'CODE_VERIFIER'
							: undefined;
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
		const bearer = n.toLowerCase() === 'authorization' ? bearerToken(v) : undefined;
		return bearer ? [n, `${bearer.lead}${mark('ACCESS_TOKEN')}${bearer.trail}`] : [n, v];
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
	/** Shell text written as it is (already quoted), with the variables it reads. */
	shell?: { text: string; env: CurlEnv[] };
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

/** The client id a request names in its body or query, for the Basic credentials. */
export function clientIdOf(ex: Exchange): string | undefined {
	const id = requestFields(ex.request).get('client_id');
	return id && !id.includes('\u0000') ? id : undefined;
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

/** The bash function that form-encodes a value for HTTP Basic (RFC 6749 §2.3.1), byte by byte. */
const FORM_ENCODE = [
	'# HTTP Basic credentials are form-encoded before base64 (RFC 6749 §2.3.1): every byte but',
	'# A-Z a-z 0-9 - . _ ~ becomes %XX, so a : % + space & or quote in the id or secret survives.',
	'oauth_form_encode() {',
	"\tlocal LC_ALL=C s=$1 out='' c i",
	'\tfor ((i = 0; i < ${#s}; i++)); do',
	'\t\tc=${s:i:1}',
	'\t\tcase $c in',
	'\t\t[A-Za-z0-9._~-]) out+=$c ;;',
	"\t\t*) printf -v c '%%%02X' \"'$c\"; out+=$c ;;",
	'\t\tesac',
	'\tdone',
	'\tprintf \'%s\' "$out"',
	'}'
];

/** Takes a token response's new tokens into ACCESS_TOKEN and REFRESH_TOKEN (sed only: no jq). */
const TAKE_TOKENS = [
	'# The string value of a JSON field in a response body (sed only: jq and node may be missing).',
	'json_field() {',
	"\tlocal headers_end=$'\\r\\n\\r\\n'",
	`\tprintf '%s\\n' "\${2#*"$headers_end"}" | sed -n 's/.*"'"$1"'"[[:space:]]*:[[:space:]]*"\\([^"\\\\]*\\(\\\\.[^"\\\\]*\\)*\\)".*/\\1/p' | sed -n '1{s#\\\\/#/#g;p;}'`,
	'}',
	'# A token response’s access_token (and refresh_token, when there is one), for the steps after it.',
	'take_tokens() {',
	'\tlocal at rt',
	'\tat=$(json_field access_token "$1")',
	'\trt=$(json_field refresh_token "$1")',
	'\tif [ -z "$at" ]; then',
	`\t\tprintf 'Stopped: %s brought no access_token, so the steps after it would use an old one.\\n' "$2" >&2`,
	'\t\treturn 1',
	'\tfi',
	'\tACCESS_TOKEN=$at',
	'\tif [ -n "$rt" ]; then REFRESH_TOKEN=$rt; fi',
	'}'
];

const SKIPPED = [
	`# A step that spends something, when ${RUN_SPENDING} is not 1: what it would send, and why not.`,
	'skipped() {',
	`\tprintf '\\n# Skipped %s: %s. %s Set ${RUN_SPENDING}=1 to run it. It would send:\\n%s\\n' "$1" "$2" ${shellQuote(SPEND_WHY)} "$3"`,
	'}'
];

interface Built {
	/** The exchange as the comments show it: secret scrubbed, tokens shortened unless included. */
	shown: Exchange;
	/** Comment lines before the command. */
	notes: string[];
	/** The command: a curl call, or a printf of a URL. */
	command: string;
	env: Set<CurlEnv>;
	/** Uses oauth_form_encode (HTTP Basic). */
	basic: boolean;
	spend?: Spend;
	/** The recorded answer held a refresh token (a running script takes the new one from it). */
	givesRefresh: boolean;
}

/** Why a request the playground server did not send is shown, not sent: by how it travelled. */
const SHOWN_ONLY: Record<Exclude<Travels, 'server'>, string> = {
	navigation:
		'Open this URL in a browser: the service shows its consent page to a person, so this is not a curl call.',
	'redirect-back':
		'The service sent the browser back to the playground at this URL. Without the playground’s session cookie a repeat does nothing, so it is shown for the record.'
};

function build(
	original: Exchange,
	includeTokens: boolean,
	tokens: string[],
	redactors: Redactors
): Built {
	const clean = scrubSecrets(original, redactors);
	const shown = includeTokens ? clean : redactTokens(clean, tokens);
	const ex = includeTokens ? markTokens(clean) : redactTokens(markTokens(clean), tokens);
	const env = new Set<CurlEnv>();
	const notes: string[] = [];
	const spend = spends(clean);
	const body = parseJson(clean.response?.body ?? '') as Record<string, unknown> | undefined;
	const givesRefresh = typeof body?.refresh_token === 'string';
	if (ex.note) notes.push(comment(ex.note));

	const spec = specOf(ex.step);
	const only =
		(spec.travels !== 'server' ? SHOWN_ONLY[spec.travels] : spec.exportsShowOnly) ??
		notResent(clean);
	if (only) {
		notes.push(comment(only));
		// Shown, not sent: a code in it stays shortened (or in full with includeTokens), never $CODE.
		const w = word(shown.request.url);
		envIn(w, env);
		return {
			shown,
			notes,
			command: `printf '%s\\n' ${quote(w)}`,
			env,
			basic: false,
			givesRefresh
		};
	}
	if (ex.failure) notes.push(comment(`This request failed: ${ex.failure.message}`));

	const args: Arg[] = [];
	let basic = false;
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
			const id = clientIdOf(clean);
			basic = true;
			args.push({
				opt: '--user',
				shell: {
					text: `"$(oauth_form_encode ${id ? shellQuote(id) : '"$CLIENT_ID"'}):$(oauth_form_encode "$CLIENT_SECRET")"`,
					env: id ? ['CLIENT_SECRET'] : ['CLIENT_ID', 'CLIENT_SECRET']
				}
			});
			continue;
		}
		if (lower === 'cookie' && placeholder(value)) {
			notes.push(comment(`The ${name} header is left out: its value was not recorded (${value}).`));
			continue;
		}
		// "Name;" sends an empty header; "Name:" would remove it.
		args.push({ opt: '--header', word: word(value === '' ? `${name};` : `${name}: ${value}`) });
	}

	const reqBody = ex.request.body;
	if (reqBody.replace(new RegExp(MARK.source, 'g'), '').includes('\u0000'))
		notes.push(
			comment('The body holds NUL bytes, which a shell argument cannot carry; they are left out.')
		);
	if (reqBody) args.push(...bodyArgs(reqBody, isFormBody(ex.request.headers, reqBody)));

	for (const a of args) {
		if (a.word) envIn(a.word, env);
		for (const v of a.shell?.env ?? []) env.add(v);
	}
	const parts = args.map((a) =>
		a.shell ? `${a.opt} ${a.shell.text}` : a.word ? `${a.opt} ${quote(a.word)}` : a.opt
	);
	return {
		shown,
		notes,
		// --silent --show-error: no progress meter when the output is piped, errors still shown.
		command: ['curl --silent --show-error --include --max-redirs 0', ...parts].join(' \\\n  '),
		env,
		basic,
		spend,
		givesRefresh
	};
}

const sorted = (env: Iterable<CurlEnv>) => {
	const set = new Set(env);
	return ENV_ORDER.filter((v) => set.has(v));
};

/** `: "${NAME:?…}"`: the script stops at once, naming what to export. */
function guard(v: CurlEnv, why: string): string {
	return `: "\${${v}:?export ${v} first: ${ENV_HELP[v].replace(/[`"$\\]/g, '')}${why}}"`;
}

/**
 * The tokens last seen in these exchanges, in order (with `answers`, also those token responses
 * brought): what `includeTokens` writes in as the variables' defaults.
 */
function lastTokens(exchanges: Exchange[], answers: boolean): Partial<Record<CurlEnv, string>> {
	const out: Partial<Record<CurlEnv, string>> = {};
	for (const ex of exchanges) {
		for (const [n, v] of ex.request.headers) {
			const bearer = n.toLowerCase() === 'authorization' ? bearerToken(v) : undefined;
			if (bearer) out.ACCESS_TOKEN = bearer.token;
		}
		const fields = requestFields(ex.request);
		for (const [n, v] of [...fields, ...queryFields(ex.request.url)]) {
			if (n === 'access_token' && v) out.ACCESS_TOKEN = v;
			if (n === 'refresh_token' && v) out.REFRESH_TOKEN = v;
		}
		const body = parseJson(ex.response?.body ?? '') as Record<string, unknown> | undefined;
		if (answers && ex.response && ex.response.status < 300 && body) {
			if (typeof body.access_token === 'string') out.ACCESS_TOKEN = body.access_token;
			if (typeof body.refresh_token === 'string') out.REFRESH_TOKEN = body.refresh_token;
		}
	}
	return out;
}

function defaults(env: Set<CurlEnv>, exchanges: Exchange[], answers: boolean): string[] {
	const last = lastTokens(exchanges, answers);
	const lines: string[] = [];
	for (const v of ['ACCESS_TOKEN', 'REFRESH_TOKEN'] as const) {
		const value = last[v];
		if (env.has(v) && value && value !== REDACTED)
			lines.push(`[ -n "\${${v}:-}" ] || ${v}=${shellQuote(value)}`);
	}
	return lines.length
		? [
				comment(
					'The tokens last recorded, used unless the environment has others (this text holds them: keep it private).'
				),
				...lines
			]
		: [];
}

/** One exchange as a curl command, with a comment naming it and the variables it reads. */
export function toCurl(ex: Exchange, opts: CurlOptions = {}): string {
	const includeTokens = !!opts.includeTokens;
	const redactors = createRedactors();
	const clean = scrubSecrets(ex, redactors);
	const built = build(ex, includeTokens, includeTokens ? [] : collectTokens([clean]), redactors);
	const vars = sorted(built.env);
	const out = [comment(label(built.shown)), ...built.notes];
	if (vars.length)
		out.push(
			comment('Before running:'),
			...vars.map((v) => comment(`  export ${v}='…'   (${ENV_HELP[v]})`))
		);
	if (built.basic) out.push(...FORM_ENCODE);
	// One command: the tokens it sent (a script: the last ones, answers included).
	if (includeTokens) out.push(...defaults(built.env, [clean], false));
	const guards = vars.map((v) => guard(v, ''));
	if (!built.spend) {
		out.push(...guards, built.command);
		return out.join('\n') + '\n';
	}
	const skip = `Skipped: ${SPENDS[built.spend]}. ${SPEND_WHY} Set ${RUN_SPENDING}=1 to run it.`;
	out.push(
		comment(
			`This step spends something (${SPENDS[built.spend]}): it runs only with ${RUN_SPENDING}=1.`
		),
		`if [ "\${${RUN_SPENDING}:-}" = 1 ]; then`,
		...guards,
		built.command,
		'else',
		`printf '%s\\n' ${shellQuote(skip)}`,
		'fi'
	);
	return out.join('\n') + '\n';
}

/**
 * The variables the steps that will run need from the environment, with and without the spending
 * steps. With them, a token response provides ACCESS_TOKEN (and REFRESH_TOKEN when it held one) to
 * the steps after it.
 */
function needs(built: Built[]): { plain: Set<CurlEnv>; spending: Set<CurlEnv> } {
	const plain = new Set<CurlEnv>();
	const spending = new Set<CurlEnv>();
	const provided = new Set<CurlEnv>();
	for (const b of built) {
		if (!b.spend) for (const v of b.env) plain.add(v);
		for (const v of b.env) if (!provided.has(v)) spending.add(v);
		if (b.spend === 'code' || b.spend === 'refresh') {
			provided.add('ACCESS_TOKEN');
			if (b.givesRefresh) provided.add('REFRESH_TOKEN');
		}
	}
	return { plain, spending };
}

const stepList = (ns: number[]) =>
	ns.length === 1 ? `step ${ns[0]}` : `steps ${ns.slice(0, -1).join(', ')} and ${ns.at(-1)}`;

/** The whole transcript as a bash script: one commented curl command per exchange, in order. */
export function toCurlScript(
	exchanges: Exchange[],
	opts: CurlOptions & { generatedAt?: Date } = {}
): string {
	return curlScript(exchanges, opts).script;
}

/** `forCode`: the script of one code, which runs only with its spending step on. */
function curlScript(
	exchanges: Exchange[],
	opts: CurlOptions & { generatedAt?: Date; forCode?: boolean } = {}
): { script: string; spendingEnv: CurlEnv[] } {
	const includeTokens = !!opts.includeTokens;
	const redactors = createRedactors();
	const clean = exchanges.map((ex) => scrubSecrets(ex, redactors));
	const tokens = includeTokens ? [] : collectTokens(clean);
	const built = exchanges.map((ex) => build(ex, includeTokens, tokens, redactors));
	const env = new Set<CurlEnv>(built.flatMap((b) => [...b.env]));
	const spendingSteps = built.flatMap((b, i) => (b.spend ? [i + 1] : []));
	const need = needs(built);
	const ofDefault = includeTokens ? defaults(env, clean, true) : [];
	const defaulted = new Set<CurlEnv>(
		(['ACCESS_TOKEN', 'REFRESH_TOKEN'] as const).filter((v) =>
			ofDefault.some((l) => l.startsWith(`[ -n "\${${v}`))
		)
	);

	const usedBy = (v: CurlEnv) => {
		const all = built.flatMap((b, i) => (b.env.has(v) ? [i + 1] : []));
		const spend = all.filter((n) => built[n - 1]!.spend);
		const taken =
			(v === 'ACCESS_TOKEN' || v === 'REFRESH_TOKEN') && !need.spending.has(v) && spend.length
				? '; with the spending steps on, it is taken from the token responses'
				: '';
		const only = spend.length === all.length ? ', spending' : '';
		return `${stepList(all)}${only}${taken}`;
	};
	const run = (vars: Set<CurlEnv>, spending: boolean) => {
		const list = sorted(vars).filter((v) => !defaulted.has(v));
		const set = list.map((v) => `${v}='…'`);
		return [...(spending ? [`${RUN_SPENDING}=1`] : []), ...set, 'bash this-script.sh'].join(' ');
	};

	const head = [
		'#!/usr/bin/env bash',
		comment(
			opts.forCode
				? 'One authorization code exchanged with curl, then the playground’s reads of user-info and the API, each once, with the token it brings.'
				: 'The feed-reader OAuth playground transcript as curl commands, one per exchange, in order.'
		),
		...(opts.generatedAt ? [comment(`Generated ${opts.generatedAt.toISOString()}.`)] : []),
		comment('Each command repeats one recorded request, so it may get another answer.'),
		...(includeTokens
			? [comment('This script holds full access and refresh tokens: keep it private.')]
			: [])
	];
	if (spendingSteps.length)
		head.push(
			'#',
			comment(
				`${stepList(spendingSteps).replace(/^s/, 'S')} spend something (a code exchange, a refresh or a revocation) and run only with ${RUN_SPENDING}=1.`
			),
			comment(`${SPEND_WHY} Without it, they print what they would send.`),
			comment(
				'With it, each token response’s new access_token and refresh_token are used by the steps after it, so a fresh CODE completes the flow.'
			)
		);
	if (env.size)
		head.push(
			'#',
			comment('It reads these variables from the environment:'),
			...sorted(env).map((v) => comment(`  ${v.padEnd(14)} ${ENV_HELP[v]} (${usedBy(v)})`)),
			'#',
			...(opts.forCode ? [] : [comment(`Run it:            ${run(need.plain, false)}`)]),
			...(spendingSteps.length ? [comment(`The whole flow:    ${run(need.spending, true)}`)] : [])
		);

	const helpers: string[] = [];
	if (built.some((b) => b.basic)) helpers.push('', ...FORM_ENCODE);
	if (spendingSteps.length) {
		helpers.push('', ...SKIPPED);
		if (built.some((b) => b.spend === 'code' || b.spend === 'refresh'))
			helpers.push('', ...TAKE_TOKENS);
	}

	const checks: string[] = [];
	if (ofDefault.length) checks.push('', ...ofDefault);
	const always = sorted(env).filter(
		(v) => need.plain.has(v) && need.spending.has(v) && !defaulted.has(v)
	);
	const onlyPlain = sorted(need.plain).filter((v) => !always.includes(v) && !defaulted.has(v));
	const onlySpending = sorted(need.spending).filter(
		(v) => !always.includes(v) && !defaulted.has(v)
	);
	const whyOf = (v: CurlEnv, spending: boolean) => {
		const ns = built.flatMap((b, i) => (b.env.has(v) && (spending || !b.spend) ? [i + 1] : []));
		return ns.length ? ` (${stepList(ns)})` : '';
	};
	if (spendingSteps.length) {
		checks.push('', `${RUN_SPENDING}=\${${RUN_SPENDING}:-}`);
		checks.push(...always.map((v) => guard(v, whyOf(v, true))));
		const branch = (vars: CurlEnv[], spending: boolean) =>
			vars.map((v) => `\t${guard(v, whyOf(v, spending))}`);
		if (onlySpending.length)
			checks.push(
				`if [ "$${RUN_SPENDING}" = 1 ]; then`,
				...branch(onlySpending, true),
				...(onlyPlain.length ? ['else', ...branch(onlyPlain, false)] : []),
				'fi'
			);
		else if (onlyPlain.length)
			checks.push(`if [ "$${RUN_SPENDING}" != 1 ]; then`, ...branch(onlyPlain, false), 'fi');
	} else checks.push(...always.map((v) => guard(v, whyOf(v, false))));

	// A code is single-use: a second code exchange (a retry in the transcript) would spend $CODE
	// again and fail, so only the first one sends it.
	const firstCode = built.findIndex((b) => b.spend === 'code') + 1;
	const body = built.map((b, i) => {
		const n = i + 1;
		const lines = ['', comment(`── ${label(b.shown, n)}`), ...b.notes];
		if (b.spend === 'code' && n !== firstCode) {
			const again = `Skipped step ${n}, another code exchange: only step ${firstCode} sends CODE, since a code is single-use.`;
			lines.push(comment(again), `printf '\\n# %s\\n' ${shellQuote(again)}`);
			return lines.join('\n');
		}
		// A body need not end with a line break: `echo` keeps the next step's output on its own line.
		const { travels, exportsShowOnly } = specOf(b.shown.step);
		const printOnly = travels !== 'server' || !!exportsShowOnly;
		if (!b.spend) return [...lines, b.command, ...(printOnly ? [] : ['echo'])].join('\n');
		const what = `step ${n} (${STEPS[b.shown.step].title.toLowerCase()})`;
		const takes = b.spend === 'code' || b.spend === 'refresh';
		lines.push(
			comment(
				`${SPENDS[b.spend].replace(/^it/, 'This step')}: it runs only with ${RUN_SPENDING}=1.`
			),
			`if [ "$${RUN_SPENDING}" = 1 ]; then`,
			...(takes
				? [
						`response=$(${b.command})`,
						`printf '%s\\n' "$response"`,
						`take_tokens "$response" ${shellQuote(what)} || exit 1`
					]
				: [b.command, 'echo']),
			'else',
			`skipped ${shellQuote(what)} ${shellQuote(SPENDS[b.spend])} ${shellQuote(b.command)}`,
			'fi'
		);
		return lines.join('\n');
	});
	return {
		script: [...head, ...helpers, ...checks, ...body].join('\n') + '\n',
		spendingEnv: sorted(need.spending)
	};
}

/** A script for one code ("Get a code for the script"), and the variables its command must set. */
export interface CodeScript {
	script: string;
	/** What the script checks for with the spending steps on, in the order they are listed. */
	env: CurlEnv[];
	/**
	 * The step of the transcript whose token request it repeats, numbered as the transcript is;
	 * undefined when it sends the code's own exchange, which the playground built and never sent.
	 */
	from?: number;
}

const READS = new Set(['GET', 'HEAD']);

/**
 * The script for a code kept for it: the code's own exchange (`own`: the request the playground
 * would send for it, not sent), else the transcript's code exchange (the latest that got tokens,
 * else the latest), with the code as `$CODE`, then the transcript's reads of user-info and the API
 * (GET or HEAD), each once, in order, with the token the exchange brings. Never a refresh, a
 * revocation, a write or anything else that spends: the code is sent once. Undefined when the
 * transcript holds no code exchange to repeat.
 */
export function toCodeScript(exchanges: Exchange[], own?: Exchange): CodeScript | undefined {
	// A replayed code (sent on purpose from a fork) is shown by the exports, never sent: not this one.
	const codes = exchanges.flatMap((ex, i) => (spends(ex) === 'code' && !ex.replay ? [i] : []));
	const granted = codes.filter((i) => {
		const status = exchanges[i]!.response?.status ?? 0;
		return status >= 200 && status < 300;
	});
	const at = granted.at(-1) ?? codes.at(-1);
	const exchange =
		own && spends(own) === 'code' ? own : at !== undefined ? exchanges[at] : undefined;
	if (!exchange) return undefined;
	const seen = new Set<string>();
	const reads = exchanges.filter((ex) => {
		const key = `${ex.request.method} ${ex.request.url}`;
		const read =
			!!specOf(ex.step).sendsAccessToken &&
			READS.has(ex.request.method.toUpperCase()) &&
			!spends(ex) &&
			!seen.has(key);
		seen.add(key);
		return read;
	});
	const { script, spendingEnv } = curlScript([exchange, ...reads], { forCode: true });
	return { script, env: spendingEnv, from: exchange === own ? undefined : at! + 1 };
}

/**
 * The command that runs a code's script as printed: the spending steps on, the code written in,
 * the secret (and any other variable) read from the environment, never written in.
 */
export function codeScriptCommand(env: CurlEnv[], code: string, file: string): string {
	const set = env.map((v) => (v === 'CODE' ? `CODE=${shellQuote(code)}` : `${v}="$${v}"`));
	return [`${RUN_SPENDING}=1`, ...set, 'bash', quote([file])].join(' ');
}
