import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinClients } from '$lib/sandbox/clients.server';
import { parseConfig } from '$lib/config.server.js';

/** The sandbox's part of the configuration of an environment. */
const loadSandboxConfig = (env: Record<string, string>) => parseConfig(env).sandbox;
/** The registrations a SANDBOX_CLIENTS value gives. */
const parseSandboxClients = (raw: string) =>
	parseConfig({ SANDBOX_CLIENTS: raw }).sandbox.extraClients;

const good = {
	client_id: 'my-app',
	client_secret: 's3cret',
	redirect_uris: ['https://app.example.test/cb'],
	default_scope: 'read'
};

function message(fn: () => unknown): string {
	try {
		fn();
	} catch (e) {
		return (e as Error).message;
	}
	throw new Error('expected an error');
}

describe('sandbox configuration', () => {
	it('has the documented defaults', () => {
		const c = loadSandboxConfig({});
		expect(c).toMatchObject({
			accessTtl: 3600,
			codeTtl: 60,
			refreshTtl: 30 * 86400,
			zone1Limit: 100,
			zone2Limit: 10,
			limitWindow: 600,
			extraClients: []
		});
		expect(c.origin).toBeUndefined();
	});

	it('reads the numbers and ORIGIN', () => {
		const c = loadSandboxConfig({
			SANDBOX_ACCESS_TTL: '5',
			SANDBOX_CODE_TTL: '1',
			SANDBOX_LIMIT_WINDOW: '2',
			ORIGIN: 'http://localhost:5173/'
		});
		expect(c).toMatchObject({
			accessTtl: 5,
			codeTtl: 1,
			limitWindow: 2,
			origin: 'http://localhost:5173'
		});
	});

	it('names the variable and the value of a bad number', () => {
		for (const bad of ['0', '-1', '1.5', 'abc', '1e3']) {
			const m = message(() => loadSandboxConfig({ SANDBOX_ZONE1_LIMIT: bad }));
			expect(m).toContain('SANDBOX_ZONE1_LIMIT must be a positive whole number');
			expect(m).toContain(JSON.stringify(bad));
		}
		const both = message(() =>
			loadSandboxConfig({ SANDBOX_CODE_TTL: 'x', SANDBOX_REFRESH_TTL: '0' })
		);
		expect(both).toContain('SANDBOX_CODE_TTL');
		expect(both).toContain('SANDBOX_REFRESH_TTL');
	});

	it('parses inline JSON (array or one object) into clients', () => {
		const list = parseSandboxClients(
			JSON.stringify([
				good,
				{
					...good,
					client_id: 'other',
					name: 'Other',
					default_scope: 'read write',
					access_ttl: 30,
					zone1_limit: 5
				}
			])
		);
		expect(list).toHaveLength(2);
		expect(list[0]).toMatchObject({
			client_id: 'my-app',
			name: 'my-app',
			default_scope: 'read',
			builtin: false
		});
		expect(list[1]).toMatchObject({
			client_id: 'other',
			name: 'Other',
			access_ttl: 30,
			zone1_limit: 5
		});
		expect(parseSandboxClients(JSON.stringify(good))).toHaveLength(1);
	});

	it('reads a JSON file when the value is a path', () => {
		const dir = mkdtempSync(join(tmpdir(), 'sandbox-clients-'));
		const file = join(dir, 'clients.json');
		writeFileSync(file, JSON.stringify([good]));
		expect(parseSandboxClients(file)[0]!.client_id).toBe('my-app');
		expect(message(() => parseSandboxClients(join(dir, 'missing.json')))).toMatch(
			/^SANDBOX_CLIENTS \(file ".*missing\.json"\): the file cannot be read \(ENOENT\)/
		);
	});

	it('says which entry and which field is wrong', () => {
		const m = message(() =>
			parseSandboxClients(
				JSON.stringify([good, { ...good, client_id: 'two', redirect_uris: ['not a url'] }])
			)
		);
		expect(m).toBe(
			'SANDBOX_CLIENTS (inline JSON): entry 1 (client_id "two"): field redirect_uris[0] must be an absolute http(s) URL without a fragment'
		);
		expect(
			message(() => parseSandboxClients(JSON.stringify([{ ...good, default_scope: 'write' }])))
		).toBe(
			'SANDBOX_CLIENTS (inline JSON): entry 0 (client_id "my-app"): field default_scope must be "read" or "read write"'
		);
		expect(
			message(() => parseSandboxClients(JSON.stringify([{ ...good, client_secret: undefined }])))
		).toBe(
			'SANDBOX_CLIENTS (inline JSON): entry 0 (client_id "my-app"): field client_secret is required'
		);
		expect(
			message(() => parseSandboxClients(JSON.stringify([{ ...good, access_ttl: 0 }])))
		).toContain('field access_ttl must be a positive whole number');
		expect(
			message(() => parseSandboxClients(JSON.stringify([{ ...good, redirect_uri: 'x' }])))
		).toContain('unknown field(s) "redirect_uri"');
		expect(
			message(() =>
				parseSandboxClients(
					JSON.stringify([{ ...good, redirect_uris: ['https://a.example/cb#frag'] }])
				)
			)
		).toContain('redirect_uris[0]');
		expect(
			message(() =>
				parseSandboxClients(JSON.stringify([{ ...good, redirect_uris: ['ftp://a.example/cb'] }]))
			)
		).toContain('redirect_uris[0]');
		expect(message(() => parseSandboxClients(JSON.stringify([42])))).toBe(
			'SANDBOX_CLIENTS (inline JSON): entry 0: must be an object'
		);
	});

	it('refuses bad JSON, duplicate ids and the built-in ids', () => {
		expect(message(() => parseSandboxClients('[{"client_id": '))).toMatch(
			/^SANDBOX_CLIENTS \(inline JSON\): not valid JSON/
		);
		expect(message(() => parseSandboxClients(JSON.stringify([good, good])))).toContain(
			'entry 1 (client_id "my-app"): field client_id is registered twice'
		);
		expect(
			message(() => parseSandboxClients(JSON.stringify([{ ...good, client_id: 'sandbox-rw' }])))
		).toContain('field client_id is the id of a built-in client');
	});

	it('a bad environment stops the configuration; with the sandbox off its variables are not read', () => {
		const bad = { SANDBOX_CLIENTS: JSON.stringify([{ ...good, default_scope: 'admin' }]) };
		expect(() => parseConfig(bad)).toThrow(/SANDBOX_CLIENTS.*entry 0.*default_scope/);
		expect(() =>
			parseConfig({ SANDBOX_CLIENTS: JSON.stringify([good]), SANDBOX_ACCESS_TTL: 'soon' })
		).toThrow(/SANDBOX_ACCESS_TTL/);
		expect(() => parseConfig({ SANDBOX_CLIENTS: JSON.stringify([good]) })).not.toThrow();
		expect(parseConfig({ ...bad, SANDBOX: 'OFF' }).sandbox).toMatchObject({
			enabled: false,
			extraClients: []
		});
	});

	it('has the three built-in clients with fixed, readable secrets', () => {
		expect(builtinClients().map((c) => c.client_id)).toEqual([
			'sandbox-rw',
			'sandbox-ro',
			'sandbox-short'
		]);
		const byId = Object.fromEntries(builtinClients().map((c) => [c.client_id, c]));
		expect(byId['sandbox-rw']).toMatchObject({
			default_scope: 'read write',
			client_secret: 'sandbox-rw-secret'
		});
		expect(byId['sandbox-ro']).toMatchObject({
			default_scope: 'read',
			client_secret: 'sandbox-ro-secret'
		});
		expect(byId['sandbox-short']).toMatchObject({
			default_scope: 'read write',
			access_ttl: 5,
			client_secret: 'sandbox-short-secret'
		});
	});
});
