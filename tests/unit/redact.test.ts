import { describe, expect, test } from 'vitest';
import {
	REDACTED,
	prepareForExport,
	redactTokens,
	scrubSecrets,
	shortenToken,
	TOO_DEEP
} from '$lib/exchange/redact';
import { redactExchange, redactText, redactValue } from '../helpers/redact';
import type { Exchange } from '$lib/exchange/types';
import { copiesIn } from '../helpers/copies';

const secret = 'S3cr+t/with&odd=chars';
const body = new URLSearchParams([
	['code', 'c'],
	['client_id', 'id'],
	['client_secret', secret],
	['scope', '']
]).toString();

function ex(): Exchange {
	return {
		id: '1',
		step: 'exchange',
		startedAt: '2026-01-01T00:00:00Z',
		request: {
			method: 'POST',
			url: `https://reader.test/oauth2/token?client_secret=${encodeURIComponent(secret)}`,
			httpVersion: '1.1',
			headers: [
				['Host', 'reader.test'],
				['Content-Length', String(body.length)],
				['Authorization', `Basic ${btoa(`id:${secret}`)}`]
			],
			body
		},
		response: {
			status: 400,
			statusText: 'Bad Request',
			httpVersion: '1.1',
			headers: [],
			body: `{"echo":"${secret}"}`,
			truncated: false
		},
		timing: { total: 1 },
		findings: []
	};
}

test('the client secret is gone from URL, body, Basic header and an echoing response', () => {
	const out = redactExchange(ex(), [{ name: 'client_secret', value: secret }]);
	const text = JSON.stringify(out);
	expect(text).not.toContain(secret);
	expect(text).not.toContain(encodeURIComponent(secret));
	expect(text).not.toContain(btoa(`id:${secret}`));
	expect(out.request.body).toBe(`code=c&client_id=id&client_secret=${REDACTED}&scope=`);
	expect(out.request.headers.find(([n]) => n === 'Authorization')?.[1]).toBe(`Basic ${REDACTED}`);
});

test('Content-Length keeps the true sent value, and the real length is noted', () => {
	const out = redactExchange(ex(), [{ name: 'client_secret', value: secret }]);
	expect(out.request.headers.find(([n]) => n === 'Content-Length')?.[1]).toBe(String(body.length));
	expect(out.redactions?.find((r) => r.what === 'client_secret')?.length).toBe(secret.length);
});

test('the original exchange is not changed', () => {
	const original = ex();
	redactExchange(original, [{ name: 'client_secret', value: secret }]);
	expect(original.request.body).toContain(encodeURIComponent(secret).replace(/%20/g, '+'));
});

test('tokens are shortened to their first and last 4 characters for exports', () => {
	const token = 'abcdEFGHijklMNOPqrst';
	expect(shortenToken(token)).toBe('abcd…qrst <20 chars>');
	const e = ex();
	e.request.headers.push(['Authorization', `Bearer ${token}`]);
	const out = redactTokens(e, [token]);
	expect(JSON.stringify(out)).not.toContain(token);
	expect(JSON.stringify(out)).toContain('abcd…qrst');
});

test('a failure message that quotes the secret is redacted, by the server and again by the exports', () => {
	const failed: Exchange = {
		...ex(),
		response: undefined,
		failure: {
			kind: 'network',
			message: `The request to reader.test failed: bad value ${secret}`,
			detail: `socket hang up after ${secret}`
		}
	};
	const out = redactExchange(failed, [{ name: 'client_secret', value: secret }]);
	expect(out.failure).toEqual({
		kind: 'network',
		message: `The request to reader.test failed: bad value ${REDACTED}`,
		detail: `socket hang up after ${REDACTED}`
	});
	// The exports do not know the secret: they find it in the form body, then everywhere else.
	const [exported] = prepareForExport([failed]);
	expect(exported!.failure?.message).toBe(
		`The request to reader.test failed: bad value ${REDACTED}`
	);
	expect(failed.failure?.message).toContain(secret);
});

