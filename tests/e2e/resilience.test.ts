/**
 * The server keeps no state of its own: the session is a sealed cookie, the sandbox's codes and
 * tickets are signed, and what the sandbox must remember is in the shared store (a redis-server of
 * the test's own, append-only, on a loopback port). So (a) a restart between the consent page and
 * Authorize loses nothing, and (b) two instances with the same key and store behind a round-robin
 * proxy serve one flow between them. (Without REDIS_URL each process has a store, and a generation,
 * of its own, and refuses the tickets and codes of another: see tests/integration/sandbox-expiry.)
 */
import { describe, expect } from 'vitest';
import http from 'node:http';
import type { Page } from 'playwright-core';
import { freePort, sessionKey, startServer, type TestServer } from '../helpers/server';
import { shot } from '../helpers/browser';
import { choosePreset, flowUrl } from '../helpers/e2e';
import { startRedis } from '../helpers/redis';
import { listen } from '../helpers/listen';
import { e2eTest } from '../helpers/fixtures';

const test = e2eTest()
	// eslint-disable-next-line no-empty-pattern
	.extend('redis', { scope: 'file' }, async ({}, { onCleanup }) => {
		const redis = await startRedis();
		onCleanup(() => redis.remove());
		return redis;
	})
	// Starts a server on the file's store (and on `port`, if given); each is stopped when its test ends.
	.extend('servers', async ({ redis }, { onCleanup }) => {
		const started: TestServer[] = [];
		onCleanup(async () => {
			for (const s of started.splice(0)) await s.stop();
		});
		return {
			start: async (env: Record<string, string>, port?: number) => {
				const s = await startServer({ PLAYGROUND_LOG: 'off', REDIS_URL: redis.url, ...env }, port);
				started.push(s);
				return s;
			},
			/** Stops a server the test started, before the test ends. */
			stop: async (s: TestServer) => {
				await s.stop();
				started.splice(started.indexOf(s), 1);
			}
		};
	});

const transcriptSteps = (p: Page) =>
	p
		.locator('.transcript details.exchange')
		.evaluateAll((els) => els.map((e) => e.getAttribute('data-step')));

describe('no state in the server', () => {
	test('a restart between the consent page and Authorize loses nothing', async ({
		servers,
		newPage
	}) => {
		const port = await freePort();
		const key = sessionKey('resilience-restart-key');
		const first = await servers.start({ PLAYGROUND_SESSION_KEY: key }, port);
		const p = await newPage();
		await choosePreset(p, first.url, 'Sandbox (read write)');
		const savedState = new URL(
			(await p.getByTestId('consent-url').textContent())!
		).searchParams.get('state');
		await p.getByRole('link', { name: 'Open the consent page' }).click();
		await p.waitForURL(/\/sandbox\/oauth2\/auth/);
		await shot(p, 'resilience-01-consent-before-restart');

		// The server goes away and a new process comes up on the same port with the same key.
		await servers.stop(first);
		expect(first.proc.exitCode).not.toBeNull();
		const second = await servers.start({ PLAYGROUND_SESSION_KEY: key }, port);
		expect(second.proc.pid).not.toBe(first.proc.pid);

		await p.getByRole('button', { name: 'Authorize' }).click();
		await p.waitForURL(flowUrl(second.url));
		await p.getByTestId('access-token').waitFor();
		expect(await p.locator('[data-verdict]').getAttribute('data-verdict')).toBe('code');
		expect(await p.getByTestId('returned-state').textContent()).toBe(savedState);
		expect(await p.getByTestId('saved-state').textContent()).toBe(savedState);
		await expect
			.poll(() => p.locator('#exchange details.exchange').textContent())
			.toContain('HTTP/1.1 200 OK');
		await p.getByRole('button', { name: 'Read the user info' }).click();
		await expect
			.poll(() => p.locator('#userinfo details.exchange').textContent())
			.toContain('"userId"');
		await shot(p, 'resilience-02-after-restart');
	});

	test('two instances with one key behind a round-robin proxy serve a whole flow', async ({
		servers,
		newPage
	}) => {
		const key = sessionKey('resilience-two-instances-key');
		const a = await servers.start({ PLAYGROUND_SESSION_KEY: key });
		const b = await servers.start({ PLAYGROUND_SESSION_KEY: key });
		const targets = [a.port, b.port];
		const served = new Map<number, number>(targets.map((t) => [t, 0]));
		let next = 0;
		// Each request, from the browser or from the playground's own server calling the sandbox through
		// the proxy's origin, goes to the next instance in turn. The Host header is kept, so both
		// instances see the proxy's origin.
		const proxy = http.createServer((req, res) => {
			const port = targets[next++ % targets.length]!;
			served.set(port, served.get(port)! + 1);
			const up = http.request(
				{
					host: '127.0.0.1',
					port,
					method: req.method,
					path: req.url,
					headers: req.headers,
					agent: false
				},
				(upRes) => {
					res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, upRes.headers);
					upRes.pipe(res);
				}
			);
			up.on('error', (e) => {
				res.writeHead(502, { 'content-type': 'text/plain' });
				res.end(`proxy: ${e.message}`);
			});
			req.pipe(up);
		});
		const { url: origin } = await listen(proxy);
		try {
			const p = await newPage();
			await choosePreset(p, origin, 'Sandbox (read write)');
			expect(await p.getByTestId('consent-url').textContent()).toContain(
				encodeURIComponent(`${origin}/callback`)
			);
			await p.getByRole('link', { name: 'Open the consent page' }).click();
			await p.waitForURL(/\/sandbox\/oauth2\/auth/);
			await p.getByRole('button', { name: 'Authorize' }).click();
			await p.waitForURL(flowUrl(origin));
			await p.getByTestId('access-token').waitFor();
			expect(await p.locator('[data-verdict]').getAttribute('data-verdict')).toBe('code');
			await expect
				.poll(() => p.locator('#exchange details.exchange').textContent())
				.toContain('HTTP/1.1 200 OK');

			await p.getByRole('button', { name: 'Read the user info' }).click();
			await expect
				.poll(() => p.locator('#userinfo details.exchange').textContent())
				.toContain('"userId"');

			const before = await p.getByTestId('access-token').textContent();
			await p.getByRole('button', { name: 'Refresh the access token' }).click();
			await expect.poll(() => p.getByTestId('rotation').textContent()).toContain('rotated');
			expect(await p.getByTestId('access-token').textContent()).not.toBe(before);
			expect(await p.locator('#refresh details.exchange').textContent()).toContain(
				'HTTP/1.1 200 OK'
			);

			await p.getByRole('button', { name: 'Read the user info' }).click();
			await expect
				.poll(() => transcriptSteps(p))
				.toEqual(['consent', 'callback', 'exchange', 'userinfo', 'refresh', 'userinfo']);
			expect(await p.locator('#userinfo details.exchange').textContent()).toContain(
				'HTTP/1.1 200 OK'
			);
			await shot(p, 'resilience-03-round-robin');

			// Both instances did real work.
			for (const [port, n] of served)
				expect(n, `requests served by the instance on port ${port}`).toBeGreaterThan(5);
		} finally {
			proxy.closeAllConnections();
			await new Promise<void>((ok) => proxy.close(() => ok()));
		}
	});
});
