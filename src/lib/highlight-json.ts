/**
 * Valid JSON, highlighted without shiki: the same colours shiki's JSON grammar gives it in the two
 * themes (highlight.ts), character for character (tests/unit/highlight-json.test.ts compares them on
 * random JSON), in a single pass. A 100 KB body took shiki's JavaScript engine 230 ms in a fresh
 * worker, after loading it; this takes a few milliseconds, and the worker loads no grammar for it.
 * Anything JSON.parse refuses (a truncated body, a comment, a control character in a string) is
 * left to shiki, whose grammar marks what is wrong.
 */
import type { Line } from './highlight';

/** The grammar's scopes, as the themes colour them: `--shiki-light:…;--shiki-dark:…`. */
const KEY = '--shiki-light:#024C1A;--shiki-dark:#72F088';
const STRING = '--shiki-light:#032563;--shiki-dark:#ADDCFF';
const ESCAPE = '--shiki-light:#A0111F;--shiki-dark:#FF9492';
/** Numbers, and true, false and null. */
const CONSTANT = '--shiki-light:#023B95;--shiki-dark:#91CBFF';

/** JSON's escapes: `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t` (2 characters) or `\uXXXX` (6). */
const escapeLength = (code: string, at: number) => (code[at + 1] === 'u' ? 6 : 2);

/** The lines of `code` as tokens (highlight.ts's `Line`), or undefined when it is not valid JSON. */
export function jsonLines(code: string): Line[] | undefined {
	try {
		JSON.parse(code);
	} catch {
		return undefined;
	}
	const lines: Line[] = [];
	let line: Line = [];
	// The token being built: adjacent characters of one style are one token, as shiki merges them.
	let text = '';
	let style: string | undefined;
	const put = (s: string | undefined, t: string) => {
		if (s !== style) {
			if (text) line.push(style === undefined ? { content: text } : { content: text, style });
			text = '';
			style = s;
		}
		text += t;
	};
	const endLine = () => {
		put(undefined, '');
		if (text) line.push({ content: text });
		text = '';
		lines.push(line);
		line = [];
	};
	// In an object, whether the next string is a key: after `{` or its `,`, not after `:`.
	const inObject: boolean[] = [];
	let keyNext = false;
	for (let i = 0; i < code.length;) {
		const c = code[i]!;
		if (c === '"') {
			const s = keyNext ? KEY : STRING;
			put(s, c);
			let j = i + 1;
			while (code[j] !== '"') {
				if (code[j] === '\\') {
					const n = escapeLength(code, j);
					put(ESCAPE, code.slice(j, j + n));
					j += n;
				} else {
					// A run of ordinary characters up to the next quote or backslash.
					let k = j;
					while (code[k] !== '"' && code[k] !== '\\') k++;
					put(s, code.slice(j, k));
					j = k;
				}
			}
			put(s, '"');
			i = j + 1;
			keyNext = false;
		} else if (c === '\n') {
			endLine();
			i++;
		} else if (c === '{' || c === '[') {
			inObject.push(c === '{');
			keyNext = c === '{';
			put(undefined, c);
			i++;
		} else if (c === '}' || c === ']') {
			inObject.pop();
			put(undefined, c);
			i++;
		} else if (c === ',') {
			keyNext = inObject.at(-1) === true;
			put(undefined, c);
			i++;
		} else if (c === ':' || c === ' ' || c === '\t' || c === '\r') {
			put(undefined, c);
			i++;
		} else {
			// A number or a literal: a run up to the next delimiter or white space.
			let k = i + 1;
			while (k < code.length && !/[\s,:[\]{}"]/.test(code[k]!)) k++;
			put(CONSTANT, code.slice(i, k));
			i = k;
		}
	}
	endLine();
	return lines;
}
