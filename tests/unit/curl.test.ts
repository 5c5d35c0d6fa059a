import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { shellQuote, toCurl, toCurlScript } from '$lib/exchange/curl';
import { withRecordingServer, type SeenRequest } from '../helpers/recording-server';
import { importHar } from '$lib/oauth/imported';
import type { Exchange, HeaderList } from '$lib/exchange/types';
import {
	ACCESS_1,
	ACCESS_2,
	CODE,
	REFRESH_1,
	REFRESH_2,
	SECRET,
	TOKENS,
	transcript
} from './transcript';

/** A secret with characters special to the shell and to a form body. */
const SHELL_SECRET = `a b&c'd"$e`;
const ENV = {
	CLIENT_SECRET: SHELL_SECRET,
	ACCESS_TOKEN: 'AT-from-env',
	REFRESH_TOKEN: 'RT/from+env=',
	CLIENT_ID: 'id-from-env',
	CODE: 'code/from+env=',
	// The steps that spend a code or a refresh token run only with this (see the tests below).
	RUN_SPENDING_STEPS: '1'
};

/** RFC 6749 §2.3.1 (Appendix B): form encoding, every byte but A-Z a-z 0-9 - . _ ~ as %XX. */
const formEnc = (s: string) =>
	[...new TextEncoder().encode(s)]
		.map((b) =>
			/[A-Za-z0-9._~-]/.test(String.fromCharCode(b))
				? String.fromCharCode(b)
				: `%${b.toString(16).toUpperCase().padStart(2, '0')}`
		)
		.join('');

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
			'--silent',
			'--show-error',
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
			'--data-urlencode',
			`code=${ENV.CODE}`,
			'--data-binary',
			`redirect_uri=http%3A%2F%2F127.0.0.1%3A5173%2Fcallback&client_id=sandbox-rw`,
			'--data-urlencode',
			`client_secret=${SHELL_SECRET}`,
			'--data-binary',
			'scope=&grant_type=authorization_code'
		]);
		// curl joins the parts with & and encodes the secret: the service gets the body as sent, with the real secret.
		const sentBody = new URLSearchParams(asRequest(args).body);
		const original = new URLSearchParams(exchange.request.body);
		original.set('client_secret', SHELL_SECRET);
		original.set('code', ENV.CODE);
		expect([...sentBody]).toEqual([...original]);
		expect(toCurl(exchange)).not.toContain(CODE);
	});

	test('tokens: $ACCESS_TOKEN and $REFRESH_TOKEN by default, the real values with includeTokens', () => {
		expect(asRequest(curlArgs(toCurl(userinfo))).headers).toContain(
			'Authorization: Bearer AT-from-env'
		);
		// With includeTokens the recorded token is the variable's default.
		const { ACCESS_TOKEN: _a, REFRESH_TOKEN: _r, ...noTokens } = ENV;
		expect(
			asRequest(curlArgs(toCurl(userinfo, { includeTokens: true }), noTokens)).headers
		).toContain(`Authorization: Bearer ${ACCESS_1}`);
		const r = new URLSearchParams(asRequest(curlArgs(toCurl(refresh))).body);
		expect(r.get('refresh_token')).toBe(ENV.REFRESH_TOKEN);
		expect(r.get('client_secret')).toBe(SHELL_SECRET);
		expect(r.get('grant_type')).toBe('refresh_token');
		const full = new URLSearchParams(
			asRequest(curlArgs(toCurl(refresh, { includeTokens: true }), noTokens)).body
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
		const { ACCESS_TOKEN: _a, ...noToken } = ENV;
		expect(
			new URL(
				asRequest(curlArgs(toCurl(ex, { includeTokens: true }), noToken)).url
			).searchParams.get('access_token')
		).toBe(ACCESS_1);
	});

	test('Copy as curl of a Bearer token holding a quote, a newline or any character reads $ACCESS_TOKEN, never a shortened literal', () => {
		for (const token of [
			`AT"quoted-0123456789`,
			`AT'apos-0123456789`,
			'AT-line\nbreak-0123456789',
			'AT with spaces\tand a tab-0123',
			'AT$(touch x)`\\-0123456789'
		]) {
			const ex: Exchange = {
				...userinfo,
				request: {
					...userinfo.request,
					headers: userinfo.request.headers.map(([n, v]): [string, string] =>
						n === 'Authorization' ? [n, `Bearer ${token}`] : [n, v]
					)
				}
			};
			const text = toCurl(ex);
			expect(bashSyntax(text)).toEqual({ status: 0, stderr: '' });
			expect(asRequest(curlArgs(text)).headers, JSON.stringify(token)).toContain(
				'Authorization: Bearer AT-from-env'
			);
			expect(text).not.toContain(token.slice(0, 6));
			expect(text).not.toContain(token.slice(-4));
			// With includeTokens the token, whatever it holds, is the variable's default.
			const { ACCESS_TOKEN: _a, ...noToken } = ENV;
			expect(asRequest(curlArgs(toCurl(ex, { includeTokens: true }), noToken)).headers).toContain(
				`Authorization: Bearer ${token}`
			);
		}
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
		expect(req.flags).toEqual(['--silent', '--show-error', '--include', '--max-redirs 0']);
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
		// The code in the address back is shortened, like a token (in full with includeTokens).
		const printed = (text: string) =>
			spawnSync('bash', [...NO_RC, '-c', text], { encoding: 'utf8', env: baseEnv() }).stdout;
		expect(printed(toCurl(callback))).toBe(
			`${callback.request.url.replace(CODE, 'eyJh…cXV4 <72 chars>')}\n`
		);
		expect(printed(toCurl(callback, { includeTokens: true }))).toBe(`${callback.request.url}\n`);
	});

	test('the client secret, tokens and codes never appear; with includeTokens only the tokens do, as defaults', () => {
		const script = toCurlScript(t, { generatedAt: new Date('2026-03-14T10:00:00Z') });
		for (const text of [script, ...t.map((ex) => toCurl(ex, { includeTokens: true }))]) {
			expect(text).not.toContain(SECRET);
			expect(text).not.toContain(encodeURIComponent(SECRET));
		}
		for (const tok of [...TOKENS, CODE]) expect(script).not.toContain(tok);
		for (const ex of t) for (const tok of [...TOKENS, CODE]) expect(toCurl(ex)).not.toContain(tok);
		const full = toCurlScript(t, { includeTokens: true });
		// The tokens last seen are the defaults; the spent code is never one ($CODE).
		expect(full).toContain(`[ -n "\${ACCESS_TOKEN:-}" ] || ACCESS_TOKEN='${ACCESS_2}'`);
		expect(full).toContain(`[ -n "\${REFRESH_TOKEN:-}" ] || REFRESH_TOKEN='${REFRESH_2}'`);
		expect(full).toContain('--data-urlencode "code=$CODE"');
		expect(full).toContain(`callback?code=${CODE}&`);
		expect(script).toMatch(/^# ── 6\. API call: POST .*edit-tag → 403 Forbidden$/m);
	});
});

