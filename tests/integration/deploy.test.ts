/**
 * The deployment files, held to what runs. These machines have no Docker engine, so the image is
 * not built here; instead its runtime file tree is made from the Dockerfile's own COPY lines (the
 * build, the scripts, and the production dependencies of package-lock.json only, as
 * `npm prune --omit=dev` leaves them), and its CMD and HEALTHCHECK run in that tree as an
 * unprivileged user, with the image's ENV: the sandbox flow and the playground page work there.
 * compose.yaml is read: both instances share one configuration that the server accepts, Valkey
 * gets the persistence flags the store suites give redis-server, and the proxy's upstream and
 * X-Forwarded-For match the instances and their XFF_DEPTH.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { isTrustedProxy, parseConfig } from '../../src/lib/config.server.js';
import { freePort, TEST_SESSION_KEY, type TestServer } from '../helpers/server';
import { PERSISTENCE_FLAGS } from '../helpers/redis';
import { tokensFor } from './sandbox-helpers';

interface Dockerfile {
	buildRuns: string[];
	env: Record<string, string>;
	copies: { from: string; to: string; chown?: string }[];
	user?: string;
	healthcheck: string[];
	cmd: string[];
}

/** The Dockerfile's instructions that matter here, by stage (the last stage is the image). */
function readDockerfile(): Dockerfile {
	const lines = readFileSync('Dockerfile', 'utf8')
		.split('\n')
		.map((l) => l.trim())
		.filter((l) => l && !l.startsWith('#'));
	const stages: string[][] = [];
	for (const line of lines) {
		if (line.startsWith('FROM ')) stages.push([]);
		stages.at(-1)!.push(line);
	}
	expect(stages.length).toBe(2);
	const [build, image] = stages as [string[], string[]];
	const out: Dockerfile = { buildRuns: [], env: {}, copies: [], healthcheck: [], cmd: [] };
	for (const line of build) if (line.startsWith('RUN ')) out.buildRuns.push(line.slice(4));
	for (const line of image) {
		if (line.startsWith('ENV '))
			for (const m of line.slice(4).matchAll(/(\w+)=(\S+)/g)) out.env[m[1]!] = m[2]!;
		const copy = /^COPY --from=build(?: --chown=(\S+))? \/app\/(\S+) (\S+)$/.exec(line);
		if (copy) out.copies.push({ chown: copy[1], from: copy[2]!, to: copy[3]! });
		else expect(line.startsWith('COPY'), `an unexpected COPY: ${line}`).toBe(false);
		if (line.startsWith('USER ')) out.user = line.slice(5);
		const health = /^HEALTHCHECK .*CMD (\[.*\])$/.exec(line);
		if (health) out.healthcheck = JSON.parse(health[1]!) as string[];
		if (line.startsWith('CMD ')) out.cmd = JSON.parse(line.slice(4)) as string[];
	}
	return out;
}

/** Top-level package folders that `npm prune --omit=dev` keeps: none marked dev in the lock file. */
function productionPackages(): string[] {
	const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
		packages: Record<string, { dev?: boolean; devOptional?: boolean; optional?: boolean }>;
	};
	return Object.entries(lock.packages)
		.filter(([path, p]) => path.startsWith('node_modules/') && !p.dev && !p.devOptional)
		.map(([path]) => path)
		.filter((path) => !path.slice('node_modules/'.length).includes('/node_modules/'))
		.filter((path) => {
			try {
				readFileSync(join(path, 'package.json'));
				return true; // an optional package for another platform is not installed
			} catch {
				return false;
			}
		});
}

/** Copies a file or folder as hard links (fast, and the same bytes). */
function link(from: string, to: string): void {
	const r = spawnSync('cp', ['-al', from, to]);
	expect(r.status, r.stderr.toString()).toBe(0);
}

const docker = readDockerfile();
let root: string;
let srv: TestServer;
let proc: ChildProcess | undefined;

