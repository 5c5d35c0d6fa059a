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
