import { spawn, spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { shellQuote, toCurl, toCurlScript } from '$lib/exchange/curl';
import { importHar } from '$lib/oauth/imported';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import { ACCESS_1, CODE, REFRESH_1, SECRET, TOKENS, transcript } from './transcript';

/** A secret with characters special to the shell and to a form body. */
const SHELL_SECRET = `a b&c'd"$e`;
const ENV = {
	CLIENT_SECRET: SHELL_SECRET,
	ACCESS_TOKEN: 'AT-from-env',
	REFRESH_TOKEN: 'RT/from+env=',
	CLIENT_ID: 'id-from-env'
};

/** Bash reads ~/.bashrc when its stdin looks like a network socket, which node's pipes are (socketpairs). */
const NO_RC = ['--norc', '--noprofile'];
const baseEnv = () => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' });

/** Runs the text in bash with curl replaced by a function that prints each argument, NUL-terminated. */
function curlArgs(script: string, env: Record<string, string> = ENV): string[] {
	const r = spawnSync('bash', [...NO_RC, '-c', `curl() { printf '%s\\0' "$@"; }\n${script}`], {
		env: { ...baseEnv(), ...env },
		encoding: 'utf8'
	});
	expect(r.stderr).toBe('');
	expect(r.status).toBe(0);
	return r.stdout.split('\0').slice(0, -1);
}

function bashSyntax(script: string): { status: number | null; stderr: string } {
	const r = spawnSync('bash', [...NO_RC, '-n'], { input: script, encoding: 'utf8' });
	return { status: r.status, stderr: r.stderr };
}

/** curl's own encoding for --data-urlencode and --url-query: everything but A-Z a-z 0-9 - . _ ~ is %XX. */
const curlEscape = (s: string) =>
	encodeURIComponent(s).replace(
		/[!'()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`
	);

/** What curl makes of the arguments: the data parts joined with &, --data-urlencode content encoded. */
function asRequest(args: string[]) {
	const out = {
		method: 'GET',
		url: '',
		headers: [] as string[],
		data: [] as string[],
		query: [] as string[],
		user: undefined as string | undefined,
		flags: [] as string[]
	};
	for (let i = 0; i < args.length; i++) {
		const a = args[i]!;
		const next = () => args[++i]!;
		const encoded = (v: string) => {
			const at = v.indexOf('=');
			return at < 0 ? curlEscape(v) : `${v.slice(0, at)}=${curlEscape(v.slice(at + 1))}`;
		};
		if (a === '--request') out.method = next();
		else if (a === '--url') out.url = next();
		else if (a === '--header') out.headers.push(next());
		else if (a === '--data-binary' || a === '--data-raw') out.data.push(next());
		else if (a === '--data-urlencode') out.data.push(encoded(next()));
		else if (a === '--url-query') out.query.push(encoded(next()));
		else if (a === '--user') out.user = next();
		else if (a === '--max-redirs') out.flags.push(`${a} ${next()}`);
		else out.flags.push(a);
	}
	const url = out.query.length
		? `${out.url}${out.url.includes('?') ? '&' : '?'}${out.query.join('&')}`
		: out.url;
	return { ...out, url, body: out.data.join('&') };
}

// Built before each test rather than when the file is collected, so that the redaction it runs
// counts as each test's own coverage (StrykerJS would otherwise run every unit test for its mutants).
let t: Exchange[] = [];
let consent: Exchange, callback: Exchange, exchange: Exchange, userinfo: Exchange;
let refresh: Exchange, api403: Exchange, failed: Exchange;
beforeEach(() => {
	t = transcript();
	[consent, callback, exchange, userinfo, refresh, api403, failed] = t as Exchange[] as [
		Exchange,
		Exchange,
		Exchange,
		Exchange,
		Exchange,
		Exchange,
		Exchange
	];
});

describe('toCurl runs as-is in bash', () => {
	test('every command and the whole script pass bash -n', () => {
		for (const ex of t)
			for (const includeTokens of [false, true])
				expect(bashSyntax(toCurl(ex, { includeTokens }))).toEqual({ status: 0, stderr: '' });
		expect(bashSyntax(toCurlScript(t))).toEqual({ status: 0, stderr: '' });
	});

	test('the code exchange: method, URL, headers but Host/Content-Length/Connection, the body with the secret from $CLIENT_SECRET', () => {
		const args = curlArgs(toCurl(exchange));
		expect(args).toEqual([
			'--include',
			'--max-redirs',
			'0',
			'--request',
			'POST',
			'--url',
			'http://127.0.0.1:5173/sandbox/oauth2/token',
			'--header',
			'User-Agent: feed-reader-oauth-playground/0.1 (+https://www.rfc-editor.org/rfc/rfc6749)',
			'--header',
			'Accept: application/json',
			'--header',
			'Content-Type: application/x-www-form-urlencoded',
			'--data-binary',
			`code=${CODE}&redirect_uri=http%3A%2F%2F127.0.0.1%3A5173%2Fcallback&client_id=sandbox-rw`,
			'--data-urlencode',
			`client_secret=${SHELL_SECRET}`,
			'--data-binary',
			'scope=&grant_type=authorization_code'
		]);
		// curl joins the parts with & and encodes the secret: the service gets the body as sent, with the real secret.
		const sentBody = new URLSearchParams(asRequest(args).body);
		const original = new URLSearchParams(exchange.request.body);
		original.set('client_secret', SHELL_SECRET);
		expect([...sentBody]).toEqual([...original]);
	});

	test('tokens: $ACCESS_TOKEN and $REFRESH_TOKEN by default, the real values with includeTokens', () => {
		expect(asRequest(curlArgs(toCurl(userinfo))).headers).toContain(
			'Authorization: Bearer AT-from-env'
		);
		expect(asRequest(curlArgs(toCurl(userinfo, { includeTokens: true }))).headers).toContain(
			`Authorization: Bearer ${ACCESS_1}`
		);
		const r = new URLSearchParams(asRequest(curlArgs(toCurl(refresh))).body);
		expect(r.get('refresh_token')).toBe(ENV.REFRESH_TOKEN);
		expect(r.get('client_secret')).toBe(SHELL_SECRET);
		expect(r.get('grant_type')).toBe('refresh_token');
		const full = new URLSearchParams(
			asRequest(curlArgs(toCurl(refresh, { includeTokens: true }))).body
		);
		expect(full.get('refresh_token')).toBe(REFRESH_1);
		const text = toCurl(userinfo);
		for (const tok of TOKENS) expect(text).not.toContain(tok);
		expect(text).toMatch(/export ACCESS_TOKEN=/);
	});

	test('an access token in the query (token_location "query") comes from $ACCESS_TOKEN, URL-encoded', () => {
		const ex: Exchange = {
			...userinfo,
			request: {
				...userinfo.request,
				url: `${userinfo.request.url}?output=json&access_token=${ACCESS_1}`,
				headers: userinfo.request.headers.filter(([n]) => n !== 'Authorization')
			}
		};
		const req = asRequest(curlArgs(toCurl(ex), { ...ENV, ACCESS_TOKEN: 'a+b/c=d e' }));
		const u = new URL(req.url);
		expect(u.searchParams.get('access_token')).toBe('a+b/c=d e');
		expect(u.searchParams.get('output')).toBe('json');
		expect(toCurl(ex)).not.toContain(ACCESS_1);
		expect(
			new URL(asRequest(curlArgs(toCurl(ex, { includeTokens: true }))).url).searchParams.get(
				'access_token'
			)
		).toBe(ACCESS_1);
	});

	test('a POST with a form body and a Bearer token (zone-2 call)', () => {
		const req = asRequest(curlArgs(toCurl(api403)));
		expect(req.method).toBe('POST');
		expect(req.body).toBe(api403.request.body);
		expect(req.headers).toEqual([
			'User-Agent: feed-reader-oauth-playground/0.1 (+https://www.rfc-editor.org/rfc/rfc6749)',
			'Accept: application/json',
			'Authorization: Bearer AT-from-env',
			'Content-Type: application/x-www-form-urlencoded'
		]);
		expect(req.flags).toEqual(['--include', '--max-redirs 0']);
	});

	test('a failed request is still a command, with the failure in a comment', () => {
		const text = toCurl(failed);
		expect(text).toMatch(/^# This request failed: Nothing is listening/m);
		expect(asRequest(curlArgs(text)).url).toBe(
			'http://127.0.0.1:5999/reader/api/0/unread-count?output=json'
		);
	});

	test('the consent redirect is a URL to open in a browser', () => {
		const text = toCurl(consent);
		expect(text).toMatch(/open this URL in a browser/i);
		expect(text).not.toMatch(/^curl /m);
		const r = spawnSync('bash', [...NO_RC, '-c', text], { encoding: 'utf8', env: baseEnv() });
		expect(r.stdout).toBe(`${consent.request.url}\n`);
		expect(
			spawnSync('bash', [...NO_RC, '-c', toCurl(callback)], { encoding: 'utf8', env: baseEnv() })
				.stdout
		).toBe(`${callback.request.url}\n`);
	});

	test('the client secret never appears; the script needs it exported', () => {
		const script = toCurlScript(t, { generatedAt: new Date('2026-03-14T10:00:00Z') });
		for (const text of [script, ...t.map((ex) => toCurl(ex, { includeTokens: true }))]) {
			expect(text).not.toContain(SECRET);
			expect(text).not.toContain(encodeURIComponent(SECRET));
		}
		for (const tok of TOKENS) expect(script).not.toContain(tok);
		// The tokens that were sent (the last refresh token only ever came back in a response).
		for (const tok of TOKENS.slice(0, 3))
			expect(toCurlScript(t, { includeTokens: true })).toContain(tok);
		const missing = spawnSync('bash', [...NO_RC, '-c', `curl() { :; }\n${script}`], {
			env: baseEnv(),
			encoding: 'utf8'
		});
		expect(missing.status).not.toBe(0);
		expect(missing.stderr).toMatch(/export CLIENT_SECRET first/);
		const ran = spawnSync(
			'bash',
			[...NO_RC, '-c', `curl() { printf 'curl %s\\n' "$1"; }\n${script}`],
			{ env: { ...baseEnv(), ...ENV }, encoding: 'utf8' }
		);
		expect(ran.status).toBe(0);
		expect(ran.stdout.match(/^curl /gm)?.length).toBe(5);
		expect(script).toMatch(/^# ── 6\. API call: POST .*edit-tag → 403 Forbidden$/m);
	});
});

describe('toCurl: the secret and odd input in other places', () => {
	const base = (over: Partial<Exchange['request']>): Exchange => ({
		...exchange,
		request: { ...exchange.request, ...over }
	});

	test('Authorization: Basic <redacted> becomes --user with the client id', () => {
		const headers: HeaderList = [
			['Content-Type', 'application/x-www-form-urlencoded'],
			['Authorization', 'Basic <redacted>']
		];
		expect(
			asRequest(
				curlArgs(
					toCurl(
						base({ headers, body: 'grant_type=refresh_token&client_id=sandbox-rw&refresh_token=r' })
					)
				)
			).user
		).toBe(`sandbox-rw:${SHELL_SECRET}`);
		expect(
			asRequest(curlArgs(toCurl(base({ headers, body: 'grant_type=client_credentials' })))).user
		).toBe(`id-from-env:${SHELL_SECRET}`);
		expect(toCurl(base({ headers, body: 'grant_type=client_credentials' }))).toMatch(
			/export CLIENT_ID=/
		);
	});

	test('client_secret in the query goes through --url-query, encoded', () => {
		const ex = base({
			url: 'https://reader.test/oauth2/token?client_id=x&client_secret=<redacted>&z=1',
			body: ''
		});
		const u = new URL(asRequest(curlArgs(toCurl(ex))).url);
		expect(u.searchParams.get('client_secret')).toBe(SHELL_SECRET);
		expect(u.searchParams.get('client_id')).toBe('x');
		expect(u.searchParams.get('z')).toBe('1');
	});

	test('a JSON body gets the secret spliced in from the environment', () => {
		const ex = base({
			headers: [['Content-Type', 'application/json']],
			body: '{"client_id":"x","client_secret":"<redacted>"}'
		});
		expect(asRequest(curlArgs(toCurl(ex), { ...ENV, CLIENT_SECRET: 'plain-secret' })).body).toBe(
			'{"client_id":"x","client_secret":"plain-secret"}'
		);
	});

	test('a real secret that reached the exchange is scrubbed before it is written', () => {
		const ex = base({
			body: 'client_id=x&client_secret=Leaked%26Secret123&grant_type=refresh_token&refresh_token=rrrrrrrrrr'
		});
		const text = toCurl(ex);
		expect(text).not.toMatch(/Leaked/);
		expect(new URLSearchParams(asRequest(curlArgs(text)).body).get('client_secret')).toBe(
			SHELL_SECRET
		);
	});

	test('an empty header is sent empty; a body starting with @ is not read as a file', () => {
		const ex = base({
			headers: [
				['X-Empty', ''],
				['Content-Type', 'text/plain']
			],
			body: '@/etc/passwd'
		});
		const args = curlArgs(toCurl(ex));
		expect(args).toContain('X-Empty;');
		expect(args.slice(-2)).toEqual(['--data-raw', '@/etc/passwd']);
	});

	test('a URL with [ ] or { } is not globbed', () => {
		const ex = base({
			url: 'https://reader.test/reader/api/0/stream/contents/feed%2F{x}?n=[1]',
			body: ''
		});
		expect(curlArgs(toCurl(ex))).toContain('--globoff');
	});

	test('notes and URLs with line breaks cannot break out of a comment', () => {
		const ex: Exchange = {
			...exchange,
			note: 'innocent\ntouch /tmp/pwned #',
			failure: { kind: 'network', message: 'x\r\nrm -rf ~' }
		};
		const text = toCurl(ex);
		expect(text.split('\n').filter((l) => /^(touch|rm)/.test(l))).toEqual([]);
		expect(bashSyntax(text).status).toBe(0);
	});

	test('any header value and any body reach curl byte for byte (property)', () => {
		const text = fc
			.string({ unit: 'grapheme', maxLength: 40 })
			.map((s) => s.replace(/\u0000/g, ''));
		const headerName = fc
			.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/)
			.filter((n) => !/^(host|content-length|connection|authorization|cookie)$/i.test(n));
		fc.assert(
			fc.property(
				headerName,
				text.filter((v) => v.trim() === v && v !== ''),
				text,
				(name, value, body) => {
					const ex = base({
						headers: [
							[name, value],
							['Content-Type', 'application/octet-stream']
						],
						body: body.replace(/<redacted>/g, '')
					});
					const req = asRequest(curlArgs(toCurl(ex)));
					expect(req.headers).toContain(`${name}: ${value}`);
					expect(req.body).toBe(ex.request.body);
				}
			),
			{ numRuns: 60 }
		);
	}, 30_000);

	test('any secret value is passed through intact (property)', () => {
		const secret = fc
			.string({ unit: 'grapheme', minLength: 1, maxLength: 30 })
			.map((s) => s.replace(/\u0000/g, ''))
			.filter(Boolean);
		fc.assert(
			fc.property(secret, (s) => {
				const req = asRequest(curlArgs(toCurl(exchange), { ...ENV, CLIENT_SECRET: s }));
				expect(new URLSearchParams(req.body).get('client_secret')).toBe(s);
			}),
			{ numRuns: 40 }
		);
	}, 30_000);

	test('shellQuote closes and reopens around a quote', () => {
		expect(shellQuote(`it's`)).toBe(`'it'\\''s'`);
		expect(
			spawnSync('bash', [...NO_RC, '-c', `printf %s ${shellQuote(`a'b"c$d\`e\\f\ng`)}`], {
				encoding: 'utf8'
			}).stdout
		).toBe(`a'b"c$d\`e\\f\ng`);
	});

	test('an imported browser HAR with a real client secret gives commands without it', () => {
		const r = importHar(readFileSync(new URL('../fixtures/browser.har', import.meta.url), 'utf8'));
		if (!r.ok) throw new Error(r.message);
		const script = toCurlScript(r.exchanges);
		expect(script).not.toContain('inkwell-web-Zq9vL2pX7rT4');
		expect(bashSyntax(script).status).toBe(0);
		const refreshArgs = asRequest(curlArgs(toCurl(r.exchanges[4]!)));
		expect(refreshArgs.user).toBe(`id-from-env:${SHELL_SECRET}`); // the body has no client_id
	});
});

describe('toCurl against a real curl and a loopback server', () => {
	interface Seen {
		method: string;
		url: string;
		headers: string[];
		body: string;
	}
	async function withServer(fn: (origin: string, seen: Seen[]) => Promise<void>) {
		const seen: Seen[] = [];
		const server = createServer((req: IncomingMessage, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				seen.push({
					method: req.method ?? '',
					url: req.url ?? '',
					headers: req.rawHeaders,
					body: Buffer.concat(chunks).toString('utf8')
				});
				res
					.writeHead(200, { 'Content-Type': 'application/json', 'X-Seen': 'yes' })
					.end('{"ok":true}');
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		try {
			await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
		} finally {
			server.close();
		}
	}
	function bash(
		script: string,
		env: Record<string, string>
	): Promise<{ code: number | null; stdout: string; stderr: string }> {
		return new Promise((resolve) => {
			const p = spawn('bash', [...NO_RC, '-c', script], {
				env: { ...baseEnv(), ...env },
				stdio: ['ignore', 'pipe', 'pipe']
			});
			let stdout = '';
			let stderr = '';
			p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
			p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
			p.on('close', (code) => resolve({ code, stdout, stderr }));
		});
	}
	const moved = (ex: Exchange, origin: string): Exchange => ({
		...ex,
		request: { ...ex.request, url: ex.request.url.replace('http://127.0.0.1:5173', origin) }
	});

	test('curl is installed (these tests need it, as the commands do)', () => {
		expect(
			spawnSync('bash', [...NO_RC, '-c', 'command -v curl']).status,
			'curl is not installed: apt-get install -y curl'
		).toBe(0);
	});

	test('the exchange, refresh and user-info commands send what the playground sent, with the secret and tokens from the environment', async () => {
		await withServer(async (origin, seen) => {
			for (const ex of [exchange, refresh, userinfo]) {
				const r = await bash(toCurl(moved(ex, origin)), ENV);
				expect(r.stderr).not.toMatch(/curl: \(/);
				expect(r.code).toBe(0);
				expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n/); // --include
				expect(r.stdout).toMatch(/X-Seen: yes/);
			}
			const [ex1, ref1, ui1] = seen as [Seen, Seen, Seen];
			const want = new URLSearchParams(exchange.request.body);
			want.set('client_secret', SHELL_SECRET);
			expect([...new URLSearchParams(ex1.body)]).toEqual([...want]);
			expect(ex1.method).toBe('POST');
			expect(ex1.url).toBe('/sandbox/oauth2/token');
			const header = (s: Seen, n: string) =>
				s.headers[
					s.headers.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === n.toLowerCase()) + 1
				];
			expect(header(ex1, 'User-Agent')).toBe(
				'feed-reader-oauth-playground/0.1 (+https://www.rfc-editor.org/rfc/rfc6749)'
			);
			expect(header(ex1, 'Content-Type')).toBe('application/x-www-form-urlencoded');
			expect(header(ex1, 'Content-Length')).toBe(String(new TextEncoder().encode(ex1.body).length));
			expect(Object.fromEntries(new URLSearchParams(ref1.body))).toEqual({
				client_id: 'sandbox-rw',
				client_secret: SHELL_SECRET,
				grant_type: 'refresh_token',
				refresh_token: ENV.REFRESH_TOKEN
			});
			expect(header(ui1, 'Authorization')).toBe('Bearer AT-from-env');
			expect(ui1.method).toBe('GET');
		});
	});
});
