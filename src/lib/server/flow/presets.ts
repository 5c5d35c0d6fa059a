/**
 * Named setups: the built-in sandbox clients (when the sandbox is on) and those configured in
 * PLAYGROUND_PRESETS (inline JSON or a file path). A preset may hold a client secret: it stays on the
 * server, and choosing the preset seals it into the session. `/?preset=NAME` opens one. config.js
 * loads the entries; they are checked here, against the setup schema, when the app is built
 * (`createPresets`, called by the composition root at start, so a bad entry stops the start).
 *
 * The playground does not import the sandbox: the composition root (app.server.ts), which knows
 * both, hands the sandbox's built-in registrations over when it builds the app.
 */
import { z } from 'zod';
import { endpoints, presetShape, setupWith, type Setup } from '$lib/oauth/setup';
import { UNCARRIED_DEFAULTS } from '$lib/oauth/setup-fields';
import type { Config } from '$lib/config.server.js';

export interface Preset {
	name: string;
	label: string;
	description: string;
	setup: Omit<Setup, 'redirect_uri'> & { redirect_uri?: string };
	client_secret?: string;
}

/**
 * A PLAYGROUND_PRESETS entry: its name and words, and the setup fields a preset may carry (the table
 * of setup fields, oauth/setup-fields.ts), the client secret after the client id it belongs to.
 */
const { base_url, client_id, ...otherFields } = presetShape;
const presetEntry = z.strictObject({
	name: z
		.string()
		.regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1–64 letters, digits, dots, dashes or underscores'),
	label: z.string().max(80).optional(),
	description: z.string().max(300).optional(),
	base_url,
	client_id,
	client_secret: z.string().max(1024).optional(),
	...otherFields
});

/**
 * The PLAYGROUND_PRESETS entries (as config.js loads them) checked against the setup schema.
 * Throws with a message naming the entry and field on a bad value.
 */
export function presetsFrom(entries: unknown[]): Preset[] {
	const names = new Set<string>();
	return entries.map((entry, i) => {
		const parsed = presetEntry.safeParse(entry);
		if (!parsed.success) {
			const issue = parsed.error.issues[0]!;
			throw new Error(
				`PLAYGROUND_PRESETS entry ${i}: field ${issue.path.join('.') || '(entry)'} ${issue.message}`
			);
		}
		const { name, label, description, client_secret, redirect_uri, ...setup } = parsed.data;
		if (names.has(name))
			throw new Error(`PLAYGROUND_PRESETS entry ${i}: the name "${name}" is used twice`);
		names.add(name);
		return {
			name,
			label: label ?? name,
			description: description ?? `${setup.client_id} at ${setup.base_url}`,
			setup: { ...setup, ...UNCARRIED_DEFAULTS, redirect_uri },
			client_secret
		};
	});
}

/** What the playground needs to know of a sandbox registration to offer it as a preset. */
export interface SandboxClientInfo {
	client_id: string;
	client_secret: string;
	name: string;
	default_scope: 'read' | 'read write';
	access_ttl?: number;
}

/** The redirect URIs the sandbox has registered for a client id on a request origin; undefined for a client it does not know. */
export type SandboxRegistrations = (
	client_id: string,
	origin: string
) => readonly string[] | undefined;

/** An app's presets, and what it knows of its built-in sandbox to offer them. */
export interface Presets {
	/** The built-in sandbox is on (SANDBOX). */
	readonly sandboxEnabled: boolean;
	/** The sandbox's clients first (unless a configured preset takes the name), then the configured ones. */
	list(origin: string): Preset[];
	find(origin: string, name: string): Preset | undefined;
	/**
	 * Whether the setup's consent page is the built-in sandbox's, on this server's `origin`: only
	 * then may the page name the sandbox's own buttons (Authorize, Deny).
	 */
	isSandboxTarget(setup: Setup | null | undefined, origin: string): boolean;
	/**
	 * The redirect URIs the built-in sandbox has registered for the setup's client, when the setup's
	 * consent page is the sandbox's on this `origin` and it knows the client; else undefined.
	 */
	sandboxRedirectUris(
		setup: Setup | null | undefined,
		origin: string
	): readonly string[] | undefined;
}

/**
 * The presets of one app: its configuration's PLAYGROUND_PRESETS, parsed here once (a bad entry
 * throws, so the start fails), and what its sandbox offers (nothing when the sandbox is off).
 */
export function createPresets({
	config,
	sandboxClients = [],
	sandboxRegistrations = () => undefined
}: {
	config: Pick<Config, 'presets' | 'sandbox'>;
	sandboxClients?: readonly SandboxClientInfo[];
	sandboxRegistrations?: SandboxRegistrations;
}): Presets {
	const sandboxEnabled = config.sandbox.enabled;
	const own = presetsFrom(config.presets);
	const taken = new Set(own.map((p) => p.name));
	const isSandboxTarget = (setup: Setup | null | undefined, origin: string) => {
		if (!setup || !sandboxEnabled) return false;
		const auth = endpoints(setup).authorization;
		if (!URL.canParse(auth)) return false;
		const url = new URL(auth);
		return url.origin === origin && url.pathname === '/sandbox/oauth2/auth';
	};
	const list = (origin: string) => [
		...(sandboxEnabled ? sandboxPresets(sandboxClients, origin) : []).filter(
			(p) => !taken.has(p.name)
		),
		...own
	];
	return {
		sandboxEnabled,
		list,
		find: (origin, name) => list(origin).find((p) => p.name === name),
		isSandboxTarget,
		sandboxRedirectUris: (setup, origin) =>
			setup && isSandboxTarget(setup, origin)
				? sandboxRegistrations(setup.client_id, origin)
				: undefined
	};
}

function sandboxPresets(clients: readonly SandboxClientInfo[], origin: string): Preset[] {
	return clients.map((c) => ({
		name: c.client_id,
		label:
			c.client_id === 'sandbox-rw'
				? 'Sandbox (read write)'
				: c.client_id === 'sandbox-ro'
					? 'Sandbox (read only)'
					: c.access_ttl
						? `Sandbox (${c.access_ttl}-second token)`
						: `Sandbox (${c.client_id})`,
		description: `${c.name}: default scope "${c.default_scope}"${c.access_ttl ? `, access token lives ${c.access_ttl} s` : ''}.`,
		setup: setupWith({
			base_url: `${origin}/sandbox`,
			redirect_uri: `${origin}/callback`,
			registered_redirect_uri: `${origin}/callback`,
			client_id: c.client_id,
			scope: c.default_scope
		}),
		client_secret: c.client_secret
	}));
}