describe('the image', () => {
	beforeAll(async () => {
		root = mkdtempSync(join(tmpdir(), 'playground-image-'));
		for (const c of docker.copies) {
			const to = join(root, c.to);
			if (c.from === 'node_modules') {
				for (const pkg of productionPackages()) {
					mkdirSync(dirname(join(root, pkg)), { recursive: true });
					link(pkg, join(root, pkg));
				}
				continue;
			}
			mkdirSync(dirname(to), { recursive: true });
			link(c.from, to);
		}
		// The unprivileged user must be able to read the tree (and nothing more).
		chmodSync(root, 0o755);
		const port = await freePort();
		const origin = `http://127.0.0.1:${port}`;
		const asUser =
			process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : ({} as Record<string, never>);
		proc = spawn(
			docker.cmd[0] === 'node' ? process.execPath : docker.cmd[0]!,
			docker.cmd.slice(1),
			{
				cwd: root,
				...asUser,
				env: {
					PATH: process.env.PATH,
					...docker.env,
					// On loopback here (the image listens on every interface), still in hosted mode as there.
					HOST: '127.0.0.1',
					PORT: String(port),
					PLAYGROUND_MODE: 'hosted',
					ORIGIN: origin,
					PLAYGROUND_SESSION_KEY: TEST_SESSION_KEY
				},
				stdio: ['ignore', 'pipe', 'pipe']
			}
		);
		let logs = '';
		proc.stdout!.on('data', (d: Buffer) => (logs += d.toString()));
		proc.stderr!.on('data', (d: Buffer) => (logs += d.toString()));
		srv = {
			url: origin,
			port,
			logs: () => logs,
			proc,
			stop: async () => {}
		};
		// Listening when it says so (or it ended, and said why).
		await new Promise<void>((ok, fail) => {
			const check = () => {
				if (logs.includes('OAuth playground:')) ok();
			};
			proc!.stdout!.on('data', check);
			proc!.once('exit', (code) => fail(new Error(`the server ended (${code}): ${logs}`)));
			check();
		});
	});
	afterAll(async () => {
		if (proc?.pid && proc.exitCode === null) {
			const exited = new Promise((ok) => proc!.once('exit', ok));
			process.kill(proc.pid, 'SIGTERM');
			await exited;
		}
		if (root) rmSync(root, { recursive: true, force: true });
	});

	test('is built as the tests build, pruned to production dependencies, and runs as node', () => {
		expect(docker.buildRuns).toContain('npm install');
		expect(docker.buildRuns).toContain('npm run build && npm prune --omit=dev');
		expect(JSON.parse(readFileSync('package.json', 'utf8')).scripts.build).toBe('vite build');
		expect(docker.user).toBe('node');
		expect(docker.copies.every((c) => c.chown === 'node:node')).toBe(true);
		expect(docker.cmd).toEqual(['node', 'scripts/serve.js']);
		expect(docker.healthcheck).toEqual(['node', 'scripts/healthcheck.js']);
		expect(readFileSync('.dockerignore', 'utf8').split('\n')).toContain('.session-key');
	});

	test('its file tree serves the sandbox flow and the playground page, as an unprivileged user', async () => {
		const tokens = await tokensFor(srv);
		expect(tokens.token_type).toBe('Bearer');
		const page = await fetch(`${srv.url}/`, { headers: { accept: 'text/html' } });
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('Feed-reader OAuth playground');
		expect(srv.logs()).not.toMatch(/Error|EACCES/);
	});

	test('its health check passes while it answers, and fails when nothing does', () => {
		const ok = spawnSync(process.execPath, docker.healthcheck.slice(1), {
			cwd: root,
			env: { PATH: process.env.PATH, HOST: '0.0.0.0', PORT: String(srv.port) }
		});
		expect(ok.status, ok.stderr.toString()).toBe(0);
		const r = spawnSync(process.execPath, docker.healthcheck.slice(1), {
			cwd: root,
			env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '9' }
		});
		expect(r.status).toBe(1);
		expect(r.stderr.toString()).toContain('health check:');
	});
});

describe('compose.yaml', () => {
	const compose = parseYaml(readFileSync('compose.yaml', 'utf8')) as {
		services: Record<
			string,
			{
				command?: string[];
				environment?: Record<string, string>;
				build?: string;
				networks?: Record<string, { ipv4_address?: string }>;
			}
		>;
		networks: Record<string, { ipam: { config: { subnet: string }[] } }>;
	};
	const { services } = compose;
	/** The environment as compose would give it, with the variables a deployer sets. */
	const resolved = (env: Record<string, string>) =>
		Object.fromEntries(
			Object.entries(env).map(([k, v]) => [
				k,
				String(v)
					.replace(/\$\{PUBLIC_ORIGIN:-([^}]*)\}/, '$1')
					.replace(/\$\{PLAYGROUND_SESSION_KEY:\?[^}]*\}/, TEST_SESSION_KEY)
					.replace(/\$\{PLAYGROUND_ALLOWED_HOSTS:-\}/, '')
			])
		);

	test('two instances of the image with one configuration the server accepts', () => {
		const a = services['playground-a']!;
		const b = services['playground-b']!;
		expect(a.build).toBe('.');
		expect(b).toEqual(a);
		const env = resolved(a.environment!);
		const config = parseConfig({ ...docker.env, ...env });
		expect(config.policy.mode).toBe('hosted');
		expect(config.store.redisUrl).toBe('redis://valkey:6379');
		expect(Object.keys(services)).toContain('valkey');
		expect(config.proxy).toMatchObject({ addressHeader: 'x-forwarded-for', xffDepth: '1' });
		// The address header is believed from the proxy's fixed address only, which is on the subnet.
		const proxyAddress = services.proxy!.networks!.default!.ipv4_address!;
		expect(config.proxy.trusted).toEqual([`${proxyAddress}/32`]);
		const [subnet] = compose.networks.default!.ipam.config;
		expect(isTrustedProxy(proxyAddress, [subnet!.subnet])).toBe(true);
		expect(isTrustedProxy('172.30.80.11', config.proxy.trusted)).toBe(false);
		expect(a.environment!.PLAYGROUND_SESSION_KEY).toMatch(/^\$\{PLAYGROUND_SESSION_KEY:\?/);
	});

	test('Valkey keeps an append-only file, as the store suites run redis-server', () => {
		expect(services.valkey!.command).toEqual(['valkey-server', ...PERSISTENCE_FLAGS]);
	});

	test("the proxy balances over both instances on the image's port and appends the visitor's address", () => {
		const conf = readFileSync('deploy/nginx.conf', 'utf8');
		const upstream = [...conf.matchAll(/^\s*server (\S+);/gm)].map((m) => m[1]);
		expect(upstream).toEqual([
			`playground-a:${docker.env.PORT}`,
			`playground-b:${docker.env.PORT}`
		]);
		// XFF_DEPTH=1 reads the last entry, the one this proxy appends.
		expect(conf).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
		expect(conf).toMatch(/proxy_set_header Host \$http_host;/);
	});
});
