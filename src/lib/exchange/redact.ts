/**
 * Redaction, in one place: pure functions that take the client secret out of everything that leaves
 * the server. The server redacts with the secret it knows, through its app's redactors
 * (`createRedactors`: the exchanges, and the page data: the token panel, the callback record,
 * notices); a HAR import through a redactor of its own (`createRedactor`); the exports run
 * `prepareForExport`, which scrubs any client secret again (found by its field name, since its
 * value is not known there) and shortens tokens unless asked not to. A secret becomes `<redacted>`; the length of what was really
 * sent is noted, and Content-Length keeps its true sent value (docs/security.md, "What the browser may see").
 *
 * A secret is found in exactly these encodings:
 * - raw;
 * - percent-encoding, upper or lower case hex (`%2F`, `%2f`), `+` for a space, and so form encoding
 *   (any mix of these, character by character);
 * - JSON string escaping: what JSON.stringify writes inside the quotes, `\/`, and `\uXXXX` (either
 *   case) for any character;
 * - base64 and base64url, padded or not, at each of the three alignments a copy inside a larger
 *   encoded text can have: the characters that depend only on the secret are searched for, and the
 *   one character on each side that mixes secret bits with its neighbours goes with them;
 * - form-encode-then-base64 (HTTP Basic, RFC 6749 §2.3.1): the base64 forms above of the secret's
 *   common form encodings, and any `Basic <credentials>` whose password is the secret;
 * - hexadecimal of its UTF-8 bytes, in either case or mixed;
 * - re-encoded, in any mix with the forms above, character by character: HTML character
 *   references (`&amp; &lt; &gt; &quot; &apos;`, upper case too but `&apos;`, and decimal `&#38;` or
 *   hex `&#x26;`, `&#X26;`, with any leading zeros; each with or without its closing `;`, as browsers
 *   read them, but `&apos;`), percent-encoding applied twice (`%2541` for `A`,
 *   `%2B` for a space written `+` first), and JSON inside a JSON string (JSON-escaped twice:
 *   `\\\"`, `\\\\`, `\\n`, `\\u00e9`). These are searched for with a second, larger pattern, only
 *   in a text that holds `&#` or a named reference, `%25` or `%2B`, two backslashes, or the
 *   secret's hex.
 * A secret under 8 bytes (SHORT_SECRET_BYTES) is redacted only as a whole value: a copy whose
 * neighbours are both delimiters (any character outside `[A-Za-z0-9._~-]`) or the text's ends, so
 * that a secret `y` does not blank out `response_type`.
 * A service that transforms the secret otherwise (reversed, split, hashed, encoded three times)
 * defeats this; the secret's binding to its client and URLs is the guarantee, not this module.
 */
import { specOf } from '$lib/steps/registry';
import { isMadeUp } from '$lib/steps/secret-step';
import type { Exchange, HeaderList, Redaction } from './types';
import { createLru } from './lru';
import {
	decodeBase64Utf8,
	formDecode,
	formFields,
	isFormBody,
	parseJson,
	queryFields
} from './text';

export const REDACTED = '<redacted>';

/** Below this many UTF-8 bytes a secret is redacted only as a whole value between delimiters. */
const SHORT_SECRET_BYTES = 8;

// ---------------------------------------------------------------------------------------------
// The secrets the server knows, by value, in every encoding

export interface Secret {
	/** What the value is, e.g. "client_secret". */
	name: string;
	value: string;
}

/**
 * One secret, ready to be found: its name, its byte length, and one pattern for all its forms,
 * in two sizes: `pattern` for the forms of one encoding, `again` for those and the forms a second
 * encoding makes (hex, HTML references, percent or JSON twice), used only on a text that may hold
 * one (mayHoldAgain), and built on first use.
 */
interface Matcher {
	name: string;
	value: string;
	length: number;
	/** No text shorter than this holds a copy: no form of the secret is shorter. */
	shortest: number;
	pattern: RegExp;
	/** The secret's hex, alone: a text that holds it needs the larger pattern. */
	hex: RegExp;
	againSource: string;
	again?: RegExp;
}

