import { availableParallelism } from 'node:os';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, parseConfig, variables } from '$lib/config.server.js';
import { configPage, configRows, PAGE } from '../../scripts/config-docs.js';

interface Row {
	names: string[];
	default: string;
	meaning: string;
}

/** The rows of the Configuration table (docs/configuration.md). */
function documentedRows(): Row[] {
	return readFileSync('docs/configuration.md', 'utf8')
		.split('\n')
		.filter((line) => line.startsWith('| `'))
		.map((line) => {
			const [names = '', dflt = '', meaning = ''] = line
				.slice(1, -1)
				.split(' | ')
				.map((cell) => cell.trim());
			return {
				names: [...names.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!),
				default: dflt,
				meaning
			};
		});
}

/** A variable's default as docs/configuration.md writes it: in words when it depends on something else. */
function documentedDefault(name: string): string {
	const schema = variables.shape[name as keyof typeof variables.shape];
	const words = schema.meta()?.default;
	if (typeof words === 'string') return words;
	const value: unknown = schema.parse(undefined);
	const unset = value === undefined || (Array.isArray(value) && value.length === 0);
	return unset ? 'unset' : `\`${String(value)}\``;
}

describe('the Configuration table in docs/configuration.md', () => {
	const rows = documentedRows();
	// Variables only the tests read (the e2e browser) are marked so in docs/configuration.md, and the server
	// does not read them.
	const testsOnly = rows.filter((r) => r.meaning.endsWith('(tests only)'));
	const server = rows.filter((r) => !testsOnly.includes(r));

	test('is what scripts/config-docs.js makes of the schema (run it with --write when this fails)', () => {
		expect(readFileSync(PAGE, 'utf8')).toBe(configPage());
	});

	test('a variable without words in its schema stops the page from being made', () => {
		expect(() => configRows({ X: z.string().optional() })).toThrow(/X has no description/);
	});

	test('lists the same variables as the configuration schema', () => {
		expect(rows.length).toBeGreaterThan(20);
		expect(server.flatMap((r) => r.names).sort()).toEqual(Object.keys(variables.shape).sort());
		expect(testsOnly.flatMap((r) => r.names)).toEqual(['CHROMIUM_PATH']);
	});

	test('gives each variable the default the schema has', () => {
		for (const row of server)
			for (const name of row.names)
				expect([name, row.default]).toEqual([name, documentedDefault(name)]);
	});
});

