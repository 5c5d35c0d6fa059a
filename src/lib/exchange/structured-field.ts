/**
 * A Structured Field List (RFC 9651 §4.2.1, "Parsing a List"), for the IETF `RateLimit` and
 * `RateLimit-Policy` fields (draft-ietf-httpapi-ratelimit-headers-11 §3, §4), which are Lists of
 * Items with Parameters. A field sent on several lines is one List, its lines joined with a comma
 * (RFC 9651 §4.2). Any syntax error fails the whole field (`undefined`), as RFC 9651 §4.2 says;
 * those drafts then say to ignore it.
 */

/** A bare item (RFC 9651 §3.3): the types a value or a parameter may take. */
export type BareItem =
	| { type: 'integer' | 'decimal' | 'date'; value: number }
	| { type: 'string' | 'token' | 'display'; value: string }
	| { type: 'bytes'; value: string }
	| { type: 'boolean'; value: boolean };

/** An Item, or an Inner List (RFC 9651 §3.1.1), with its Parameters in order (a repeated key keeps its last value). */
export type ListMember =
	| { kind: 'item'; value: BareItem; params: Map<string, BareItem> }
	| {
			kind: 'inner';
			items: { value: BareItem; params: Map<string, BareItem> }[];
			params: Map<string, BareItem>;
	  };

class SyntaxFailure extends Error {}

class Reader {
	i = 0;
	constructor(readonly s: string) {}
	get done(): boolean {
		return this.i >= this.s.length;
	}
	/** The next character ('' at the end); a method, so that each call reads afresh. */
	peek(): string {
		return this.s[this.i] ?? '';
	}
	fail(): never {
		throw new SyntaxFailure();
	}
	expect(c: string): void {
		if (this.peek() !== c) this.fail();
		this.i++;
	}
	skip(chars: RegExp): void {
		while (!this.done && chars.test(this.peek())) this.i++;
	}
}

const DIGIT = /[0-9]/;
const LCALPHA = /[a-z]/;
const ALPHA = /[A-Za-z]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
// tchar (RFC 9110 §5.6.2), ":" and "/".
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const BASE64 = /[A-Za-z0-9+/=]/;

/** §4.2.4 Integer or Decimal: at most 15 digits, or 12 and 1 to 3 after the point. */
function number(r: Reader): BareItem {
	const sign = r.peek() === '-' ? -1 : 1;
	if (sign < 0) r.i++;
	if (!DIGIT.test(r.peek())) r.fail();
	let digits = '';
	let decimal = false;
	while (!r.done) {
		const c = r.peek();
		if (DIGIT.test(c)) digits += c;
		else if (c === '.' && !decimal) {
			if (digits.length > 12) r.fail();
			digits += c;
			decimal = true;
		} else break;
		r.i++;
		if (digits.length > (decimal ? 16 : 15)) r.fail();
	}
	if (!decimal) return { type: 'integer', value: sign * Number(digits) };
	const fraction = digits.length - digits.indexOf('.') - 1;
	if (fraction < 1 || fraction > 3) r.fail();
	return { type: 'decimal', value: sign * Number(digits) };
}

/** §4.2.5 String: printable ASCII, with only `\"` and `\\` escaped. */
function string(r: Reader): string {
	r.expect('"');
	let out = '';
	for (;;) {
		if (r.done) r.fail();
		const c = r.peek();
		r.i++;
		if (c === '\\') {
			const e = r.peek();
			if (e !== '"' && e !== '\\') r.fail();
			out += e;
			r.i++;
		} else if (c === '"') return out;
		else if (c < ' ' || c > '~') r.fail();
		else out += c;
	}
}

/** §4.2.10 Display String: `%"…"` with UTF-8 bytes as lowercase `%xx`. */
function display(r: Reader): string {
	r.expect('%');
	r.expect('"');
	const bytes: number[] = [];
	for (;;) {
		if (r.done) r.fail();
		const c = r.peek();
		r.i++;
		if (c === '%') {
			const hex = r.s.slice(r.i, r.i + 2);
			if (!/^[0-9a-f]{2}$/.test(hex)) r.fail();
			bytes.push(parseInt(hex, 16));
			r.i += 2;
		} else if (c === '"') {
			try {
				return new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(bytes));
			} catch {
				return r.fail();
			}
		} else if (c < ' ' || c > '~') r.fail();
		else bytes.push(c.charCodeAt(0));
	}
}

function bareItem(r: Reader): BareItem {
	const c = r.peek();
	if (c === '-' || DIGIT.test(c)) return number(r);
	if (c === '"') return { type: 'string', value: string(r) };
	if (c === '%') return { type: 'display', value: display(r) };
	if (c === ':') {
		r.i++;
		const start = r.i;
		r.skip(BASE64);
		const value = r.s.slice(start, r.i);
		r.expect(':');
		return { type: 'bytes', value };
	}
	if (c === '?') {
		r.i++;
		const b = r.peek();
		if (b !== '0' && b !== '1') r.fail();
		r.i++;
		return { type: 'boolean', value: b === '1' };
	}
	if (c === '@') {
		r.i++;
		const n = number(r);
		if (n.type !== 'integer') r.fail();
		return { type: 'date', value: n.value };
	}
	if (ALPHA.test(c) || c === '*') {
		const start = r.i;
		r.i++;
		r.skip(TOKEN_CHAR);
		return { type: 'token', value: r.s.slice(start, r.i) };
	}
	return r.fail();
}

/** §4.2.3.2 Parameters. */
function parameters(r: Reader): Map<string, BareItem> {
	const params = new Map<string, BareItem>();
	while (r.peek() === ';') {
		r.i++;
		r.skip(/ /);
		if (!LCALPHA.test(r.peek()) && r.peek() !== '*') r.fail();
		const start = r.i;
		r.skip(KEY_CHAR);
		const key = r.s.slice(start, r.i);
		let value: BareItem = { type: 'boolean', value: true };
		if (r.peek() === '=') {
			r.i++;
			value = bareItem(r);
		}
		params.set(key, value);
	}
	return params;
}

function member(r: Reader): ListMember {
	if (r.peek() !== '(') {
		const value = bareItem(r);
		return { kind: 'item', value, params: parameters(r) };
	}
	r.i++;
	const items: { value: BareItem; params: Map<string, BareItem> }[] = [];
	for (;;) {
		r.skip(/ /);
		if (r.peek() === ')') {
			r.i++;
			return { kind: 'inner', items, params: parameters(r) };
		}
		const value = bareItem(r);
		items.push({ value, params: parameters(r) });
		if (r.peek() !== ' ' && r.peek() !== ')') r.fail();
	}
}

/**
 * The List a field's lines make (`lines`: each line's value, in order), or `undefined` when it is
 * not one. An empty field is an empty List.
 */
export function parseList(lines: readonly string[]): ListMember[] | undefined {
	const r = new Reader(lines.join(', ').replace(/^ +| +$/g, ''));
	const members: ListMember[] = [];
	try {
		while (!r.done) {
			members.push(member(r));
			r.skip(/[ \t]/);
			if (r.done) return members;
			r.expect(',');
			r.skip(/[ \t]/);
			if (r.done) r.fail();
		}
		return members;
	} catch (e) {
		if (e instanceof SyntaxFailure) return undefined;
		throw e;
	}
}
