/**
 * Configuration of the sandbox service: lifetimes, rate limits and the client registrations
 * (the seed, §2.1: client id, client secret, redirect address, default scope setting).
 *
 * Everything comes from the environment. `validateSandboxConfig()` is meant for start-up: it throws
 * one Error whose message names the variable, the entry and the field of every bad value.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** The scopes of the seed (§4.1): `read`, or `read write`. */
export type SandboxScope = 'read' | 'read write';

/** The built-in clients' secrets. They are public on purpose: the sandbox is for practice. */
export const SANDBOX_CLIENT_SECRETS = {
	'sandbox-rw': 'sandbox-rw-secret',
	'sandbox-ro': 'sandbox-ro-secret',
	'sandbox-short': 'sandbox-short-secret'
} as const;

export type BuiltinClientId = keyof typeof SANDBOX_CLIENT_SECRETS;

export interface SandboxClient {
	client_id: string;
	client_secret: string;
	name: string;
	/** The registration's scope setting: used when `scope` is empty, and the most it can ever get. */
	default_scope: SandboxScope;
	/** Exact redirect URIs. Built-in clients have none here: theirs follow the request's origin. */
	redirect_uris: string[];
	builtin: boolean;
	access_ttl?: number;
	zone1_limit?: number;
	zone2_limit?: number;
}

export interface SandboxConfig {
	accessTtl: number;
	codeTtl: number;
	refreshTtl: number;
	zone1Limit: number;
	zone2Limit: number;
	limitWindow: number;
	/** Clients from SANDBOX_CLIENTS (the built-ins are in clients.ts). */
	extraClients: SandboxClient[];
	/** The `ORIGIN` variable, normalized, when set and valid. */
	origin?: string;
}

export interface EnvVarDoc {
	name: string;
	default?: string;
	description: string;
}

const DAY = 24 * 60 * 60;

const NUMBER_VARS = [
	{
		name: 'SANDBOX_ACCESS_TTL',
		key: 'accessTtl',
		default: 3600,
		unit: 'seconds',
		description: 'Access-token lifetime in seconds (a client may override it with access_ttl).'
	},
	{
		name: 'SANDBOX_CODE_TTL',
		key: 'codeTtl',
		default: 60,
		unit: 'seconds',
		description: 'Authorization-code lifetime in seconds.'
	},
	{
		name: 'SANDBOX_REFRESH_TTL',
		key: 'refreshTtl',
		default: 30 * DAY,
		unit: 'seconds',
		description: 'Refresh-token lifetime in seconds (each refresh issues a new one).'
	},
	{
		name: 'SANDBOX_ZONE1_LIMIT',
		key: 'zone1Limit',
		default: 100,
		unit: 'requests',
		description: 'Zone 1 (read) API requests allowed per client per window.'
	},
	{
		name: 'SANDBOX_ZONE2_LIMIT',
		key: 'zone2Limit',
		default: 10,
		unit: 'requests',
		description: 'Zone 2 (write) API requests allowed per client per window.'
	},
	{
		name: 'SANDBOX_LIMIT_WINDOW',
		key: 'limitWindow',
		default: 600,
		unit: 'seconds',
		description: 'Length of the rate-limit window in seconds.'
	}
] as const;

/** Every environment variable the sandbox reads, with a one-line description. */
export function sandboxEnvVars(): EnvVarDoc[] {
	return [
		{
			name: 'SANDBOX',
			description: 'Set to `off` to turn the sandbox service off (every /sandbox path answers 404).'
		},
		{
			name: 'SANDBOX_CLIENTS',
			description:
				'More client registrations: inline JSON (starting with `[` or `{`) or the path of a JSON file. Each entry: client_id, client_secret, name?, redirect_uris, default_scope (`read` or `read write`), access_ttl?, zone1_limit?, zone2_limit?.'
		},
		...NUMBER_VARS.map((v) => ({
			name: v.name,
			default: String(v.default),
			description: v.description
		})),
		{
			name: 'ORIGIN',
			description:
				"The public origin; the built-in clients' redirect URIs are registered for it too."
		},
		{
			name: 'PLAYGROUND_SESSION_KEY',
			description:
				"The sandbox's signing key is derived from it, so codes and tokens survive a restart."
		}
	];
}

