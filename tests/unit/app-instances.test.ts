/**
 * Two playgrounds built in one process from two configurations share nothing of what depends on
 * the configuration: not the presets (PLAYGROUND_PRESETS and the sandbox's clients), not whether
 * the sandbox is the target, not the API step's suggestions, and not the sender's outbound policy.
 * One app is local with its sandbox on; the other is hosted, with its sandbox off.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setupWith } from '$lib/oauth/setup';
import type { App } from '$lib/app.server';
import { apiSuggestions } from '$lib/server/flow/api-examples';
import { testApp } from './test-app';
import { listen } from '../helpers/listen';

const ORIGIN = 'http://127.0.0.1:5173';
const preset = (name: string) => ({ name, base_url: `https://${name}.test`, client_id: name });

/** Local mode, sandbox on, one preset of its own. */
const local = testApp(1, {
	PLAYGROUND_MODE: 'local',
	PLAYGROUND_PRESETS: JSON.stringify([preset('alpha')])
});
/** Hosted mode (loopback refused), sandbox off, another preset. */
const hosted = testApp(2, {
	SANDBOX: 'off',
	PLAYGROUND_ALLOWED_HOSTS: 'reader.example.com',
	ORIGIN: 'https://pg.example',
	PLAYGROUND_PRESETS: JSON.stringify([preset('beta')])
});

/** A setup whose consent page and API are the built-in sandbox's on ORIGIN. */
const sandboxSetup = setupWith({
	base_url: `${ORIGIN}/sandbox`,
	redirect_uri: `${ORIGIN}/callback`,
	client_id: 'sandbox-rw'
});

describe('two apps, two configurations', () => {
	test('each lists its own presets: the sandbox’s clients only where the sandbox is on', () => {
		const names = (app: App) => app.presets.list(ORIGIN).map((p) => p.name);
		expect(names(local)).toContain('alpha');
		expect(names(local)).toContain('sandbox-rw');
		expect(names(local)).not.toContain('beta');
		expect(names(hosted)).toEqual(['beta']);
		expect(local.presets.find(ORIGIN, 'beta')).toBeUndefined();
		expect(hosted.presets.find(ORIGIN, 'alpha')).toBeUndefined();
		expect(hosted.presets.find(ORIGIN, 'sandbox-rw')).toBeUndefined();
	});

	test('the page of each shows its own presets and sandbox switch', async () => {
		const { view } = await import('$lib/server/flow/page');
		const a = view(local, { v: 1 }, ORIGIN);
		const b = view(hosted, { v: 1 }, ORIGIN);
		expect(a.presets.map((p) => p.name)).toContain('alpha');
		expect(a.sandbox).toBe(true);
		expect(a.defaults.base_url).toBe(`${ORIGIN}/sandbox`);
		expect(b.presets.map((p) => p.name)).toEqual(['beta']);
		expect(b.sandbox).toBe(false);
		expect(b.defaults.base_url).toBe('');
		expect([a.guardMode, b.guardMode]).toEqual(['local', 'hosted']);
	});

	test('the sandbox is the target, with its registrations, only where it is on', () => {
		expect(local.presets.isSandboxTarget(sandboxSetup, ORIGIN)).toBe(true);
		expect(local.presets.sandboxRedirectUris(sandboxSetup, ORIGIN)).toContain(`${ORIGIN}/callback`);
		expect(hosted.presets.isSandboxTarget(sandboxSetup, ORIGIN)).toBe(false);
		expect(hosted.presets.sandboxRedirectUris(sandboxSetup, ORIGIN)).toBeUndefined();
	});

	test('the API step offers the sandbox’s own calls only where the sandbox is on', () => {
		const a = apiSuggestions(local, sandboxSetup, ORIGIN);
		const b = apiSuggestions(hosted, sandboxSetup, ORIGIN);
		expect(a.sandbox).toBe(true);
		expect(a.examples.some((e) => e.path.startsWith('stream/'))).toBe(true);
		expect(b.sandbox).toBe(false);
		expect(b.examples[0]!.path).toBe('user-info');
	});

	describe('the sender keeps to its own app’s policy', () => {
		let server: http.Server;
		let base: string;
		let received = 0;
		beforeAll(async () => {
			server = http.createServer((_req, res) => {
				received++;
				res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
			});
			base = (await listen(server)).url;
		});
		afterAll(async () => {
			server.closeAllConnections();
			await new Promise<void>((ok) => server.close(() => ok()));
		});

		test('the same request to a loopback server: sent by the local app, refused by the hosted one', async () => {
			const request = { step: 'userinfo' as const, method: 'GET' as const, url: `${base}/me` };
			const refused = await hosted.sender.send(request);
			expect(refused.failure?.kind).toBe('blocked');
			expect(received).toBe(0);
			const sent = await local.sender.send(request);
			expect(sent.failure).toBeUndefined();
			expect(sent.response?.status).toBe(200);
			expect(received).toBe(1);
			const again = await hosted.sender.send(request);
			expect(again.failure?.kind).toBe('blocked');
			expect(received).toBe(1);
		});
	});
});