test('response headers that echo the secret are redacted, and each is noted', () => {
	const e = ex();
	e.response!.headers = [
		['Content-Type', 'application/json'],
		['X-Echo', secret],
		['Location', `https://app.test/cb?client_secret=${encodeURIComponent(secret)}`],
		['Authorization', `Basic ${btoa(`id:${secret}`)}`]
	];
	const out = redactExchange(e, [{ name: 'client_secret', value: secret }]);
	expect(out.response?.headers).toEqual([
		['Content-Type', 'application/json'],
		['X-Echo', REDACTED],
		['Location', `https://app.test/cb?client_secret=${REDACTED}`],
		['Authorization', `Basic ${REDACTED}`]
	]);
	const what = out.redactions?.map((r) => r.what) ?? [];
	expect(what).toContain('client_secret (in the X-Echo header)');
	expect(what).toContain('client_secret (in the Location header)');
	expect(JSON.stringify(prepareForExport([e]))).not.toContain(encodeURIComponent(secret));
});

describe('each encoding: a long secret is found in every form redaction covers', () => {
	const s = 'Sé"c\\r/t +%x€😀\u0001';
	const secrets = [{ name: 'client_secret', value: s }];
	const bytes = (t: string) => new TextEncoder().encode(t);
	const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b));
	const url = (t: string) => t.replace(/\+/g, '-').replace(/\//g, '_');
	const form = new URLSearchParams([['x', s]]).toString().slice(2);
	const cases: [string, string][] = [
		['raw', s],
		['percent, upper case', encodeURIComponent(s)],
		['percent, lower case', encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
		['percent, + for a space', encodeURIComponent(s).replace(/%20/g, '+')],
		['form encoding', form],
		['JSON', JSON.stringify(s).slice(1, -1)],
		['JSON with \\/', JSON.stringify(s).slice(1, -1).replace('/', '\\/')],
		[
			'JSON \\u, lower case',
			[...s]
				.map((c) =>
					c
						.split('')
						.map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
						.join('')
				)
				.join('')
		],
		[
			'JSON \\u, upper case',
			[...s]
				.map((c) =>
					c
						.split('')
						.map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`)
						.join('')
				)
				.join('')
		]
	];
	for (const align of [0, 1, 2])
		for (const src of [s, form]) {
			const inner = b64(
				new Uint8Array([...new Uint8Array(align).fill(0x41), ...bytes(src), 0x42, 0x43, 0x44])
			);
			const end = b64(new Uint8Array([...new Uint8Array(align).fill(0x41), ...bytes(src)]));
			const what = src === s ? 'base64' : 'base64 of the form encoding';
			cases.push(
				[`${what}, alignment ${align}, inside`, inner],
				[`${what}url, alignment ${align}, inside`, url(inner)],
				[`${what}, alignment ${align}, at the end, padded`, end],
				[`${what}url, alignment ${align}, at the end, unpadded`, url(end).replace(/=+$/, '')]
			);
		}
	cases.push(['HTTP Basic', `Basic ${b64(bytes(`app:${form}`))}`]);

	test.each(cases)('each encoding: %s', (name, copy) => {
		const out = redactText(`[${copy}]`, secrets);
		if (name.startsWith('base64')) {
			// What stays is only what the bytes around the copy encode: at most 2 characters before it, 6 after.
			expect(out).toMatch(/^\[[A-Za-z0-9+/_-]{0,2}<redacted>[A-Za-z0-9+/_=-]{0,6}\]$/);
			expect(copiesIn(s, out)).toEqual([]);
		} else expect(out).toMatch(/^\[(Basic )?<redacted>\]$/);
	});

	test('each encoding: base64 characters beside the copy that hold none of its bits stay', () => {
		const inner = b64(bytes(`xyz${s}uvw`));
		expect(redactText(inner, secrets)).toBe(`eHl6${REDACTED}dXZ3`);
	});

	test('each encoding: an empty secret redacts nothing, and a text without the secret is kept', () => {
		const e = ex();
		expect(redactExchange(e, [{ name: 'client_secret', value: '' }])).toBe(e);
		expect(redactText('nothing here', secrets)).toBe('nothing here');
	});
});

describe('each place: the secret is redacted in every field of an Exchange, and each place is noted', () => {
	const s = 'place-secret-1234';
	const secrets = [{ name: 'client_secret', value: s }];
	const e: Exchange = {
		id: 'p',
		step: 'exchange',
		startedAt: '2026-01-01T00:00:00Z',
		request: {
			method: `GET${s}`,
			url: `https://svc.test/?a=${s}`,
			httpVersion: '1.1',
			headers: [
				[`X-${s}`, 'v'],
				['X-Echo', s],
				['Content-Length', s],
				['Authorization', `Basic ${btoa(`app:${s}`)}`]
			],
			body: `client_secret=${s}`
		},
		response: {
			status: 400,
			statusText: `Bad ${s}`,
			httpVersion: '1.1',
			headers: [['X-Back', s]],
			body: `{"echo":"${s}"}`,
			truncated: false
		},
		failure: { kind: 'network', message: `broke: ${s}` },
		timing: { total: 1 },
		findings: [{ level: 'error', code: 'c', message: `m ${s}`, fix: `f ${s}`, ref: `r ${s}` }],
		note: `note ${s}`
	};

	test('each place: request line, URL, header names and values, body, status line, response headers and body, failure, findings, note', () => {
		const out = redactExchange(e, secrets);
		expect(out.request).toEqual({
			method: `GET${REDACTED}`,
			url: `https://svc.test/?a=${REDACTED}`,
			httpVersion: '1.1',
			headers: [
				[`X-${REDACTED}`, 'v'],
				['X-Echo', REDACTED],
				['Content-Length', s],
				['Authorization', `Basic ${REDACTED}`]
			],
			body: `client_secret=${REDACTED}`
		});
		expect(out.response).toEqual({
			...e.response,
			statusText: `Bad ${REDACTED}`,
			headers: [['X-Back', REDACTED]],
			body: `{"echo":"${REDACTED}"}`
		});
		expect(out.failure).toEqual({ kind: 'network', message: `broke: ${REDACTED}` });
		expect(out.findings).toEqual([
			{
				level: 'error',
				code: 'c',
				message: `m ${REDACTED}`,
				fix: `f ${REDACTED}`,
				ref: `r ${REDACTED}`
			}
		]);
		expect(out.note).toBe(`note ${REDACTED}`);
		expect(out.redactions).toEqual(
			[
				'client_secret (in the request line)',
				'client_secret (in the URL)',
				'client_secret (in a header name)',
				'client_secret (in the X-Echo header)',
				'client_secret (in the Authorization: Basic header)',
				'client_secret',
				'client_secret (in the status line)',
				'client_secret (in the X-Back header)',
				'client_secret (echoed in the response body)',
				'client_secret (in the failure message)'
			].map((what) => ({ what, length: s.length }))
		);
		expect(redactExchange(out, secrets)).toEqual(out);
	});

	test('each place: an exchange without a response, failure or note stays without them', () => {
		const { response: _r, failure: _f, note: _n, ...bare } = e;
		const out = redactExchange(bare, secrets);
		expect(Object.keys(out).sort()).toEqual(Object.keys(bare).concat('redactions').sort());
	});

	test('each place: plain data has every string and key redacted, at any depth', () => {
		const value = { [s]: [s, 1, null, true, { deep: `x${s}` }], n: 2 };
		expect(redactValue(value, secrets)).toEqual({
			[REDACTED]: [REDACTED, 1, null, true, { deep: `x${REDACTED}` }],
			n: 2
		});
		expect(redactValue(value, [])).toBe(value);
		expect(redactValue(s, secrets)).toBe(REDACTED);
	});
});

describe('edges: what is and is not a copy', () => {
	const y = [{ name: 'client_secret', value: 'y' }];
	const long = [{ name: 'client_secret', value: 'abcdefgh' }];

	test('edges: a short secret inside a word is no copy', () => {
		expect(redactText('response_type=y&y.y=ay', y)).toBe(`response_type=${REDACTED}&y.y=ay`);
	});

	test('edges: a replacement that makes a neighbouring short copy whole is followed, so a second pass changes nothing', () => {
		const once = redactText('y%79 x', y);
		expect(once).toBe(`${REDACTED}${REDACTED} x`);
		expect(redactText(once, y)).toBe(once);
	});

	test('edges: every copy in a text is redacted, however many there are', () => {
		const copies = Array.from({ length: 12 }, () => 'abcdefgh').join(' ');
		expect(redactText(copies, long)).toBe(Array.from({ length: 12 }, () => REDACTED).join(' '));
	});

	test('edges: a long secret whose base64 holds both + and / is found in base64url too', () => {
		const odd = [{ name: 's', value: '??>>>???' }];
		expect(btoa('??>>>???')).toBe('Pz8+Pj4/Pz8=');
		expect(redactText('[Pz8+Pj4/Pz8=] [Pz8-Pj4_Pz8]', odd)).toBe(`[${REDACTED}] [${REDACTED}]`);
	});

	test('edges: a secret that is the placeholder’s own word is replaced once, and the placeholder is never searched', () => {
		const own = [{ name: 's', value: 'redacted' }];
		expect(redactText('redacted', own)).toBe(REDACTED);
		expect(redactText(redactText('redacted redacted', own), own)).toBe(`${REDACTED} ${REDACTED}`);
	});

	test('leak: nine or more adjacent encoded copies of a short secret are all redacted, not the first eight', () => {
		for (const n of [9, 12, 40]) {
			const run = '%79'.repeat(n);
			expect(redactText(`a=${run}&b`, y)).toBe(`a=${REDACTED.repeat(n)}&b`);
		}
		const mixed = Array.from({ length: 30 }, (_, i) => ['%79', '\\u0079', '%79'][i % 3]).join('');
		expect(redactText(` ${mixed} `, y)).toBe(` ${REDACTED.repeat(30)} `);
	});

	test('edges: a run of adjacent short copies is one whole value only between delimiters', () => {
		expect(redactText('x%79%79 ', y)).toBe('x%79%79 ');
		// `%` is a delimiter: the first copy stands between a blank and a `%`; the second touches `x`.
		expect(redactText(' %79%79x', y)).toBe(` ${REDACTED}%79x`);
		// `yy` is another word, and so is `\u0079e` in JSON: a copy that touches a word is no copy.
		expect(redactText('"yy" "\\u0079eQ==" "%79y"', y)).toBe('"yy" "\\u0079eQ==" "%79y"');
		// A copy that is whole on its own makes its adjacent copy whole, in either direction.
		expect(redactText('"eQ==y"', y)).toBe(`"${REDACTED}${REDACTED}"`);
		expect(redactText('!y%79!', y)).toBe(`!${REDACTED}${REDACTED}!`);
		expect(redactText('x%79=y!', y)).toBe(`x%79=${REDACTED}!`);
		// Only a copy that touches it counts: a whole copy further on is no neighbour.
		expect(redactText(' yx y ', y)).toBe(` yx ${REDACTED} `);
		expect(redactText(' y xy ', y)).toBe(` ${REDACTED} xy `);
	});

	test('edges: a character of the secret matches only its own forms: no + or \\/ for another character', () => {
		expect(redactText('abcdefg+ abcdefg\\/ abcdefg%2B abcdefg%68', long)).toBe(
			`abcdefg+ abcdefg\\/ abcdefg%2B ${REDACTED}`
		);
		const slash = [{ name: 's', value: 'abcdefg/' }];
		expect(redactText('abcdefg\\/ abcdefg%2f', slash)).toBe(`${REDACTED} ${REDACTED}`);
	});

	test('edges: Basic credentials are read after one or more blanks, in base64url too, with either padding, and with an empty user', () => {
		expect(redactText(`Basic  ${btoa('ap:y')}`, y)).toBe(`Basic  ${REDACTED}`);
		expect(btoa('ap:y')).toMatch(/==$/);
		expect(redactText(`basic\t${btoa(':y')}`, y)).toBe(`basic\t${REDACTED}`);
		const odd = [{ name: 's', value: '~?>' }];
		const cred = btoa('a:%7E%3F%3E?>');
		expect(redactText(`Basic ${btoa('a:~?>')}`, odd)).toBe(`Basic ${REDACTED}`);
		expect(redactText(`Basic ${cred}`, odd)).toBe(`Basic ${cred}`);
		const url = btoa('ab?:~?>').replace(/\+/g, '-').replace(/\//g, '_');
		expect(url).toMatch(/[-_]/);
		expect(redactText(`Basic ${url}`, odd)).toBe(`Basic ${REDACTED}`);
		const spaced = [{ name: 's', value: 'a b' }];
		expect(redactText(`Basic ${btoa('app:a+b')}`, spaced)).toBe(`Basic ${REDACTED}`);
		// "basic" inside a word is not a Basic header.
		expect(redactText(`xbasic ${btoa('app:y')}`, y)).toBe(`xbasic ${btoa('app:y')}`);
		expect(redactText(`Basic ${btoa('app-y')}`, y)).toBe(`Basic ${btoa('app-y')}`);
	});

	test('edges: a short secret’s own base64 is found padded, unpadded and in base64url', () => {
		expect(redactText('eQ eQ== eQ=', y)).toBe(`${REDACTED} ${REDACTED} ${REDACTED}`);
		const odd = [{ name: 's', value: '??>' }];
		expect(btoa('??>')).toBe('Pz8+');
		expect(redactText('[Pz8+] [Pz8-]', odd)).toBe(`[${REDACTED}] [${REDACTED}]`);
		const slash = [{ name: 's', value: '???' }];
		expect(btoa('???')).toBe('Pz8/');
		expect(redactText('[Pz8/] [Pz8_]', slash)).toBe(`[${REDACTED}] [${REDACTED}]`);
	});

	test('edges: in base64, the characters that mix the secret’s bits with a neighbour’s go, the padding too, and no more', () => {
		// abcdefgh at each alignment, with 0 to 3 bytes around it.
		expect(btoa('abcdefgh')).toBe('YWJjZGVmZ2g=');
		expect(redactText('YWJjZGVmZ2g=', long)).toBe(REDACTED);
		expect(btoa('Xabcdefgh')).toBe('WGFiY2RlZmdo');
		expect(redactText('WGFiY2RlZmdo', long)).toBe(`W${REDACTED}`);
		expect(btoa('XYabcdefghZ')).toBe('WFlhYmNkZWZnaFo=');
		expect(redactText('WFlhYmNkZWZnaFo=', long)).toBe(`WF${REDACTED}o=`);
		expect(btoa('XYZabcdefghUVW')).toBe('WFlaYWJjZGVmZ2hVVlc=');
		expect(redactText('WFlaYWJjZGVmZ2hVVlc=', long)).toBe(`WFla${REDACTED}VVlc=`);
	});

	test('edges: base64 of the secret as each common library form-encodes it', () => {
		const s = "a b~*!'(é)-";
		const secrets = [{ name: 's', value: s }];
		const b64 = (t: string) => btoa(String.fromCharCode(...new TextEncoder().encode(t)));
		const lower = (t: string) => t.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
		const enc = encodeURIComponent(s);
		const rfc3986 = enc.replace(
			/[!'()*]/g,
			(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
		);
		const whatwg = new URLSearchParams([['x', s]]).toString().slice(2);
		for (const form of [
			enc,
			enc.replace(/%20/g, '+'),
			lower(enc),
			rfc3986,
			rfc3986.replace(/%20/g, '+'),
			lower(rfc3986),
			whatwg,
			whatwg.replace(/\+/g, '%20'),
			lower(whatwg)
		]) {
			const text = b64(`app:${form}`);
			expect(redactText(`[${text}]`, secrets), form).toMatch(/^\[YXBwO<redacted>\]$/);
		}
	});

	test('edges: a place noted before is not noted again when the secret is found there again', () => {
		const e = ex();
		const before = [{ what: 'client_secret (in the URL)', length: secret.length }];
		const out = redactExchange({ ...e, redactions: before }, [
			{ name: 'client_secret', value: secret }
		]);
		expect(out.redactions?.filter((r) => r.what === 'client_secret (in the URL)')).toEqual(before);
	});

	test('edges: each place is noted once, and a text that is <redacted> already is not a new copy', () => {
		const e = ex();
		e.request.headers.push(['X-Echo', secret], ['X-Echo', secret]);
		const out = redactExchange(e, [{ name: 'client_secret', value: secret }]);
		expect(
			out.redactions?.filter((r) => r.what === 'client_secret (in the X-Echo header)')
		).toHaveLength(1);
		const odd = redactExchange(
			{
				...ex(),
				request: { ...ex().request, url: 'https://x.test/', headers: [], body: REDACTED }
			},
			[{ name: 'client_secret', value: REDACTED }]
		);
		expect(odd.request.body).toBe(REDACTED);
		expect(odd.redactions).toBeUndefined();
	});

	test('edges: plain data deeper than the limit is not shown, numbers that are the secret are redacted', () => {
		let deep: unknown = 'x';
		for (let i = 0; i < 33; i++) deep = [deep];
		let at32: unknown = redactValue(deep, long);
		for (let i = 0; i < 32; i++) at32 = (at32 as unknown[])[0];
		expect(at32).toEqual([TOO_DEEP]);
		let deepObject: unknown = 'x';
		for (let i = 0; i < 33; i++) deepObject = { a: deepObject };
		let object32: unknown = redactValue(deepObject, long);
		for (let i = 0; i < 32; i++) object32 = (object32 as { a: unknown }).a;
		expect(object32).toEqual({ a: TOO_DEEP });
		const digits = [{ name: 's', value: '12345678' }];
		expect(redactValue({ a: 12345678, b: 912345678, c: 1234567 }, digits)).toEqual({
			a: REDACTED,
			b: REDACTED,
			c: 1234567
		});
	});
});

describe('exports: a client secret found by its field name', () => {
	const value = 'found-by-name-9876';
	test('exports: a client_secret nested in a JSON body is found and redacted everywhere, and a redacted record is left as it is', () => {
		const e = ex();
		e.request = { ...e.request, url: 'https://x.test/', headers: [], body: 'null' };
		e.response = {
			...e.response!,
			body: JSON.stringify({ a: [{ b: { client_secret: value } }, null, 3] }),
			headers: [['X-Echo', btoa(`x${value}`)]]
		};
		const out = scrubSecrets(e);
		expect(JSON.stringify(out)).not.toContain(value);
		expect(out.response!.headers).toEqual([['X-Echo', `e${REDACTED}`]]);
		expect(scrubSecrets(out)).toBe(out);
		const plain = {
			...ex(),
			request: { ...ex().request, url: 'https://x.test/', headers: [], body: '' }
		};
		plain.response = { ...plain.response!, body: '{"client_secret":"<redacted>"}' };
		expect(scrubSecrets(plain)).toBe(plain);
	});
});

test('exports: a client_secret 32 levels deep in JSON is found, and a body nested far deeper does not exhaust the stack', () => {
	const value = 'deep-secret-3232';
	let nested: unknown = { client_secret: value };
	for (let i = 0; i < 32; i++) nested = { a: nested };
	const e = ex();
	e.request = { ...e.request, url: 'https://x.test/', headers: [], body: JSON.stringify(nested) };
	e.response = { ...e.response!, body: `echo ${value}` };
	expect(scrubSecrets(e).response!.body).toBe(`echo ${REDACTED}`);
	const n = 100_000;
	const deep = { ...e, request: { ...e.request, body: `${'['.repeat(n)}${']'.repeat(n)}` } };
	expect(scrubSecrets(deep)).toBe(deep);
});

test('exports: a client_secret sent only in a form body is found; a JSON body is not read as a form', () => {
	const value = 'form-only-secret-1';
	const base = ex();
	const form: Exchange = {
		...base,
		request: {
			...base.request,
			url: 'https://x.test/t',
			headers: [['Content-Type', 'application/x-www-form-urlencoded']],
			body: `grant_type=client_credentials&client_secret=${value}`
		},
		response: { ...base.response!, body: `echo ${value}` }
	};
	expect(scrubSecrets(form).response!.body).toBe(`echo ${REDACTED}`);
	const json: Exchange = {
		...form,
		request: {
			...form.request,
			headers: [['Content-Type', 'application/json']],
			body: JSON.stringify({ next: 'https://x.test/?a=1&client_secret=not-a-field-1' })
		},
		response: { ...base.response!, body: 'echo not-a-field-1' }
	};
	expect(scrubSecrets(json)).toBe(json);
});

test('exports: a client_secret that is an object is searched inside, and one that is a number is no secret', () => {
	const e = ex();
	const inner = 'inner-secret-5678';
	e.request = { ...e.request, url: 'https://x.test/', headers: [], body: '' };
	e.response = {
		...e.response!,
		body: JSON.stringify({
			client_secret: { client_secret: inner },
			n: { client_secret: 12345678 },
			other: 'other-field-1234'
		}),
		headers: [['X-Echo', `${inner} 12345678 other-field-1234`]]
	};
	const out = scrubSecrets(e);
	expect(out.response!.headers).toEqual([['X-Echo', `${REDACTED} 12345678 other-field-1234`]]);
});

test('exports: a client secret sent only in the query, or only in Basic credentials, is found and redacted where it is echoed', () => {
	const value = 'only-here-4321';
	const base = ex();
	const inQuery: Exchange = {
		...base,
		request: {
			...base.request,
			url: `https://x.test/t?client_secret=${value}`,
			headers: [],
			body: ''
		},
		response: { ...base.response!, body: `echo ${value}` }
	};
	expect(scrubSecrets(inQuery).response!.body).toBe(`echo ${REDACTED}`);
	const inBasic: Exchange = {
		...base,
		request: {
			...base.request,
			url: 'https://x.test/t',
			headers: [['Authorization', `Basic ${btoa(`app:${value}`)}`]],
			body: ''
		},
		response: { ...base.response!, body: `echo ${value}` }
	};
	const out = scrubSecrets(inBasic);
	expect(out.response!.body).toBe(`echo ${REDACTED}`);
	expect(out.request.headers).toEqual([['Authorization', `Basic ${REDACTED}`]]);
});
