/**
 * Every encoding of a client secret that redaction covers, computed independently of redact.ts,
 * for the tests that scan what left the server: raw, percent (either case, `+` for a space), form,
 * JSON (short escapes and `\uXXXX` in either case), the base64/base64url characters that depend
 * only on the secret or its form encoding at each of the three alignments, hexadecimal of its UTF-8
 * bytes (either case), HTML character references (with or without the closing `;`),
 * percent-encoding applied twice, and JSON inside a JSON string (JSON-escaped twice).
 */
export const utf8 = (s: string) => new TextEncoder().encode(s);
export const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
export const b64url = (s: string) => s.replace(/\+/g, '-').replace(/\//g, '_');
export const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
export const form = (s: string) => new URLSearchParams([['x', s]]).toString().slice(2);
export const json = (s: string) => JSON.stringify(s).slice(1, -1);
/** JSON with every non-ASCII or control character as `\uXXXX` (as Python's json.dumps writes). */
export const jsonU = (s: string, upper = false) =>
	[...s]
		.map((ch) =>
			ch < ' ' || ch > '~'
				? ch
						.split('')
						.map((u) => {
							const h = u.charCodeAt(0).toString(16).padStart(4, '0');
							return `\\u${upper ? h.toUpperCase() : h}`;
						})
						.join('')
				: json(ch)
		)
		.join('');
/** Hexadecimal of the UTF-8 bytes; `mixed` alternates the case of the letters. */
export const hex = (s: string, letters: 'lower' | 'upper' | 'mixed' = 'lower') =>
	[...utf8(s)]
		.map((b) => b.toString(16).padStart(2, '0'))
		.join('')
		.split('')
		.map((d, i) => (letters === 'upper' || (letters === 'mixed' && i % 2) ? d.toUpperCase() : d))
		.join('');
const NAMED: Record<string, string> = {
	'&': '&amp;',
	'<': '&lt;',
	'>': '&gt;',
	'"': '&quot;',
	"'": '&apos;'
};
/** HTML escaping as templates write it: only `& < > " '` as references (`'` as `&#39;`). */
export const htmlEscape = (s: string) =>
	s.replace(/[&<>"']/g, (c) => (c === "'" ? '&#39;' : NAMED[c]!));
/** Every character as an HTML character reference of one kind. */
export const htmlRefs = (s: string, kind: 'decimal' | 'hex' | 'HEX' | 'zeros') =>
	[...s]
		.map((ch) => {
			const cp = ch.codePointAt(0)!;
			if (kind === 'decimal') return `&#${cp};`;
			if (kind === 'zeros') return `&#x00${cp.toString(16)};`;
			return kind === 'hex' ? `&#x${cp.toString(16)};` : `&#X${cp.toString(16).toUpperCase()};`;
		})
		.join('');
/**
 * Every character as a numeric HTML character reference without its closing `;` (`&#115&#51`), which
 * browsers still decode (WHATWG HTML, "missing-semicolon-after-character-reference"): decimal, hex
 * (`&#x73`) or hex with leading zeros in upper case (`&#X0073`). The last one gets its `;` only when
 * `next`, the text after the copy, starts with a digit it would run into (`&#1151` is one character).
 */
export const htmlBare = (s: string, kind: 'decimal' | 'hex' | 'HEX' = 'decimal', next = '') => {
	const refs = [...s].map((ch) => {
		const cp = ch.codePointAt(0)!;
		if (kind === 'decimal') return `&#${cp}`;
		return kind === 'hex' ? `&#x${cp.toString(16)}` : `&#X00${cp.toString(16).toUpperCase()}`;
	});
	const digit = kind === 'decimal' ? /^[0-9]/ : /^[0-9a-f]/i;
	return refs.join('') + (digit.test(next) ? ';' : '');
};
/**
 * HTML escaping with the named references browsers also read without their `;` (`&amp &lt &gt
 * &quot`, WHATWG HTML's legacy names: even `&ampx` is `&x`) written so; `'` as `&#39;`.
 */
export const htmlEscapeBare = (s: string) =>
	s.replace(/[&<>"']/g, (c) => (c === "'" ? '&#39;' : NAMED[c]!.slice(0, -1)));
/** Each character in turn raw, named (else decimal), hex with leading zeros, decimal with leading zeros. */
export const htmlMixed = (s: string) =>
	[...s]
		.map((ch, i) => {
			const cp = ch.codePointAt(0)!;
			return [ch, NAMED[ch] ?? `&#${cp};`, `&#X00${cp.toString(16)};`, `&#00${cp};`][i % 4];
		})
		.join('');
/** Percent-encoding applied twice, as encodeURIComponent writes it (the inner hex in lower case with `lower`). */
export const percentTwice = (s: string, lower = false) =>
	encodeURIComponent(lower ? lowerHex(encodeURIComponent(s)) : encodeURIComponent(s));
/** Every byte percent-encoded, whether it needs it or not, and that encoded again (`A` → `%2541`). */
export const percentTwiceAll = (s: string) =>
	[...utf8(s)].map((b) => `%25${b.toString(16).padStart(2, '0')}`).join('');
/** JSON inside a JSON string: the secret JSON-escaped twice (`"` → `\\\"`, `\` → `\\\\`). */
export const jsonTwice = (s: string) => json(json(s));
export const concat = (...parts: Uint8Array[]) => {
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let at = 0;
	for (const p of parts) {
		out.set(p, at);
		at += p.length;
	}
	return out;
};

/** The base64 characters that depend only on `text`, when it starts `align` bytes into a 3-byte group. */
export function base64Cores(text: string): string[] {
	const bytes = utf8(text);
	const out: string[] = [];
	for (const align of [0, 1, 2]) {
		const full = b64(concat(new Uint8Array(align), bytes));
		const core = full.slice(
			Math.ceil((8 * align) / 6),
			Math.floor((8 * (align + bytes.length)) / 6)
		);
		out.push(core, b64url(core));
	}
	return out;
}

/** Every listed encoding of the secret, as the scan looks for it. */
export function copies(secret: string): { name: string; text: string }[] {
	const pct = encodeURIComponent(secret);
	const list = [
		{ name: 'raw', text: secret },
		{ name: 'percent', text: pct },
		{ name: 'percent, lower case', text: lowerHex(pct) },
		{ name: 'percent, + for space', text: pct.replace(/%20/g, '+') },
		{ name: 'form', text: form(secret) },
		{ name: 'form, lower case', text: lowerHex(form(secret)) },
		{ name: 'JSON', text: json(secret) },
		{ name: 'JSON \\u', text: jsonU(secret) },
		{ name: 'JSON \\U', text: jsonU(secret, true) },
		...base64Cores(secret).map((text) => ({ name: 'base64', text })),
		...base64Cores(form(secret)).map((text) => ({ name: 'base64 of the form encoding', text })),
		{ name: 'hex', text: hex(secret) },
		{ name: 'hex, upper case', text: hex(secret, 'upper') },
		{ name: 'hex, mixed case', text: hex(secret, 'mixed') },
		{ name: 'HTML-escaped', text: htmlEscape(secret) },
		{ name: 'HTML decimal references', text: htmlRefs(secret, 'decimal') },
		{ name: 'HTML hex references', text: htmlRefs(secret, 'hex') },
		{ name: 'HTML hex references, upper case', text: htmlRefs(secret, 'HEX') },
		{ name: 'HTML references with leading zeros', text: htmlRefs(secret, 'zeros') },
		{ name: 'HTML references, mixed', text: htmlMixed(secret) },
		{ name: 'HTML decimal references without ;', text: htmlBare(secret) },
		{ name: 'HTML hex references without ;', text: htmlBare(secret, 'hex') },
		{ name: 'HTML-escaped without ;', text: htmlEscapeBare(secret) },
		{ name: 'percent twice', text: percentTwice(secret) },
		{ name: 'percent twice, lower case', text: percentTwice(secret, true) },
		{ name: 'form twice', text: form(form(secret)) },
		{ name: 'percent twice, every byte', text: percentTwiceAll(secret) },
		{ name: 'JSON in JSON', text: jsonTwice(secret) },
		{ name: 'JSON \\u in JSON', text: json(jsonU(secret)) }
	];
	return list;
}

/** The names of the encodings of `secret` found in `text`. */
export function copiesIn(secret: string, text: string): string[] {
	return copies(secret)
		.filter((c) => c.text && text.includes(c.text))
		.map((c) => c.name);
}
