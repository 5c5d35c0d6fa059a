/**
 * "Copy as Node fetch": the snippet is an ES module for Node 18+ that reads the secret, the tokens
 * and the code from process.env, never holds their values, guards the steps that spend something,
 * and, run by a real node against a loopback server, sends what the playground sent.
 */
import { spawn } from 'node:child_process';
import { beforeEach, describe, expect, test } from 'vitest';
import { toNodeFetch } from '$lib/exchange/node-fetch';
import type { Exchange } from '$lib/exchange/types';
import { ACCESS_1, CODE, REFRESH_1, SECRET, TOKENS, transcript } from './transcript';
import { withRecordingServer } from '../helpers/recording-server';

let t: Exchange[] = [];
beforeEach(() => {
	t = transcript();
});
const at = (step: Exchange['step']) => t.find((e) => e.step === step)!;

function node(
	code: string,
	env: Record<string, string>
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		const p = spawn(process.execPath, ['--input-type=module', '-e', code], {
			env: { PATH: process.env.PATH ?? '', ...env },
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let stdout = '';
		let stderr = '';
		p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		p.on('close', (c) => resolve({ code: c, stdout, stderr }));
	});
}

const moved = (ex: Exchange, origin: string): Exchange => ({
	...ex,
	request: { ...ex.request, url: ex.request.url.replace('http://127.0.0.1:5173', origin) }
});