/** Runs a script in bash with curl replaced by a function that logs its URL and method. */
function runScript(script: string, env: Record<string, string>) {
	return spawnSync(
		'bash',
		[
			...NO_RC,
			'-c',
			`curl() { local a u m; for a; do [ "$prev" = --url ] && u=$a; [ "$prev" = --request ] && m=$a; prev=$a; done; printf 'CALLED %s %s\\n' "$m" "$u"; printf '{"access_token":"AT-%s","refresh_token":"RT-%s"}\\n' "$RANDOM" "$RANDOM"; }\n${script}`
		],
		{ env: { ...baseEnv(), ...env }, encoding: 'utf8' }
	);
}

describe('the curl script: variables at the top, spending steps only when asked', () => {
	test('its header names the variables it reads, and only those; each with the steps that use it', () => {
		const script = toCurlScript(t);
		const header = script.slice(0, script.indexOf('\n\n'));
		expect(header).toMatch(/^#\s+CLIENT_SECRET\s+the client secret.*\(steps 3 and 5, spending\)$/m);
		expect(header).toMatch(/^#\s+CODE\s+a fresh authorization code.*\(step 3, spending\)$/m);
		expect(header).toMatch(/^#\s+ACCESS_TOKEN\s+.*\(steps 4, 6 and 7\)$/m);
		expect(header).toMatch(
			/^#\s+REFRESH_TOKEN\s+.*\(step 5, spending; .*taken from the token responses\)$/m
		);
		expect(header).not.toMatch(/CLIENT_ID/);
		expect(header).toContain("# Run it:            ACCESS_TOKEN='…' bash this-script.sh");
		expect(header).toContain(
			"# The whole flow:    RUN_SPENDING_STEPS=1 CLIENT_SECRET='…' CODE='…' bash this-script.sh"
		);
		// A transcript with only user-info reads only ACCESS_TOKEN, and has no spending switch.
		const only = toCurlScript([userinfo]);
		expect(only).not.toMatch(/CLIENT_SECRET|CODE|REFRESH_TOKEN|RUN_SPENDING_STEPS/);
		expect(only).toContain(': "${ACCESS_TOKEN:?export ACCESS_TOKEN first');
	});

	test('replay: by default the code exchange and the refresh only print what they would send, and why', () => {
		const script = toCurlScript(t);
		expect(bashSyntax(script)).toEqual({ status: 0, stderr: '' });
		// Only ACCESS_TOKEN is needed: no secret, no code, no refresh token.
		const r = runScript(script, { ACCESS_TOKEN: 'AT-from-env' });
		expect(r.stderr).toBe('');
		expect(r.status).toBe(0);
		expect(r.stdout.match(/^CALLED .*/gm)).toEqual([
			'CALLED GET http://127.0.0.1:5173/sandbox/reader/api/0/user-info',
			'CALLED POST http://127.0.0.1:5173/sandbox/reader/api/0/edit-tag',
			'CALLED GET http://127.0.0.1:5999/reader/api/0/unread-count?output=json'
		]);
		expect(r.stdout).toContain(
			'# Skipped step 3 (code exchange): it spends the authorization code. A code is single-use and the refresh token rotates; replaying them makes the service revoke the grant.'
		);
		expect(r.stdout).toContain('# Skipped step 5 (refresh): it spends the refresh token.');
		// What it would send, with the variables not expanded.
		expect(r.stdout).toContain('--data-urlencode "client_secret=$CLIENT_SECRET"');
		expect(r.stdout).toContain('--data-urlencode "refresh_token=$REFRESH_TOKEN"');
		expect(r.stdout).toContain('--data-urlencode "code=$CODE"');
		// A secret in the environment is never printed by a skipped step.
		const withSecret = runScript(script, { ACCESS_TOKEN: 'x', CLIENT_SECRET: 'Sup3r-s3cret' });
		expect(withSecret.stdout).not.toContain('Sup3r-s3cret');
		// Without ACCESS_TOKEN it stops before any request, naming it.
		const missing = runScript(script, {});
		expect(missing.status).not.toBe(0);
		expect(missing.stdout).not.toMatch(/^CALLED /m);
		expect(missing.stderr).toMatch(/ACCESS_TOKEN: export ACCESS_TOKEN first/);
	});

	test('RUN_SPENDING_STEPS=1 needs CLIENT_SECRET and CODE, and each token response feeds the steps after it', () => {
		const script = toCurlScript(t);
		const missing = runScript(script, { RUN_SPENDING_STEPS: '1', CLIENT_SECRET: 's' });
		expect(missing.status).not.toBe(0);
		expect(missing.stderr).toMatch(/CODE: export CODE first/);
		expect(missing.stdout).toBe('');
		// The fake curl answers every request with new tokens; the next request must carry them.
		const traced = spawnSync(
			'bash',
			[
				...NO_RC,
				'-c',
				// Each answer's tokens name the grant that brought them.
				`curl() { local g=none; case "$*" in *grant_type=authorization_code*) g=code ;; *grant_type=refresh_token*) g=refresh ;; esac; printf 'sent %s\\n' "$*"; printf '{"access_token":"AT-%s","token_type":"Bearer","refresh_token":"RT-%s"}\\n' "$g" "$g"; }\n${script}`
			],
			{
				env: { ...baseEnv(), RUN_SPENDING_STEPS: '1', CLIENT_SECRET: 's', CODE: 'fresh-code' },
				encoding: 'utf8'
			}
		);
		expect(traced.stderr).toBe('');
		expect(traced.status).toBe(0);
		const sent = traced.stdout.match(/^sent .*/gm)!;
		expect(sent).toHaveLength(5);
		expect(sent[0]).toMatch(/code=fresh-code .*client_secret=s /);
		expect(sent[1]).toContain('Authorization: Bearer AT-code'); // user-info: the exchange's token
		expect(sent[2]).toContain('refresh_token=RT-code'); // refresh: the exchange's refresh token
		expect(sent[3]).toContain('Authorization: Bearer AT-refresh'); // edit-tag: the refresh's token
		expect(sent[4]).toContain('Authorization: Bearer AT-refresh');
	});

	test('RUN_SPENDING_STEPS=1: a token response without an access_token stops the script, saying why', () => {
		const r = spawnSync(
			'bash',
			[
				...NO_RC,
				'-c',
				`curl() { printf '{"error":"invalid_grant","error_description":"The code was already used"}\\n'; }\n${toCurlScript(t)}`
			],
			{
				env: { ...baseEnv(), RUN_SPENDING_STEPS: '1', CLIENT_SECRET: 's', CODE: 'old' },
				encoding: 'utf8'
			}
		);
		expect(r.status).toBe(1);
		expect(r.stdout).toContain('invalid_grant');
		expect(r.stderr).toBe(
			'Stopped: step 3 (code exchange) brought no access_token, so the steps after it would use an old one.\n'
		);
	});

	test('a revocation is a spending step too, and "Copy as curl" of a spending step carries the guard', () => {
		const revoke: Exchange = {
			...refresh,
			request: {
				...refresh.request,
				url: 'http://127.0.0.1:5173/sandbox/oauth2/revoke',
				body: 'token=rrrrrrrrrrrr&client_id=sandbox-rw&client_secret=<redacted>'
			},
			response: undefined
		};
		const script = toCurlScript([revoke]);
		expect(script).toContain('# Step 1 spend something');
		expect(runScript(script, {}).stdout).toContain(
			'# Skipped step 1 (refresh): it revokes a token.'
		);
		for (const ex of [exchange, refresh, revoke]) {
			const one = toCurl(ex);
			expect(one).toMatch(/^# This step spends something \(it (spends|revokes)/m);
			const r = spawnSync('bash', [...NO_RC, '-c', `curl() { echo SENT; }\n${one}`], {
				env: { ...baseEnv(), ...ENV, RUN_SPENDING_STEPS: '' },
				encoding: 'utf8'
			});
			expect(r.stdout).toMatch(/^Skipped: it (spends|revokes) .*RUN_SPENDING_STEPS=1/);
			expect(r.stdout).not.toContain('SENT');
		}
		expect(toCurl(userinfo)).not.toMatch(/RUN_SPENDING_STEPS/);
	});

	test('a retried code exchange in the transcript: only the first sends $CODE (a code is single-use)', () => {
		const failed: Exchange = {
			...exchange,
			id: 'retry-0',
			response: {
				...exchange.response!,
				status: 400,
				statusText: 'Bad Request',
				body: '{"error":"invalid_grant"}'
			}
		};
		const script = toCurlScript([failed, exchange, userinfo]);
		expect(script.match(/--data-urlencode "code=\$CODE"/g)).toHaveLength(2); // sent once, printed once
		const r = spawnSync(
			'bash',
			[
				...NO_RC,
				'-c',
				`curl() { printf 'sent %s\\n' "$*"; printf '{"access_token":"AT-1","refresh_token":"RT-1"}\\n'; }\n${script}`
			],
			{
				env: { ...baseEnv(), RUN_SPENDING_STEPS: '1', CLIENT_SECRET: 's', CODE: 'fresh' },
				encoding: 'utf8'
			}
		);
		expect(r.stderr).toBe('');
		expect(r.status).toBe(0);
		expect(r.stdout.match(/^sent .*code=fresh/gm)).toHaveLength(1);
		expect(r.stdout).toContain(
			'# Skipped step 2, another code exchange: only step 1 sends CODE, since a code is single-use.'
		);
		expect(r.stdout).toMatch(/^sent .*Authorization: Bearer AT-1/m);
	});

	test('json_field reads a token with escaped slashes and ignores other fields (sed only)', () => {
		const script = toCurlScript(t);
		const fn = script.slice(script.indexOf('json_field() {'), script.indexOf('take_tokens() {'));
		const r = spawnSync(
			'bash',
			[
				...NO_RC,
				'-c',
				`${fn}\njson_field access_token "$R1"; json_field refresh_token "$R2"; json_field scope "$R2"`
			],
			{
				env: {
					...baseEnv(),
					R1: 'HTTP/1.1 200 OK\r\nX: "access_token":"no"\r\n\r\n{"refresh_token":"r1","access_token" : "a\\/b\\"c","x":"y"}',
					R2: '{\n  "access_token": "a",\n  "refresh_token": "r\\/2"\n}'
				},
				encoding: 'utf8'
			}
		);
		expect(r.stderr).toBe('');
		expect(r.stdout).toBe('a/b\\"c\nr/2\n');
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
		).toBe(`sandbox-rw:${formEnc(SHELL_SECRET)}`);
		expect(
			asRequest(curlArgs(toCurl(base({ headers, body: 'grant_type=client_credentials' })))).user
		).toBe(`id-from-env:${formEnc(SHELL_SECRET)}`);
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
		expect(refreshArgs.user).toBe(`id-from-env:${formEnc(SHELL_SECRET)}`); // the body has no client_id
	});
});

describe('toCurl against a real curl and a loopback server', () => {
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
		await withRecordingServer(async (origin, seen) => {
			for (const ex of [exchange, refresh, userinfo]) {
				const r = await bash(toCurl(moved(ex, origin)), ENV);
				expect(r.stderr).not.toMatch(/curl: \(/);
				expect(r.code).toBe(0);
				expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\r\n/); // --include
				expect(r.stdout).toMatch(/X-Seen: yes/);
			}
			const [ex1, ref1, ui1] = seen as [SeenRequest, SeenRequest, SeenRequest];
			const want = new URLSearchParams(exchange.request.body);
			want.set('client_secret', SHELL_SECRET);
			want.set('code', ENV.CODE);
			expect([...new URLSearchParams(ex1.body)]).toEqual([...want]);
			expect(ex1.method).toBe('POST');
			expect(ex1.url).toBe('/sandbox/oauth2/token');
			const header = (s: SeenRequest, n: string) =>
				s.rawHeaders[
					s.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === n.toLowerCase()) + 1
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

	/** HTTP Basic as RFC 6749 §2.3.1 reads it: base64, split at the first colon, each side form-decoded. */
	const basicPair = (seen: SeenRequest) => {
		const i = seen.rawHeaders.findIndex(
			(h, n) => n % 2 === 0 && h.toLowerCase() === 'authorization'
		);
		const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(seen.rawHeaders[i + 1] ?? '');
		const decoded = Buffer.from(m?.[1] ?? '', 'base64').toString('utf8');
		const at = decoded.indexOf(':');
		const formDecode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
		return [formDecode(decoded.slice(0, at)), formDecode(decoded.slice(at + 1))];
	};

	test('HTTP Basic: a secret with : % + space & quote and non-ASCII reaches an RFC 6749 §2.3.1 server intact, from the script and from one command', async () => {
		const secret = `p:a%2B+ s&'q"ü€`;
		await withRecordingServer(async (origin, seen) => {
			const basic: Exchange = {
				...moved(refresh, origin),
				request: {
					...moved(refresh, origin).request,
					headers: [
						...refresh.request.headers.filter(([n]) => n !== 'Content-Length'),
						['Authorization', 'Basic <redacted>']
					],
					body: 'grant_type=refresh_token&refresh_token=rrrrrrrrrrrr'
				}
			};
			const env = { ...ENV, CLIENT_ID: 'my:client id+1', CLIENT_SECRET: secret };
			const one = await bash(toCurl(basic), env);
			expect(one.code).toBe(0);
			const script = await bash(toCurlScript([basic]), env);
			expect(script.stderr).toBe(
				'Stopped: step 1 (refresh) brought no access_token, so the steps after it would use an old one.\n'
			);
			expect(seen).toHaveLength(2);
			for (const s of seen) expect(basicPair(s)).toEqual(['my:client id+1', secret]);
			// Without the form encoding the pair would split at the id's colon.
			const raw = Buffer.from(`my:client id+1:${secret}`).toString('base64');
			expect(seen[0]!.headers).not.toContain(`Basic ${raw}`);
		});
	});
});

describe('toCurl: the command, line by line', () => {
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
	const lines = (text: string) => text.split('\n').map((l) => l.replace(/ \\$/, '').trim());

	test('a HEAD request, in any case, is --head; any other method is --request, unquoted when plain', () => {
		for (const method of ['HEAD', 'head']) {
			const out = lines(toCurl(call({ method })));
			expect(out, method).toContain('--head');
			expect(out.join('\n'), method).not.toContain('--request');
		}
		expect(lines(toCurl(call({ method: 'GET' })))).toContain('--request GET');
		expect(lines(toCurl(call({ method: 'M-SEARCH' })))).toContain('--request M-SEARCH');
		expect(lines(toCurl(call({ method: 'A B' })))).toContain("--request 'A B'");
	});

	test('a Cookie header whose value was not recorded is left out with a comment; other headers with that text are sent', () => {
		const out = lines(
			toCurl(
				call({
					headers: [
						['Cookie', '<not imported>'],
						['X-Note', '<not imported>']
					]
				})
			)
		);
		expect(out).toContain(
			'# The Cookie header is left out: its value was not recorded (<not imported>).'
		);
		expect(out.join('\n')).not.toContain("--header 'Cookie");
		expect(out).toContain("--header 'X-Note: <not imported>'");
		expect(lines(toCurl(call({ headers: [['Cookie', 'a=1']] })))).toContain(
			"--header 'Cookie: a=1'"
		);
	});

	test('a failure message cannot break out of its comment: each run of control characters is one space', () => {
		const failed = call(
			{},
			{ failure: { kind: 'network', message: 'line one\r\n\u2028rm -rf x' } }
		);
		const out = lines(toCurl(failed));
		expect(out).toContain('# This request failed: line one rm -rf x');
		expect(out.filter((l) => l.startsWith('rm'))).toEqual([]);
	});

	test('a body with NUL bytes gets a note that they are left out; one without gets none', () => {
		const nul = lines(toCurl(call({ method: 'POST', body: 'a\u0000b' })));
		const note =
			'# The body holds NUL bytes, which a shell argument cannot carry; they are left out.';
		expect(nul).toContain(note);
		expect(lines(toCurl(call({ method: 'POST', body: 'ab' })))).not.toContain(note);
	});

	test('the script starts with its interpreter, says when it was made, and warns when it holds tokens', () => {
		const ex = call({});
		const made = new Date('2026-03-14T10:00:00.000Z');
		const plain = toCurlScript([ex]);
		expect(plain.startsWith('#!/usr/bin/env bash\n')).toBe(true);
		expect(plain).not.toContain('# Generated');
		expect(plain).not.toContain('keep it private');
		expect(lines(toCurlScript([ex], { generatedAt: made }))).toContain(
			'# Generated 2026-03-14T10:00:00.000Z.'
		);
		expect(lines(toCurlScript([ex], { includeTokens: true }))).toContain(
			'# This script holds full access and refresh tokens: keep it private.'
		);
	});
});

describe('the curl script with the tokens written in', () => {
	// Built in each test, not when the file is collected (see docs/testing.md, static mutants).
	const step = (s: Exchange['step']) => transcript().find((e) => e.step === s)!;
	const defaultOf = (v: string, value: string) => `[ -n "\${${v}:-}" ] || ${v}='${value}'`;

	test('a token is written in only for a variable a command reads', () => {
		const onlyExchange = toCurlScript([step('exchange')], { includeTokens: true });
		expect(onlyExchange).not.toContain('[ -n "${ACCESS_TOKEN:-}" ]');
		expect(onlyExchange).not.toContain('[ -n "${REFRESH_TOKEN:-}" ]');
		const withCall = toCurlScript([step('exchange'), step('userinfo')], { includeTokens: true });
		expect(withCall.split('\n')).toContain(defaultOf('ACCESS_TOKEN', ACCESS_1));
		expect(withCall).not.toContain('[ -n "${REFRESH_TOKEN:-}" ]');
	});

	test('the tokens written in are the last seen, a token answer’s included', () => {
		const lines = toCurlScript([step('userinfo'), step('refresh')], { includeTokens: true }).split(
			'\n'
		);
		expect(lines).toContain(defaultOf('ACCESS_TOKEN', ACCESS_2));
		expect(lines).toContain(defaultOf('REFRESH_TOKEN', REFRESH_2));
		// An answer without a refresh token (the user-info) leaves the last one in place.
		const after = toCurlScript([step('refresh'), step('userinfo')], { includeTokens: true });
		expect(after.split('\n')).toContain(defaultOf('REFRESH_TOKEN', REFRESH_2));
	});

	test('only a 2xx token answer’s tokens are written in', () => {
		const refresh = step('refresh');
		const odd: Exchange = {
			...refresh,
			response: {
				...refresh.response!,
				status: 300,
				statusText: 'Multiple Choices',
				body: JSON.stringify({ access_token: 'not-a-token-from-a-300', refresh_token: 'nor-this' })
			}
		};
		const lines = toCurlScript([step('exchange'), step('userinfo'), odd], {
			includeTokens: true
		}).split('\n');
		expect(lines).toContain(defaultOf('ACCESS_TOKEN', ACCESS_1));
		expect(lines).toContain(defaultOf('REFRESH_TOKEN', REFRESH_1));
	});
});