const escapeRe = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/** A hex digit's pattern, in either case: `a` → `[aA]`, `0` → `0`. */
const HEX_DIGIT: Record<string, string> = Object.fromEntries([
	...Array.from('0123456789', (d) => [d, d]),
	...Array.from('abcdef', (d) => [d, `[${d}${d.toUpperCase()}]`])
]);
const hexPattern = (n: number, width: number) =>
	Array.from(n.toString(16).padStart(width, '0'), (d) => HEX_DIGIT[d]).join('');

const utf8 = (s: string) => new TextEncoder().encode(s);

/** What JSON.stringify writes inside the quotes. */
const jsonEscape = (s: string) => JSON.stringify(s).slice(1, -1);

/**
 * The named HTML character references of the characters that have one in common use, as patterns.
 * HTML5 also reads the upper-case ones, and all but `&apos;` without their `;` (its legacy names:
 * `&ampx` is `&x` in a page's text).
 */
const HTML_NAMED: Record<string, string> = {
	'&': '(?:amp|AMP);?',
	'<': '(?:lt|LT);?',
	'>': '(?:gt|GT);?',
	'"': '(?:quot|QUOT);?',
	"'": 'apos;'
};

/**
 * A character as an HTML character reference: named, decimal or hex, any leading zeros. A numeric
 * one may lack its closing `;` (browsers decode `&#115&#51` as `s3`), and then ends where its
 * digits end: `&#1151` is one character, not `s` and `1`, so it is a copy only when no digit of its
 * kind follows.
 */
function htmlPattern(ch: string): string {
	const cp = ch.codePointAt(0)!;
	const named = HTML_NAMED[ch];
	const decimal = `#0*${cp}(?:;|(?![0-9]))`;
	const hex = `#[xX]0*${hexPattern(cp, 1)}(?:;|(?![0-9a-fA-F]))`;
	return `&(?:${named ? `${named}|` : ''}${decimal}|${hex})`;
}

/**
 * The JSON escapes of a character, each as a pattern: JSON.stringify's short escape, `\/`, and
 * `\uXXXX` (either case) for each UTF-16 unit. With `again`, a copy escaped twice (JSON inside a
 * JSON string) matches too: `\\n` and `\\u00e9`, and `\\\"` and `\\\\` (where the quote or the
 * backslash after the backslash is escaped too).
 */
function jsonPatterns(ch: string, again: boolean): string[] {
	/** The escape whose text after the backslash is `rest` (a pattern if it is a \u escape). */
	const escape = (rest: string) => {
		const more = !again ? '' : rest === '"' || rest === '\\' ? '(?:\\\\\\\\)?' : '(?:\\\\)?';
		return `\\\\${more}${rest.startsWith('u') ? rest : escapeRe(rest)}`;
	};
	// Stryker disable next-line ArrayDeclaration: a literal alternative no text holds finds nothing more
	const out: string[] = [];
	const short = jsonEscape(ch);
	if (short.startsWith('\\')) out.push(escape(short.slice(1)));
	if (ch === '/') out.push(escape('/'));
	out.push(
		ch
			.split('')
			.map((u) => escape(`u${hexPattern(u.charCodeAt(0), 4)}`))
			.join('')
	);
	return out;
}

/**
 * One character of the secret: raw, percent-encoded (either case, `+` for a space), or JSON-escaped
 * (JSON.stringify's escapes, `\/`, and `\uXXXX` in either case). With `again`, also the forms a
 * second encoding makes: percent-encoded twice (`%2541`, a space's `+` as `%2B`), JSON-escaped
 * twice (JSON inside a JSON string), and any HTML character reference. Forms with a common start
 * share one branch (`%(?:25)?41`): a pattern with fewer branches is much faster to build.
 */
function charPattern(ch: string, again: boolean): string {
	const percent = again ? '%(?:25)?' : '%';
	const alts = [
		[...utf8(ch)].map((b) => `${percent}${hexPattern(b, 2)}`).join(''),
		...jsonPatterns(ch, again)
	];
	if (ch === ' ') alts.push(again ? '\\+|%2[bB]' : '\\+');
	// Stryker disable next-line ConditionalExpression: the smaller pattern is used on texts without a reference, where one finds nothing more
	if (again) alts.push(htmlPattern(ch));
	// The raw character last: a copy that ends in `&amp;` or `\\` is taken whole, not up to its `&` or first `\`.
	alts.push(escapeRe(ch));
	return `(?:${alts.join('|')})`;
}