describe('toNodeFetch', () => {
	test('Copy as Node fetch of a Bearer token holding a quote, a newline or any character reads ACCESS_TOKEN, never a literal', () => {
		for (const token of [
			`AT"quoted-0123456789`,
			'AT-line\nbreak-0123456789',
			'AT with spaces\tand a tab-0123'
		]) {
			const userinfo = at('userinfo');
			const ex: Exchange = {
				...userinfo,
				request: {
					...userinfo.request,
					headers: userinfo.request.headers.map(([n, v]): [string, string] =>
						n === 'Authorization' ? [n, `Bearer ${token}`] : [n, v]
					)
				}
			};
			const text = toNodeFetch(ex);
			expect(text, JSON.stringify(token)).toContain(
				'["Authorization", "Bearer " + env("ACCESS_TOKEN")]'
			);
			expect(text).not.toContain(JSON.stringify(token).slice(1, 7));
			expect(toNodeFetch(ex, { includeTokens: true })).toContain(
				`env("ACCESS_TOKEN", ${JSON.stringify(token)})`
			);
		}
	});

	test('no secret, token or code value is in it; process.env names them; a token endpoint is never called from browser code', () => {
		for (const ex of t) {
			const text = toNodeFetch(ex);
			expect(text).not.toContain(SECRET);
			for (const tok of [...TOKENS, CODE]) expect(text).not.toContain(tok);
		}
		const exchange = toNodeFetch(at('exchange'));
		expect(exchange).toContain('form(env("CLIENT_SECRET"))');
		expect(exchange).toContain('form(env("CODE"))');
		expect(exchange).toContain('process.env[name]');
		expect(exchange).toMatch(
			/^\/\/ A token endpoint is called from a server, never from browser code/m
		);
		expect(exchange).toMatch(/^\/\/ Node 18 or newer, as an ES module/m);
		expect(toNodeFetch(at('userinfo'))).toContain('"Bearer " + env("ACCESS_TOKEN")');
		expect(toNodeFetch(at('refresh'))).toContain('form(env("REFRESH_TOKEN"))');
		// With includeTokens, the tokens it sent are the defaults; the secret is still never in it.
		const full = toNodeFetch(at('userinfo'), { includeTokens: true });
		expect(full).toContain(`env("ACCESS_TOKEN", "${ACCESS_1}")`);
		expect(toNodeFetch(at('refresh'), { includeTokens: true })).toContain(REFRESH_1);
		expect(toNodeFetch(at('refresh'), { includeTokens: true })).not.toContain(SECRET);
		// The consent redirect is a URL to open, not a fetch.
		expect(toNodeFetch(at('consent'))).not.toContain('fetch(');
	});

	test('run by node: the code exchange sends the recorded body with the secret and code from the environment', async () => {
		await withRecordingServer(async (origin, seen) => {
			const ex = moved(at('exchange'), origin);
			const env = { RUN_SPENDING_STEPS: '1', CLIENT_SECRET: `a b&c=d+e%f'ü`, CODE: 'fresh/code+1' };
			const r = await node(toNodeFetch(ex), env);
			expect(r.stderr).toBe('');
			expect(r.code).toBe(0);
			expect(r.stdout).toMatch(/^200 OK\n/);
			expect(r.stdout).toContain('{"ok":true}');
			const want = new URLSearchParams(ex.request.body);
			want.set('client_secret', env.CLIENT_SECRET);
			want.set('code', env.CODE);
			expect([...new URLSearchParams(seen[0]!.body)]).toEqual([...want]);
			expect(seen[0]!.method).toBe('POST');
			expect(seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
			expect(seen[0]!.headers['user-agent']).toMatch(/^feed-reader-oauth-playground/);
		});
	});

	test('run by node: a spending step without RUN_SPENDING_STEPS=1 sends nothing and says why; a missing variable is named', async () => {
		await withRecordingServer(async (origin, seen) => {
			const skipped = await node(toNodeFetch(moved(at('refresh'), origin)), {
				CLIENT_SECRET: 's',
				REFRESH_TOKEN: 'r'
			});
			expect(skipped.code).toBe(0);
			expect(skipped.stdout).toMatch(
				/^Skipped: it spends the refresh token\. A code is single-use and the refresh token rotates; replaying them makes the service revoke the grant\./
			);
			const missing = await node(toNodeFetch(moved(at('userinfo'), origin)), {});
			expect(missing.code).not.toBe(0);
			expect(missing.stderr).toMatch(/Set ACCESS_TOKEN first: an access token/);
			expect(seen).toEqual([]);
			const ui = await node(toNodeFetch(moved(at('userinfo'), origin)), { ACCESS_TOKEN: 'at-1' });
			expect(ui.code).toBe(0);
			expect(seen[0]!.headers.authorization).toBe('Bearer at-1');
		});
	});

	test('run by node: HTTP Basic form-encodes id and secret (RFC 6749 §2.3.1), so : % + space survive', async () => {
		await withRecordingServer(async (origin, seen) => {
			const refresh = moved(at('refresh'), origin);
			const ex: Exchange = {
				...refresh,
				request: {
					...refresh.request,
					headers: [...refresh.request.headers, ['Authorization', 'Basic <redacted>']],
					body: 'grant_type=refresh_token&refresh_token=rrrrrrrrrrrr'
				}
			};
			const secret = `p:a%2B+ s&'q"ü€`;
			const r = await node(toNodeFetch(ex), {
				RUN_SPENDING_STEPS: '1',
				CLIENT_ID: 'my:client id',
				CLIENT_SECRET: secret,
				REFRESH_TOKEN: 'r'
			});
			expect(r.stderr).toBe('');
			const decoded = Buffer.from(
				seen[0]!.headers.authorization!.replace(/^Basic /, ''),
				'base64'
			).toString('utf8');
			const i = decoded.indexOf(':');
			const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
			expect([formDecode(decoded.slice(0, i)), formDecode(decoded.slice(i + 1))]).toEqual([
				'my:client id',
				secret
			]);
		});
	});
});

/** Runs a snippet in this process with a fake fetch: what it would send, what it prints. */
async function dryRun(code: string, env: Record<string, string>) {
	const sent: { url: string; init: RequestInit }[] = [];
	const out: string[] = [];
	const fakeFetch = async (url: string, init: RequestInit) => {
		sent.push({ url, init });
		return new Response('{"ok":true}', { status: 200, statusText: 'OK' });
	};
	const exit = new Error('exit');
	const proc = {
		env,
		exit: () => {
			throw exit;
		}
	};
	const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
	const run = new AsyncFunction('fetch', 'process', 'console', 'Buffer', code);
	let error: unknown;
	try {
		await run(fakeFetch, proc, { log: (s: string) => out.push(s) }, Buffer);
	} catch (e) {
		if (e !== exit) error = e;
	}
	return { sent, out, error };
}

describe('toNodeFetch, run with a fake fetch', () => {
	test('form values from the environment are encoded where they stand; other pieces keep their bytes; a tokenless field stays as recorded', async () => {
		const base = transcript().find((e) => e.step === 'refresh')!;
		const ex: Exchange = {
			...base,
			request: {
				...base.request,
				url: 'http://127.0.0.1:5173/sandbox/oauth/token?a=1&flag&client_secret=<redacted>#frag',
				body: `grant_type=refresh_token&refresh_token=${REFRESH_1}&client_secret=<redacted>&x=%41&empty=&novalue&code=not-a-grant-code`
			}
		};
		const text = toNodeFetch(ex);
		const r = await dryRun(text, {
			RUN_SPENDING_STEPS: '1',
			CLIENT_SECRET: 's e&c',
			REFRESH_TOKEN: 'r/1',
			ACCESS_TOKEN: 'a+1'
		});
		expect(r.error).toBeUndefined();
		expect(r.sent).toHaveLength(1);
		expect(r.sent[0]!.url).toBe(
			'http://127.0.0.1:5173/sandbox/oauth/token?a=1&flag&client_secret=s%20e%26c#frag'
		);
		expect(r.sent[0]!.init.body).toBe(
			'grant_type=refresh_token&refresh_token=r%2F1&client_secret=s%20e%26c&x=%41&empty=&novalue&code=not-a-grant-code'
		);
		expect(r.sent[0]!.init.redirect).toBe('manual');
		expect(r.sent[0]!.init.method).toBe('POST');
		expect(r.out[0]).toBe('200 OK');
		// The run line names every variable it reads, the spending switch first.
		expect(text).toMatch(
			/^\/\/ {3}RUN_SPENDING_STEPS=1 CLIENT_SECRET='…' REFRESH_TOKEN='…' node request\.mjs$/m
		);
		expect(text.endsWith('\n')).toBe(true);
	});

	test('a query with only recorded values, a URL without query, and a body ending in a variable', async () => {
		const base = transcript().find((e) => e.step === 'userinfo')!;
		const noQuery: Exchange = {
			...base,
			request: { ...base.request, url: 'http://127.0.0.1:5173/sandbox/x/<redacted>', headers: [] }
		};
		const r1 = await dryRun(toNodeFetch(noQuery), { CLIENT_SECRET: 'se"c' });
		expect(r1.sent[0]!.url).toBe('http://127.0.0.1:5173/sandbox/x/se"c');
		expect(r1.sent[0]!.init.headers).toBeUndefined();
		const plain: Exchange = {
			...base,
			request: { ...base.request, url: 'http://127.0.0.1:5173/sandbox/x?only=1', headers: [] }
		};
		const text2 = toNodeFetch(plain);
		expect(text2).not.toContain('const env =');
		expect(text2).not.toContain('const form =');
		expect(text2).toMatch(/^\/\/ {3}node request\.mjs$/m);
		const r2 = await dryRun(text2, {});
		expect(r2.sent[0]!.url).toBe('http://127.0.0.1:5173/sandbox/x?only=1');
		const ending: Exchange = {
			...base,
			request: {
				...base.request,
				url: 'http://127.0.0.1:5173/sandbox/x?client_secret=<redacted>',
				headers: []
			}
		};
		const r3 = await dryRun(toNodeFetch(ending), { CLIENT_SECRET: 't' });
		expect(r3.sent[0]!.url).toBe('http://127.0.0.1:5173/sandbox/x?client_secret=t');
	});

	test('a JSON body gets the secret JSON-escaped; a plain text body gets it as is', async () => {
		const base = transcript().find((e) => e.step === 'userinfo')!;
		const mk = (body: string): Exchange => ({
			...base,
			request: {
				...base.request,
				method: 'POST',
				headers: [['Content-Type', 'text/plain']],
				body
			}
		});
		const env = { CLIENT_SECRET: 'a"b' };
		expect((await dryRun(toNodeFetch(mk(' {"s":"<redacted>"}')), env)).sent[0]!.init.body).toBe(
			' {"s":"a\\"b"}'
		);
		expect((await dryRun(toNodeFetch(mk('[ "<redacted>"]')), env)).sent[0]!.init.body).toBe(
			'[ "a\\"b"]'
		);
		expect((await dryRun(toNodeFetch(mk('x{"s":"<redacted>"}')), env)).sent[0]!.init.body).toBe(
			'x{"s":"a"b"}'
		);
		expect((await dryRun(toNodeFetch(mk('  x "<redacted>"')), env)).sent[0]!.init.body).toBe(
			'  x "a"b"'
		);
	});

	test('headers: Host, Content-Length, Connection and a redacted cookie are left to fetch; Bearer and Basic come from the environment; others are sent as recorded', async () => {
		const base = transcript().find((e) => e.step === 'userinfo')!;
		const ex: Exchange = {
			...base,
			request: {
				...base.request,
				url: 'http://127.0.0.1:5173/sandbox/x',
				headers: [
					['Host', 'h'],
					['Content-Length', '3'],
					['Connection', 'close'],
					['Cookie', '<redacted>'],
					['X-Cookie', '<shown>'],
					['Cookie2', 'a=b'],
					['Authorization', ' bearer   tttttttttttt  '],
					['X-Auth', 'Bearer tttttttttttt'],
					['X-Basic', 'Basic <redacted>'],
					['X-Quote', 'say "<redacted>"']
				]
			}
		};
		const r = await dryRun(toNodeFetch(ex), { ACCESS_TOKEN: 'T', CLIENT_SECRET: 'S"' });
		expect(r.error).toBeUndefined();
		expect(r.sent[0]!.init.headers).toEqual([
			['X-Cookie', '<shown>'],
			['Cookie2', 'a=b'],
			['Authorization', ' bearer   T'],
			['X-Auth', expect.stringMatching(/^Bearer /)],
			['X-Basic', 'Basic S"'],
			['X-Quote', 'say "S""']
		]);
	});
});

describe('toNodeFetch: the module, line by line', () => {
	const call = (request: Partial<Exchange['request']>, over: Partial<Exchange> = {}): Exchange => ({
		id: '1',
		step: 'api',
		startedAt: '2026-03-14T10:00:00.000Z',
		timing: { total: 1 },
		findings: [],
		request: {
			method: 'GET',
			url: 'https://reader.test/reader/api/0/x',
			httpVersion: '1.1',
			headers: [],
			body: '',
			...request
		},
		...over
	});
	const lines = (text: string) => text.split('\n').map((l) => l.trim());

	test('a failure message and a note stay inside their comments', () => {
		const out = lines(
			toNodeFetch(
				call(
					{},
					{
						failure: { kind: 'network', message: 'line one\r\n\u2028process.exit(1)' },
						note: 'a note\nwith two lines'
					}
				)
			)
		);
		expect(out).toContain('// This request failed: line one process.exit(1)');
		expect(out).toContain('// a note with two lines');
		expect(out.filter((l) => l.startsWith('process.exit(1)'))).toEqual([]);
	});

	test('a consent is a URL to open, a callback a URL for the record: neither is a fetch call', () => {
		const url = 'https://reader.test/oauth2/auth?client_id=a';
		const consent = toNodeFetch(call({ url }, { step: 'consent' }));
		expect(consent).toContain('// Open this URL in a browser:');
		expect(lines(consent)).toContain(`console.log(${JSON.stringify(url)});`);
		const back = toNodeFetch(call({ url: 'https://app.test/cb?code=x' }, { step: 'callback' }));
		expect(back).toContain('// The service sent the browser back to the playground');
		for (const text of [consent, back]) expect(text).not.toContain('fetch(');
		expect(toNodeFetch(call({}))).toContain('fetch(');
	});

	test('only an Authorization header’s bearer token comes from the environment', () => {
		const out = toNodeFetch(
			call({
				headers: [
					['Authorization', 'Bearer abcdefghijklmnopqrstuvwxyz'],
					['X-Echo', 'Bearer kept-as-it-was']
				]
			})
		);
		expect(out).toContain('["Authorization", "Bearer " + env("ACCESS_TOKEN")]');
		expect(out).toContain('["X-Echo", "Bearer kept-as-it-was"]');
	});

	test('full tokens as defaults are warned about, and only when there are some', () => {
		const warning = '// It holds full tokens as defaults: keep it private.';
		const bearer = call({ headers: [['Authorization', 'Bearer abcdefghijklmnopqrstuvwxyz']] });
		expect(lines(toNodeFetch(bearer, { includeTokens: true }))).toContain(warning);
		expect(lines(toNodeFetch(bearer))).not.toContain(warning);
		expect(lines(toNodeFetch(call({}), { includeTokens: true }))).not.toContain(warning);
	});
});
