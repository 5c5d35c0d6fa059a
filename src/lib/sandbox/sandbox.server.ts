/**
 * The built-in sandbox as one object, built by the composition root (src/lib/app.server.ts) from
 * the app's base: its settings and mode, the store of codes, grants, consent decisions and demo
 * data, the zone and grant rate limits, and the key it signs with. Every sandbox function that needs
 * one of these takes the sandbox, and the routes under src/routes/sandbox take it from
 * `event.locals.app.sandbox`; nothing of it is module state, so two sandboxes built from two
 * configurations share nothing.
 */
import { error } from '@sveltejs/kit';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Base, Clock } from '$lib/base.server';
import type { Config } from '$lib/config.server.js';
import { derivedKey } from '$lib/keys.server';
import type { SandboxConfig } from './sandbox-config.server';
import { grantWindow } from './authorize.server';
import { GrantStore } from './grants.server';
import { MemoryStore, type SandboxStore } from './store.server';
import { RateLimiter } from './zone-limits.server';

export interface Sandbox extends Base {
	/** The sandbox's part of the configuration (lifetimes, limits, SANDBOX_CLIENTS). */
	readonly settings: SandboxConfig;
	/** PLAYGROUND_MODE: in hosted mode demo data and budgets are kept per grant, not per client. */
	readonly mode: Config['policy']['mode'];
	/** The store the configuration names, made on first use (the Redis store is loaded only then). */
	store(): Promise<SandboxStore>;
	/** The reader API's zone counters (zone-limits.server.ts). */
	readonly limiter: RateLimiter;
	/** The signing key of the sandbox's codes and tokens (signing.server.ts), imported on first use. */
	signingKey(): Promise<CryptoKey>;
	/** Hosted mode's count of grants per client address (authorize.server.ts), made on first use. */
	grantLimiter(): Promise<RateLimiterAbstract>;
}

/** The part of a sandbox that signs and checks its codes and tokens. */
export type Signer = Pick<Sandbox, 'signingKey' | 'clock'>;

/** The signing key's purpose, part of the key: changing it voids every code and token. */
const SIGNING_PURPOSE = 'sandbox signing key v1';

async function openStore(redis: Base['redis'], clock: Clock): Promise<SandboxStore> {
	const client = await redis;
	if (!client) return new MemoryStore(new GrantStore(clock), clock);
	const { RedisStore } = await import('./redis-store.server');
	return new RedisStore(client, clock);
}

/** Builds the sandbox of one app from its base. */
export function createSandbox(base: Base): Sandbox {
	let store: Promise<SandboxStore> | undefined;
	// Imported once: jose would otherwise import the raw key into WebCrypto on every sign and verify.
	let key: Promise<CryptoKey> | undefined;
	let grants: Promise<RateLimiterAbstract> | undefined;
	const redis = async () => base.redis;
	return {
		...base,
		settings: base.config.sandbox,
		mode: base.config.policy.mode,
		store: () => (store ??= openStore(base.redis, base.clock)),
		limiter: new RateLimiter(redis),
		signingKey: () =>
			(key ??= crypto.subtle.importKey(
				'raw',
				derivedKey(base.keys, SIGNING_PURPOSE) as Uint8Array<ArrayBuffer>,
				{ name: 'HMAC', hash: 'SHA-256' },
				false,
				['sign', 'verify']
			)),
		grantLimiter: () => (grants ??= redis().then(grantWindow))
	};
}

/**
 * The app's sandbox, for a route under /sandbox. The server hook already answers 404 there when the
 * sandbox is off (SANDBOX=off), so the refusal here is only a second guard.
 */
export function sandboxOf(locals: { app: { sandbox?: Sandbox } }): Sandbox {
	const { sandbox } = locals.app;
	if (!sandbox) error(404, 'The built-in sandbox is turned off (SANDBOX=off).');
	return sandbox;
}