const HTML_REFERENCE = /&(?:#|amp|lt|gt|quot|apos;)/i;
/** A byte percent-encoded twice; with a space in the secret, also `%2B` (its `+` encoded). */
// Stryker disable next-line Regex: a hint that says yes more often only costs time
const PERCENT_TWICE = /%25[0-9a-f]{2}/i;
// Stryker disable next-line Regex: a hint that says yes more often only costs time
const PERCENT_TWICE_SPACE = /%25[0-9a-f]{2}|%2b/i;

/**
 * Whether the text may hold a form that only the larger pattern finds: every such form holds an
 * HTML character reference's start, a byte percent-encoded twice (`%2541`; `%2B` when the secret
 * holds a space), two backslashes, or is the secret's hex. Most texts hold none (a form body with
 * a `+` or `%` of the secret encoded once neither), and are searched with the smaller, faster
 * pattern. `includes` goes first: it is much faster than a search with alternatives.
 */
// Stryker disable ConditionalExpression,LogicalOperator,StringLiteral: the larger pattern finds all that the smaller one does; a hint that says yes more often only costs time
const mayHoldAgain = (text: string, m: Matcher) =>
	(text.includes('&') && HTML_REFERENCE.test(text)) ||
	(text.includes('%2') &&
		(m.value.includes(' ') ? PERCENT_TWICE_SPACE : PERCENT_TWICE).test(text)) ||
	text.includes('\\\\') ||
	m.hex.test(text);
// Stryker restore ConditionalExpression,LogicalOperator,StringLiteral

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Percent-encodes every byte of `s` but ALNUM and `keep`, with `space` for a space, hex in that case. */
function percentEncode(s: string, keep: string, space: string, lower: boolean): string {
	let out = '';
	for (const ch of s) {
		if (ch === ' ') out += space;
		else if (ALNUM.includes(ch) || keep.includes(ch)) out += ch;
		else
			for (const b of utf8(ch)) {
				const h = b.toString(16).padStart(2, '0');
				out += `%${lower ? h : h.toUpperCase()}`;
			}
	}
	return out;
}

/**
 * The byte strings whose base64 is searched: the secret, and its form encodings as common libraries
 * write them (WHATWG's form set, encodeURIComponent's, RFC 3986's unreserved; `+` or `%20` for a
 * space; upper or lower case hex).
 */
function base64Sources(value: string): string[] {
	const out = new Set([value]);
	for (const keep of ['*._-', "!'()*._~-", '._~-'])
		for (const space of ['+', '%20'])
			for (const lower of [false, true]) out.add(percentEncode(value, keep, space, lower));
	return [...out];
}

const B64 = '[A-Za-z0-9+/_-]';

function toBase64(bytes: Uint8Array): string {
	let bin = '';
	for (const b of bytes) bin += String.fromCharCode(b);
	return btoa(bin);
}

/**
 * The base64 and base64url patterns of `bytes` inside any larger base64 text: for each alignment
 * (the copy starts 0, 1 or 2 bytes after a 3-byte group starts), the characters that depend only
 * on these bytes, with the mixed character on either side and any padding.
 */
function base64Patterns(bytes: Uint8Array): string[] {
	const out = new Set<string>();
	for (const align of [0, 1, 2]) {
		const padded = new Uint8Array(align + bytes.length);
		padded.set(bytes, align);
		const full = toBase64(padded);
		const start = Math.ceil((8 * align) / 6);
		const endBits = 8 * (align + bytes.length);
		const core = full.slice(start, Math.floor(endBits / 6));
		const before = align === 0 ? '' : `${B64}?`;
		const after = endBits % 6 === 0 ? '' : `(?:${B64}={0,2})?`;
		for (const form of [core, core.replace(/\+/g, '-').replace(/\//g, '_')])
			out.add(`${before}${escapeRe(form)}${after}`);
	}
	return [...out];
}

/** The whole-value base64 and base64url of a short secret, padded or not. */
function wholeBase64(bytes: Uint8Array): string[] {
	const std = toBase64(bytes);
	const url = std.replace(/\+/g, '-').replace(/\//g, '_');
	// `=` is only ever padding at the end.
	return [...new Set([std, url])].map((f) => `${escapeRe(f.replace(/=/g, ''))}={0,2}`);
}

const WORD = 'A-Za-z0-9._~-';

/**
 * The longest secret searched for, in UTF-16 units: the setup's own limit. The pattern of a longer
 * one can be too large for the JavaScript engine to run (2,048 emoji already are).
 */
export const MAX_SECRET_LENGTH = 1024;

/** A secret too long to be searched for in every encoding: what holds it is refused, not shown. */
export class SecretTooLong extends Error {
	constructor(readonly length: number) {
		super(
			`A client secret of ${length} characters is longer than the ${MAX_SECRET_LENGTH} that redaction can search for in every encoding.`
		);
	}
}

function matcher(secret: Secret): Matcher {
	if (secret.value.length > MAX_SECRET_LENGTH) throw new SecretTooLong(secret.value.length);
	const bytes = utf8(secret.value);
	const chars = (again: boolean) => [...secret.value].map((ch) => charPattern(ch, again)).join('');
	// Hexadecimal of the UTF-8 bytes, each digit in either case.
	const hex = [...bytes].map((b) => hexPattern(b, 2)).join('');
	const short = bytes.length < SHORT_SECRET_BYTES;
	const b64 = short
		? wholeBase64(bytes)
		: base64Sources(secret.value).flatMap((s) => base64Patterns(utf8(s)));
	return {
		name: secret.name,
		value: secret.value,
		length: bytes.length,
		// Each character is at least one character of text in every form: raw, escaped or encoded.
		// Base64 is longer than its bytes: a copy of n ≥ 8 bytes keeps at least ⌊4n/3⌋ − 2
		// characters that are its own alone, and a short secret is matched whole.
		// Stryker disable next-line ArrayDeclaration: a bound of 0 has every text searched; this only spares the search
		shortest: [...secret.value].length,
		// Stryker disable next-line BooleanLiteral: the smaller pattern is used on texts without a re-encoded form, where the larger finds nothing more
		pattern: new RegExp(`(?:${[chars(false), ...b64].join('|')})`, 'g'),
		hex: new RegExp(hex),
		againSource: `(?:${[chars(true), hex, ...b64].join('|')})`
	};
}

const BASIC = /(\bbasic[ \t]+)([A-Za-z0-9+/_-]+={0,2})/gi;

/** Does this `user:password` (decoded Basic credentials) hold the secret? */
function basicHolds(decoded: string, m: Matcher, short: boolean): boolean {
	const i = decoded.indexOf(':');
	if (i < 0) return false;
	const password = decoded.slice(i + 1);
	if (short) return password === m.value || formDecode(password) === m.value;
	return replaceForms(decoded, m).hit;
}

const IN_WORD = new RegExp(`[${WORD}]`);
/** Is the character at `i` a delimiter, or beyond the text's ends? */
const delimiterAt = (text: string, i: number) =>
	i < 0 || i >= text.length || !IN_WORD.test(text[i]!);

/**
 * Which copies of a short secret stand as a whole value: a copy whose neighbours are delimiters, or
 * copies of the secret that stand as whole values themselves (`%79%79%79` between blanks is three
 * copies of `y`, however many there are; `yy` is another word). Found in one pass over the copies:
 * a copy that becomes whole is the reason its adjacent copies are looked at again.
 */
function wholeValues(text: string, copies: [number, number][]): boolean[] {
	// Where whole copies start and end: a copy that starts where a whole one ends is its neighbour.
	const starts = new Set<number>();
	const ends = new Set<number>();
	// From the last copy back, so a copy whole thanks to its right neighbour finds it whole already;
	// a copy that becomes whole has its right neighbour looked at again.
	const todo = copies.map((_, k) => k);
	for (let k = todo.pop(); k !== undefined; k = todo.pop()) {
		const [start, end] = copies[k]!;
		// Stryker disable next-line ConditionalExpression: a whole copy looked at again is whole again; this only saves the work
		if (starts.has(start)) continue;
		const leftOk = delimiterAt(text, start - 1) || ends.has(start);
		const rightOk = delimiterAt(text, end) || starts.has(end);
		if (!(leftOk && rightOk)) continue;
		starts.add(start);
		ends.add(end);
		if (k + 1 < copies.length) todo.push(k + 1);
	}
	return copies.map(([start]) => starts.has(start));
}

/** One stretch of text holding no `<redacted>`, with every copy of the secret replaced. */
function replaceIn(text: string, m: Matcher): { text: string; hit: boolean } {
	// Most texts hold no copy: one search says so, without collecting matches.
	// Stryker disable next-line ConditionalExpression: a shorter text has no match either; this only spares the search
	if (text.length < m.shortest) return { text, hit: false };
	const pattern = mayHoldAgain(text, m) ? (m.again ??= new RegExp(m.againSource, 'g')) : m.pattern;
	const found = pattern.test(text);
	pattern.lastIndex = 0; // matchAll starts where the pattern's last search ended
	// Stryker disable next-line ConditionalExpression: with no copy, the search below finds none either
	if (!found) return { text, hit: false };
	const copies = [...text.matchAll(pattern)].map((c): [number, number] => [
		c.index,
		c.index + c[0].length
	]);
	const keep = m.length < SHORT_SECRET_BYTES ? wholeValues(text, copies) : copies.map(() => true);
	let out = '';
	let from = 0;
	copies.forEach(([start, end], k) => {
		if (!keep[k]) return;
		out += text.slice(from, start) + REDACTED;
		from = end;
	});
	return { text: out + text.slice(from), hit: from > 0 };
}

/**
 * Every copy of the secret replaced, in one pass. Text already `<redacted>` is left as it is and
 * never searched (a secret could be that word), and counts as a delimiter beside a short copy.
 */
function replaceForms(text: string, m: Matcher): { text: string; hit: boolean } {
	// Stryker disable next-line ConditionalExpression: a text split on a word it lacks is itself; this only spares the split
	if (!text.includes(REDACTED)) return replaceIn(text, m);
	let hit = false;
	const parts = text.split(REDACTED).map((part) => {
		const r = replaceIn(part, m);
		hit ||= r.hit;
		return r.text;
	});
	return { text: parts.join(REDACTED), hit };
}

/** The text with every copy of the secret, in every listed encoding, replaced by `<redacted>`. */
function redactWith(text: string, m: Matcher): { text: string; hit: boolean } {
	let hit = false;
	const short = m.length < SHORT_SECRET_BYTES;
	const basic = text.replace(BASIC, (all, lead: string, b64: string) => {
		const decoded = decodeBase64Utf8(b64);
		if (decoded === undefined || !basicHolds(decoded, m, short)) return all;
		hit = true;
		return `${lead}${REDACTED}`;
	});
	const r = replaceForms(basic, m);
	return { text: r.text, hit: hit || r.hit };
}

/** One text with every secret redacted, and the names of those found in it. */
function redactAll(text: string, ms: Matcher[]): { text: string; hits: Matcher[] } {
	const hits: Matcher[] = [];
	let out = text;
	for (const m of ms) {
		const r = redactWith(out, m);
		if (r.hit) hits.push(m);
		out = r.text;
	}
	return { text: out, hits };
}

/** Deeper than this, plain data is not shown at all (a token response nested this deep is noise). */
const MAX_DEPTH = 32;
export const TOO_DEEP = '<nested too deep to show>';

function walk(value: unknown, ms: Matcher[], depth: number): unknown {
	if (depth > MAX_DEPTH) return TOO_DEEP;
	if (typeof value === 'string') return redactAll(value, ms).text;
	// A number whose digits are the secret (a numeric secret echoed as a JSON number) is shown as text.
	if (typeof value === 'number') return redactAll(String(value), ms).hits.length ? REDACTED : value;
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map((v) => walk(v, ms, depth + 1));
	return Object.fromEntries(
		Object.entries(value).map(([k, v]) => [redactAll(k, ms).text, walk(v, ms, depth + 1)])
	);
}

/**
 * A redactor of one set of secrets: every exchange, text or value it is given comes back with
 * every copy of each of them, in every listed encoding, replaced by `<redacted>`.
 */
export interface Redactor {
	/** The exchange with the secrets replaced everywhere, and each place one was found noted. */
	exchange(ex: Exchange): Exchange;
	/** The text with the secrets replaced. */
	text(text: string): string;
	/**
	 * Any plain data (the token set, the callback record, a notice) with every string and every key
	 * redacted: what the page data carries besides the Exchanges.
	 */
	value<T>(value: T): T;
}

function redactorOf(ms: Matcher[]): Redactor {
	return {
		exchange: (ex) => redactExchangeWith(ex, ms),
		text: (text) => (ms.length ? redactAll(text, ms).text : text),
		value: (value) => (ms.length ? (walk(value, ms, 0) as typeof value) : value)
	};
}

/** The secrets worth searching for: an empty value is none. */
const valued = (secrets: Secret[]) => secrets.filter((s) => s.value.length > 0);

/**
 * A redactor of these secrets whose matchers are built now and belong to it alone, so they go when
 * it goes: a HAR import's, which redacts every entry of one file with every secret the file holds.
 * Throws SecretTooLong for a secret too long.
 */
export function createRedactor(secrets: Secret[]): Redactor {
	return redactorOf(valued(secrets).map(matcher));
}

/**
 * Redactors that share the matchers of the secrets used lately: building a secret's matcher costs
 * more than searching an exchange with it, and every step redacts with the same secret. They are
 * kept bounded by the total size of their patterns, least recently used dropped first: the longest
 * secret's two (MAX_SECRET_LENGTH) come to under 240,000 characters, so at least four of any size
 * fit. Whoever redacts makes them and they go with it: the server's app has its own (made by the
 * composition root), where a secret is kept only in the server's memory, as it is while its
 * request runs; an export makes one for the exchanges it scrubs.
 */
export interface Redactors {
	/** A redactor of these secrets, with the kept matchers of those used lately. Throws SecretTooLong. */
	of(secrets: Secret[]): Redactor;
}

/** The most pattern characters the kept matchers of one `createRedactors()` hold. */
const MATCHER_CACHE_CHARS = 1_000_000;

/** The size a matcher's patterns count for: both, as if the larger one were built. */
const patternSize = (m: Matcher) => m.pattern.source.length + m.againSource.length;

export function createRedactors(): Redactors {
	const kept = createLru<string, Matcher>(MATCHER_CACHE_CHARS, patternSize);
	const cached = (secret: Secret) =>
		kept.get(`${secret.name}\0${secret.value}`, () => matcher(secret));
	return { of: (secrets) => redactorOf(valued(secrets).map(cached)) };
}

function redactExchangeWith(ex: Exchange, ms: Matcher[]): Exchange {
	if (ms.length === 0) return ex;
	const noted: Redaction[] = [...(ex.redactions ?? [])];
	const seen = new Set(noted.map((r) => r.what));
	const note = (what: string, m: Matcher) => {
		const text = `${m.name}${what}`;
		if (seen.has(text)) return;
		seen.add(text);
		noted.push({ what: text, length: m.length });
	};
	const text = (value: string, where: string) => {
		const r = redactAll(value, ms);
		for (const m of r.hits) note(where, m);
		return r.text;
	};
	const headers = (list: HeaderList): HeaderList =>
		list.map(([name, value]) => {
			const lower = name.toLowerCase();
			// The true sent size stays: a number is no copy of the secret.
			if (lower === 'content-length') return [name, value];
			const basic = lower === 'authorization' && /^\s*basic\s/i.test(value);
			const where = basic ? ' (in the Authorization: Basic header)' : ` (in the ${name} header)`;
			return [text(name, ` (in a header name)`), text(value, where)];
		});
	const request = {
		...ex.request,
		method: text(ex.request.method, ' (in the request line)'),
		url: text(ex.request.url, ' (in the URL)'),
		headers: headers(ex.request.headers),
		body: text(ex.request.body, '')
	};
	const response = ex.response && {
		...ex.response,
		statusText: text(ex.response.statusText, ' (in the status line)'),
		headers: headers(ex.response.headers),
		body: text(ex.response.body, ' (echoed in the response body)')
	};
	const failure = ex.failure && {
		...ex.failure,
		message: text(ex.failure.message, ' (in the failure message)'),
		...(ex.failure.detail === undefined
			? {}
			: { detail: text(ex.failure.detail, ' (in the failure message)') })
	};
	const findings = ex.findings.map((f) => walk(f, ms, 0) as typeof f);
	const note_ = ex.note === undefined ? undefined : redactAll(ex.note, ms).text;
	const out: Exchange = { ...ex, request, findings, redactions: noted.length ? noted : undefined };
	if (response) out.response = response;
	if (failure) out.failure = failure;
	if (note_ !== undefined) out.note = note_;
	return out;
}

// ---------------------------------------------------------------------------------------------
// Tokens, shortened in the exports unless they are asked for

/** For exports: keep the first and last 4 characters of a token or code, so two can still be told apart. */
export function shortenToken(token: string): string {
	if (token.length <= 12) return '<token>';
	return `${token.slice(0, 4)}…${token.slice(-4)} <${token.length} chars>`;
}

/** Replaces tokens and codes by their shortened form everywhere in the exchange (exports default). */
export function redactTokens(ex: Exchange, tokens: string[]): Exchange {
	const real = [...new Set(tokens.filter((t) => t.length >= 8))].sort(
		(a, b) => b.length - a.length
	);
	if (real.length === 0) return ex;
	const swap = (text: string) => real.reduce((acc, t) => acc.split(t).join(shortenToken(t)), text);
	const swapHeaders = (h: HeaderList): HeaderList => h.map(([n, v]) => [n, swap(v)]);
	return {
		...ex,
		request: {
			...ex.request,
			url: swap(ex.request.url),
			headers: swapHeaders(ex.request.headers),
			body: swap(ex.request.body)
		},
		response: ex.response
			? { ...ex.response, headers: swapHeaders(ex.response.headers), body: swap(ex.response.body) }
			: undefined
	};
}

// ---------------------------------------------------------------------------------------------
// The client secret in the exports: found by its field name, since its value is not known there

const isRedacted = (v: string) => v === REDACTED;

/** The password of a value that is exactly `Basic <credentials>` whose credentials hold a colon. */
function basicPassword(value: string): string | undefined {
	const m = /^\s*basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(value);
	const decoded = m ? decodeBase64Utf8(m[1]!) : undefined;
	const i = decoded?.indexOf(':') ?? -1;
	return i < 0 ? undefined : decoded!.slice(i + 1);
}

/** The client secret's field name, and the name its copies are noted under. */
export const SECRET_FIELD = 'client_secret';
const MAX_JSON_DEPTH = 32;

/** Collects the `client_secret` string fields of parsed JSON, at any depth up to MAX_JSON_DEPTH. */
function jsonSecrets(node: unknown, values: string[], depth = 0): void {
	// JSON's objects and arrays are Objects; its strings, numbers, booleans and null are not.
	if (depth > MAX_JSON_DEPTH || !(node instanceof Object)) return;
	for (const [key, v] of Object.entries(node)) {
		if (key === SECRET_FIELD && typeof v === 'string') values.push(v);
		else jsonSecrets(v, values, depth + 1);
	}
}

/**
 * The client secrets an exchange holds by name, for the exports and the HAR import, which do not
 * know their values: the values of `client_secret` fields (query, form body, JSON bodies of the
 * request and the answer at any depth) and the password of an `Authorization: Basic` header. A
 * value already `<redacted>`, or empty, is none.
 */
export function clientSecretsIn(ex: Exchange): string[] {
	const found: string[] = [];
	for (const [n, v] of queryFields(ex.request.url)) if (n === SECRET_FIELD) found.push(v);
	if (isFormBody(ex.request.headers, ex.request.body))
		for (const [n, v] of formFields(ex.request.body)) if (n === SECRET_FIELD) found.push(v);
	jsonSecrets(parseJson(ex.request.body), found);
	if (ex.response) jsonSecrets(parseJson(ex.response.body), found);
	for (const [n, v] of ex.request.headers) {
		const password = n.toLowerCase() === 'authorization' ? basicPassword(v) : undefined;
		if (password !== undefined) found.push(password);
	}
	return found.filter((v) => v !== '' && !isRedacted(v));
}

/**
 * Redacts any client secret left in an exchange (`clientSecretsIn`), for the exports: each is
 * redacted wherever it appears, in every encoding, as the server does with the secret it knows. A
 * value already `<redacted>` is left alone, so running it on a redacted exchange changes nothing.
 * An export of several exchanges hands every call the same `redactors`, made for it, so that a
 * secret found in several of them has its matcher built once.
 */
export function scrubSecrets(ex: Exchange, redactors: Redactors = createRedactors()): Exchange {
	return redactors
		.of(clientSecretsIn(ex).map((value) => ({ name: SECRET_FIELD, value })))
		.exchange(ex);
}

const TOKEN_FIELDS = new Set(['access_token', 'refresh_token', 'id_token']);

/**
 * Every access and refresh token and authorization code in the transcript: token-response bodies,
 * `Authorization: Bearer` headers, `access_token`/`refresh_token` query or form fields, and codes
 * (the `code` of a code exchange's body, of the redirect back and of a `Location` header). Each is
 * listed also in its percent-encoded forms, so that an encoded copy in a form body is found too.
 */
export function collectTokens(exchanges: Exchange[]): string[] {
	const out = new Set<string>();
	const add = (v: unknown) => {
		if (typeof v !== 'string' || v.length < 8 || isRedacted(v)) return;
		out.add(v);
		out.add(encodeURIComponent(v));
		out.add(new URLSearchParams([['x', v]]).toString().slice(2));
	};
	// A JSON array or any other body has no token field at the top.
	const fromJson = (body: string) => {
		const v = parseJson(body) as Record<string, unknown> | undefined;
		for (const k of TOKEN_FIELDS) add(v?.[k]);
	};
	for (const ex of exchanges) {
		const madeUpStep = !!specOf(ex.step).exportsShowOnly;
		for (const [n, v] of ex.request.headers) {
			const m = /^\s*bearer\s+(\S+)\s*$/i.exec(v);
			if (m && n.toLowerCase() === 'authorization') add(m[1]);
		}
		const query = queryFields(ex.request.url);
		for (const [n, v] of query) if (TOKEN_FIELDS.has(n)) add(v);
		if (isFormBody(ex.request.headers, ex.request.body)) {
			const form = formFields(ex.request.body);
			for (const [n, v] of form) if (TOKEN_FIELDS.has(n)) add(v);
			if (form.some(([n, v]) => n === 'grant_type' && v === 'authorization_code'))
				for (const [n, v] of form)
					// The client secret check's made-up code is no credential: it stays as sent. Any
					// other step's code is shortened, whatever it looks like.
					if ((n === 'code' && !(madeUpStep && isMadeUp(v))) || n === 'code_verifier') add(v);
		} else fromJson(ex.request.body);
		if (ex.response) fromJson(ex.response.body);
		// Authorization codes: the redirect back (the callback, or any address with a state beside
		// the code) and a Location header that carries one.
		const codes = (fields: [string, string][], always: boolean) => {
			if (always || fields.some(([n]) => n === 'state'))
				for (const [n, v] of fields) if (n === 'code') add(v);
		};
		codes(query, specOf(ex.step).travels === 'redirect-back');
		if (ex.response)
			for (const [n, v] of ex.response.headers)
				if (n.toLowerCase() === 'location') codes(queryFields(v), true);
	}
	return [...out];
}

/** What every export starts from: secrets scrubbed again, and tokens and codes shortened unless `includeTokens`. */
export function prepareForExport(exchanges: Exchange[], includeTokens = false): Exchange[] {
	const redactors = createRedactors();
	const clean = exchanges.map((ex) => scrubSecrets(ex, redactors));
	if (includeTokens) return clean;
	const tokens = collectTokens(clean);
	return clean.map((ex) => redactTokens(ex, tokens));
}