// ---------------------------------------------------------------------------------------------
// Parsing

const MAX_NUMBER = 10 * 365 * DAY;

function parsePositiveInt(
	name: string,
	raw: string | undefined,
	fallback: number,
	unit: string
): number {
	if (raw === undefined || raw.trim() === '') return fallback;
	const text = raw.trim();
	if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_NUMBER) {
		throw new Error(
			`${name} must be a positive whole number of ${unit} (at most ${MAX_NUMBER}), got ${JSON.stringify(raw)}`
		);
	}
	return Number(text);
}

/** RFC 6749 §3.1.2: an absolute URI, no fragment. The sandbox also wants http or https. */
const redirectUri = z.string().refine(
	(value) => {
		try {
			const url = new URL(value);
			return (url.protocol === 'http:' || url.protocol === 'https:') && !value.includes('#');
		} catch {
			return false;
		}
	},
	{ error: 'must be an absolute http(s) URL without a fragment' }
);

const positiveInt = z
	.int({ error: 'must be a positive whole number' })
	.min(1, { error: 'must be a positive whole number' })
	.max(MAX_NUMBER, { error: `must be at most ${MAX_NUMBER}` });

/** RFC 6749 Appendix A.1/A.2: client_id and client_secret are visible ASCII (VSCHAR). */
const vschar = z
	.string({ error: 'must be a string' })
	.min(1, { error: 'must not be empty' })
	.max(200, { error: 'must be at most 200 characters' })
	.regex(/^[\x20-\x7e]+$/, { error: 'must be printable ASCII' });

const clientEntrySchema = z.strictObject({
	client_id: vschar,
	client_secret: vschar,
	name: z
		.string({ error: 'must be a string' })
		.min(1, { error: 'must not be empty' })
		.max(100, { error: 'must be at most 100 characters' })
		.optional(),
	redirect_uris: z
		.array(redirectUri, { error: 'must be an array of URLs' })
		.min(1, { error: 'must list at least one URL' }),
	default_scope: z.enum(['read', 'read write'], { error: 'must be "read" or "read write"' }),
	access_ttl: positiveInt.optional(),
	zone1_limit: positiveInt.optional(),
	zone2_limit: positiveInt.optional()
});

function formatPath(path: PropertyKey[]): string {
	let out = '';
	for (const part of path)
		out += typeof part === 'number' ? `[${part}]` : out ? `.${String(part)}` : String(part);
	return out;
}