describe('parseConfig', () => {
	test('an empty environment gives the documented defaults', () => {
		const c = parseConfig({});
		expect(c).toMatchObject({
			host: '127.0.0.1',
			port: 5173,
			bodySizeLimit: '65536',
			policy: { mode: 'local', allowedHosts: [] },
			limits: {
				connectTimeoutMs: 5000,
				totalTimeoutMs: 15000,
				maxResponseBytes: 1048576,
				maxRequestBytes: 65536
			},
			rateLimit: { limit: 0, windowS: 60 },
			maxInFlight: 0,
			servedHosts: [],
			presets: [],
			log: true,
			sandbox: { enabled: true, accessTtl: 3600, extraClients: [] }
		});
		expect(c.origin).toBeUndefined();
		expect(c.sessionKeys).toBeUndefined();
	});

	test('a blank value counts as unset', () => {
		expect(parseConfig({ PORT: '', PLAYGROUND_CONNECT_TIMEOUT_MS: ' ', HOST: '' })).toMatchObject({
			host: '127.0.0.1',
			port: 5173,
			limits: { connectTimeoutMs: 5000 }
		});
	});

	test('values that depend on others', () => {
		expect(parseConfig({ PLAYGROUND_MAX_REQUEST_BYTES: '1000' }).bodySizeLimit).toBe('1000');
		const hosted = { HOST: '0.0.0.0', ORIGIN: 'https://pg.example' };
		expect(parseConfig(hosted).policy.mode).toBe('hosted');
		expect(parseConfig(hosted).rateLimit.limit).toBe(60);
		const [now, before] = [
			Buffer.alloc(32, 1).toString('base64'),
			Buffer.alloc(32, 2).toString('base64url')
		];
		expect(parseConfig({ PLAYGROUND_SESSION_KEY: ` ${now} , ${before} ` }).sessionKeys).toEqual([
			now,
			before
		]);
		expect(parseConfig({ PLAYGROUND_LOG: 'off' }).log).toBe(false);
		expect(parseConfig({ ORIGIN: 'https://p.example/x' }).sandbox.origin).toBe('https://p.example');
	});

	test('a bad value is an error that names the variable and the value', () => {
		expect(() => parseConfig({ PORT: 'http' })).toThrow(
			'PORT must be a port number (0 to 65535), got "http"'
		);
		expect(() => parseConfig({ PLAYGROUND_TOTAL_TIMEOUT_MS: '1.5' })).toThrow(
			'PLAYGROUND_TOTAL_TIMEOUT_MS must be a whole number ≥ 1, got "1.5"'
		);
	});

	test('every bad value is named, in one error', () => {
		let error: unknown;
		try {
			parseConfig({ PORT: '-1', PLAYGROUND_MODE: 'public', SANDBOX_CODE_TTL: '0' });
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(ConfigError);
		const message = (error as ConfigError).message;
		expect(message).toMatch(/^the configuration has 3 problems:\n {2}- PORT /);
		expect(message).toContain('\n  - PLAYGROUND_MODE must be "local" or "hosted", not "public".');
		expect(message).toContain('\n  - SANDBOX_CODE_TTL must be a positive whole number');
	});

	test('PLAYGROUND_PRESETS and SANDBOX_CLIENTS are read by one loader: inline JSON or a file', () => {
		const dir = mkdtempSync(join(tmpdir(), 'config-'));
		const file = join(dir, 'presets.json');
		writeFileSync(file, JSON.stringify({ name: 'one' }));
		expect(parseConfig({ PLAYGROUND_PRESETS: file }).presets).toEqual([{ name: 'one' }]);
		expect(parseConfig({ PLAYGROUND_PRESETS: ' [{"name":"a"},{"name":"b"}] ' }).presets).toEqual([
			{ name: 'a' },
			{ name: 'b' }
		]);
		for (const name of ['PLAYGROUND_PRESETS', 'SANDBOX_CLIENTS']) {
			expect(() => parseConfig({ [name]: '{oops' })).toThrow(
				new RegExp(`^${name} \\(inline JSON\\): not valid JSON: `)
			);
			expect(() => parseConfig({ [name]: join(dir, 'none.json') })).toThrow(
				`${name} (file ${JSON.stringify(join(dir, 'none.json'))}): the file cannot be read (ENOENT)`
			);
		}
	});

	test('REDIS_URL: a redis:// or rediss:// URL, never repeated in the error (it may hold a password)', () => {
		expect(parseConfig({}).store).toEqual({});
		expect(parseConfig({ REDIS_URL: ' redis://127.0.0.1:6379 ' }).store).toEqual({
			redisUrl: 'redis://127.0.0.1:6379'
		});
		expect(parseConfig({ REDIS_URL: 'rediss://u:p@valkey.internal:6380/2' }).store.redisUrl).toBe(
			'rediss://u:p@valkey.internal:6380/2'
		);
		for (const bad of ['http://pw-secret@x', 'redis://', 'not a url pw-secret'])
			expect(() => parseConfig({ REDIS_URL: bad })).toThrow(
				expect.objectContaining({
					message: expect.not.stringContaining('pw-secret') as unknown as string
				})
			);
		expect(() => parseConfig({ REDIS_URL: 'http://x' })).toThrow(/^REDIS_URL must be a redis:/);
	});

	test('PLAYGROUND_STORE_UNSAFE: unset, or "accept"; anything else is refused, naming it', () => {
		expect(parseConfig({}).store.unsafe).toBeUndefined();
		expect(parseConfig({ PLAYGROUND_STORE_UNSAFE: ' Accept ' }).store.unsafe).toBe('accept');
		expect(() => parseConfig({ PLAYGROUND_STORE_UNSAFE: 'yes' })).toThrow(
			/^PLAYGROUND_STORE_UNSAFE must be "accept" or unset, not "yes"/
		);
	});

	test('PLAYGROUND_WORKERS: 1 by default, a count or "auto", and more than one only with REDIS_URL', () => {
		const redis = { REDIS_URL: 'redis://127.0.0.1:6379' };
		expect(parseConfig({}).workers).toBe(1);
		expect(parseConfig({ PLAYGROUND_WORKERS: '3', ...redis }).workers).toBe(3);
		expect(parseConfig({ PLAYGROUND_WORKERS: 'AUTO', ...redis }).workers).toBe(
			availableParallelism()
		);
		expect(parseConfig({ PLAYGROUND_WORKERS: '1' }).workers).toBe(1);
		expect(() => parseConfig({ PLAYGROUND_WORKERS: '0' })).toThrow(
			/^PLAYGROUND_WORKERS must be a whole number ≥ 1 or "auto", got "0"/
		);
		expect(() => parseConfig({ PLAYGROUND_WORKERS: '2' })).toThrow(
			/PLAYGROUND_WORKERS is 2, and more than one worker needs REDIS_URL/
		);
	});
});
