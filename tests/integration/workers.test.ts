/**
 * PLAYGROUND_WORKERS: the built server as several processes on one port (node:cluster), on a
 * shared redis-server of the test's own. Two workers answer under one primary and the sandbox's
 * flow works across them on fresh connections; a worker that dies is replaced; SIGTERM to the
 * primary ends every worker; and more than one worker without REDIS_URL is refused at start.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, startServer, type TestServer } from '../helpers/server';
import { childrenOf } from '../../scripts/lib/server.js';
import { startRedis, type TestRedis } from '../helpers/redis';
import {
	api,
	exchangeFields,
	getCode,
	postToken,
	refreshFields,
	type Tokens
} from './sandbox-helpers';

let redis: TestRedis;
let srv: TestServer;
/** A start that should be refused; stopped by its PID if it runs after all. */
let refused: ChildProcess | undefined;

beforeAll(async () => {
	redis = await startRedis();
	const port = await freePort();
	srv = await startServer(
		{ ORIGIN: `http://127.0.0.1:${port}`, REDIS_URL: redis.url, PLAYGROUND_WORKERS: '2' },
		port
	);
});
afterAll(async () => {
	if (refused?.pid && refused.exitCode === null) process.kill(refused.pid, 'SIGTERM');
	await srv?.stop();
	await redis?.remove();
});

const alive = (pid: number) => {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
};

test('two workers answer under one primary, and the flow works across them', async () => {
	// The first worker to listen answers the start's health poll; the banner waits for both.
	await expect.poll(() => srv.logs(), { timeout: 20_000 }).toContain('(2 workers)');
	expect(childrenOf(srv.proc.pid!)).toHaveLength(2);
	const { code } = await getCode(srv);
	const first = await postToken(srv, exchangeFields(srv, code));
	expect(first.res.status, JSON.stringify(first.body)).toBe(200);
	const t = first.body as unknown as Tokens;
	// The code once, whichever worker gets it: the second try on a fresh connection is refused.
	expect((await postToken(srv, exchangeFields(srv, code))).res.status).toBe(400);
	expect((await api(srv, 'user-info', { token: t.access_token })).status).toBe(401);
	const { code: other } = await getCode(srv);
	const again = (await postToken(srv, exchangeFields(srv, other))).body as unknown as Tokens;
	const refreshed = await postToken(srv, refreshFields('sandbox-rw', again.refresh_token));
	expect(refreshed.res.status).toBe(200);
	expect((await postToken(srv, refreshFields('sandbox-rw', again.refresh_token))).res.status).toBe(
		400
	);
});

test('a worker that dies is replaced, and the server keeps answering', async () => {
	const primary = srv.proc.pid!;
	const [victim] = childrenOf(primary);
	process.kill(victim!, 'SIGKILL');
	await expect
		.poll(
			() => {
				const now = childrenOf(primary);
				return now.length === 2 && !now.includes(victim!);
			},
			{ timeout: 20_000 }
		)
		.toBe(true);
	expect(srv.logs()).toContain(`Worker ${victim} ended (SIGKILL); starting another.`);
	await expect
		.poll(async () => (await fetch(`${srv.url}/healthz`)).status, { timeout: 20_000 })
		.toBe(200);
});

test('SIGTERM to the primary ends every worker', async () => {
	const port = await freePort();
	const other = await startServer(
		{ ORIGIN: `http://127.0.0.1:${port}`, REDIS_URL: redis.url, PLAYGROUND_WORKERS: '2' },
		port
	);
	await expect.poll(() => other.logs(), { timeout: 20_000 }).toContain('(2 workers)');
	const workers = childrenOf(other.proc.pid!);
	expect(workers).toHaveLength(2);
	const exited = new Promise<number | null>((ok) => other.proc.once('exit', (code) => ok(code)));
	process.kill(other.proc.pid!, 'SIGTERM');
	expect(await exited).toBe(0);
	await expect.poll(() => workers.filter(alive), { timeout: 20_000 }).toEqual([]);
});

test('more than one worker without REDIS_URL is refused at start, saying why', async () => {
	const port = await freePort();
	const child = (refused = spawn(process.execPath, ['scripts/serve.js'], {
		env: { PATH: process.env.PATH, PORT: String(port), PLAYGROUND_WORKERS: '2' },
		stdio: ['ignore', 'pipe', 'pipe']
	}));
	let err = '';
	child.stderr.on('data', (d: Buffer) => (err += d.toString()));
	const code = await new Promise<number | null>((ok) => child.once('exit', (c) => ok(c)));
	expect(code).toBe(1);
	expect(err).toContain('PLAYGROUND_WORKERS is 2, and more than one worker needs REDIS_URL');
});
