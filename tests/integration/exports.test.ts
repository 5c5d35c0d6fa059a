/**
 * replay: the exported curl script, run after a complete flow, must not break it. Over real HTTP
 * against the built server and its sandbox: a whole flow (consent, callback, exchange, user-info,
 * refresh), its transcript exported as the page exports it (the exchanges the page data and the
 * actions handed over, in order → toCurlScript), then the script run by bash with curl.
 * - With only CLIENT_SECRET and ACCESS_TOKEN set, the steps that spend the code and the refresh
 *   token only print what they would send, the script exits 0, and the playground's own refresh
 *   and user-info still answer 200 (a replayed code or refresh token makes the sandbox revoke the
 *   grant, as the service does).
 * - With RUN_SPENDING_STEPS=1 and a fresh code from a new consent, the script completes the flow
 *   by itself: its exchange, user-info and refresh answer 200.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { unflatten } from 'devalue';
import { startServer, type TestServer } from '../helpers/server';
import { Client, consentUrlFrom, decide } from '../helpers/client';
import { toCurlScript } from '../../src/lib/exchange/curl';
import type { Exchange } from '../../src/lib/exchange/types';

let srv: TestServer;
let dir: string;

beforeAll(async () => {
	srv = await startServer({ PLAYGROUND_LOG: 'off' });
	dir = mkdtempSync(join(tmpdir(), 'pg-exports-'));
});
afterAll(async () => {
	await srv?.stop();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

const SECRET = 'sandbox-rw-secret';

async function setUp(c: Client) {
	const r = await c.action('setup', {
		base_url: `${c.base}/sandbox`,
		client_id: 'sandbox-rw',
		client_secret: SECRET,
		scope: 'read write',
		redirect_uri: `${c.base}/callback`,
		auto_exchange: 'true'
	});
	expect(r.type, JSON.stringify(r.data)).toBe('success');
}

/** The page's load data, as the page's script reads it (`__data.json`, devalue). */
async function pageData(c: Client): Promise<Record<string, unknown>> {
	const { res, body } = await c.fetch(`/__data.json?flow=${c.flow}`);
	expect(res.status).toBe(200);
	const json = JSON.parse(body) as { nodes: ({ type: string; data?: unknown } | null)[] };
	return Object.assign(
		{},
		...json.nodes
			.filter((n) => n?.type === 'data')
			.map((n) => unflatten(n!.data as number | unknown[]) as Record<string, unknown>)
	) as Record<string, unknown>;
}

const exchangesOf = (r: { data: Record<string, unknown> }) =>
	(r.data.exchanges as Exchange[]) ?? [];
const status = (r: { data: Record<string, unknown> }) =>
	exchangesOf(r).map((e) => e.response?.status);

/** A whole flow, and its transcript as the page keeps it. */
async function completeFlow(c: Client): Promise<Exchange[]> {
	await setUp(c);
	const transcript: Exchange[] = [];
	const before = await pageData(c);
	transcript.push((before.pending as { exchange: Exchange }).exchange);
	const location = await decide(c, consentUrlFrom(await c.page()));
	expect((await c.fetch(location)).res.status).toBe(303);
	transcript.push(...((await pageData(c)).outbox as Exchange[]));
	for (const step of ['exchange', 'userinfo', 'refresh']) {
		const r = await c.action(step);
		expect(status(r), step).toEqual([200]);
		transcript.push(...exchangesOf(r));
	}
	expect(transcript.map((e) => e.step)).toEqual([
		'consent',
		'callback',
		'exchange',
		'userinfo',
		'refresh'
	]);
	// The sandbox's own answers pass the second judge (oauth/strict-client.ts).
	expect(transcript.flatMap((e) => e.findings.map((f) => f.code))).not.toContain(
		'strict-client-rejects'
	);
	return transcript;
}

function bash(file: string, env: Record<string, string>) {
	return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
		const p = spawn('bash', ['--norc', '--noprofile', file], {
			env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
			stdio: ['ignore', 'pipe', 'pipe']
		});
		let stdout = '';
		let stderr = '';
		p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
		p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
		p.on('close', (code) => resolve({ code, stdout, stderr }));
	});
}

/** The access token the last token response brought. */
const accessToken = (ex: Exchange) =>
	(JSON.parse(ex.response!.body) as { access_token: string }).access_token;

test('replay: the exported script, run with only CLIENT_SECRET and ACCESS_TOKEN after a complete flow, exits 0 and leaves the grant working', async () => {
	const c = new Client(srv.url);
	const transcript = await completeFlow(c);
	const script = toCurlScript(transcript);
	// No token or code of the flow is in it.
	const code = new URL(transcript[1]!.request.url).searchParams.get('code')!;
	for (const value of [code, accessToken(transcript[2]!), accessToken(transcript[4]!)])
		expect(script).not.toContain(value);
	const file = join(dir, 'replay.sh');
	writeFileSync(file, script);

	const r = await bash(file, {
		CLIENT_SECRET: SECRET,
		ACCESS_TOKEN: accessToken(transcript.at(-1)!)
	});
	expect(r.stderr).toBe('');
	expect(r.code).toBe(0);
	expect(r.stdout).toContain('# Skipped step 3 (code exchange): it spends the authorization code.');
	expect(r.stdout).toContain('# Skipped step 5 (refresh): it spends the refresh token.');
	expect(r.stdout.match(/^HTTP\/1\.1 \d+.*$/gm)).toEqual(['HTTP/1.1 200 OK']); // user-info only
	expect(r.stdout).not.toContain(SECRET);

	// The playground's own flow goes on: its refresh token was not replayed, its grant not revoked.
	expect(status(await c.action('refresh'))).toEqual([200]);
	expect(status(await c.action('userinfo'))).toEqual([200]);
});

test('replay: with RUN_SPENDING_STEPS=1 and a fresh code, the script completes the flow by itself', async () => {
	const c = new Client(srv.url);
	const transcript = await completeFlow(c);
	const file = join(dir, 'spend.sh');
	writeFileSync(file, toCurlScript(transcript));

	// A new consent for the same client and redirect URI; its code is not taken to the callback.
	const other = new Client(srv.url);
	await setUp(other);
	const location = await decide(other, consentUrlFrom(await other.page()));
	const code = new URL(location, srv.url).searchParams.get('code');
	expect(code).toBeTruthy();

	const r = await bash(file, { RUN_SPENDING_STEPS: '1', CLIENT_SECRET: SECRET, CODE: code! });
	expect(r.stderr).toBe('');
	expect(r.code).toBe(0);
	// The exchange, the user-info call with its new token, and the refresh with its refresh token.
	expect(r.stdout.match(/^HTTP\/1\.1 \d+.*$/gm), r.stdout).toEqual([
		'HTTP/1.1 200 OK',
		'HTTP/1.1 200 OK',
		'HTTP/1.1 200 OK'
	]);
	expect(r.stdout).toMatch(/"userId"/);
	expect(r.stdout, r.stdout).not.toContain('Skipped');

	// The first flow was not touched by any of it.
	expect(status(await c.action('userinfo'))).toEqual([200]);
	expect(status(await c.action('refresh'))).toEqual([200]);
});
