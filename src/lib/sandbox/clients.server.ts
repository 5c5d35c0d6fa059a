/**
 * Client registrations of the sandbox (the service's API docs §2.1) and the redirect-URI rule:
 * RFC 6749 §3.1.2.3, the redirect_uri must match a registered one exactly (simple string comparison,
 * RFC 3986 §6.2.1).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import {
	SANDBOX_CLIENT_SECRETS,
	type BuiltinClientId,
	type SandboxClient,
	type SandboxConfig,
	type SandboxScope
} from './sandbox-config.server';

/** The paths the built-in clients may redirect to, on the sandbox's own origin(s). */
const BUILTIN_REDIRECT_PATHS = ['/callback', '/sandbox/landing'] as const;

export interface BuiltinClientInfo {
	client_id: string;
	client_secret: string;
	name: string;
	default_scope: SandboxScope;
	access_ttl?: number;
}

const BUILTINS: {
	client_id: BuiltinClientId;
	name: string;
	default_scope: SandboxScope;
	access_ttl?: number;
}[] = [
	{ client_id: 'sandbox-rw', name: 'Sandbox playground (read/write)', default_scope: 'read write' },
	{ client_id: 'sandbox-ro', name: 'Sandbox playground (read only)', default_scope: 'read' },
	{
		client_id: 'sandbox-short',
		name: 'Sandbox playground (5-second tokens)',
		default_scope: 'read write',
		access_ttl: 5
	}
];

/** The built-in registrations, with their (public) secrets. */
export function builtinClients(): BuiltinClientInfo[] {
	return BUILTINS.map((c) => ({ ...c, client_secret: SANDBOX_CLIENT_SECRETS[c.client_id] }));
}

function builtinRegistrations(): SandboxClient[] {
	return builtinClients().map((c) => ({ ...c, redirect_uris: [], builtin: true }));
}

/** Every registration: the built-ins first, then SANDBOX_CLIENTS. */
function allClients(settings: SandboxConfig): SandboxClient[] {
	return [...builtinRegistrations(), ...settings.extraClients];
}

export function findClient(
	settings: SandboxConfig,
	client_id: string | null | undefined
): SandboxClient | undefined {
	if (!client_id) return undefined;
	return allClients(settings).find((c) => c.client_id === client_id);
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/** An origin and, when it is a loopback one, its twins on the same scheme and port. */
export function originTwins(origin: string): string[] {
	let url: URL;
	try {
		url = new URL(origin);
	} catch {
		return [];
	}
	if (!LOOPBACK.includes(url.hostname)) return [url.origin];
	const port = url.port ? `:${url.port}` : '';
	return LOOPBACK.map((host) => `${url.protocol}//${host}${port}`);
}

/**
 * The redirect URIs registered for a client. The built-ins are registered for the playground's
 * `/callback` and the sandbox's `/sandbox/landing`, on the request's origin, its loopback twins and
 * the ORIGIN variable.
 */
export function registeredRedirectUris(
	settings: SandboxConfig,
	client: SandboxClient,
	requestOrigin: string
): string[] {
	if (!client.builtin) return client.redirect_uris;
	const envOrigin = settings.origin;
	const origins = new Set([
		...originTwins(requestOrigin),
		...(envOrigin ? originTwins(envOrigin) : [])
	]);
	return [...origins].flatMap((o) => BUILTIN_REDIRECT_PATHS.map((p) => o + p));
}

/**
 * The redirect URIs registered for a client id, as the consent page checks them for a request on
 * `requestOrigin`; undefined for a client id it does not know. The one thing the playground may
 * read of the registrations (the server hook hands it over), to name a near miss.
 */
export function redirectUrisOf(
	settings: SandboxConfig,
	client_id: string,
	requestOrigin: string
): string[] | undefined {
	const client = findClient(settings, client_id);
	return client && registeredRedirectUris(settings, client, requestOrigin);
}

/** RFC 6749 §3.1.2.3: exact string match against a registered redirect URI. */
export function redirectUriMatches(
	settings: SandboxConfig,
	client: SandboxClient,
	redirect_uri: string,
	requestOrigin: string
): boolean {
	return registeredRedirectUris(settings, client, requestOrigin).includes(redirect_uri);
}

function digest(text: string): Buffer {
	return createHash('sha256').update(text, 'utf8').digest();
}

/** RFC 6749 §2.3.1: the client's password. Compares in constant time. */
export function authenticateClient(
	settings: SandboxConfig,
	client_id: string,
	client_secret: string
): SandboxClient | undefined {
	const client = findClient(settings, client_id);
	if (!client) return undefined;
	return timingSafeEqual(digest(client.client_secret), digest(client_secret)) ? client : undefined;
}

/** The access-token lifetime for a client: its own access_ttl, or SANDBOX_ACCESS_TTL. */
export function accessTtlFor(settings: SandboxConfig, client: SandboxClient): number {
	return client.access_ttl ?? settings.accessTtl;
}

/** The rate limits for a client: its own overrides, or the SANDBOX_ZONE*_LIMIT values. */
export function limitsFor(
	settings: SandboxConfig,
	client: SandboxClient | undefined
): { zone1: number; zone2: number } {
	return {
		zone1: client?.zone1_limit ?? settings.zone1Limit,
		zone2: client?.zone2_limit ?? settings.zone2Limit
	};
}
