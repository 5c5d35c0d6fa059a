/**
 * Every encoding of a client secret that redaction covers, computed independently of redact.ts,
 * for the tests that scan what left the server: raw, percent (either case, `+` for a space), form,
 * JSON (short escapes and `\uXXXX` in either case), and the base64/base64url characters that depend
 * only on the secret or its form encoding at each of the three alignments.
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
		...base64Cores(form(secret)).map((text) => ({ name: 'base64 of the form encoding', text }))
	];
	return list;
}

/** The names of the encodings of `secret` found in `text`. */
export function copiesIn(secret: string, text: string): string[] {
	return copies(secret)
		.filter((c) => c.text && text.includes(c.text))
		.map((c) => c.name);
}