/** Parses the SANDBOX_CLIENTS value (inline JSON or a file path) into client registrations. */
export function parseSandboxClients(raw: string | undefined): SandboxClient[] {
	if (raw === undefined || raw.trim() === '') return [];
	const text = raw.trim();
	let source: string;
	let where: string;
	if (text.startsWith('[') || text.startsWith('{')) {
		source = text;
		where = 'SANDBOX_CLIENTS (inline JSON)';
	} else {
		where = `SANDBOX_CLIENTS (file ${JSON.stringify(text)})`;
		try {
			source = readFileSync(text, 'utf8');
		} catch (e) {
			throw new Error(`${where}: cannot read the file: ${(e as Error).message}`, {
				cause: e
			});
		}
	}
	let data: unknown;
	try {
		data = JSON.parse(source);
	} catch (e) {
		throw new Error(`${where}: not valid JSON: ${(e as Error).message}`, { cause: e });
	}
	const list = Array.isArray(data) ? data : [data];
	const problems: string[] = [];
	const clients: SandboxClient[] = [];
	const entryIndex: number[] = [];
	list.forEach((entry, index) => {
		const id =
			entry &&
			typeof entry === 'object' &&
			typeof (entry as { client_id?: unknown }).client_id === 'string'
				? ` (client_id ${JSON.stringify((entry as { client_id: string }).client_id)})`
				: '';
		const label = `${where}: entry ${index}${id}`;
		if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
			problems.push(`${label}: must be an object`);
			return;
		}
		const result = clientEntrySchema.safeParse(entry);
		if (!result.success) {
			for (const issue of result.error.issues) {
				if (issue.code === 'unrecognized_keys') {
					problems.push(
						`${label}: unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`
					);
				} else if (issue.code === 'invalid_type' && issue.input === undefined) {
					problems.push(`${label}: field ${formatPath(issue.path)} is required`);
				} else {
					problems.push(`${label}: field ${formatPath(issue.path)} ${issue.message}`);
				}
			}
			return;
		}
		const c = result.data;
		entryIndex.push(index);
		clients.push({
			client_id: c.client_id,
			client_secret: c.client_secret,
			name: c.name ?? c.client_id,
			default_scope: c.default_scope,
			redirect_uris: c.redirect_uris,
			builtin: false,
			...(c.access_ttl !== undefined && { access_ttl: c.access_ttl }),
			...(c.zone1_limit !== undefined && { zone1_limit: c.zone1_limit }),
			...(c.zone2_limit !== undefined && { zone2_limit: c.zone2_limit })
		});
	});
	const seen = new Set<string>();
	for (const [index, c] of clients.entries()) {
		const label = `${where}: entry ${entryIndex[index]} (client_id ${JSON.stringify(c.client_id)})`;
		if (Object.hasOwn(SANDBOX_CLIENT_SECRETS, c.client_id))
			problems.push(`${label}: field client_id is the id of a built-in client`);
		else if (seen.has(c.client_id)) problems.push(`${label}: field client_id is registered twice`);
		seen.add(c.client_id);
	}
	if (problems.length) throw new Error(problems.join('\n'));
	return clients;
}

function parseOrigin(raw: string | undefined): string | undefined {
	if (!raw || !raw.trim()) return undefined;
	try {
		const url = new URL(raw.trim());
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
	} catch {
		return undefined;
	}
}

/** Reads the whole sandbox configuration from an environment. Throws on a bad value. */
export function loadSandboxConfig(
	env: Record<string, string | undefined> = process.env
): SandboxConfig {
	const problems: string[] = [];
	const numbers: Record<string, number> = {};
	for (const v of NUMBER_VARS) {
		try {
			numbers[v.key] = parsePositiveInt(v.name, env[v.name], v.default, v.unit);
		} catch (e) {
			problems.push((e as Error).message);
		}
	}
	let extraClients: SandboxClient[] = [];
	try {
		extraClients = parseSandboxClients(env.SANDBOX_CLIENTS);
	} catch (e) {
		problems.push((e as Error).message);
	}
	if (problems.length)
		throw new Error(
			`Sandbox configuration is invalid:\n${problems.map((p) => `  - ${p.replace(/\n/g, '\n  - ')}`).join('\n')}`
		);
	const origin = parseOrigin(env.ORIGIN);
	return {
		accessTtl: numbers.accessTtl!,
		codeTtl: numbers.codeTtl!,
		refreshTtl: numbers.refreshTtl!,
		zone1Limit: numbers.zone1Limit!,
		zone2Limit: numbers.zone2Limit!,
		limitWindow: numbers.limitWindow!,
		extraClients,
		...(origin && { origin })
	};
}

const WATCHED = ['SANDBOX_CLIENTS', 'ORIGIN', ...NUMBER_VARS.map((v) => v.name)];
let cache: { signature: string; config: SandboxConfig } | undefined;

/** The current configuration, read from process.env and kept until one of its variables changes. */
export function sandboxConfig(): SandboxConfig {
	const signature = WATCHED.map((name) => `${name}=${process.env[name] ?? ''}`).join('\n');
	if (cache?.signature !== signature) cache = { signature, config: loadSandboxConfig(process.env) };
	return cache.config;
}

/** For start-up: throws an Error naming every bad value (variable, entry, field). */
export function validateSandboxConfig(): void {
	cache = undefined;
	sandboxConfig();
}
